#!/usr/bin/env bash
# get-estimator.sh DIR COMMIT SOURCE: puts the lattice estimator
# (https://github.com/malb/lattice-estimator, on no package registry) at COMMIT into DIR,
# where sage/cbparams/estimator.py finds it with no configuration. SOURCE is a local
# checkout (or bare git directory) that has COMMIT, or the upstream URL to clone.
# Does nothing when DIR is already at COMMIT. Called by `make estimator`.
set -euo pipefail
dir=$1 commit=$2 src=$3

if [ -d "$dir/.git" ] && [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" = "$commit" ]; then
  echo "lattice estimator: $dir is at the pinned commit ${commit:0:12}"
  exit 0
fi
if [ -e "$dir" ]; then
  echo "lattice estimator: $dir exists but is not at the pinned commit ${commit:0:12}:" \
       "remove it (rm -rf $dir) and run make estimator again" >&2
  exit 1
fi
case "$src" in
  http*://* | git@*) ;;
  *) if [ ! -d "$src" ]; then
       echo "lattice estimator: ESTIMATOR_SRC=$src is not a directory: give a lattice-estimator" \
            "checkout, or leave ESTIMATOR_SRC unset to clone upstream" >&2
       exit 1
     fi ;;
esac
mkdir -p "$(dirname "$dir")"
tmp="$dir.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
git clone --quiet --no-checkout "$src" "$tmp"
if ! git -C "$tmp" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "lattice estimator: $src does not have the pinned commit $commit:" \
       "update that checkout (git fetch) or leave ESTIMATOR_SRC unset to clone upstream" >&2
  exit 1
fi
git -C "$tmp" -c advice.detachedHead=false checkout --quiet --detach "$commit"
mv "$tmp" "$dir"
trap - EXIT
echo "lattice estimator: $dir at ${commit:0:12} (from $src)"
