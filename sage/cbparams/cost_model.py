"""Time per engine operation on this machine, fitted from bench_ops, and a circuit's
predicted time: its operation counts (from the engine's planner) times the model.

The engine's double-CRT arithmetic costs, per operation on a ciphertext over l primes of
a ring of dimension n = phi(m) (runners/engine/bgv/evaluator.cpp):

* add, add_plain, mul_plain: pointwise over the limbs, ~ n l;
* mul (tensor, then relinearization) and automorph (permutation, then key switching):
  the key switch takes the l limbs to coefficients, raises each of its c digits (those
  of the chain's c holding one of its primes: digits_at) to the
  l + K primes (K special primes), multiplies by the key and divides by P, so about
  l + (c + 2)(l + K) number-theoretic transforms of size ~n and ~ c (l + K) pointwise
  products; modelled as a n l + b n (l + (c + 2)(l + K));
* automorph_hoisted (each automorphism of automorph_many: the digits are shared), the
  key product and division by P: a n c (l + K) + b n (l + K);
* mod_switch to l primes dropping r: the dropped limbs to coefficients and the
  correction back into the l kept ones, ~ n (l + r) transforms; adding ladder primes
  back only scales limbs, ~ n l.
Each operation also has a fixed cost per call (its first coefficient).

The coefficients (a, b per operation) are non-negative least squares on relative error
over bench_ops runs (`calibrate`: process CPU time, one thread, every result checked by
decryption) on a few rings, chains and digit counts. A circuit's counts come from
`run_cipher --plan` ("plan.op_counts": op, primes, dropped, count, the rounds' operations
at the run's chain) and K from `chain_info`: the engine answers for both.

Sub-commands (python -m cbparams.cost_model ...):
  calibrate  runs bench_ops on the calibration set, writes one JSON per run and the fit
  refit      the fit again on a model's own timings (after the features changed)
  predict    predicted seconds for plan or run JSONs
  check      prediction against run_cipher runs (their total_s, wall, and total_cpu_s,
             process CPU: the fair figure for one thread on a shared machine)

>>> feats = features("mul", n=4096, l=15, c=3, K=5, dropped=0)
>>> [round(f / 1e6, 3) for f in feats]
[0.0, 0.061, 0.471]
>>> round(predict_counts({"coef": {"add": [0.0, 1e-9]}}, [{"op": "add", "primes": 2, "dropped": 0, "count": 10}], n=100, c=3, K=2), 12)
2e-06
"""
from __future__ import annotations

import argparse
import csv
import glob
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from . import chains, runner
from .errors import ParamError

#: Bumped whenever features() changes: a model fitted on other features is refused.
FEATURES_VERSION = 2

#: Operations of the model, as the planner names them (runners/backend/plan_backend.h).
OPS = ["add", "add_plain", "mul_plain", "mul", "automorph", "automorph_hoisted", "mod_switch"]

#: bench_ops timing -> the planner operation it calibrates (add_plain and mul_plain share
#: the pointwise fits of add and mul_const: bench_ops times add and mul_const).
BENCH_OP = {"add": "add", "mul_const": "mul_plain", "mul_relin": "mul", "frobenius": "automorph",
            "automorph_many": "automorph_hoisted", "mod_switch": "mod_switch"}
SHARED = {"add_plain": "add"}

#: The default calibration set: rings holding GF(2^8) slots from phi 256 to 43200 (the
#: AES range), chains of 300 to 1000 bits, c = 2, 3, 6 (Snakemake runs it once per build:
#: about a minute of CPU).
DEFAULT_CALIBRATION = [
    {"m": 257, "bits": 500, "c": 3},
    {"m": 257, "bits": 1000, "c": 6},
    {"m": 4369, "bits": 300, "c": 3},
    {"m": 4369, "bits": 1000, "c": 3},
    {"m": 4369, "bits": 1000, "c": 6},
    {"m": 21845, "bits": 600, "c": 2},
    {"m": 21845, "bits": 900, "c": 3},
    {"m": 53261, "bits": 900, "c": 3},
]


def features(op: str, n: int, l: int, c: int, K: int, dropped: int = 0) -> list[float]:
    """The model's variables for one operation (see the module doc); the first, 1, is a
    fixed cost per call (noise bookkeeping, allocation: what dominates on tiny rings).
    Transforms are counted at n per limb, without the log2 n factor: over the rings
    calibrated (log2 n from 8 to 15.4) that predicted the AES runs better (BENCHMARKS.md,
    "Cost model") and the fit of the operations about as well."""
    if op in ("add", "add_plain", "mul_plain"):
        return [1.0, n * l]
    if op in ("mul", "automorph"):
        return [1.0, n * l, n * (l + (c + 2) * (l + K))]
    if op == "automorph_hoisted":
        return [1.0, n * c * (l + K), n * (l + K)]
    if op == "mod_switch":
        return [1.0, n * (l + dropped) if dropped else n * l]
    raise ParamError(f"op={op!r} is not an operation of the cost model: use one of {OPS}")


def bench_rows(doc: dict) -> list[dict]:
    """Observations (op, n, l, c, K, dropped, seconds) from one bench_ops JSON."""
    if "op_primes" not in doc:
        raise ParamError("a bench_ops JSON without op_primes: rebuild bench_ops (make build)")
    n, c, K = int(doc["phi"]), int(doc["c"]), int(doc["primes"]["special"])
    rows = []
    for name, op in BENCH_OP.items():
        if name not in doc["cpu_ms"]:
            continue
        sec = doc["cpu_ms"][name] / 1e3
        l = int(doc["op_primes"].get(name, doc["op_primes"]["fresh"]))
        dropped = 1 if op == "mod_switch" else 0
        if op == "automorph_hoisted":
            sec /= int(doc["automorph_many_count"])
        rows.append({"op": op, "m": doc["m"], "n": n, "l": l, "c": c, "K": K, "dropped": dropped,
                     "seconds": sec})
    return rows


def fit(rows: list[dict]) -> dict:
    """Non-negative least squares per operation on relative error: {op: [coefficients]}."""
    import numpy as np
    from scipy.optimize import nnls

    coef = {}
    for op in OPS:
        src = SHARED.get(op, op)
        obs = [r for r in rows if r["op"] == src]
        if not obs:
            raise ParamError(f"no bench_ops timing for {src}: the calibration set must time it")
        A = np.array([features(op, r["n"], r["l"], r["c"], r["K"], r["dropped"]) for r in obs])
        y = np.array([r["seconds"] for r in obs])
        w = 1.0 / y
        x, _ = nnls(A * w[:, None], y * w)
        coef[op] = [float(v) for v in x]
    return coef


def op_seconds(model: dict, op: str, n: int, l: int, c: int, K: int, dropped: int = 0) -> float:
    """Predicted seconds of one operation."""
    return sum(a * f for a, f in zip(model["coef"][op], features(op, n, l, c, K, dropped)))


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


def predict_counts(model: dict, counts: list[dict], n: int, c: int, K: int, digits=None) -> float:
    """Predicted seconds of a list of plan.op_counts entries (digits: the chain's primes
    per digit, for the digits each key switch really has; None: c everywhere)."""
    return sum(o["count"] * op_seconds(model, o["op"], n, o["primes"],
                                       digits_at(digits, o["primes"]) if digits else c, K, o.get("dropped", 0))
               for o in counts)


def predict_plan(model: dict, doc: dict, chain=None) -> dict:
    """Predicted seconds of the rounds for a run_cipher JSON with a plan (--plan or a run):
    {seconds, by_op seconds, counts_bits, K}; `chain` is the engine's chain the operations
    ran on (cbparams.chains, asked when None). Threads are not modelled (one thread)."""
    plan = doc.get("plan") or {}
    if "op_counts" not in plan:
        raise ParamError("the run_cipher JSON has no plan.op_counts: rebuild run_cipher (make build) and plan again")
    p = doc["params"]
    n, c, m = int(p["phi"]), int(p["c"]), int(p["m"])
    bits = int(plan.get("op_counts_bits") or plan["bits"])
    if chain is None:
        chain = chains.build_chain(m, bits, c)
    by_op: dict[str, float] = {}
    for o in plan["op_counts"]:
        by_op[o["op"]] = by_op.get(o["op"], 0.0) + predict_counts(model, [o], n, c, chain.K, chain.digits)
    return {"seconds": sum(by_op.values()), "by_op": by_op, "counts_bits": bits, "K": chain.K}


def calibrate(out_dir: Path, calibration: list[dict], reps: int = 3, log=print) -> dict:
    """Runs bench_ops (one thread, seeded) on each calibration entry, fits, returns the model."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, runs = [], []
    env = dict(os.environ, OMP_NUM_THREADS="1")
    exe = runner.find_executable("bench_ops")
    for e in calibration:
        path = out_dir / f"bench_m{e['m']}_bits{e['bits']}_c{e['c']}.json"
        cmd = [str(exe), "--m", str(e["m"]), "--bits", str(e["bits"]), "--c", str(e["c"]),
               "--reps", str(reps), "--seed", "1", "--quiet", "--json", str(path)]
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
        if res.returncode != 0:
            raise runner.RunError(f"{' '.join(cmd)} exited with {res.returncode}: {res.stderr.strip()[-400:]}")
        doc = json.loads(path.read_text())
        log(f"bench_ops m={e['m']} bits={e['bits']} c={e['c']}: mul {doc['cpu_ms']['mul_relin']:.1f} ms CPU "
            f"at {doc['op_primes']['mul_relin']} primes, K={doc['primes']['special']}")
        rows += bench_rows(doc)
        runs.append(str(path))
    coef = fit(rows)
    for r in rows:
        r["predicted"] = op_seconds({"coef": coef}, r["op"], r["n"], r["l"], r["c"], r["K"], r["dropped"])
    return {"coef": coef, "features_version": FEATURES_VERSION, "observations": rows, "bench_runs": runs, "threads": 1, "time": "process CPU (bench_ops cpu_ms)",
            "host": platform.node(), "cpu": _cpu_name(),
            "bench_ops": str(exe), "bench_ops_mtime": exe.stat().st_mtime}


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
                         f"this code has {FEATURES_VERSION}: `python -m cbparams.cost_model refit --model {path}`")
    return model


def refit(model: dict) -> dict:
    """The model fitted again on its own observations (after features() changed)."""
    coef = fit(model["observations"])
    for r in model["observations"]:
        r["predicted"] = op_seconds({"coef": coef}, r["op"], r["n"], r["l"], r["c"], r["K"], r["dropped"])
    return dict(model, coef=coef, features_version=FEATURES_VERSION)


CHECK_COLUMNS = ["run", "cipher", "instance", "m", "phi", "bits", "c", "threads", "blocks", "measured_s",
                 "measured_cpu_s", "predicted_s", "error_pct", "error_cpu_pct"]


def check_runs(model: dict, paths: list[str]) -> list[dict]:
    """Prediction against run_cipher runs whose blocks all decrypted correctly."""
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
        out.append({"run": path, "cipher": doc["cipher"], "instance": doc.get("instance", ""),
                    "m": p["m"], "phi": p["phi"], "bits": p["bits"], "c": p["c"], "threads": doc.get("threads"),
                    "blocks": doc["blocks"], "measured_s": round(meas, 3), "predicted_s": round(pred["seconds"], 3),
                    "error_pct": round(100 * (pred["seconds"] - meas) / meas, 1),
                    "measured_cpu_s": round(cpu, 3) if cpu is not None else "",
                    "error_cpu_pct": round(100 * (pred["seconds"] - cpu) / cpu, 1) if cpu else ""})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.cost_model", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("calibrate", help="run bench_ops on the calibration set and fit")
    c.add_argument("--out", required=True, help="model JSON")
    c.add_argument("--bench-dir", help="where bench_ops JSONs go (default: beside --out)")
    c.add_argument("--calibration", help="JSON list of {m, bits, c} (default: the module's set)")
    c.add_argument("--reps", type=int, default=3)
    rf = sub.add_parser("refit", help="fit a model again on its own bench_ops timings")
    rf.add_argument("--model", required=True)
    pr = sub.add_parser("predict", help="predicted seconds of plan or run JSONs")
    pr.add_argument("--model", required=True)
    pr.add_argument("json", nargs="+")
    ch = sub.add_parser("check", help="prediction error on run_cipher runs")
    ch.add_argument("--model", required=True)
    ch.add_argument("--out", help="CSV of the comparison")
    ch.add_argument("runs", nargs="+", help="run JSONs or globs")
    a = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    try:
        if a.step == "calibrate":
            cal = json.loads(a.calibration) if a.calibration else []
            if not isinstance(cal, list) or any(not isinstance(e, dict) or not {"m", "bits", "c"} <= set(e)
                                                for e in cal):
                raise ParamError(f"--calibration {a.calibration}: give a JSON list of {{m, bits, c}} "
                                 f"(empty: the default set)")
            cal = cal or DEFAULT_CALIBRATION
            out = Path(a.out)
            model = calibrate(Path(a.bench_dir) if a.bench_dir else out.parent / "bench", cal, a.reps, log)
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
                r = predict_plan(model, json.loads(Path(path).read_text()))
                print(f"{path}: {r['seconds']:.2f} s predicted (one thread; "
                      + ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["by_op"].items())) + ")")
        else:
            model = load_model(a.model)
            paths = sorted({p for g in a.runs for p in (glob.glob(g, recursive=True) or [g])})
            rows = check_runs(model, paths)
            if a.out:
                with open(a.out, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=CHECK_COLUMNS)
                    w.writeheader()
                    w.writerows(rows)
            print("| run | m | bits | c | threads | blocks | measured s (wall) | measured s (CPU) | predicted s "
                  "| error vs wall | error vs CPU |")
            print("|---|---|---|---|---|---|---|---|---|---|---|")
            for r in rows:
                cpu_err = f"{r['error_cpu_pct']:+.1f}%" if r["error_cpu_pct"] != "" else "n/a"
                print(f"| {r['cipher']} {r['instance']} | {r['m']} | {r['bits']} | {r['c']} | {r['threads']} | "
                      f"{r['blocks']} | {r['measured_s']} | {r['measured_cpu_s'] or 'n/a'} | {r['predicted_s']} | "
                      f"{r['error_pct']:+.1f}% | {cpu_err} |")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
