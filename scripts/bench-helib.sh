#!/usr/bin/env bash
# Engine vs HElib 2.3.0 in one sitting, one thread, the same binaries (built by `make
# helib`, so both backends link the same NTL): issue 12's comparison.
#  - bench_ops at each ring of OPS_M (default m=4369 and m=53261; --bits 820, c=3, dense
#    key; REPS_<m> repetitions, default 9 at 4369 and 3 above), engine and HElib alternating;
#  - AES-128 packed at each ring of AES_M (default 4369 and 53261; key weight 120, c=3,
#    every block checked): the engine at the chain its planner chooses (no --bits), HElib
#    at HELIB_AES_BITS_<m> (default 700 at 4369, 820 at 53261: the chains HElib's AES ran
#    on, docs/references.md §4).
# Writes JSON and /usr/bin/time records (user, system, wall seconds, peak KB) into OUT
# (default results/bench-helib-<route>/). BENCHMARKS.md quotes these files.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NTL_ROUTE=${NTL_ROUTE:-debian}
BIN=${BIN:-$ROOT/build-helib-$NTL_ROUTE/bin}
OUT=${OUT:-$ROOT/results/bench-helib-$NTL_ROUTE}
OPS_M=${OPS_M:-"4369 53261"}
AES_M=${AES_M:-"4369 53261"}
OPS_BITS=${OPS_BITS:-820}
REPS_4369=${REPS_4369:-9}
HELIB_AES_BITS_4369=${HELIB_AES_BITS_4369:-700}
HELIB_AES_BITS_53261=${HELIB_AES_BITS_53261:-820}
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
for M in $OPS_M; do
  reps_var=REPS_$M
  reps=${!reps_var:-3}
  for backend in bgv helib; do
    timed "ops_${backend}_m$M" "$BIN/bench_ops" --backend "$backend" --m "$M" --bits "$OPS_BITS" --hwt 0 \
      --reps "$reps" --seed 1 --quiet --json "$OUT/ops_${backend}_m$M.json"
  done
done
for M in $AES_M; do
  bits_var=HELIB_AES_BITS_$M
  [ -n "${!bits_var:-}" ] || { echo "bench-helib: set $bits_var (HElib's chain for AES at m=$M)" >&2; exit 2; }
  timed "aes_bgv_m$M" "$BIN/run_cipher" --backend bgv --cipher aes128 --packing packed --m "$M" \
    --seed 1 --threads 1 --json "$OUT/aes_bgv_m$M.json"
  timed "aes_helib_m$M" "$BIN/run_cipher" --backend helib --cipher aes128 --packing packed --m "$M" \
    --bits "${!bits_var}" --seed 1 --threads 1 --json "$OUT/aes_helib_m$M.json"
done
echo "bench-helib: results in $OUT" >&2
