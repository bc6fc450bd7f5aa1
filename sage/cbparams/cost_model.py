"""Time per engine step on this machine, fitted from the engine's own step timings, and a
circuit's predicted time: its step counts (from the engine's planner) times the model.

The engine times each evaluator step under the planner's names (runners/engine/bgv/
op_profile.h: a step's own time, the steps nested in it apart), and the planner counts the
same steps at the same prime counts, one for one (PlanBackend::OpCount; a test holds them
equal). Per step on a ciphertext over l primes of a ring of dimension n = phi(m), with K
special primes, S small ones, c digits (digits_at: those holding one of its primes) and
one limb's transform T operations, B of them where the chain's primes use Bluestein's
algorithm (chain_info's transform_ops and transform_ops_bluestein; the prime-factor
algorithm's P = T - B operations run at another speed, so the two are priced apart):

* add, add_plain, mul_plain: pointwise over the limbs, ~ n l;
* encode: a constant's first use (the engine keeps its double-CRT form at all L primes):
  L transforms, ~ T L; past the engine's plaintext cache (Plaintext::cache_limit), each
  use of a constant refused it, at the ciphertext's l primes (counted by the planner), ~ T l;
* targets: the switch targets of a pair of prime sets, arranged the first time a level
  decision meets the pair (Levels::targets): 2^S (l + 1) targets of up to S + l primes,
  ~ 2^S (l + 1) and 2^S (l + 1)(S + l);
* mul (a square too): the level decision (Levels::product_set), which prices the noise
  bound at the n roots for the targets two bisections visit, ~ (3 log2(2^S (l - S + 1)) + 2)
  n, and the tensor, ~ n l;
* relin (a product's key switch) and automorph (permutation, then key switch): the l
  limbs to coefficients, each digit raised to the l + K primes, the key product and the
  division by P: ~ l + (c + 2)(l + K) transforms and ~ c (l + K) n pointwise products,
  and as many words of the key regenerated and unpacked where the keys are stored
  compact (C: the engine's choice above 64 MiB a key, keys.h; on Vision's large rings);
  and the CRT lifts' basis conversions (rns_rounding.cpp's lift_mod, on arrays of m
  words): a digit of l/c primes raised to the l + K - l/c others, m l (l + K - l/c)
  multiply-adds over the c digits, and the division by P, the K special primes' lift to
  the l others of both parts, 2 m K l: quadratic in the primes, what grows fastest on the
  long chains of the papers' Vision rows (31-63 primes against the calibration's 12);
* automorph_hoisted (each automorphism of automorph_many; the digits shared, their cost
  spread over the automorphisms): ~ n c (l + K) (C likewise) + T (l + K), and its own
  division by P, 2 m K l;
* mod_switch to l primes dropping r: ~ T (l + r) (the dropped limbs to coefficients and
  the correction back) and the lift of the r primes to the l others, 2 m r l; adding
  primes back: ~ n l;
* add_decide, the decision beside an add of two ciphertexts at different prime sets
  (Levels::sum_set): the bisections, and for the targets that only add primes to an
  operand (capacity rising with the modulus) one more bisection over 2^S, ~ n each.
Each step also has a fixed cost per call (its first coefficient). Past the private caches
a word costs more: every step's time is its variables' times (1 + beta s), with the spill
s = log2(8 m (l + K) / SPILL_BYTES) where that is positive (a key switch's limbs over the
l + K primes, in bytes) and one beta per thread count, fitted with the rest (on the
calibration's own timings, not on circuits). Without it the fit priced large rings' steps
below their bench_ops timings (BENCHMARKS.md, "Cost model and selection").

The coefficients are non-negative least squares on relative error (weighted by the square
root of how many calls each timing averages) over the step timings of bench_ops runs
(`calibrate`) on a few rings, chains and digit counts, every result checked by decryption,
once per thread count (model["fits"]["<threads>"]): threads are measured, not modelled, so
a prediction is for a thread count the model was calibrated at. Except in lanes: the
ciphertexts of a sliced state run their element-wise steps side by side, each operation on
one thread (runners/backend/lanes.h), and the plan counts each operation with its lane
width w (op_counts' "lanes"); at T threads such an operation costs the one-thread fit's
time, ceil(w / T) / w of it (the w lanes in ceil(w / T) waves). The engine's op_profile
adds each lane's own time, so for the per-step check those steps are predicted as the
lanes' summed time (the one-thread fit, whole), beside the wall time that the total uses. At one thread the step
times are scaled by the bench_ops process's CPU time over its wall time, so other jobs on
the machine do not inflate them. Then the reference circuits (params.cost_reference; by
default two rounds of AES and of Vision GF(2^16)^8 at m=4369, at their planned chains,
decryption checked) run at each thread count and their measured time beside the
prediction is kept in the model (reference_runs) as the calibration's own check; the
configs' runs it is checked against are other rings and other rounds. A circuit's counts
come from `run_cipher --plan` ("plan.op_counts": op, primes, dropped, count, the rounds'
steps at the run's chain) and K, S, T, B from `chain_info`: the engine answers for all of
them.

Sub-commands (python -m cbparams.cost_model ...):
  calibrate  runs bench_ops on the calibration set at each thread count, writes one JSON
             per run and the fit
  refit      the fit again on a model's own timings (after the features changed)
  predict    predicted seconds for plan or run JSONs
  check      prediction against run_cipher runs (their total_s, wall, at the threads each
             ran with), and per step against each run's op_profile; a run on a ring larger
             than the calibration's (phi or m) is marked an extrapolation; --max-error P
             exits 1 when a run's error passes P percent

>>> r = Ring(n=4096, T=60000.0, S=3, K=5, m=4369)
>>> [round(f / 1e6, 3) for f in features("relin", r, l=15, c=3)]
[0.0, 0.061, 0.0, 6.9, 0.246, 0.0, 1.638]
>>> one = {"fits": {"1": {"add": [0.0, 1e-9]}}}
>>> round(predict_counts(one, [{"op": "add", "primes": 2, "dropped": 0, "count": 10}], Ring(100, 1.0, 0, 2), c=3), 12)
2e-06
"""
from __future__ import annotations

import argparse
import csv
import datetime
import glob
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from . import catalog, chains, runner
from .config import load_params
from .errors import ParamError

#: Bumped whenever features() changes: a model fitted on other features is refused.
FEATURES_VERSION = 8

#: Steps of the model, as the planner counts them and the engine times them
#: (runners/backend/plan_backend.h, runners/engine/bgv/op_profile.h).
OPS = ["add", "add_plain", "mul_plain", "encode", "targets", "mul", "relin", "automorph", "automorph_hoisted",
       "mod_switch", "add_decide"]

#: Steps bench_ops does not run, priced as another's (an add of a constant is an add's
#: pointwise pass over the limbs).
SHARED = {"add_plain": "add"}

#: A reference circuit's prediction this far from its measured time (relative) means the
#: calibration's timings are not this machine's at rest: calibrate warns and the model
#: carries the warning. On a quiet machine the default references (two rounds at m=4369,
#: 0.03 to 0.16 s each) came within -30% to +21% (measured when this check was added, c800ee4).
REFERENCE_SANE = 0.5


def reference_args(reference: list[dict]) -> list[list]:
    """run_cipher arguments of the reference circuits (params.cost_reference: catalog
    instances with m and rounds; the default is in config/schema/params.schema.yaml)."""
    return [[*catalog.flags(catalog.instance_of(r)), "--m", r["m"], "--rounds", r["rounds"]] for r in reference]


#: The default calibration set: rings holding GF(2^8) slots from phi 256 to 164352 (the
#: AES range and the papers' Vision rings: a limb of phi 98304 words outgrows the caches a
#: smaller ring's fit assumes) and m=641 (GF(2^64) slots; Bluestein there does twice
#: 257's work per coefficient), chains of 300 to 2500 bits (the level decision grows with
#: the primes), c = 2, 3, 4, 6, and keys stored compact (keep_uniform_mib 0, and by the
#: engine's own rule past 64 MiB a key, on the large rings of Vision's instances). The
#: last entry is a papers' row's own ring and chain (Vision GF(2^32)^4 at m=164737, 2197
#: bits: 44 primes, 12 special, c=4; 17 s at 2 threads, 30 at one): without it the fit
#: extrapolated the quadratic lifts and the spill from m=90721's 30 primes, and predicted
#: the papers' Vision rows 17-37% fast at 2 threads on the 2-core Xeon, with it -17% to +2%
#: (on the 16-core device, one run each, two of them -1% and +3% without, +15% and +16%
#: with: BENCHMARKS.md, "Cost model and selection"). bench_ops runs with --cost-ops (no
#: rotations: 9 keys, not 178, at m=90721). Snakemake runs it once per build and thread
#: count (on the IFMA Xeon one and a half minutes at 2 threads, two at one, with
#: cost_processes 3; on an AVX2-only EPYC 15.5 minutes in all, 11 of them this last entry).
DEFAULT_CALIBRATION = [
    {"m": 257, "bits": 500, "c": 3},
    {"m": 257, "bits": 1000, "c": 6},
    {"m": 257, "bits": 2000, "c": 3},
    {"m": 641, "bits": 2500, "c": 3},
    {"m": 4369, "bits": 300, "c": 3},
    {"m": 4369, "bits": 1000, "c": 3},
    {"m": 4369, "bits": 1000, "c": 6},
    {"m": 21845, "bits": 600, "c": 2},
    {"m": 21845, "bits": 900, "c": 3},
    {"m": 53261, "bits": 900, "c": 3},
    {"m": 4369, "bits": 1000, "c": 3, "keep_uniform_mib": 0},
    {"m": 21845, "bits": 900, "c": 3, "keep_uniform_mib": 0},
    {"m": 90721, "bits": 600, "c": 3},
    {"m": 164737, "bits": 2197, "c": 4},
]


#: Where the spill starts: 8 MiB of a key switch's limbs, past the private caches of the
#: machines measured (2 MiB of L2 a core on the Xeon, less on the EPYC); the fitted beta
#: sets the slope on each machine.
SPILL_BYTES = 8 << 20

#: The betas the fit tries (the best least-squares residual over all steps wins).
SPILL_BETAS = [i / 40 for i in range(41)]


class Ring(NamedTuple):
    """What a step's cost depends on besides its primes and digits: n = phi(m), T (one
    limb's transform, in operations: chain_info's transform_ops), S small primes, K
    special primes, B (the part of T from primes using Bluestein's algorithm), C (1 where
    the key-switching keys are stored compact: each use regenerates a_j from its seed and
    unpacks b_j, keys.h), m the cyclotomic index (the lifts' coefficient arrays have m
    words: twice n at m=163455)."""
    n: int
    T: float
    S: int
    K: int
    B: float = 0.0
    C: float = 0.0
    m: int = 0

    @property
    def words(self) -> int:
        """Words of one limb's coefficient array as the transforms and the CRT lifts hold
        it: m (the ring's index; n where m is not given), not n."""
        return self.m or self.n


def ring_of(chain, n: int, compact: bool | None = None) -> Ring:
    """The Ring of an engine chain (cbparams.chains.Chain) on a ring of dimension n;
    compact: whether the keys were stored compact (None: as the engine stores them by
    default at this chain)."""
    if not chain.transform_ops:
        raise ParamError(f"the chain of m={chain.m} has no transform_ops: rebuild chain_info (make build)")
    compact = chain.key_compact if compact is None else compact
    return Ring(n=int(n), T=float(chain.transform_ops), S=int(chain.S), K=int(chain.K),
                B=float(chain.transform_ops_bluestein), C=1.0 if compact else 0.0, m=int(chain.m))


def _decisions(S: int, l: int, others: float) -> float:
    """Noise-bound pricings of a level decision: a bisection over the 2^S (l - S + 1)
    targets that drop primes of both operands for the best capacity and one for the least
    modulus within the tie (Levels::best_target), then `others` more."""
    return 3 * math.log2(max(2.0 ** S * max(l - S + 1, 1), 2.0)) + others


def features(op: str, r: Ring, l: int, c: int, dropped: int = 0) -> list[float]:
    """The model's variables for one step on l primes with c digits (see the module doc);
    the first, 1, is a fixed cost per call (allocation, bookkeeping: what dominates on tiny
    rings). Transform work comes as two variables, Bluestein's and the prime-factor
    algorithm's operations."""
    n, T, S, K, B, C = r[:6]
    P, M = T - B, r.words

    def transforms(x: float) -> list[float]:
        return [B * x, P * x]

    if op in ("add", "add_plain", "mul_plain"):
        return [1.0, n * l]
    if op == "encode":
        return [1.0, *transforms(l)]
    if op == "targets":
        return [1.0, 2.0 ** S * (l + 1), 2.0 ** S * (l + 1) * (S + l)]
    if op == "mul":
        return [1.0, n * l, _decisions(S, l, 2) * n]
    if op in ("relin", "automorph"):
        return [1.0, n * l, *transforms(l + (c + 2) * (l + K)), n * c * (l + K), C * n * c * (l + K),
                M * (l * (l + K - l / c) + 2 * K * l)]
    if op == "automorph_hoisted":
        return [1.0, n * c * (l + K), *transforms(l + K), C * n * c * (l + K), 2 * M * K * l]
    if op == "mod_switch":
        return [1.0, *transforms(l + dropped), 0.0, 2 * M * dropped * l] if dropped else [1.0, 0.0, 0.0, n * l, 0.0]
    if op == "add_decide":
        return [1.0, _decisions(S, l, 2.0 * (S + 1)) * n]
    raise ParamError(f"op={op!r} is not an operation of the cost model: use one of {OPS}")


#: Per step, the feature columns (Bluestein's, the prime-factor algorithm's) of its
#: transform work (features()).
TRANSFORM_COLUMNS = {"encode": (1, 2), "relin": (2, 3), "automorph": (2, 3), "automorph_hoisted": (2, 3),
                     "mod_switch": (1, 2)}


def bench_rows(doc: dict, chain) -> list[dict]:
    """Observations (op, ring, l, c, dropped, seconds per call, calls) from one bench_ops
    JSON's op_profile, on its chain (cbparams.chains.Chain). At one thread each step's time
    is scaled by the process's CPU time over wall time in the timed operations (bench_ops'
    cpu_ms and <op>_ms): its own cost, which other jobs on the machine do not inflate."""
    if "op_profile" not in doc:
        raise ParamError("a bench_ops JSON without op_profile: rebuild bench_ops (make build)")
    ring = ring_of(chain, int(doc["phi"]), doc.get("compact_keys"))
    threads = int(doc["threads"])
    scale = 1.0
    if threads == 1 and doc.get("cpu_ms"):
        wall = sum(doc[f"{k}_ms"] for k in doc["cpu_ms"] if f"{k}_ms" in doc)
        cpu = sum(v for k, v in doc["cpu_ms"].items() if f"{k}_ms" in doc)
        scale = min(1.0, cpu / wall) if wall > 0 and cpu > 0 else 1.0
    rows = []
    for e in doc["op_profile"]:
        if e["count"] <= 0 or e["op"] not in OPS:
            continue
        rows.append({"op": e["op"], "m": int(doc["m"]), "ring": list(ring), "l": int(e["primes"]),
                     "c": digits_at(chain.digits, int(e["primes"])), "dropped": int(e["dropped"]),
                     "threads": threads, "calls": int(e["count"]), "seconds": scale * e["seconds"] / e["count"]})
    return rows


def spill(r: Ring, l: int) -> float:
    """log2 of a key switch's limbs over l + K primes (8 m (l + K) bytes) past SPILL_BYTES,
    0 below.

    >>> spill(Ring(n=4096, T=1.0, S=3, K=5, m=4369), 15), round(spill(Ring(98304, 1.0, 8, 11, m=124645), 30), 3)
    (0.0, 2.285)
    """
    x = 8.0 * r.words * (l + r.K) / SPILL_BYTES
    return math.log2(x) if x > 1 else 0.0


def fit(rows: list[dict]) -> dict:
    """Non-negative least squares per step on relative error, each timing weighted by the
    square root of its calls, at each of SPILL_BETAS; the beta whose fits leave the least
    residual over all steps: {op: [coefficients], "spill": beta}. A calibration on rings
    of one transform algorithm only prices the other's operations the same."""
    import numpy as np
    from scipy.optimize import nnls

    steps = []
    for op in OPS:
        src = SHARED.get(op, op)
        obs = [r for r in rows if r["op"] == src and r["seconds"] > 0]
        if not obs:
            raise ParamError(f"no bench_ops timing of the step {src}: the calibration set must run it")
        A = np.array([features(op, Ring(*r["ring"]), r["l"], r["c"], r["dropped"]) for r in obs])
        s = np.array([spill(Ring(*r["ring"]), r["l"]) for r in obs])
        y = np.array([r["seconds"] for r in obs])
        w = np.sqrt(np.array([float(r.get("calls", 1)) for r in obs])) / y
        pair = TRANSFORM_COLUMNS.get(op)
        alone = pair and not (A[:, pair[0]].any() and A[:, pair[1]].any())
        if alone:  # one algorithm's column carries both
            A[:, pair[0]] += A[:, pair[1]]
            A[:, pair[1]] = 0.0
        steps.append((op, A, s, y, w, pair if alone else None))
    best = None
    for beta in SPILL_BETAS:
        coef, residual = {"spill": beta}, 0.0
        for op, A, s, y, w, pair in steps:
            x, res = nnls(A * ((1 + beta * s) * w)[:, None], y * w)
            if pair:
                x[pair[1]] = x[pair[0]]
            coef[op] = [float(v) for v in x]
            residual += res * res
        if best is None or residual < best[0]:
            best = (residual, coef)
    return best[1]


def coefficients(model: dict, threads: int = 1) -> dict:
    """The model's fit for a thread count; ParamError naming the counts it has otherwise."""
    fits = model.get("fits") or {}
    if str(int(threads)) not in fits:
        raise ParamError(f"threads={threads}: the cost model was calibrated at {sorted(fits, key=int)} threads; "
                         f"calibrate it at {threads} too (cost_model calibrate --threads ...)")
    return fits[str(int(threads))]


def op_seconds(coef: dict, op: str, r: Ring, l: int, c: int, dropped: int = 0) -> float:
    """Predicted seconds of one operation (coef: one thread count's fit)."""
    base = sum(a * f for a, f in zip(coef[op], features(op, r, l, c, dropped)))
    return (1 + coef.get("spill", 0.0) * spill(r, l)) * base


def digits_at(digits, l: int) -> int:
    """Key-switching digits a ciphertext over l primes has: the engine skips the digits
    none of whose primes it holds (Evaluator::decompose), and the digits are consecutive
    groups of the chain's primes (`digits`: primes per digit), so over the first l primes
    only the groups that start below l count.

    >>> [digits_at((7, 3, 4), l) for l in (1, 7, 8, 11, 14)]
    [1, 1, 2, 3, 3]
    """
    start, count = 0, 0
    for size in digits:
        count += start < l
        start += size
    return max(count, 1)


def lane_share(lanes: int, threads: int) -> float:
    """The wall time of one operation in a lane group of width `lanes` at `threads`, as a
    share of its one-thread time: the group runs in ceil(lanes / threads) waves.

    >>> [lane_share(16, t) for t in (1, 2, 3, 16, 32)]
    [1.0, 0.5, 0.375, 0.0625, 0.0625]
    """
    return math.ceil(lanes / max(threads, 1)) / lanes


def predict_counts(model: dict, counts: list[dict], ring: Ring, c: int, digits=None, threads: int = 1,
                   profile: bool = False) -> float:
    """Predicted seconds of a list of plan.op_counts entries at a thread count (digits: the
    chain's primes per digit, for the digits each key switch really has; None: c). An entry
    in lanes (its "lanes" > 1, at more than one thread) is priced at the one-thread fit,
    times lane_share (profile: whole, the lanes' summed time as op_profile adds it)."""
    coef = coefficients(model, threads)
    total = 0.0
    for o in counts:
        lanes = int(o.get("lanes", 1))
        in_lanes = lanes > 1 and threads > 1
        k = coefficients(model, 1) if in_lanes else coef
        share = 1.0 if (profile or not in_lanes) else lane_share(lanes, threads)
        total += share * o["count"] * op_seconds(k, o["op"], ring, o["primes"],
                                                 digits_at(digits, o["primes"]) if digits else c,
                                                 o.get("dropped", 0))
    return total


def predict_plan(model: dict, doc: dict, chain=None, threads: int | None = None) -> dict:
    """Predicted seconds of the rounds for a run_cipher JSON with a plan (--plan or a run):
    {seconds, by_op seconds, counts_bits, K, threads}; `chain` is the engine's chain the
    operations ran on (cbparams.chains, asked when None); threads: the run's own count
    (doc["threads"]) when None, else 1."""
    plan = doc.get("plan") or {}
    if "op_counts" not in plan:
        raise ParamError("the run_cipher JSON has no plan.op_counts: rebuild run_cipher (make build) and plan again")
    p = doc["params"]
    n, c, m = int(p["phi"]), int(p["c"]), int(p["m"])
    bits = int(plan.get("op_counts_bits") or plan["bits"])
    if chain is None:
        chain = chains.build_chain(m, bits, c)
    threads = int(threads or doc.get("threads") or 1)
    ring = ring_of(chain, n, (doc.get("memory") or {}).get("compact_keys"))  # a run's own keys where it says
    by_op: dict[str, float] = {}
    by_profile: dict[str, float] = {}  # as the engine's op_profile adds them (lanes summed)
    for o in plan["op_counts"]:
        by_op[o["op"]] = by_op.get(o["op"], 0.0) + predict_counts(model, [o], ring, c, chain.digits, threads)
        by_profile[o["op"]] = by_profile.get(o["op"], 0.0) + predict_counts(model, [o], ring, c, chain.digits,
                                                                            threads, profile=True)
    return {"seconds": sum(by_op.values()), "by_op": by_op, "by_profile": by_profile, "counts_bits": bits,
            "K": chain.K, "threads": threads}


def combined_rows(per_process: list[list[dict]], statistic=statistics.median) -> list[dict]:
    """One observation per step (op, l, c, dropped, on one ring) from several bench_ops
    processes, combined by `statistic`: by default the median of their seconds per call (on
    some machines a process's speed moves by 1.4x from one process to the next: BENCHMARKS.md,
    "Cost model and selection"), or another (the drift test fits the fastest, `min`); the
    calls are the first process's.

    >>> a = [{"op": "mul", "l": 5, "c": 3, "dropped": 0, "calls": 3, "seconds": s} for s in (1.0, 1.4, 1.1)]
    >>> combined_rows([[a[0]], [a[1]], [a[2]]])[0]["seconds"], combined_rows([[a[0]], [a[1]]], min)[0]["seconds"]
    (1.1, 1.0)
    """
    groups: dict = {}
    for rows in per_process:
        for r in rows:
            ring = (r.get("m"), tuple(r.get("ring", ())))
            groups.setdefault((ring, r["op"], r["l"], r["c"], r["dropped"]), []).append(r)
    return [dict(rs[0], seconds=statistic([r["seconds"] for r in rs])) for rs in groups.values()]


def calibrate(out_dir: Path, calibration: list[dict], reps: int | None = None, log=print, threads=(1,),
              circuits=None, processes: int | None = None) -> dict:
    """Runs bench_ops (seeded) on each calibration entry at each thread count, `processes`
    times of `reps` repetitions (None: the params schema's cost_processes and cost_reps; the
    median of the processes' timings is fitted: combined_rows; the set is run through once
    per process, so an entry's processes are spread over the calibration), fits one model per thread
    count on the engine's step timings, then runs the reference `circuits` (run_cipher
    arguments; None: the params schema's cost_reference) and keeps their measured time
    beside the prediction (module doc); returns the model."""
    if reps is None or processes is None:
        defaults = load_params({})
        reps = defaults["cost_reps"] if reps is None else reps
        processes = defaults["cost_processes"] if processes is None else processes
    if processes < 1:
        raise ParamError(f"processes={processes}: run each calibration entry at least once")
    if circuits is None:
        circuits = reference_args(load_params({})["cost_reference"])
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, runs = [], []
    exe = runner.find_executable("bench_ops")
    threads = sorted({int(t) for t in threads})
    if not threads or threads[0] < 1:
        raise ParamError(f"threads={threads}: calibrate at one thread or more")
    rings = chains.build_chains([(e["m"], e["bits"], e["c"]) for e in calibration])
    # Process i of every entry at every thread count before process i + 1 of any: a
    # machine's speed moves in phases that can outlast an entry's processes run back to
    # back (a calibration's three one-thread processes at m=257 all 1.5x slower than the
    # same command 35 minutes later, on an AVX2 EPYC: BENCHMARKS.md), so
    # each entry's median is taken over moments spread across the whole calibration.
    per_entry: dict[tuple[int, int], list[list[dict]]] = {}
    for i in range(processes):
        for t in threads:
            env = dict(os.environ, OMP_NUM_THREADS=str(t))
            for k, (e, ch) in enumerate(zip(calibration, rings)):
                keep = e.get("keep_uniform_mib")
                path = out_dir / (f"bench_m{e['m']}_bits{e['bits']}_c{e['c']}"
                                  + (f"_keep{keep}" if keep is not None else "") + f"_t{t}"
                                  + (f"_p{i + 1}" if processes > 1 else "") + ".json")
                cmd = [str(exe), "--m", str(e["m"]), "--bits", str(e["bits"]), "--c", str(e["c"]),
                       "--reps", str(reps), "--seed", "1", "--quiet", "--cost-ops", "--json", str(path)]
                if keep is not None:
                    cmd += ["--keep-uniform-mib", str(keep)]
                res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
                if res.returncode != 0:
                    raise runner.RunError(f"{' '.join(cmd)} exited with {res.returncode}: {res.stderr.strip()[-400:]}")
                doc = json.loads(path.read_text())
                log(f"bench_ops m={e['m']} bits={e['bits']} c={e['c']} threads={t}: mul {doc['mul_relin_ms']:.1f} ms "
                    f"at {doc['op_primes']['mul_relin']} primes, K={doc['primes']['special']}")
                per_entry.setdefault((t, k), []).append(bench_rows(doc, ch))
                runs.append(str(path))
    for t in threads:
        for k in range(len(calibration)):
            rows += combined_rows(per_entry[(t, k)])
    model = {"features_version": FEATURES_VERSION, "observations": rows, "bench_runs": runs,
             "threads": threads, "time": "the engine's step timings (bench_ops op_profile); at one thread scaled by "
             "the process's CPU time over wall time", "processes": processes, "host": platform.node(), "cpu": _cpu_name(),
             "bench_ops": str(exe), "bench_ops_mtime": exe.stat().st_mtime}
    model = _fitted(model)
    model["reference_runs"] = []
    for t in threads:
        for args in circuits:
            doc = runner.run_json("run_cipher", [*args, "--seed", 1, "--threads", t], timeout=1800)
            pred = predict_plan(model, doc, threads=t)["seconds"]
            secs = float(doc["timings"]["total_s"])
            err = pred / secs - 1 if secs > 0 else 0.0
            model["reference_runs"].append({"args": [str(a) for a in args], "threads": t, "measured_s": secs,
                                            "predicted_s": pred, "error_pct": round(100 * err, 1)})
            log(f"reference circuit {' '.join(str(a) for a in args)} at {t} threads: measured {secs:.3f} s, "
                f"predicted {pred:.3f} s ({100 * err:+.1f}%)")
            if abs(err) > REFERENCE_SANE:
                # Far from its measured time, the calibration's timings are not this machine's at rest
                # (OpenMP threads waiting for cores that other jobs hold slow a circuit's many
                # small parallel regions far more than bench_ops' repeated ones).
                w = (f"reference circuit {' '.join(str(a) for a in args)} at {t} threads predicted {100 * err:+.0f}% "
                     f"of its measured time (beyond {100 * REFERENCE_SANE:.0f}%): was the machine busy? "
                     "predictions at this thread count are suspect; calibrate again on a quiet machine")
                model.setdefault("warnings", []).append(w)
                log(f"WARNING: {w}")
    return model


def _fitted(model: dict) -> dict:
    fits = {}
    for t in sorted({r["threads"] for r in model["observations"]}):
        fits[str(t)] = fit([r for r in model["observations"] if r["threads"] == t])
    for r in model["observations"]:
        r["predicted"] = op_seconds(fits[str(r["threads"])], r["op"], Ring(*r["ring"]), r["l"], r["c"], r["dropped"])
    return dict(model, fits=fits, features_version=FEATURES_VERSION)


def _cpu_name() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def load_model(path: str | Path) -> dict:
    """A fitted model (cost_model calibrate's JSON); ParamError when missing or fitted on
    other features (refit it: `python -m cbparams.cost_model refit --model PATH`)."""
    try:
        model = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ParamError(f"cost model {path} does not exist: make it with "
                         f"`python -m cbparams.cost_model calibrate --out {path}`") from None
    if model.get("features_version") != FEATURES_VERSION:
        raise ParamError(f"cost model {path} was fitted on features version {model.get('features_version')}, "
                         f"this code has {FEATURES_VERSION}: calibrate it again "
                         f"(`python -m cbparams.cost_model calibrate --out {path}`)")
    return model


def calibration_warnings(path: str | Path) -> list[str]:
    """The warnings a model file carries (calibrate: reference circuits far from their
    predictions, the sign of a calibration on a busy machine); none when the file is missing
    or unreadable (the pipeline's end-of-run summary asks, whatever state the run left)."""
    try:
        return list(json.loads(Path(path).read_text()).get("warnings", []))
    except (OSError, ValueError, AttributeError):
        return []


def refit(model: dict) -> dict:
    """The model fitted again on its own observations (after the fit changed)."""
    return _fitted(model)


CHECK_COLUMNS = ["run", "cipher", "instance", "m", "phi", "bits", "c", "threads", "blocks", "measured_s",
                 "measured_cpu_s", "predicted_s", "error_pct", "stale", "beyond_calibration"]


def calibrated_extent(model: dict, threads: int) -> tuple[int, int]:
    """The largest ring dimension n = phi(m) and the largest index m (the transforms' and
    lifts' arrays have m words) the model was fitted on at a thread count ((0, 0): none).
    A prediction for a ring beyond either extrapolates the fit, and its variables do not
    follow every ring: a step's time per word grows with the ring past the caches, and a
    transform's time is not its operation count T (BENCHMARKS.md, "Cost model and
    selection": at m=124645, phi 98304, beyond a calibration up to m=90721, phi 90112,
    bench_ops' own steps took 4-41% longer than features version 7 predicted).

    >>> obs = [{"threads": 1, "ring": [256, 1.0, 0, 0, 0.0, 0.0, 257]}, {"threads": 1, "ring": [4096, 1.0, 0, 0]},
    ...        {"threads": 2, "ring": [90112, 1.0, 0, 0, 0.0, 0.0, 90721]}]
    >>> calibrated_extent({"observations": obs}, 1), calibrated_extent({"observations": obs}, 3)
    ((4096, 4096), (0, 0))
    """
    rings = [Ring(*r["ring"]) for r in model.get("observations", []) if int(r["threads"]) == int(threads)]
    return max((r.n for r in rings), default=0), max((r.words for r in rings), default=0)


def made_before_model(model: dict, doc: dict) -> bool:
    """Whether a pipeline run record (provenance.date) is older than the engine build the
    model timed (its bench_ops' modification time): the pipeline keeps finished runs when
    the engine is rebuilt, so such a run measured another engine than the model did. Runs
    without a date (run_cipher's own JSON) are not judged.

    >>> made_before_model({"bench_ops_mtime": 1e9}, {"provenance": {"date": "2001-09-09T01:46:39Z"}})
    True
    >>> made_before_model({"bench_ops_mtime": 1e9}, {"provenance": {"date": "2001-09-09T01:46:41Z"}})
    False
    """
    built, date = model.get("bench_ops_mtime"), (doc.get("provenance") or {}).get("date")
    if not built or not date:
        return False
    try:
        made = datetime.datetime.fromisoformat(str(date).replace("Z", "+00:00"))
    except ValueError:
        return False
    if made.tzinfo is None:
        made = made.replace(tzinfo=datetime.timezone.utc)
    return made.timestamp() < float(built)


def check_runs(model: dict, paths: list[str]) -> list[dict]:
    """Prediction (at each run's thread count) against run_cipher runs whose blocks all
    decrypted correctly; error_pct against the rounds' wall time (total_s); "steps": per
    step, its measured seconds (the run's op_profile, where it has one) and predicted."""
    docs = []
    for path in paths:
        doc = json.loads(Path(path).read_text())
        if not doc.get("correct") or "timings" not in doc or "op_counts" not in (doc.get("plan") or {}):
            continue
        docs.append((path, doc))
    chs = chains.build_chains([(int(d["params"]["m"]), int(d["plan"].get("op_counts_bits") or d["plan"]["bits"]),
                               int(d["params"]["c"])) for _, d in docs]) if docs else []
    out = []
    for (path, doc), ch in zip(docs, chs):
        pred = predict_plan(model, doc, chain=ch)
        meas = float(doc["timings"]["total_s"])
        cpu = doc["timings"].get("total_cpu_s")
        p = doc["params"]
        steps = {}
        for e in doc.get("op_profile") or []:
            steps[e["op"]] = steps.get(e["op"], 0.0) + float(e["seconds"])
        out.append({"run": path, "cipher": doc["cipher"], "instance": doc.get("instance", ""),
                    "m": p["m"], "phi": p["phi"], "bits": p["bits"], "c": p["c"], "threads": pred["threads"],
                    "blocks": doc["blocks"], "measured_s": round(meas, 3), "predicted_s": round(pred["seconds"], 3),
                    "error_pct": round(100 * (pred["seconds"] - meas) / meas, 1),
                    "stale": made_before_model(model, doc),
                    "beyond_calibration": any(x > y for x, y in zip((int(p["phi"]), int(p["m"])),
                                                                    calibrated_extent(model, pred["threads"]))),
                    "measured_cpu_s": round(cpu, 3) if cpu is not None else "",
                    "steps": {op: (steps.get(op), pred["by_profile"].get(op, 0.0))
                              for op in sorted(set(steps) | set(pred["by_profile"]))} if steps else {}})
    return out


def step_table(rows: list[dict], share: float = 0.05) -> list[str]:
    """Markdown lines: per run, each step taking at least `share` of its measured time, the
    engine's timing of it beside the prediction (where the model errs, step by step)."""
    lines = ["| run | m | threads | step | measured s | predicted s | error |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        for op, (meas, pred) in r["steps"].items():
            if meas and meas >= share * r["measured_s"]:
                lines.append(f"| {r['cipher']} {r['instance']} | {r['m']} | {r['threads']} | {op} | {meas:.3f} | "
                             f"{pred:.3f} | {100 * (pred - meas) / meas:+.1f}% |")
    return lines


def json_arg(text: str):
    """A JSON value given on the command line, or the contents of the file it names;
    None when it is neither."""
    try:
        return json.loads(Path(text).read_text() if Path(text).is_file() else text)
    except (ValueError, OSError):
        return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.cost_model", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("calibrate", help="run bench_ops on the calibration set and fit")
    c.add_argument("--out", required=True, help="model JSON")
    c.add_argument("--bench-dir", help="where bench_ops JSONs go (default: beside --out)")
    c.add_argument("--calibration", help="JSON list of {m, bits, c}, or a file holding one (default: the module's set)")
    c.add_argument("--reps", type=int, help="repetitions in each bench_ops process (default: params cost_reps)")
    c.add_argument("--processes", type=int,
                   help="bench_ops processes per entry and thread count, the median of their timings fitted "
                        "(default: params cost_processes)")
    c.add_argument("--threads", default="1", help="thread counts to calibrate at, comma-separated (default 1)")
    c.add_argument("--reference", help="JSON list of params.cost_reference entries (default: the schema's)")
    rf = sub.add_parser("refit", help="fit a model again on its own bench_ops timings")
    rf.add_argument("--model", required=True)
    pr = sub.add_parser("predict", help="predicted seconds of plan or run JSONs")
    pr.add_argument("--model", required=True)
    pr.add_argument("--threads", type=int, help="default: each JSON's own, else 1")
    pr.add_argument("json", nargs="+")
    ch = sub.add_parser("check", help="prediction error on run_cipher runs")
    ch.add_argument("--model", required=True)
    ch.add_argument("--out", help="CSV of the comparison")
    ch.add_argument("--max-error", type=float, help="exit 1 when a run's |error| passes this many percent")
    ch.add_argument("runs", nargs="+", help="run JSONs or globs")
    a = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    try:
        if a.step == "calibrate":
            cal = json_arg(a.calibration) if a.calibration else []
            if not isinstance(cal, list) or any(not isinstance(e, dict) or not {"m", "bits", "c"} <= set(e)
                                                for e in cal):
                raise ParamError(f"--calibration {a.calibration}: give a JSON list of {{m, bits, c}} "
                                 f"(and keep_uniform_mib where wanted; empty: the default set)")
            try:
                threads = [int(t) for t in str(a.threads).split(",") if t.strip()]
            except ValueError:
                raise ParamError(f"--threads {a.threads}: give thread counts, comma-separated (e.g. 1,2)") from None
            cal = cal or DEFAULT_CALIBRATION
            out = Path(a.out)
            try:
                ref = json.loads(a.reference) if a.reference else None
            except ValueError:
                raise ParamError(f"--reference {a.reference}: give a JSON list of {{cipher, m, rounds}} "
                                 "(field_bits, state_size for a cipher with several instances)") from None
            ref = load_params({} if ref is None else {"cost_reference": ref})["cost_reference"]
            model = calibrate(Path(a.bench_dir) if a.bench_dir else out.parent / "bench", cal, a.reps, log, threads,
                              reference_args(ref), a.processes)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(model, indent=1))
            worst = max(abs(r["predicted"] / r["seconds"] - 1) for r in model["observations"])
            log(f"{out}: {len(model['observations'])} timings fitted, worst relative error {100 * worst:.0f}%")
        elif a.step == "refit":
            model = refit(json.loads(Path(a.model).read_text()))
            Path(a.model).write_text(json.dumps(model, indent=1))
            log(f"{a.model}: refitted on {len(model['observations'])} timings")
        elif a.step == "predict":
            model = load_model(a.model)
            for path in a.json:
                r = predict_plan(model, json.loads(Path(path).read_text()), threads=a.threads)
                print(f"{path}: {r['seconds']:.2f} s predicted ({r['threads']} threads; "
                      + ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["by_op"].items())) + ")")
        else:
            model = load_model(a.model)
            paths = sorted({p for g in a.runs for p in (glob.glob(g, recursive=True) or [g])})
            rows = check_runs(model, paths)
            if a.out:
                with open(a.out, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=CHECK_COLUMNS, extrasaction="ignore")
                    w.writeheader()
                    w.writerows(rows)
            print("| run | m | bits | c | threads | blocks | measured s (wall) | predicted s | error |")
            print("|---|---|---|---|---|---|---|---|---|")
            for r in rows:
                print(f"| {r['cipher']} {r['instance']} | {r['m']} | {r['bits']} | {r['c']} | {r['threads']} | "
                      f"{r['blocks']} | {r['measured_s']} | {r['predicted_s']} | {r['error_pct']:+.1f}%"
                      + (" (stale)" if r["stale"] else "")
                      + (" (beyond the calibration)" if r["beyond_calibration"] else "") + " |")
            beyond = [r for r in rows if r["beyond_calibration"]]
            if beyond:
                print(f"\n{len(beyond)} runs are on rings larger than any the model was fitted on ("
                      + ", ".join("phi up to {}, m up to {}".format(*calibrated_extent(model, t)) + f" at {t} threads"
                                  for t in sorted({r['threads'] for r in beyond}))
                      + "): their predictions extrapolate the fit (BENCHMARKS.md, \"Cost model and selection\", has "
                      "such runs' errors)")
            current = [r for r in rows if not r["stale"]]
            worst = max((abs(r["error_pct"]) for r in current), default=0.0)
            print(f"\nworst error {worst:.1f}% over {len(current)} runs"
                  + (f" (bound {a.max_error:g}%)" if a.max_error is not None else ""))
            if len(current) < len(rows):
                print(f"\n{len(rows) - len(current)} runs (stale) were made before the engine this model timed "
                      f"was built (bench_ops of {datetime.datetime.fromtimestamp(model['bench_ops_mtime'], datetime.timezone.utc):%Y-%m-%d %H:%M} UTC): "
                      "their errors compare two engines and are left out of the worst error; delete their "
                      "records (results/runs/...) and run again to measure this engine")
            if any(r["steps"] for r in rows):
                print("\nBy step (the engine's own timing of each step, run_cipher's op_profile, beside the "
                      "prediction; steps of at least 5% of a run):\n")
                print("\n".join(step_table([r for r in rows if r["steps"]])))
            for r in model.get("reference_runs", []):
                print(f"\nreference circuit ({' '.join(r['args'])}, {r['threads']} threads) at calibration: "
                      f"measured {r['measured_s']:.3f} s, predicted {r['predicted_s']:.3f} s ({r['error_pct']:+.1f}%)")
            for w in model.get("warnings", []):
                print(f"\nWARNING (calibration): {w}")
            if a.max_error is not None and worst > a.max_error:
                log(f"error: the cost model's worst error {worst:.1f}% passes --max-error {a.max_error:g}%")
                return 1
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
