#!/usr/bin/env bash
# Engine vs HElib in one sitting, one thread, the same binaries (built by `make helib`,
# so both backends link the same NTL): bench_ops at m=4369 (--bits 820, c=3, dense key,
# 5 repetitions) and AES-128 packed at m=4369 (--bits 930, the chain the engine's noise
# guard asks for; key weight 120, c=3, all 16 blocks checked), engine and HElib
# alternating. Writes JSON and /usr/bin/time records (user, system, wall seconds, peak KB)
# into OUT (default results/bench-helib-<route>/). BENCHMARKS.md quotes these files.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NTL_ROUTE=${NTL_ROUTE:-debian}
BIN=${BIN:-$ROOT/build-helib-$NTL_ROUTE/bin}
OUT=${OUT:-$ROOT/results/bench-helib-$NTL_ROUTE}
M=${M:-4369}
OPS_BITS=${OPS_BITS:-820}
AES_BITS=${AES_BITS:-930}
NICE=${NICE:-10}
for b in bench_ops run_cipher; do
  [ -x "$BIN/$b" ] || { echo "bench-helib: $BIN/$b missing: run make helib NTL_ROUTE=$NTL_ROUTE" >&2; exit 1; }
done
mkdir -p "$OUT"
export OMP_NUM_THREADS=1
timed() {  # name command...
  local name=$1; shift
  echo "bench-helib: $name: $*" >&2
  /usr/bin/time -f '{"user_s": %U, "sys_s": %S, "wall_s": %e, "max_rss_kb": %M}' -o "$OUT/$name.time.json" \
    nice -n "$NICE" "$@" > "$OUT/$name.log" 2>&1
}
for backend in bgv helib; do
  timed "ops_${backend}_m$M" "$BIN/bench_ops" --backend "$backend" --m "$M" --bits "$OPS_BITS" --reps 5 --seed 1 \
    --quiet --json "$OUT/ops_${backend}_m$M.json"
done
for backend in bgv helib; do
  timed "aes_${backend}_m$M" "$BIN/run_cipher" --backend "$backend" --cipher aes128 --packing packed --m "$M" \
    --bits "$AES_BITS" --threads 1 --json "$OUT/aes_${backend}_m$M.json"
done
echo "bench-helib: results in $OUT" >&2
