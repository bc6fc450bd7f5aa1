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
- *capacity*: the plan is made for the row's depth_after products after the subtraction
  (run_cipher --depth-after) and must say so (``capacity.depth_after``, ``depth_left`` >= 0);
- *cost*: for a block cipher in CTR mode the plan's ``phi x log2 Q`` (the size of one
  ciphertext with its key-switching primes: every stage is a fixed number of operations on
  such ciphertexts); for a keystream entry, whose two packings run different operations on
  different numbers of ciphertexts, the session's **work** (:func:`work`: the plan's counted
  operations, each at the primes it ran at, in limb operations of phi words). With objective
  ``latency`` the cost is that of the session; with ``throughput`` it is per block held
  (min(cap, what the packing holds)). So the state packing (one block's state in the slots:
  fewer, rotated ciphertexts) wins on latency and the blocks packing (one block per slot:
  every slot a block) on the cost per block, as measured (docs/transciphering.md);
- the kept candidate of least cost is selected. Every candidate's verdict (kept, or refused
  and why) goes into the selection JSON beside the plan's facts, and ``runner_up`` names the
  best candidate of the other packing.

**Packings.** A keystream row compares both packings of run_cipher (``blocks``, the
default, and ``state``: --packing state) at every ring, unless it pins one (``packing``).
The state packing is planned first. The blocks packing at a ring is then planned only when
it can win: its work is at least ``phi x`` the number of operations its circuit runs
(:func:`blocks_lower_bound`: every operation runs at one prime at least, and the circuit's
operations, one ciphertext per state element, do not depend on the ring or the blocks:
every per-block matrix entry is one constant product; they are counted once by a clear
session at the smallest ring with slots). When that bound, per block under ``throughput``,
is above the best kept state candidate's cost, the blocks packing at that ring cannot
win and is not planned (its verdict says so, with the bound): Rasta's blocks packing
(hundreds of thousands of constant products a round) planned for minutes a ring.

Nothing here computes a ring's facts: phi, slots, the chain, log2 Q, the key weight and
HElib's figure are the engine's (cbparams.runner), core-SVP is cbparams.security's.

>>> Row.from_config({"name": "hera5", "instance": "hera5p17", "rings": [256]}, {"depth_after": 1}).depth_after
1
>>> Row.from_config({"name": "x", "instance": "hera5p17", "rings": []}, {})
Traceback (most recent call last):
...
cbparams.transcipher.LeaderboardError: transciphering.rows[x].rings: [] is empty: give at least one candidate m
>>> Row.from_config({"name": "x", "instance": "hera5p17", "rings": [256], "packing": "rows"}, {})
Traceback (most recent call last):
...
cbparams.transcipher.LeaderboardError: transciphering.rows[x].packing: 'rows' is not one of ('blocks', 'state')
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from . import cyclotomic, estimator_table, runner, security, security_models
from .errors import EstimatorMissing, ParamError, SecurityError

#: The selection's cost proxies (module docstring).
OBJECTIVES = ("latency", "throughput")

#: A keystream entry's packings, as run_cipher's records name them: "blocks" (the default,
#: one block per slot) and "state" (--packing state, one block's state in the slots).
PACKINGS = ("blocks", "state")

#: The planner's steps that are key switches (PlanBackend::OpCount): each raises its c digits
#: (automorph_hoisted shares them: counted as one pass over its limbs).
KEY_SWITCHES = ("relin", "automorph")

#: The Evaluator's operations a clear session counts (per_round[].counts): each is one call of
#: the backend's step of the same name, which the planner counts at one prime or more.
EVALUATOR_OPS = ("add", "add_plain", "mul", "mul_plain", "automorph")


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
    packing: a keystream row's pinned packing (PACKINGS); None: both compared
    target_models: the security models the engine's one search meets (run_cipher
        --security-models; cbparams.security_models), every one of them judged
    estimator: params.estimator's settings when target_models names the estimator
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
    packing: str | None = None
    target_models: tuple = ("helib", "coresvp")
    estimator: dict | None = None

    @classmethod
    def from_config(cls, row: dict, defaults: dict) -> "Row":
        """A row of the config's transciphering.rows with the section's defaults filled in."""
        name = row.get("name", "?")
        where = f"transciphering.rows[{name}]"
        merged = {k: defaults[k] for k in ("depth_after", "security_target", "objective", "seed", "nonce",
                                           "counter", "target_models", "estimator") if k in defaults}
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
        if merged.get("packing") is not None and merged["packing"] not in PACKINGS:
            raise LeaderboardError(f"{where}.packing: {merged['packing']!r} is not one of {PACKINGS}")
        if merged.get("objective", "latency") not in OBJECTIVES:
            raise LeaderboardError(f"{where}.objective: {merged['objective']!r} is not one of {OBJECTIVES}")
        merged["target_models"] = tuple(merged.get("target_models") or ("helib", "coresvp"))
        if "estimator" in merged["target_models"] and not merged.get("estimator"):
            raise LeaderboardError(f"{where}: target_models {list(merged['target_models'])} names the estimator "
                                   "but no estimator settings came with it (the config's params.estimator)")
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


def packings_of(row: Row, kind: str) -> list:
    """The packings the row's selection compares: a block cipher's default (None), a
    keystream row's pinned one, else both (the state packing first: select() plans it first).

    >>> packings_of(Row("h", "hera5p17", [256]), "keystream"), packings_of(Row("a", "aes", [257]), "block")
    (['state', 'blocks'], [None])
    >>> packings_of(Row("a", "aes", [257], packing="state"), "block")
    Traceback (most recent call last):
    ...
    cbparams.transcipher.LeaderboardError: transciphering.rows[a].packing: 'state': a block cipher in CTR mode runs its default packing (the packings compared are a keystream entry's)
    """
    if kind != "keystream":
        if row.packing is not None:
            raise LeaderboardError(f"transciphering.rows[{row.name}].packing: {row.packing!r}: a block cipher in CTR "
                                   "mode runs its default packing (the packings compared are a keystream entry's)")
        return [None]
    return [row.packing] if row.packing else ["state", "blocks"]


def run_args(row: Row, kind: str, m: int, *, c: int | None = None, hwt: int | None = None,
             target: bool = True, packing: str | None = None) -> list:
    """run_cipher's arguments for the row at ring m in a packing (all but --json, --plan,
    --plan-cache; "blocks" is run_cipher's default for a keystream entry, no option).

    >>> run_args(Row("a", "aes", [257], rounds=2, blocks=1), "block", 257)
    ['--instance', 'aes', '--m', 257, '--seed', 1, '--nonce', 0, '--counter', 0, '--depth-after', 1, '--mode', 'ctr', '--blocks', 1, '--rounds', 2, '--security-target', 128.0, '--security-models', 'helib,coresvp']
    >>> run_args(Row("h", "hera5p17", [256], security_target=0), "keystream", 256, packing="state")[-2:]
    ['--packing', 'state']
    """
    args = ["--instance", row.instance, "--m", m, "--seed", row.seed, "--nonce", row.nonce,
            "--counter", row.counter, "--depth-after", row.depth_after]
    if packing == "state":
        args += ["--packing", "state"]
    elif packing not in (None, "blocks"):
        raise LeaderboardError(f"transciphering.rows[{row.name}]: packing {packing!r} is not one of {PACKINGS}")
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
    if target and row.security_target:  # one search meets every model judge() checks
        args += ["--security-target", row.security_target, "--security-models", ",".join(row.target_models)]
        if "estimator" in row.target_models:
            args += ["--estimator-table", str(estimator_table.table_path(row.estimator).resolve())]
    return args


def fill_estimator(row: Row, m: int, log=None) -> None:
    """With the estimator among the row's models, its table filled for ring m before the
    search (estimator_table.search_models: the ring's ladder of log2 Q, cached estimates) at
    the row's key weight, or at each weight the engine's search tries when it has none."""
    if "estimator" not in row.target_models or not row.security_target:
        return
    log = log or (lambda *a: print(*a, file=sys.stderr))
    for hwt in ([row.hwt] if row.hwt is not None else security_models.search_weights()):
        estimator_table.search_models(list(row.target_models), m, hwt, row.security_target, row.estimator, log=log)


def work(op_counts: list, phi: int, c: int) -> float:
    """A session's work in limb operations (phi words each) from its plan's op_counts
    (PlanBackend::OpCount: op, primes, dropped, count): each step touches every limb of its
    operand at least once (a mod switch the dropped limbs too), a key switch (KEY_SWITCHES)
    each of its c digits' limbs; the level decisions (add_decide, targets) count as one limb.
    A proxy of the session's time that compares packings: the same steps, priced alike, on
    however many ciphertexts a packing has (sage/cbparams/cost_model.py prices them in
    seconds once calibrated on the machine; the leaderboard does not calibrate).

    >>> work([{"op": "mul_plain", "primes": 3, "count": 10}, {"op": "relin", "primes": 3, "count": 2},
    ...       {"op": "mod_switch", "primes": 2, "dropped": 1, "count": 1}, {"op": "targets", "primes": 9, "count": 1}],
    ...      phi=100, c=2)
    4600.0
    """
    limbs = 0
    for o in op_counts:
        op, primes, count = o["op"], int(o["primes"]), int(o["count"])
        if op in ("add_decide", "targets"):
            per = 1
        elif op == "mod_switch":
            per = primes + int(o.get("dropped", 0))
        else:
            per = primes * (c if op in KEY_SWITCHES else 1)
        limbs += count * per
    return float(phi) * limbs


def blocks_lower_bound(counts: dict, phi: int) -> float:
    """A lower bound on the blocks packing's work at a ring of dimension phi: work() counts
    each of the circuit's operations (counts: the Evaluator's, EVALUATOR_OPS, from a clear
    session) at one prime or more, weight one or more, and more steps besides.

    >>> blocks_lower_bound({"add": 5, "mul_plain": 7, "mul": 1, "add_plain": 0, "automorph": 0}, 10)
    130.0
    """
    return float(phi) * sum(int(counts.get(k, 0)) for k in EVALUATOR_OPS)


def judge(row: Row, m: int, plan: dict, coresvp=None, packing: str | None = None) -> dict:
    """The verdict on one candidate (ring m, packing) from its plan record: the plan's facts,
    both security figures, the capacity for depth_after, the cost, kept or not and why.
    packing None: a block cipher in CTR mode (cost phi x log2 Q); else a keystream
    packing (cost work(), from the plan's op_counts).

    >>> plan = {"params": {"m": 256, "phi": 128, "log2_q": 952.0, "bits": 682, "hwt": 120, "c": 3,
    ...         "security": 19.3, "slots": 128}, "blocks": 128, "capacity": {"depth_after": 1, "depth_left": 1}}
    >>> v = judge(Row("p", "pasta4p17", [256], security_target=128), 256, plan, coresvp=lambda *a: 12.0)
    >>> v["kept"], v["reason"]
    (False, 'HElib 19.3 < 128 bits; core-SVP 12.0 < 128 bits')
    >>> v = judge(Row("p", "pasta4p17", [256], security_target=0), 256, plan, coresvp=lambda *a: 12.0)
    >>> v["kept"], v["reason"], v["cost"]
    (True, 'no security target', 121856.0)
    >>> plan["plan"] = {"op_counts": [{"op": "mul", "primes": 4, "count": 3}]}
    >>> svp = lambda *a: 12.0
    >>> judge(Row("p", "pasta4p17", [256], security_target=0), 256, plan, svp, packing="state")["cost"]
    1536.0
    >>> judge(Row("p", "pasta4p17", [256], security_target=0, depth_after=2), 256, plan, svp)["reason"]
    "planned for 1 products after, not the row's 2"
    """
    p = plan["params"]
    helib = float(p["security"])
    coresvp = coresvp or security.coresvp_of_chain  # asked at the call (tests replace it)
    svp = float(coresvp(int(p["phi"]), float(p["log2_q"]), int(p["hwt"])))
    blocks = int(plan.get("blocks") or p["slots"])
    if packing is None:
        size = int(p["phi"]) * float(p["log2_q"])
    else:
        ops = (plan.get("plan") or {}).get("op_counts")
        if not ops:
            raise LeaderboardError(f"transciphering.rows[{row.name}]: run_cipher's plan at m={m} ({packing}) has no "
                                   "plan.op_counts: rebuild run_cipher (make build)")
        size = work(ops, int(p["phi"]), int(p["c"]))
    cap = plan.get("capacity", {})
    verdict = dict(m=m, packing=packing, phi=int(p["phi"]), slots=int(p["slots"]), blocks=blocks, bits=int(p["bits"]),
                   log2_q=float(p["log2_q"]), c=int(p["c"]), hwt=int(p["hwt"]), security_helib=helib,
                   security_coresvp=svp, depth_left=cap.get("depth_left"),
                   cost=size if row.objective == "latency" else size / blocks)
    if packing is not None:
        verdict["work"] = size
    short = [f"{label} {v:.1f} < {row.security_target:g} bits" for label, v in (("HElib", helib), ("core-SVP", svp))
             if row.security_target and v < row.security_target]
    if "estimator" in row.target_models and row.security_target:
        # the figure the engine's search read (the table at the chain's log2 Q, soundly rounded up)
        rows = estimator_table.read(estimator_table.table_path(row.estimator))
        est = estimator_table.figure(rows, int(p["phi"]), int(p["hwt"]), float(p["log2_q"]))
        verdict["security_estimator"] = est
        if est is None or est < row.security_target:
            short.append(f"the estimator {'has no figure' if est is None else f'{est:.1f} <'} "
                         f"{row.security_target:g} bits")
    if cap.get("depth_after", row.depth_after) != row.depth_after or (cap.get("depth_left") or 0) < 0:
        short.append(f"planned for {cap.get('depth_after')} products after, not the row's {row.depth_after}")
    verdict["kept"] = not short
    verdict["reason"] = "; ".join(short) if short else (
        f"HElib {helib:.1f} and core-SVP {svp:.1f} >= {row.security_target:g} bits" if row.security_target
        else "no security target")
    return verdict


def plan_ring(row: Row, kind: str, m: int, plan_cache: str | None = None, timeout: float = 3600,
              packing: str | None = None) -> dict:
    """The engine's plan of the row at ring m in a packing (run_cipher --plan), or
    {"error": ...} when run_cipher refuses it (e.g. no chain at the target: the message says why)."""
    try:
        fill_estimator(row, m)
    except (SecurityError, EstimatorMissing) as err:
        return {"error": f"the estimator's table at m={m}: {err}"}
    args = run_args(row, kind, m, packing=packing) + ["--plan"]
    if plan_cache is not None:
        args += ["--plan-cache", plan_cache]
    try:
        return runner.run_json("run_cipher", args, timeout=timeout)
    except runner.RunError as err:
        return {"error": str(err)}


def count_ring(p: int) -> int:
    """The smallest ring with slots at p that run_cipher takes (3 <= m; odd m or a power of two;
    F_p slots where p = 1 mod m): where the blocks packing's operations are counted.

    >>> count_ring(2), count_ring(65537), count_ring(7)
    (3, 4, 3)
    """
    m = 3
    while not ((p == 2 and m % 2) or (p > 2 and p % m == 1 and (m % 2 or m & (m - 1) == 0))):
        m += 1
    return m


def blocks_counts(row: Row, info: dict) -> dict:
    """The blocks packing's operations (EVALUATOR_OPS, summed over the rounds) from a clear
    session of one block at count_ring(p), checked (correct true); RunError otherwise."""
    m = count_ring(int(info["p"]))
    args = ["--instance", row.instance, "--m", m, "--blocks", 1, "--seed", row.seed, "--nonce", row.nonce,
            "--counter", row.counter, "--depth-after", row.depth_after, "--backend", "clear"]
    rec = runner.run_json("run_cipher", args, timeout=600)
    if rec.get("correct") is not True or rec.get("packing") != "blocks":
        raise runner.RunError(f"run_cipher's clear session of {row.instance} at m={m}: correct={rec.get('correct')!r}, "
                              f"packing={rec.get('packing')!r}")
    counts = {k: 0 for k in EVALUATOR_OPS}
    for r in rec["per_round"]:
        for k in EVALUATOR_OPS:
            counts[k] += int(r["counts"].get(k, 0))
    return dict(m=m, counts=counts)


def select(row: Row, plan_cache: str | None = None, planner=None, counter=None) -> dict:
    """Plan every candidate (ring, packing) of the row and pick the kept one of least cost.

    planner(row, kind, m, packing) -> plan record (default: plan_ring with plan_cache);
    counter(row, info) -> blocks_counts' {m, counts} (default blocks_counts). A keystream row
    comparing both packings plans the state packing at every ring first, then the blocks
    packing at the rings where blocks_lower_bound can beat the best kept state candidate
    (module docstring). Raises LeaderboardError when nothing is kept (each reason listed)."""
    info = catalog_kind(row.instance)
    kind = info["kind"]
    planner = planner or (lambda r, k, m, pk: plan_ring(r, k, m, plan_cache, packing=pk))
    counter = counter or blocks_counts
    packs = packings_of(row, kind)
    plans = {}
    for m in row.rings:
        if "state" in packs:
            plans[(m, "state")] = planner(row, kind, m, "state")
    best_state = None
    if packs == ["state", "blocks"]:
        kept = [judge(row, m, pl, packing="state") for (m, _), pl in plans.items() if "error" not in pl]
        kept = [v for v in kept if v["kept"]]
        best_state = min(kept, key=lambda v: (v["cost"], v["m"])) if kept else None
    counted = None
    for m in row.rings:
        for pk in packs:
            if pk == "state":
                continue
            if best_state is not None:
                counted = counted or counter(row, info)
                skip = skip_blocks(row, m, best_state, counted, plans.get((m, "state")), int(info["p"]))
                if skip is not None:
                    plans[(m, pk)] = skip
                    continue
            plans[(m, pk)] = planner(row, kind, m, pk)
    ordered = {(m, pk): plans[(m, pk)] for m in row.rings for pk in packs}
    selection = choose(row, info, ordered)
    if counted is not None:
        selection["blocks_counts"] = counted
    return selection


def skip_blocks(row: Row, m: int, best: dict, counted: dict, state_plan: dict | None, p: int = 2) -> dict | None:
    """{"skipped": reason, "lower_bound": cost} when the blocks packing at ring m cannot beat
    the kept state candidate `best` (its cost above best's, by blocks_lower_bound), else
    None (plan it). The ring's phi and slots are the state plan's at m (the same ring) or,
    where the state packing was refused there, the ring's own at plaintext modulus p
    (cyclotomic.basic_facts: slots = phi / d); a ring it cannot describe: None.

    >>> best = {"m": 53261, "cost": 1000.0}
    >>> st = {"params": {"phi": 10, "slots": 4}}
    >>> skip_blocks(Row("r", "rasta5", [53261]), 53261, best, {"m": 3, "counts": {"mul_plain": 101}}, st)["lower_bound"]
    1010.0
    >>> skip_blocks(Row("r", "rasta5", [53261]), 53261, best, {"m": 3, "counts": {"mul_plain": 100}}, st) is None
    True
    >>> skip_blocks(Row("r", "rasta5", [53261], objective="throughput"), 53261, best, {"m": 3, "counts": {"mul_plain": 101}}, st) is None
    True
    >>> skip_blocks(Row("p", "pasta3p17", [32]), 32, best, {"m": 4, "counts": {"mul_plain": 101}}, {"error": "x"}, 65537)["lower_bound"]
    1616.0
    """
    if state_plan and "error" not in state_plan:
        phi, slots = int(state_plan["params"]["phi"]), int(state_plan["params"]["slots"])
    else:  # the state packing refused at m: the ring's own facts
        try:
            _, phi, d = cyclotomic.basic_facts(m, p)
        except ParamError:
            return None
        slots = phi // d
    bound = blocks_lower_bound(counted["counts"], phi)
    blocks = min(row.blocks, slots) if row.blocks else slots
    lb = bound if row.objective == "latency" else bound / blocks
    if lb <= best["cost"]:  # a tie could still win on the tie-break (m, then packing): plan it
        return None
    ops = sum(counted["counts"].values())
    return dict(skipped=(f"not planned: its work is at least phi x its {ops} operations (counted by a clear session "
                         f"at m={counted['m']}) = {bound:.4g} limb operations"
                         + ("" if row.objective == "latency" else f", {lb:.4g} per block over {blocks}")
                         + f", above the state packing's m={best['m']} cost {best['cost']:.4g}"),
                lower_bound=lb)


def choose(row: Row, info: dict, plans: dict, coresvp=None) -> dict:
    """The selection from the candidates' plans (select's second half, separate for tests).
    plans: {(m, packing): plan record, {"error": why} or {"skipped": why, "lower_bound": cost}}
    (packing None for a block cipher; a bare m key is (m, None)).

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
    for key, plan in plans.items():
        m, pk = key if isinstance(key, tuple) else (key, None)
        if "error" in plan:
            candidates.append(dict(m=m, packing=pk, kept=False, reason=f"refused by run_cipher: {plan['error']}"))
        elif "skipped" in plan:
            candidates.append(dict(m=m, packing=pk, kept=False, skipped=True, lower_bound=plan["lower_bound"],
                                   reason=plan["skipped"]))
        else:
            candidates.append(judge(row, m, plan, coresvp, packing=pk))
    kept = [c for c in candidates if c["kept"]]
    where = lambda c: f"m={c['m']}" + (f" ({c['packing']})" if c.get("packing") else "")  # noqa: E731
    if not kept:
        reasons = "; ".join(f"{where(c)}: {c['reason']}" for c in candidates)
        raise LeaderboardError(f"transciphering.rows[{row.name}]: no candidate ring reaches the target: {reasons}")
    best = min(kept, key=lambda c: (c["cost"], c["m"], c.get("packing") or ""))
    for c in kept:
        if c is not best:
            c["reason"] += f"; cost {c['cost']:.4g} > the selected {where(best)}'s {best['cost']:.4g}"
    proxy = "phi x log2 Q" if best.get("packing") is None else "work in limb operations"
    best["reason"] += f"; least cost ({row.objective}: {proxy}{' / blocks' if row.objective == 'throughput' else ''})"
    # the other packing's best: kept or shown to lose (skipped); else its last refusal (none kept)
    others = [c for c in candidates if c.get("packing") != best.get("packing")]
    ranked = [c for c in others if c["kept"] or c.get("skipped")]
    runner_up = (min(ranked, key=lambda c: (c.get("cost", c.get("lower_bound")), c["m"])) if ranked
                 else others[-1] if others else None)
    return dict(row=asdict(row), catalog=info, objective=row.objective, candidates=candidates, selected=best,
                runner_up=runner_up)


def run_selected(selection: dict, out: str | Path, plan_cache: str | None = None, threads: int | None = None,
                 timeout: float = 3 * 3600) -> dict:
    """Run the row on its selected ring at the selected c and hwt (the plan's); the record
    gets the selection beside run_cipher's own fields. RunError if run_cipher fails or a
    block is wrong (run_cipher exits non-zero then); LeaderboardError unless correct is true."""
    row = Row(**selection["row"])
    sel = selection["selected"]
    args = run_args(row, selection["catalog"]["kind"], sel["m"], c=sel["c"], hwt=sel["hwt"], target=False,
                    packing=sel.get("packing"))
    if plan_cache is not None:
        args += ["--plan-cache", plan_cache]
    if threads is not None:
        args += ["--threads", threads]
    record = runner.run_json("run_cipher", args, timeout=timeout, out=out)
    if record.get("correct") is not True:
        raise LeaderboardError(f"transciphering.rows[{row.name}]: run_cipher's record at m={sel['m']} has "
                               f"correct={record.get('correct')!r}: its timings are not used")
    record["leaderboard"] = dict(row=selection["row"], catalog=selection["catalog"], selected=sel,
                                 runner_up=selection.get("runner_up"))
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
