#!/usr/bin/env bash
# Prints the path of a cargo able to build runners/tfhe (its rustc at least the tfhe
# crate's rust-version), or prints why there is none on stderr and exits 1.
# Looks on PATH, then in ~/.cargo/bin (rustup's default, often not on PATH).
set -u
need=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$(dirname "$0")/../runners/tfhe/Cargo.toml")
cargo=$(command -v cargo || true)
if [ -z "$cargo" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then cargo="$HOME/.cargo/bin/cargo"; fi
if [ -z "$cargo" ]; then
  echo "cargo not found (on PATH or in ~/.cargo/bin); install Rust >= $need with rustup" >&2
  exit 1
fi
rustc="$(dirname "$cargo")/rustc"
[ -x "$rustc" ] || rustc=$(command -v rustc || true)
have=$("$rustc" --version 2>/dev/null | awk '{print $2}')
if [ -z "$have" ]; then
  echo "$cargo found but no rustc beside it or on PATH" >&2
  exit 1
fi
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
  echo "rustc $have ($rustc) is older than $need, which the tfhe crate needs; install a newer Rust with rustup" >&2
  exit 1
fi
echo "$cargo"
