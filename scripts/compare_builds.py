"""Two builds of the runners against each other on p = 2's plans and seeded runs.

    python3 scripts/compare_builds.py OLD_BUILD NEW_BUILD [--out DIR]

Runs the same `run_cipher` requests with each build's binaries (planned chains of AES-128 at
m=4369 and m=53261, Vision, MiMC, Chaghri, bit-sliced AES; seeded runs of AES, MiMC and
Vision in both encryptions) and compares the records field by field, leaving out what a
second run cannot repeat: timings, memory figures, the thread count, and the `p` field a
build without prime-field support does not write. The plans (bits, chains tried, round
capacities, operation counts) and the runs (capacities per round, outputs, correctness)
must be identical: a change that keeps p = 2 word for word leaves no difference. Exit
status 1 and the differing fields when any record differs.

An old build comes from a worktree of the old commit (`git worktree add ../old COMMIT`,
then `cmake -S runners -B build` there).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REQUESTS = {
    "aes4369_plan": ["--cipher", "aes128", "--m", "4369", "--plan"],
    "aes53261_plan": ["--cipher", "aes128", "--m", "53261", "--plan"],
    "vision_plan": ["--cipher", "vision", "--m", "4369", "--plan"],
    "mimc_plan": ["--cipher", "mimc", "--m", "3577", "--plan"],
    "chaghri_plan": ["--cipher", "chaghri", "--m", "9271", "--plan"],
    "aes_bitsliced_plan": ["--cipher", "aes128", "--m", "257", "--packing", "bit-sliced", "--plan"],
    "aes4369_run": ["--cipher", "aes128", "--m", "4369", "--seed", "7"],
    "aes257_bitsliced_run": ["--cipher", "aes128", "--m", "257", "--rounds", "2", "--packing", "bit-sliced", "--seed", "3"],
    "aes257_public_run": ["--cipher", "aes128", "--m", "257", "--rounds", "2", "--seed", "3", "--encryption", "public"],
    "mimc_run": ["--cipher", "mimc", "--m", "3577", "--seed", "5"],
    "vision_run": ["--cipher", "vision", "--m", "4369", "--rounds", "2", "--seed", "4"],
}


def comparable(x, path=""):
    """The record without what a repetition cannot reproduce."""
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if k in ("timings", "invalid_timings", "op_profile", "threads") or k.endswith("_s"):
                continue
            if "seconds" in k or "memory" in k or "rss" in k:
                continue
            if (path.endswith("per_round") and k == "ops") or (path.endswith("subkeys") and k == "why"):
                continue  # each step's seconds; the memory available when the run started
            if path.endswith("params") and k == "p":
                continue  # written from the prime-field engine on (2 for every run here)
            out[k] = comparable(v, f"{path}/{k}")
        return out
    if isinstance(x, list):
        return [comparable(v, path) for v in x]
    return x


def run_all(build: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for name, args in REQUESTS.items():
        cmd = [str(build / "bin" / "run_cipher"), "--threads", "1", "--plan-cache", "", "--json", str(out / f"{name}.json"), *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            sys.exit(f"compare_builds: {build}: {name} failed ({proc.returncode}): {proc.stderr.strip()[-300:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--out", type=Path, default=Path("results/compare_builds"))
    a = ap.parse_args()
    for b in (a.old, a.new):
        if not (b / "bin" / "run_cipher").exists():
            sys.exit(f"compare_builds: {b}/bin/run_cipher: no such file (build the runners there first)")
    run_all(a.old, a.out / "old")
    run_all(a.new, a.out / "new")
    differ = 0
    for name in REQUESTS:
        old = json.loads((a.out / "old" / f"{name}.json").read_text())
        new = json.loads((a.out / "new" / f"{name}.json").read_text())
        x, y = comparable(old), comparable(new)
        bits = new.get("plan", {}).get("bits", new["params"]["bits"])
        if x == y:
            print(f"same  {name}: {bits} bits, correct {new.get('correct', '-')}")
        else:
            differ += 1
            fields = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            print(f"DIFF  {name}: {', '.join(fields)}")
    print(f"{len(REQUESTS) - differ} same, {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
