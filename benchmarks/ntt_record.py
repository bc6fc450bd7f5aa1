#!/usr/bin/env python3
"""One ring's transforms as a JSON record for `make benchmarks` (benchmarks/registry.yaml: transforms).

bench_ntt prints one line per (prime size, algorithm) after checking that configuration's
values (three roots by Horner's rule, inverse then forward) and exits 1 on a wrong one; this
runs it for one ring and writes its lines as a record, "correct": true only when bench_ntt
exited 0 having printed every line.

    benchmarks/ntt_record.py BENCH_NTT REPS M --json OUT

The record: m, phi, and per prime size (`fast`: the IFMA kernels' size, 50 bits, when the
build has them, else 60; `p60`: 60 bits) per algorithm (bluestein, prime_factor,
negacyclic) forward_ms, inverse_ms (medians), fwd_min_ms, inv_min_ms, setup_ms, cost (the
operation count CyclotomicTransform compares) and chosen (1 for CyclotomicTransform's pick).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

FIELDS = ("forward_ms", "inverse_ms", "fwd_min_ms", "inv_min_ms", "setup_ms", "cost")


def parse(text: str, m: int) -> dict:
    """bench_ntt's lines for ring m as a record (without "correct")."""
    record: dict = {"m": m}
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if not lines or lines[0][0] != "m":
        raise ValueError(f"bench_ntt printed no header line: {text[:200]!r}")
    for cells in lines[1:]:
        if len(cells) != 11 or int(cells[0]) != m:
            raise ValueError(f"unexpected bench_ntt line for m={m}: {' '.join(cells)!r}")
        record["phi"] = int(cells[1])
        size = "fast" if cells[3] == "yes" else "p60"
        algorithm = cells[4].rstrip("*")
        entry = {k: float(v) for k, v in zip(FIELDS, cells[5:])}
        entry["chosen"] = 1 if cells[4].endswith("*") else 0
        record.setdefault(size, {})[algorithm] = entry
    if "fast" not in record:  # no IFMA: the 60-bit prime is the fast one
        record["fast"] = record["p60"]
    return record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench_ntt")
    ap.add_argument("reps", type=int)
    ap.add_argument("m", type=int)
    ap.add_argument("--json", required=True)
    args = ap.parse_args(argv)
    if args.reps < 1 or args.m < 3:
        print(f"ntt_record: reps={args.reps} must be >= 1 and m={args.m} >= 3", file=sys.stderr)
        return 2
    run = subprocess.run([args.bench_ntt, str(args.reps), str(args.m)], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"ntt_record: {args.bench_ntt} exited {run.returncode} (a transform's values were wrong, "
              f"or it could not run): no record", file=sys.stderr)
        return 1
    record = parse(run.stdout, args.m)
    record["correct"] = True  # bench_ntt checked every configuration it printed and exited 0
    with open(args.json, "w") as fh:
        json.dump(record, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
