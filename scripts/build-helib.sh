#!/usr/bin/env bash
# Builds the pinned HElib (v2.3.0) against NTL 11.5.1 and GMP into .deps/ (ignored by git),
# for one NTL route:
#   NTL_ROUTE=debian  Debian's libntl-dev (generic x86-64 build of NTL 11.5.1)
#   NTL_ROUTE=native  NTL 11.5.1 built here from source with NATIVE=on, configured as
#                     HElib's own PACKAGE_BUILD does (HElib v2.3.0 dependencies/ntl/CMakeLists.txt:
#                     SHARED=on NTL_GMP_LIP=on NTL_THREADS=on NTL_THREAD_BOOST=on, and NTL's
#                     default NATIVE=on, ntl v11.5.1 src/DoConfig; TUNE stays NTL's default,
#                     generic, so no tuning wizard runs)
# Sources: HELIB_SRC=<checkout> / NTL_SRC=<checkout> when given (must be at the pinned tags),
# else `git clone --branch <tag>` of upstream into .deps/src/.
# Output: .deps/helib-<route>/ (install prefix; pass it as -DCB_HELIB_DIR), and in it
# cipherbench-build.json recording the route, versions, commits and build times.
# Builds run under `nice -n ${NICE:-15}` with ${JOBS:-2} jobs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEPS=${DEPS:-$ROOT/.deps}
NTL_ROUTE=${NTL_ROUTE:-debian}
JOBS=${JOBS:-2}
NICE=${NICE:-15}
HELIB_TAG=v2.3.0
NTL_TAG=v11.5.1
HELIB_URL=https://github.com/homenc/HElib.git
NTL_URL=https://github.com/libntl/ntl.git

case "$NTL_ROUTE" in
  debian|native) ;;
  *) echo "build-helib: NTL_ROUTE='$NTL_ROUTE' must be 'debian' or 'native'" >&2; exit 1 ;;
esac
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
  echo "build-helib: JOBS='$JOBS' must be a positive integer" >&2; exit 1
fi
mkdir -p "$DEPS/src"

# Checks that a checkout is at the pinned tag (or clones it), prints its path. A bare git
# directory (a mirror) is cloned at the tag into .deps/src/<name> first, as `make estimator`
# accepts one.
checkout() {  # name given_src tag url
  local name=$1 src=$2 tag=$3 url=$4
  if [ -n "$src" ] && [ "$(git -C "$src" rev-parse --is-bare-repository 2>/dev/null)" = true ]; then
    local work=$DEPS/src/$name
    if [ ! -d "$work/.git" ]; then
      git clone --quiet --branch "$tag" "$src" "$work" >&2 ||
        { echo "build-helib: $name mirror '$src' has no tag $tag" >&2; exit 1; }
    fi
    src=$work
  fi
  if [ -z "$src" ]; then
    src=$DEPS/src/$name
    if [ ! -d "$src/.git" ]; then
      git clone --quiet --depth 1 --branch "$tag" "$url" "$src" >&2
    fi
  fi
  if [ ! -d "$src" ]; then
    echo "build-helib: $name source '$src' is not a directory" >&2; exit 1
  fi
  local want have
  want=$(git -C "$src" rev-parse "$tag^{commit}" 2>/dev/null || true)
  have=$(git -C "$src" rev-parse HEAD 2>/dev/null || true)
  if [ -z "$want" ] || [ "$want" != "$have" ]; then
    echo "build-helib: $name source '$src' is not at tag $tag (HEAD ${have:-unknown})" >&2; exit 1
  fi
  echo "$src"
}

PREFIX=$DEPS/helib-$NTL_ROUTE
# Built already at the pinned tag and no source named: nothing to fetch (make test-helib
# after make helib needs neither HELIB_SRC again nor the network).
if [ -z "${HELIB_SRC:-}" ] && [ -z "${FORCE:-}" ] && [ -f "$PREFIX/cipherbench-build.json" ] &&
   grep -q "\"helib_tag\": \"$HELIB_TAG\"" "$PREFIX/cipherbench-build.json"; then
  echo "build-helib: $PREFIX is already built at $HELIB_TAG (FORCE=1 rebuilds; HELIB_SRC=... checks the source)"
  exit 0
fi
HELIB_SRC=$(checkout HElib "${HELIB_SRC:-}" "$HELIB_TAG" "$HELIB_URL")
NTL_SECONDS=0
CMAKE_NTL=()
if [ "$NTL_ROUTE" = native ]; then
  NTL_SRC=$(checkout ntl "${NTL_SRC:-}" "$NTL_TAG" "$NTL_URL")
  NTL_PREFIX=$DEPS/ntl-native
  if [ ! -f "$NTL_PREFIX/lib/libntl.so" ]; then
    # NTL builds in its source tree: work on a copy so the given checkout stays clean.
    rm -rf "$DEPS/build/ntl-native"; mkdir -p "$DEPS/build"
    cp -r "$NTL_SRC" "$DEPS/build/ntl-native"
    t0=$(date +%s)
    (cd "$DEPS/build/ntl-native/src" &&
      ./configure PREFIX="$NTL_PREFIX" SHARED=on NTL_GMP_LIP=on NTL_THREADS=on \
        NTL_THREAD_BOOST=on NATIVE=on > configure.log &&
      nice -n "$NICE" make -j "$JOBS" > make.log 2>&1 &&
      make install > install.log)
    echo $(( $(date +%s) - t0 )) > "$NTL_PREFIX/build-seconds"
  fi
  NTL_SECONDS=$(cat "$NTL_PREFIX/build-seconds")
  CMAKE_NTL=(-DNTL_DIR="$NTL_PREFIX")
fi

if [ -f "$PREFIX/cipherbench-build.json" ] && [ -z "${FORCE:-}" ] &&
   grep -q "\"helib_commit\": \"$(git -C "$HELIB_SRC" rev-parse HEAD)\"" "$PREFIX/cipherbench-build.json"; then
  echo "build-helib: $PREFIX is already built from this HElib commit (FORCE=1 rebuilds)"
  exit 0
fi
BUILD_DIR=$DEPS/build/helib-$NTL_ROUTE
t0=$(date +%s)
nice -n "$NICE" cmake -S "$HELIB_SRC" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" -DPACKAGE_BUILD=OFF -DBUILD_SHARED=OFF \
  -DENABLE_THREADS=ON -DPEDANTIC_BUILD=OFF -DENABLE_TEST=OFF "${CMAKE_NTL[@]}" > /dev/null
nice -n "$NICE" cmake --build "$BUILD_DIR" -j "$JOBS"
cmake --install "$BUILD_DIR" > /dev/null
HELIB_SECONDS=$(( $(date +%s) - t0 ))

cat > "$PREFIX/cipherbench-build.json" <<JSON
{
  "helib_tag": "$HELIB_TAG",
  "helib_commit": "$(git -C "$HELIB_SRC" rev-parse HEAD)",
  "ntl_route": "$NTL_ROUTE",
  "ntl_prefix": "$([ "$NTL_ROUTE" = native ] && echo "$NTL_PREFIX" || echo /usr)",
  "ntl_build_seconds": $NTL_SECONDS,
  "helib_build_seconds": $HELIB_SECONDS,
  "jobs": $JOBS,
  "host": "$(hostname)",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
echo "build-helib: HElib $HELIB_TAG ($NTL_ROUTE NTL) installed in $PREFIX (${HELIB_SECONDS}s HElib, ${NTL_SECONDS}s NTL)"
