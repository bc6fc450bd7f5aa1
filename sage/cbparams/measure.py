"""The selection's measurements: a planned ring run for a few rounds before it is chosen.

The cost model (cbparams.cost_model) ranks hundreds of rings; a measurement settles the
few that matter. measure() runs the instance on the ring at its planned chain (the plan's
bits and c, so the rounds run on the primes the whole circuit starts with), every block
the ring holds, `rounds` rounds, at the selection's threads, with decryption checked by
run_cipher itself (a wrong block is an error, never a time). The time of those rounds
scales to the whole circuit by the cost model's ratio of the two, each priced on its own
operation counts (the plan's, and the short run's, at the same chain):

    measured_latency_s = short_s * predicted(all rounds) / predicted(short rounds)

so the model supplies only the shape across rounds (later rounds run on fewer primes),
and the machine the scale. measured_block_s = measured_latency_s / blocks.

dominated() is the rule the selection keeps: a ring another measured ring beats on both
latency and time per block is not selectable, whatever the objective.

>>> rows = [{"m": 1, "measured_latency_s": 9.7, "measured_block_s": 3.2},
...         {"m": 2, "measured_latency_s": 9.6, "measured_block_s": 0.08},
...         {"m": 3, "measured_latency_s": 4.0, "measured_block_s": 0.5}]
>>> [(r["m"], by["m"]) for r in rows if (by := dominated(r, rows))]
[(1, 2)]
"""
from __future__ import annotations

import json
from pathlib import Path

from . import cost_model, planner, runner
from .errors import ParamError

#: The columns a measurement adds to ranked.csv and selected.csv.
COLUMNS = ["measured_latency_s", "measured_block_s", "measured_rounds", "measured_rounds_s", "measured_threads",
           "measured_file"]


def measure_path(measured_dir: str | Path, cipher: str, packing: str, m: int, bits: int, c: int, hwt: int,
                 rounds: int, threads: int) -> Path:
    return (Path(measured_dir) / cipher / packing
            / f"m{int(m)}_bits{int(bits)}_c{int(c)}_hwt{int(hwt)}_r{int(rounds)}_t{int(threads)}.json")


def run_short(cipher: str, packing: str, m: int, bits: int, c: int, hwt: int, rounds: int, threads: int,
              seed: int, out: Path, timeout: float = 3600) -> dict:
    """run_cipher for `rounds` rounds at the chain (bits, c), kept in `out` and reused while
    newer than build/bin/run_cipher; RunError when run_cipher fails or a block is wrong."""
    exe = runner.find_executable("run_cipher")
    if out.exists() and out.stat().st_mtime > exe.stat().st_mtime:
        doc = json.loads(out.read_text())
        if doc.get("correct") and "timings" in doc:
            return doc
    out.parent.mkdir(parents=True, exist_ok=True)
    args = [*planner.plan_args(cipher, m, hwt, c, None, seed, rounds, packing), "--bits", bits,
            "--threads", threads]
    return runner.run_json("run_cipher", args, timeout=timeout, out=out)


def scale_to_all_rounds(model: dict, short: dict, full_plan: dict, threads: int) -> float:
    """The short run's rounds time scaled to the whole circuit (module doc)."""
    part = cost_model.predict_plan(model, short, threads=threads)["seconds"]
    whole = cost_model.predict_plan(model, full_plan, threads=threads)["seconds"]
    if part <= 0:
        raise ParamError(f"the cost model prices the short run of m={short['params']['m']} at {part} s: "
                         "calibrate it again (cost_model calibrate)")
    return float(short["timings"]["total_s"]) * whole / part


def measure(row: dict, full_plan: dict, model: dict, p: dict, measured_dir: str | Path) -> dict:
    """The measured_* columns of one planned ring (row: a ranked.csv row; full_plan: its
    plan JSON)."""
    rounds = min(int(p["measure_rounds"]), int(full_plan["rounds"]))
    threads = int(p["threads"])
    out = measure_path(measured_dir, row["cipher"], row["packing"], row["m"], row["bits"], row["c"], row["hwt"],
                       rounds, threads)
    short = run_short(row["cipher"], row["packing"], int(row["m"]), int(row["bits"]), int(row["c"]),
                      int(row["hwt"]), rounds, threads, int(p["seed"]), out)
    latency = scale_to_all_rounds(model, short, full_plan, threads)
    return {"measured_latency_s": round(latency, 3), "measured_block_s": round(latency / int(row["blocks"]), 5),
            "measured_rounds": rounds, "measured_rounds_s": round(float(short["timings"]["total_s"]), 3),
            "measured_threads": threads, "measured_file": str(out)}


def dominated(row: dict, rows: list[dict]):
    """The first measured row that beats `row` on both measured latency and time per
    block (at least as good on both, better on one), or None."""
    a, b = row.get("measured_latency_s"), row.get("measured_block_s")
    if a in (None, "") or b in (None, ""):
        return None
    for other in rows:
        x, y = other.get("measured_latency_s"), other.get("measured_block_s")
        if other is row or x in (None, "") or y in (None, ""):
            continue
        if float(x) <= float(a) and float(y) <= float(b) and (float(x) < float(a) or float(y) < float(b)):
            return other
    return None
