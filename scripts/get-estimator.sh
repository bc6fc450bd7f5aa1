#!/usr/bin/env bash
# get-estimator.sh DIR COMMIT SOURCE: puts the lattice estimator
# (https://github.com/malb/lattice-estimator, on no package registry) at COMMIT into DIR,
# where sage/cbparams/estimator.py finds it with no configuration. SOURCE is the upstream
# URL to clone, or a local git repository that has COMMIT: a checkout, a bare git directory
# (a mirror), or a folder holding exactly one of those one level down (the way a mirror
# brought in as <folder>/repo is laid out).
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
# is_repo DIR: DIR itself is a git repository (a work tree's top or a bare git directory),
# not merely a folder inside one.
is_repo() {
  local here top
  here=$(cd "$1" && pwd -P) || return 1
  top=$(cd "$here" && GIT_CEILING_DIRECTORIES="$(dirname "$here")" git rev-parse --show-toplevel 2>/dev/null) ||
    top=$(cd "$here" && GIT_CEILING_DIRECTORIES="$(dirname "$here")" git rev-parse --absolute-git-dir 2>/dev/null) ||
    return 1
  [ "$top" = "$here" ]
}
case "$src" in
  http*://* | git@*) ;;
  *) if [ ! -d "$src" ]; then
       echo "lattice estimator: ESTIMATOR_SRC=$src is not a directory: give a lattice-estimator" \
            "checkout or bare mirror, or leave ESTIMATOR_SRC unset to clone upstream" >&2
       exit 1
     fi
     if ! is_repo "$src"; then
       inner=()
       for d in "$src"/*/; do
         [ -d "$d" ] && is_repo "$d" && inner+=("${d%/}")
       done
       if [ "${#inner[@]}" -ne 1 ]; then
         echo "lattice estimator: ESTIMATOR_SRC=$src is not a git repository and holds" \
              "${#inner[@]} git repositories one level down (1 needed): give a lattice-estimator" \
              "checkout or bare mirror" >&2
         exit 1
       fi
       echo "lattice estimator: using the git repository ${inner[0]} inside $src"
       src=${inner[0]}
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
