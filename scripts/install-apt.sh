#!/usr/bin/env bash
# Installs the Debian packages cipherbench builds against, when they are missing.
# Quick when everything is present (one dpkg query per package, no network).
set -euo pipefail
pkgs=(g++ make cmake libntl-dev libgmp-dev libssl-dev googletest libgtest-dev nlohmann-json3-dev libcli11-dev libxxhash-dev python3-venv)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "cipherbench: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo
  else
    echo "cipherbench: these packages are missing and this user is not root: ${missing[*]}" >&2
    echo "  run as root:  apt-get install -y ${missing[*]}" >&2
    echo "  (or use the conda route: conda env create -f environment.yml)" >&2
    exit 1
  fi
else SUDO=""; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}"
