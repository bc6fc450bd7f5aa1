"""The transciphering leaderboard's ring selection (issue 46 item 5).

For one leaderboard row (a keystream entry of the catalog, or a block cipher in CTR mode)
and its candidate rings m, each ring is planned by the engine itself::

    run_cipher --instance ID [--mode ctr] --m M --depth-after L [--blocks B]
               [--security-target T --security-models helib,coresvp] [--c C] [--hwt H] --plan --json -

and judged from that plan alone:

- *security*: HElib's formula as the engine reports it (``params.security``) and the
  project's core-SVP figure of the same chain (:func:`cbparams.security.coresvp_of_chain`
  of phi, log2 Q, hwt: ciphertext and special primes, as every core-SVP figure of the
  pipeline); a ring is kept only when both reach the target (the engine's one target
  search already meets both, --security-models; the judgement checks its result);
- *cost*: the plan's ``phi x log2 Q`` (the size of one ciphertext with its key-switching
  primes, the simplest honest proxy of a session's time: every stage is a fixed number of
  operations on such ciphertexts), or with objective ``throughput`` that size per block
  (the blocks the run holds: min(cap, slots));
- the kept ring of least cost is selected. Every candidate's verdict (kept, or refused and
  why) goes into the selection JSON beside the plan's facts.

Nothing here computes a ring's facts: phi, slots, the chain, log2 Q, the key weight and
HElib's figure are the engine's (cbparams.runner), core-SVP is cbparams.security's.

>>> Row.from_config({"name": "hera5", "instance": "hera5p17", "rings": [256]}, {"depth_after": 1}).depth_after
1
>>> Row.from_config({"name": "x", "instance": "hera5p17", "rings": []}, {})
Traceback (most recent call last):
...
cbparams.transcipher.LeaderboardError: transciphering.rows[x].rings: [] is empty: give at least one candidate m
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from . import runner, security
from .errors import ParamError

#: The selection's cost proxies (module docstring).
OBJECTIVES = ("latency", "throughput")


class LeaderboardError(ParamError):
    """A leaderboard row or setting that cannot be run (names the value and the constraint)."""


@dataclass
class Row:
    """One leaderboard row: what run_cipher runs and where it may run it.

    name: the row's label (file names, the table's entry column)
    instance: the catalog's instance id (run_cipher --instance; --list-ciphers)
    rings: candidate cyclotomic indices m (power-of-two m for F_p, odd m for GF(2))
    depth_after: L, the products after the subtraction the chain is planned for
    blocks: cap on the blocks per session (None: every slot)
    security_target: T in bits (0: none, the CI config's toy rings)
    c, hwt: key-switching digits and key weight (None: the engine's choice for T)
    rounds: reduced rounds (block ciphers in CTR mode only; None: the cipher's)
    objective: latency or throughput (the cost proxy)
    """

    name: str
    instance: str
    rings: list
    depth_after: int = 1
    blocks: int | None = None
    security_target: float = 128.0
    c: int | None = None
    hwt: int | None = None
    rounds: int | None = None
    objective: str = "latency"
    seed: int = 1
    nonce: int = 0
    counter: int = 0

    @classmethod
    def from_config(cls, row: dict, defaults: dict) -> "Row":
        """A row of the config's transciphering.rows with the section's defaults filled in."""
        name = row.get("name", "?")
        where = f"transciphering.rows[{name}]"
        merged = {k: defaults[k] for k in ("depth_after", "security_target", "objective", "seed", "nonce",
                                           "counter") if k in defaults}
        merged.update(row)
        rings = merged.get("rings")
        if isinstance(rings, dict):  # {from, to, step}: a range of m
            rings = list(range(int(rings["from"]), int(rings["to"]) + 1, int(rings.get("step", 1))))
        if not rings:
            raise LeaderboardError(f"{where}.rings: {rings!r} is empty: give at least one candidate m")
        merged["rings"] = [int(m) for m in rings]
        for key in ("depth_after", "blocks", "c", "hwt", "rounds"):
            v = merged.get(key)
            if v is not None and (not isinstance(v, int) or v < (0 if key in ("depth_after", "hwt") else 1)):
                raise LeaderboardError(f"{where}.{key}: {v!r} must be an integer >= "
                                       f"{0 if key in ('depth_after', 'hwt') else 1}")
        if merged.get("objective", "latency") not in OBJECTIVES:
            raise LeaderboardError(f"{where}.objective: {merged['objective']!r} is not one of {OBJECTIVES}")
        known = set(cls.__dataclass_fields__)
        extra = set(merged) - known
        if extra:
            raise LeaderboardError(f"{where}: unknown key(s) {sorted(extra)}: a row takes {sorted(known)}")
        return cls(**merged)


def catalog_kind(instance: str) -> dict:
    """The catalog's entry for an instance id: {cipher, kind, p, n, s, block_bits, rounds}
    (run_cipher --list-ciphers); LeaderboardError naming the ids it has."""
    listing = runner.run_json("run_cipher", ["--list-ciphers"], timeout=120)
    ids = []
    for entry in listing["ciphers"]:
        for inst in entry["instances"]:
            ids.append(inst["id"])
            if inst["id"] == instance:
                return dict(cipher=entry["name"], kind=entry["kind"], p=inst["p"], n=inst["n"], s=inst["s"],
                            block_bits=inst["block_bits"], rounds=inst["rounds"])
    raise LeaderboardError(f"instance {instance!r} is not in run_cipher's catalog: it has {ids}")


def run_args(row: Row, kind: str, m: int, *, c: int | None = None, hwt: int | None = None,
             target: bool = True) -> list:
    """run_cipher's arguments for the row at ring m (all but --json, --plan, --plan-cache).

    >>> run_args(Row("a", "aes", [257], rounds=2, blocks=1), "block", 257)
    ['--instance', 'aes', '--m', 257, '--seed', 1, '--nonce', 0, '--counter', 0, '--depth-after', 1, '--mode', 'ctr', '--blocks', 1, '--rounds', 2, '--security-target', 128.0, '--security-models', 'helib,coresvp']
    """
    args = ["--instance", row.instance, "--m", m, "--seed", row.seed, "--nonce", row.nonce,
            "--counter", row.counter, "--depth-after", row.depth_after]
    if kind == "block":
        if not runner.supports("run_cipher", "--mode"):
            raise LeaderboardError(f"transciphering.rows[{row.name}]: {row.instance} is a block cipher and this "
                                   "run_cipher has no --mode ctr: rebuild it (make build) or drop the row")
        args += ["--mode", "ctr"]
    elif row.rounds is not None:
        raise LeaderboardError(f"transciphering.rows[{row.name}].rounds: {row.rounds}: a keystream entry runs "
                               "its cipher's rounds (reduced rounds are for block ciphers in CTR mode)")
    if row.blocks is not None:
        args += ["--blocks", row.blocks]
    if row.rounds is not None:
        args += ["--rounds", row.rounds]
    c = row.c if c is None else c
    hwt = row.hwt if hwt is None else hwt
    if c is not None:
        args += ["--c", c]
    if hwt is not None:
        args += ["--hwt", hwt]
    if target and row.security_target:  # one search meets both models judge() checks
        args += ["--security-target", row.security_target, "--security-models", "helib,coresvp"]
    return args


def judge(row: Row, m: int, plan: dict, coresvp=security.coresvp_of_chain) -> dict:
    """The verdict on one candidate ring from its plan record: the plan's facts, both
    security figures, the cost proxy, kept or not and why.

    >>> plan = {"params": {"m": 256, "phi": 128, "log2_q": 952.0, "bits": 682, "hwt": 120, "c": 3,
    ...         "security": 19.3, "slots": 128}, "blocks": 128, "capacity": {"depth_left": 1}}
    >>> v = judge(Row("p", "pasta4p17", [256], security_target=128), 256, plan, coresvp=lambda *a: 12.0)
    >>> v["kept"], v["reason"]
    (False, 'HElib 19.3 < 128 bits; core-SVP 12.0 < 128 bits')
    >>> v = judge(Row("p", "pasta4p17", [256], security_target=0), 256, plan, coresvp=lambda *a: 12.0)
    >>> v["kept"], v["reason"], v["cost"]
    (True, 'no security target', 121856.0)
    """
    p = plan["params"]
    helib = float(p["security"])
    svp = float(coresvp(int(p["phi"]), float(p["log2_q"]), int(p["hwt"])))
    blocks = int(plan.get("blocks") or p["slots"])
    size = int(p["phi"]) * float(p["log2_q"])
    verdict = dict(m=m, phi=int(p["phi"]), slots=int(p["slots"]), blocks=blocks, bits=int(p["bits"]),
                   log2_q=float(p["log2_q"]), c=int(p["c"]), hwt=int(p["hwt"]), security_helib=helib,
                   security_coresvp=svp, depth_left=plan.get("capacity", {}).get("depth_left"),
                   cost=size if row.objective == "latency" else size / blocks)
    short = [f"{label} {v:.1f} < {row.security_target:g} bits" for label, v in (("HElib", helib), ("core-SVP", svp))
             if row.security_target and v < row.security_target]
    verdict["kept"] = not short
    verdict["reason"] = "; ".join(short) if short else (
        f"HElib {helib:.1f} and core-SVP {svp:.1f} >= {row.security_target:g} bits" if row.security_target
        else "no security target")
    return verdict


def plan_ring(row: Row, kind: str, m: int, plan_cache: str | None = None, timeout: float = 3600) -> dict:
    """The engine's plan of the row at ring m (run_cipher --plan), or {"error": ...} when
    run_cipher refuses the ring (e.g. no chain at the target: the message says why)."""
    args = run_args(row, kind, m) + ["--plan"]
    if plan_cache is not None:
        args += ["--plan-cache", plan_cache]
    try:
        return runner.run_json("run_cipher", args, timeout=timeout)
    except runner.RunError as err:
        return {"error": str(err)}


def select(row: Row, plan_cache: str | None = None, planner=None) -> dict:
    """Plan every candidate ring of the row and pick the kept one of least cost.

    planner(row, kind, m) -> plan record (default: plan_ring with plan_cache). Raises
    LeaderboardError when no ring is kept (the message lists each ring's reason)."""
    info = catalog_kind(row.instance)
    planner = planner or (lambda r, k, m: plan_ring(r, k, m, plan_cache))
    return choose(row, info, {m: planner(row, info["kind"], m) for m in row.rings})


def choose(row: Row, info: dict, plans: dict, coresvp=security.coresvp_of_chain) -> dict:
    """The selection from the candidates' plans (select's second half, separate for tests).

    >>> mk = lambda m, phi, q, sec: {"params": {"m": m, "phi": phi, "log2_q": q, "bits": q - 100, "hwt": 120,
    ...     "c": 3, "security": sec, "slots": phi}, "blocks": phi, "capacity": {"depth_left": 1}}
    >>> row = Row("h", "hera5p17", [256, 512, 1024], security_target=100)
    >>> s = choose(row, {"kind": "keystream"}, {256: mk(256, 128, 900, 20), 512: {"error": "no chain"},
    ...            1024: mk(1024, 512, 900, 120)}, coresvp=lambda phi, q, h: 4 * phi / 5)
    >>> s["selected"]["m"], [(c["m"], c["kept"]) for c in s["candidates"]]
    (1024, [(256, False), (512, False), (1024, True)])
    >>> s["candidates"][1]["reason"]
    'refused by run_cipher: no chain'
    >>> choose(row, {"kind": "keystream"}, {256: mk(256, 128, 900, 20)}, coresvp=lambda *a: 1.0)
    Traceback (most recent call last):
    ...
    cbparams.transcipher.LeaderboardError: transciphering.rows[h]: no candidate ring reaches the target: m=256: HElib 20.0 < 100 bits; core-SVP 1.0 < 100 bits
    """
    candidates = []
    for m, plan in plans.items():
        if "error" in plan:
            candidates.append(dict(m=m, kept=False, reason=f"refused by run_cipher: {plan['error']}"))
        else:
            candidates.append(judge(row, m, plan, coresvp))
    kept = [c for c in candidates if c["kept"]]
    if not kept:
        reasons = "; ".join(f"m={c['m']}: {c['reason']}" for c in candidates)
        raise LeaderboardError(f"transciphering.rows[{row.name}]: no candidate ring reaches the target: {reasons}")
    best = min(kept, key=lambda c: (c["cost"], c["m"]))
    for c in kept:
        if c is not best:
            c["reason"] += f"; cost {c['cost']:.4g} > the selected m={best['m']}'s {best['cost']:.4g}"
    best["reason"] += f"; least cost ({row.objective}: phi x log2 Q{' / blocks' if row.objective == 'throughput' else ''})"
    return dict(row=asdict(row), catalog=info, objective=row.objective, candidates=candidates, selected=best)


def run_selected(selection: dict, out: str | Path, plan_cache: str | None = None, threads: int | None = None,
                 timeout: float = 3 * 3600) -> dict:
    """Run the row on its selected ring at the selected c and hwt (the plan's); the record
    gets the selection beside run_cipher's own fields. RunError if run_cipher fails or a
    block is wrong (run_cipher exits non-zero then); LeaderboardError unless correct is true."""
    row = Row(**selection["row"])
    sel = selection["selected"]
    args = run_args(row, selection["catalog"]["kind"], sel["m"], c=sel["c"], hwt=sel["hwt"], target=False)
    if plan_cache is not None:
        args += ["--plan-cache", plan_cache]
    if threads is not None:
        args += ["--threads", threads]
    record = runner.run_json("run_cipher", args, timeout=timeout, out=out)
    if record.get("correct") is not True:
        raise LeaderboardError(f"transciphering.rows[{row.name}]: run_cipher's record at m={sel['m']} has "
                               f"correct={record.get('correct')!r}: its timings are not used")
    record["leaderboard"] = dict(row=selection["row"], catalog=selection["catalog"], selected=sel)
    Path(out).write_text(json.dumps(record, indent=1) + "\n")
    return record


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.transcipher", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select", help="plan the row's candidate rings and select one")
    s.add_argument("--row-json", required=True, help="the row with its defaults, as JSON")
    s.add_argument("--out", required=True)
    s.add_argument("--plan-cache", default=None)
    r = sub.add_parser("run", help="run the selected ring")
    r.add_argument("--selection", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--plan-cache", default=None)
    r.add_argument("--threads", type=int, default=None)
    a = ap.parse_args(argv)
    try:
        if a.cmd == "select":
            spec = json.loads(a.row_json)
            row = Row.from_config(spec["row"], spec.get("defaults", {}))
            Path(a.out).write_text(json.dumps(select(row, a.plan_cache), indent=1) + "\n")
        else:
            run_selected(json.loads(Path(a.selection).read_text()), a.out, a.plan_cache, a.threads)
    except ParamError as err:
        print(f"cbparams.transcipher: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
