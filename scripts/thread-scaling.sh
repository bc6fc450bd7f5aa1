#!/usr/bin/env bash
# Thread scaling of one circuit (issue 23 item 2): plan once, then run the same seeded
# circuit at each thread count, REPS times, thread counts interleaved, every block checked;
# then analysis/thread_scaling.py's table (speed-up, setup share, and each engine step's
# serial and parallel seconds by Amdahl's law).
#
#   scripts/thread-scaling.sh [run_cipher arguments...]
#   default arguments: --cipher aes128 --m 53261 (AES-128 packed at the papers' ring, its plan)
#
# Environment: BIN (run_cipher's folder, default build/bin), OUT (default
# results/thread-scaling/<name>), NAME (default the arguments joined), THREADS (default
# "1 2 4 8 16", counts above the machine's cores dropped), REPS (default 2), PLAN_THREADS
# (space-separated counts at which the planning alone is timed without cache, default
# none), STEP_TIMEOUT (seconds per process, default 900).
# Writes OUT/<name>_t<T>_r<R>.json, OUT/plan_t<T>.json, OUT/machine.txt, OUT/scaling.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
[ $# -gt 0 ] || set -- --cipher aes128 --m 53261
NAME=${NAME:-$(echo "$*" | tr -c 'A-Za-z0-9\n' '_' | sed 's/__*/_/g; s/^_//; s/_$//')}
OUT=${OUT:-$ROOT/results/thread-scaling/$NAME}
REPS=${REPS:-2}
STEP_TIMEOUT=${STEP_TIMEOUT:-900}
PYTHON=${PYTHON:-python3}
CORES=$(nproc)
THREADS_OK=""
for T in ${THREADS:-1 2 4 8 16}; do
  case "$T" in ''|*[!0-9]*|0) echo "thread-scaling: THREADS entry '$T' is not a positive integer" >&2; exit 2 ;; esac
  if [ "$T" -le "$CORES" ]; then THREADS_OK="$THREADS_OK $T"; else echo "thread-scaling: $T threads dropped: $CORES cores" >&2; fi
done
[ -n "$THREADS_OK" ] || { echo "thread-scaling: no thread count of '${THREADS:-}' fits $CORES cores" >&2; exit 2; }
[ -x "$BIN/run_cipher" ] || { echo "thread-scaling: $BIN/run_cipher missing: run make build (or set BIN)" >&2; exit 2; }
mkdir -p "$OUT/plans"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "cores: $CORES"
  echo "memory: $(grep MemTotal /proc/meminfo | awk '{print $2}') kB"
  echo "binary: $BIN/run_cipher ($(stat -c %s "$BIN/run_cipher") bytes)"
  echo "arguments: $*"
} > "$OUT/machine.txt"
MAXT=${THREADS_OK##* }
# Planning without cache at each PLAN_THREADS count, then the plan every run reads.
for T in ${PLAN_THREADS:-}; do
  timeout "$STEP_TIMEOUT" "$BIN/run_cipher" "$@" --plan --plan-cache '' --threads "$T" --json "$OUT/plan_t$T.json" >/dev/null
done
timeout "$STEP_TIMEOUT" "$BIN/run_cipher" "$@" --plan --plan-cache "$OUT/plans" --threads "$MAXT" --json "$OUT/plan.json" >/dev/null
for R in $(seq 1 "$REPS"); do
  for T in $THREADS_OK; do
    echo "thread-scaling: $NAME, $T threads, run $R" >&2
    timeout "$STEP_TIMEOUT" "$BIN/run_cipher" "$@" --plan-cache "$OUT/plans" --threads "$T" --seed 1 \
      --json "$OUT/${NAME}_t${T}_r$R.json" >/dev/null
  done
done
shopt -s nullglob
plans=("$OUT"/plan_t*.json)
"$PYTHON" "$ROOT/analysis/thread_scaling.py" "$OUT/${NAME}"_t*_r*.json --plans "${plans[@]}" --markdown "$OUT/scaling.md" --json "$OUT/scaling.json"
