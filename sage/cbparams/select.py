"""Which rings to run: per cipher instance and security target, the rings the engine can
run, ranked by predicted latency and by predicted time per block, with the engine's
planned chain, c, key weight and security; and the security table.

Steps, each a CLI sub-command over tidy files (the rules in workflow/rules/params.smk):

candidates  Per instance (cbparams.catalog.instances(), F_p ones included) and target: every
            ring of the sweep at the instance's p (the catalog's; cyclotomics.csv's `p`
            column, 2 where it has none) whose slots hold the instance's field (n | d),
            that the engine runs (d <= 1024)
            and that holds min_blocks blocks, with a cheap estimate made before any plan:
            the chain interpolated (linear in log2 phi) between the engine's plans on two
            small reference rings, its security by HElib's formula and core-SVP (est_security:
            the lower of those in target_models), its time by the cost
            model (cbparams.cost_model) on the reference plan's operations with the primes
            scaled to the chain. Rings estimated more than slack_bits under the target are
            left out; of the others, the plan_candidates cheapest by latency and by time
            per block (among those above target - slack and those above target + slack)
            get plan = 1.  -> results/params/candidates.csv
plan        One candidate: run_cipher --plan --security-target T --security-models (the
            engine's planner; in one search it picks the fewest digits c from params.c up
            whose chain reaches T by every engine model of target_models, the lowest
            counting: cbparams.security_models), the JSON kept whole; when the engine
            refuses, a JSON with status "refused" and its message.  -> results/params/plans/<instance>/m<M>_hwt<H>_t<T>.json
select      The planned candidates, each with its plan's chain, c, rounds and operations,
            the cost model's predicted latency and time per block, HElib's formula,
            core-SVP and (when installed) the lattice estimator's usvp and dual; ranked by
            both (rank_latency, rank_block) among those reaching the target by every model
            of target_models.  -> results/params/ranked.csv. Per instance and target the
            first by params.objective -> results/params/selected.csv and
            results/params/selected.yaml (the experiments a config with `run_selected`
            runs, config/schema/config.schema.yaml).
security    The selected configurations and the paper's five (docs/references.md §1) with
            HElib's formula, core-SVP and, when the lattice estimator is there, its
            estimates (cached; the hybrid for sparse keys), flagged when the best attack
            falls below the target; then the other ranked rows.  -> results/params/security.csv
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from functools import lru_cache
from pathlib import Path

import yaml

from . import catalog, chains, cost_model, estimator, estimator_table, measure, planner, runner, security, security_models
from .config import ROOT, paper_configs, params_from_args
from .cyclotomic import D_LIMIT, basic_facts, basic_facts_many, limits
from .errors import ParamError, SecurityError

#: The paper's configurations (Toprakhisar, Mahzoun, Ashur, Table 2;
#: docs/references.md §1): cipher instance, m, chain bits, rounds, the security the paper reports.
#: Read from config/paper.yaml, the one place the paper's figures are kept as data.
PAPER_CONFIGS = paper_configs()

CANDIDATE_COLUMNS = ["cipher", "packing", "security_target", "m", "p", "phi", "d", "slots", "n", "state", "blocks", "hwt", "c",
                     "est_bits", "est_log2_q", "est_helib_bits", "est_coresvp_bits", "est_security", "est_latency_s",
                     "est_block_s", "plan"]
RANKED_COLUMNS = ["cipher", "packing", "security_target", "m", "p", "phi", "d", "slots", "n", "state", "blocks", "rounds",
                  "status", "bits", "c", "hwt", "L", "K", "log2_q_ct", "log2_q", "helib_bits", "engine_security",
                  "helib_dense_bits", "coresvp_bits", "est_usvp", "est_dual", "est_hybrid", "est_full",
                  "est_best", "est_best_attack", "estimator_source", "predicted_latency_s", "predicted_block_s",
                  "meets_target", "rank_latency", "rank_block", "rank_balanced", *measure.COLUMNS, "dominated_by", "plan_seconds",
                  "plan_file", "note"]
SELECTED_COLUMNS = RANKED_COLUMNS + ["objective", "selected_by", "security_mode", "security_source"]


#: The most key-switching digits the estimates try (the engine tries up to 16; each digit
#: is one more key product per key switch, so the cheapest rings need few).
MAX_C = 8


@lru_cache(maxsize=None)
def _coresvp(phi: int, log2_q: float, hwt: int) -> float:
    return security.coresvp_bits(phi, log2_q, hwt)


def read_csv(path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(rows, path, columns) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def targets(p: dict) -> list[float]:
    """params.security_target as a list (it may be one number or several)."""
    t = p["security_target"]
    return list(t) if isinstance(t, list) else [t]


def target_label(t: float) -> str:
    """128 -> '128', 127.5 -> '127p5' (file names, experiment names)."""
    return f"{float(t):g}".replace(".", "p")


def plan_path(plans_dir: str | Path, cipher: str, m: int, hwt: int, target: float, packing: str = "packed") -> Path:
    return Path(plans_dir) / cipher / f"m{int(m)}_hwt{int(hwt)}_t{target_label(target)}_{packing}.json"


#: The packing with one ciphertext per state bit (bit_sliced.h): its slots hold bits, so
#: every ring does (the sweep's rows for n = 1: add 1 to params.field_degrees).
BIT_SLICED = "bit-sliced"


def has_bit_sliced(inst) -> bool:
    """Whether the instance runs bit-sliced: its cipher offers it and its field is GF(2^n)
    (an F_p element has no bits for the slots to hold; run_cipher refuses it)."""
    return BIT_SLICED in inst.packings and inst.p == 2


def blocks_of(slots: int, state: int, packing: str) -> int:
    """Blocks one run holds: packed, slots // state (a block's state in one ciphertext);
    sliced and bit-sliced, slots (one ciphertext per state element or bit, a block per slot)."""
    return int(slots) if packing in ("sliced", BIT_SLICED) else int(slots) // int(state)


def ring_degree(inst, packing: str) -> int:
    """The slot-field degree n a packing needs of a ring: the instance's, or 1 bit-sliced."""
    return 1 if packing == BIT_SLICED else inst.n


# ----------------------------------------------------------------------- candidates

def reference_rings(name: str, packing: str = "packed") -> tuple[int, int]:
    """Two small rings the instance runs on in the packing (its field in the slots, or bits
    for bit-sliced; a block, d <= 1024), at its p (the catalog's): the smallest m with phi
    >= 256 and the smallest with phi >= 4000 (bit-sliced: 1000, its circuit has some 20
    times the operations), m odd (coprime to p); at p > 2 the powers of two first, the
    rings F_p implementations run (d = 1 where p = 1 mod m: a plan in a second, where an odd
    m's GF(p^d) slots take tens of seconds), odd m where no 2^k has the field. Plans there
    are quick (under seconds to tens of seconds) and anchor the candidates' estimates."""
    from .enumerate import sweep_ms

    inst = catalog.instances()[name]
    n = ring_degree(inst, packing)
    floors = (256, 1000 if packing == BIT_SLICED else 4000)
    found: list[int] = []
    if inst.p != 2:
        pow2 = [1 << k for k in range(2, limits()["m_max"].bit_length())]
        for m, (_, phi, d) in zip(pow2, basic_facts_many(pow2, inst.p)):
            if len(found) < 2 and phi >= floors[len(found)] and d % n == 0 and d <= D_LIMIT \
                    and blocks_of(phi // d, inst.state, packing) >= 1:
                found.append(m)
        if len(found) == 2:
            return found[0], found[1]
        found = []
    lo, hi = 3, 1024
    while len(found) < 2:
        if lo > limits()["m_max"]:
            raise ParamError(f"{name}: no m up to {lo - 1} at p={inst.p} holds {inst.display} with phi >= "
                             f"{floors[len(found)]} and d <= {D_LIMIT}")
        ms = sweep_ms(lo, hi, inst.p)
        for m, (_, phi, d) in zip(ms, basic_facts_many(ms, inst.p)):
            if (phi >= floors[len(found)] and d % n == 0 and d <= D_LIMIT
                    and blocks_of(phi // d, inst.state, packing) >= 1):
                found.append(m)
                if len(found) == 2:
                    break
        lo, hi = hi + 1, 2 * hi
    return found[0], found[1]


def reference_plans(name: str, p: dict, log=print, cache_dir: str | Path | None = None,
                    packing: str = "packed") -> list[dict]:
    """The engine's plans of the instance on its two reference rings (no target): packed,
    and bit-sliced for that packing (its circuit is another: bits, ANDs, a longer chain),
    kept in cache_dir/<instance>/ref_m<M>_hwt<H>_c<C>_seed<S>[_bit-sliced].json when given
    (and reused while newer than build/bin/run_cipher)."""
    out = []
    own = packing == BIT_SLICED
    for m in reference_rings(name, packing):
        tail = f"_{packing}" if own else ""
        path = (Path(cache_dir) / name / f"ref_m{m}_hwt{p['hwt']}_c{p['c']}_seed{p['seed']}{tail}.json"
                if cache_dir else None)
        exe = runner.find_executable("run_cipher")
        if path is not None and path.exists() and path.stat().st_mtime > exe.stat().st_mtime:
            doc = json.loads(path.read_text())
        else:
            doc = planner.plan(name, m, p["hwt"], p["c"], None, p["seed"], packing=packing if own else "packed")
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(doc, indent=1) + "\n")
        log(f"{name}{' ' + packing if own else ''}: reference plan at m={m} (phi {doc['params']['phi']}): "
            f"{doc['plan']['bits']} bits "
            f"in {doc['plan']['seconds']:.1f} s")
        out.append(doc)
    return out


def estimate(refs: list[dict], model: dict, m: int, phi: int, c: int, hwt: int, T: tuple | None = None,
             threads: int = 1) -> dict:
    """The chain, security and latency a ring would get, from the reference plans:
    bits linear in log2 phi through the two plans, log2 P ~ bits / c + 20 (the largest
    digit plus the engine's margin), the second plan's operations with their prime counts
    scaled by bits / its bits (K likewise), priced on this ring's transform size T
    (chains.transform_ops: operations, and those by Bluestein's algorithm; None asks the
    engine) and the reference's small primes S."""
    (a, b) = refs
    pa, pb = a["params"], b["params"]
    xa, xb = math.log2(pa["phi"]), math.log2(pb["phi"])
    ba, bb = a["plan"]["bits"], b["plan"]["bits"]
    bits = bb + (bb - ba) * (math.log2(phi) - xb) / (xb - xa)
    log2_q = bits + bits / c + chains.KS_MARGIN_BITS
    scale = bits / bb
    counts = [dict(o, primes=max(1, round(o["primes"] * scale))) for o in b["plan"]["op_counts"]]
    ch = b["_chain"]
    K = max(1, round(ch.K * scale))
    digits = [max(1, round(x * scale)) for x in ch.digits]
    if T is None:
        T = chains.transform_ops([m])[m]
    # keys stored compact as the engine decides (keys.h): the reference chain's key scaled to
    # this ring and chain, against the engine's threshold
    compact = ch.key_full_bytes / 2 * (phi / pb["phi"]) * scale > ch.keep_uniform_bytes
    r = cost_model.Ring(n=phi, T=T[0], S=ch.S, K=K, B=T[1], C=1.0 if compact else 0.0, m=m)
    latency = cost_model.predict_counts(model, counts, r, c=c, digits=digits, threads=threads)
    return {"est_bits": round(bits), "est_log2_q": round(log2_q, 1),
            "est_helib_bits": round(security.helib_security(m, log2_q, hwt, phi), 2),
            "est_coresvp_bits": round(_coresvp(phi, round(log2_q, 1), hwt), 1),
            "est_latency_s": round(latency, 3)}


def candidates(cyc_rows: list[dict], p: dict, model: dict, log=print, ref_dir: str | Path | None = None) -> list[dict]:
    """candidates.csv rows (see the module doc); the reference plans are the engine's
    (kept in ref_dir when given: see reference_plans)."""
    out = []
    for name in p["ciphers"]:
        inst = catalog.instances()[planner.instance(name)]
        packings = [k for k in p["packings"] if k != BIT_SLICED or has_bit_sliced(inst)]
        if len(packings) < len(p["packings"]):
            log(f"{name}: no bit-sliced form in the catalog ({', '.join(inst.packings)}"
                f"{'; F_p has no bits to slice' if inst.p != 2 else ''}): bit-sliced left out")
        # per packing: rings of the sweep at the instance's p the engine runs (d <= D_LIMIT)
        # whose slots hold the field the packing needs, whose dimension holds the key's
        # weight, with min_blocks blocks
        rings_of, refs_of = {}, {}
        at_p = [r for r in cyc_rows if int(r.get("p") or 2) == inst.p]
        for k in packings:
            n = ring_degree(inst, k)
            rings_of[k] = [r for r in at_p if int(r["n"]) == n and int(r["d"]) <= D_LIMIT
                           and int(r["phi"]) >= p["hwt"] and blocks_of(r["slots"], inst.state, k) >= p["min_blocks"]]
            if not rings_of[k]:
                log(f"warning: {name} {k}: no ring of the sweep at p={inst.p} has n={n} | d, d <= {D_LIMIT} and "
                    f"{p['min_blocks']}+ blocks; raise params.m_max"
                    + (f" or add {n} to params.field_degrees" if inst.p == 2 else ""))
        packings = [k for k in packings if rings_of[k]]
        if not packings:
            continue
        for k in packings:
            key = BIT_SLICED if k == BIT_SLICED else "packed"  # sliced runs are estimated from packed's plans
            if key not in refs_of:
                refs_of[key] = reference_plans(name, p, log, ref_dir, key)
                refs_of[key][1]["_chain"] = chains.build_chain(refs_of[key][1]["params"]["m"],
                                                               refs_of[key][1]["plan"]["bits"], p["c"])
        # each ring's transform size (the engine's, no chain built); S as the reference's
        T_of = chains.transform_ops({int(r["m"]) for k in packings for r in rings_of[k]})
        for t, packing in ((t, k) for t in targets(p) for k in packings):
            rings = rings_of[packing]
            refs = refs_of[BIT_SLICED if packing == BIT_SLICED else "packed"]
            rows = []
            for r in rings:
                m, phi = int(r["m"]), int(r["phi"])
                blocks = blocks_of(r["slots"], inst.state, packing)
                if blocks < p["min_blocks"]:
                    continue
                row = {"cipher": name, "packing": packing, "security_target": t, "m": m, "p": inst.p, "phi": phi,
                       "d": int(r["d"]), "slots": int(r["slots"]), "n": inst.n, "state": inst.state,
                       "blocks": blocks, "hwt": p["hwt"]}
                # as run_cipher --security-target does: the fewest digits c from params.c up
                # whose (estimated) chain reaches the target; more digits, smaller P
                for c in range(p["c"], MAX_C + 1):
                    row.update(c=c, **estimate(refs, model, m, phi, c, p["hwt"], T_of[m], p["threads"]))
                    row["est_security"] = min(row[f"est_{k}_bits"] for k in formula_models(p))
                    if row["est_security"] >= t:
                        break
                row["est_block_s"] = round(row["est_latency_s"] / blocks, 4)
                if row["est_security"] >= t - p["slack_bits"]:
                    rows.append(row)
            chosen = set()
            for floor in (t - p["slack_bits"], t + p["slack_bits"]):
                ok = [r for r in rows if r["est_security"] >= floor]
                for objective in OBJECTIVES:  # the rankings the selection measures and chooses by
                    for r in sorted(ok, key=lambda r: (_objective(r, objective, "est"), r["m"]))[:p["plan_candidates"]]:
                        chosen.add(r["m"])
            for r in rows:
                r["plan"] = int(r["m"] in chosen)
            log(f"{name} {packing} at {t:g} bits: {len(rows)} of {len(rings)} rings estimated within "
                f"{p['slack_bits']:g} bits of the target; planning m = {sorted(chosen)}")
            out += rows
    return out


def formula_models(p: dict) -> list[str]:
    """The models of params.target_models the candidates' cheap estimates compute (HElib's
    formula, core-SVP); core-SVP stands in for the estimator when it is the only one named
    (its figures are the estimator's rough uSVP, docs/references.md §3).

    >>> formula_models({"target_models": ["helib", "estimator"]}), formula_models({"target_models": ["estimator"]})
    (['helib'], ['coresvp'])
    """
    return [k for k in p["target_models"] if k != "estimator"] or ["coresvp"]


def plan_one(cipher: str, m: int, hwt: int, target: float, p: dict, out: str | Path, packing: str = "packed",
             log=None) -> dict:
    """run_cipher --plan with the target (the plan's JSON), or a 'refused' record.

    The engine chooses c in one search that meets the target by every model of
    params.target_models (run_cipher --security-models; cbparams.security_models): the
    fewest digits at which the lowest of their figures reaches it. With the estimator
    named, its table is filled for this ring first (estimator_table.search_models: the
    ladder of log2 Q, cached estimates) and given to the search; not named, the estimator
    (when installed) is checked on the result by rank/meets."""
    log = log or (lambda s: print(s, file=sys.stderr))  # stdout may carry a command's --json
    models, table = estimator_table.search_models(p["target_models"], m, hwt, target, p["estimator"], log)
    try:
        doc = planner.plan(cipher, m, hwt, p["c"], target, p["seed"], packing=packing, models=models,
                           estimator_table=table)
        doc["status"] = "ok"
    except runner.RunError as e:
        doc = {"status": "refused", "cipher": cipher, "packing": packing, "m": m, "hwt": hwt, "security_target": target,
               "message": str(e).splitlines()[-1]}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


# ----------------------------------------------------------------------- ranking

def _num(v):
    """A CSV cell as a float, None when empty."""
    return None if v is None or v == "" else float(v)


def meets(row: dict, p: dict, target: float) -> bool:
    """Does a planned ring reach the target by every model in params.target_models, and by
    the lattice estimator's cheapest attack when the estimator ran on it (est_best)?"""
    est = _num(row.get("est_best"))
    figs = {"helib": float(row["helib_bits"]), "coresvp": float(row["coresvp_bits"]), "estimator": est}
    # The estimator named: its figure at the planned chain must be there (rank runs it).
    return (all(figs[k] is not None and figs[k] >= target for k in p["target_models"])
            and (est is None or est >= target))


def run_estimator(where, phi: int, log2_q: float, hwt: int, attacks, est_cfg: dict, log=print,
                  label: str = "") -> dict:
    """The estimator's results (cbparams.estimator.estimate, cached) for `attacks` on one
    chain, by attack."""
    out = {}
    for attack in attacks:
        res = estimator.estimate(phi, float(log2_q), hwt, attack, where, est_cfg["timeout_s"], est_cfg["cache_dir"])
        out[attack] = res
        if res["status"] != "skipped":
            log(f"{label} {attack}: {res.get('log2_rop')} ({res['note']}{', cached' if res.get('cached') else ''})")
    return out


def estimator_columns(where, results: dict) -> dict:
    """est_<attack> (every attack of cbparams.estimator.ATTACKS, "" when not run or not
    finished), est_best and est_best_attack (the cheapest attack that finished; for full
    and rough the estimator's own cheapest), estimator_source (which clone and functions, or
    "none: " and why) and estimator_note (failures and timeouts, and the slow hybrid's time)."""
    row = {}
    for attack in estimator.ATTACKS:
        v = results.get(attack, {}).get("log2_rop")
        row[f"est_{attack}"] = round(v, 1) if v is not None else ""
    vals = {a: r["log2_rop"] for a, r in results.items() if r.get("log2_rop") is not None}
    notes = [r["note"] for a, r in results.items() if r["status"] != "ok" or a == "hybrid"]
    if vals:
        best = min(vals, key=vals.get)
        row["est_best"] = round(vals[best], 1)
        row["est_best_attack"] = results[best].get("detail", {}).get("best_attack", best)
        commit = next((r.get("commit") for r in results.values() if r.get("commit")), "")
        row["estimator_source"] = estimator.describe(where, commit, sorted(vals))
    else:
        row["est_best"] = row["est_best_attack"] = ""
        why = ("estimator off (params.estimator.mode)" if where is None else where.note
               if not where.available else "no estimate finished (see estimator_note)")
        row["estimator_source"] = "none: " + why
    row["estimator_note"] = "; ".join(dict.fromkeys(notes))
    return row


def _add_note(row: dict, note: str) -> None:
    row["note"] = "; ".join(x for x in (row.get("note", ""), note) if x)


def groups(rows: list[dict], p: dict) -> dict:
    """The rows one answer is chosen from: per instance and target, over the packings, or
    per instance, target and packing with params.select_per_packing (each packing on its
    own best ring, to compare packings). Keys (cipher, target, packing or None)."""
    out: dict = {}
    for r in rows:
        packing = (r.get("packing") or "packed") if p["select_per_packing"] else None
        out.setdefault((r["cipher"], float(r["security_target"]), packing), []).append(r)
    return out


def answers(p: dict) -> list[tuple]:
    """The (cipher, target, packing or None) of every answer the selection gives (see
    groups): with select_per_packing, each packing the instance offers."""
    out = []
    for name in p["ciphers"]:
        inst = catalog.instances()[planner.instance(name)]
        ks = [k for k in p["packings"] if k != BIT_SLICED or has_bit_sliced(inst)] if p["select_per_packing"] else [None]
        out += [(name, t, k) for t in targets(p) for k in ks]
    return out


def _assign_ranks(out: list[dict], p: dict) -> None:
    """rank_latency, rank_block and rank_balanced among the rows meeting their target, per
    group (see groups)."""
    for r in out:
        r.pop("rank_latency", None)
        r.pop("rank_block", None)
        r.pop("rank_balanced", None)
    for rows in groups(out, p).values():
        good = [r for r in rows if r.get("meets_target")]
        for obj, col in (("latency", "rank_latency"), ("block", "rank_block"), ("balanced", "rank_balanced")):
            for i, r in enumerate(sorted(good, key=lambda r: (_objective(r, obj, "predicted"), r["m"])), 1):
                r[col] = i


def _below_note(row: dict, t: float) -> str:
    return (f"below target {t:g} by the lattice estimator: {row['est_best_attack']} "
            f"{float(row['est_best']):.1f} bits")


def rank(cand_rows: list[dict], plans_dir: str | Path, model: dict, p: dict, log=print,
         measured_dir: str | Path | None = None) -> list[dict]:
    """ranked.csv rows: every planned candidate with its plan, prediction and security.

    With the lattice estimator there (params.estimator, mode not off), every planned ring
    gets its fast attacks (mode fast: usvp and dual; full: the full estimate), and a ring
    whose cheapest attack is under the target does not meet it (a note says so). With
    params.estimator.hybrid and a sparse key, the primal hybrid (minutes a ring, cached)
    then runs on the first ring by params.objective of each answer (see groups), and on the
    next while the first falls under the target by it, so every selected ring has been
    checked by the hybrid too.

    With measured_dir and params.measure_candidates, the first measure_candidates rings by
    each ranking (per group: see groups) that meet the target are
    run for params.measure_rounds rounds (cbparams.measure): their measured_* columns, and
    dominated_by where another measured ring beats one on both latency and time per block."""
    planned = [r for r in cand_rows if int(r["plan"])]
    docs = []
    for r in planned:
        path = plan_path(plans_dir, r["cipher"], r["m"], r["hwt"], float(r["security_target"]), r["packing"])
        docs.append((r, path, json.loads(path.read_text())))
    ok = [(r, path, d) for r, path, d in docs if d["status"] == "ok"]
    chs = chains.build_chains([(d["params"]["m"], d["plan"]["bits"], d["params"]["c"]) for _, _, d in ok])
    ch_of = {id(d): ch for (_, _, d), ch in zip(ok, chs)}
    est = p["estimator"]
    where = None
    if est["mode"] != "off":
        where = estimator.locate(est["path"])
        if not where.available:
            log(f"note: {where.note}; the selection uses {' and '.join(p['target_models'])} only")
    results_of = {}
    out = []
    for r, path, d in docs:
        t = float(r["security_target"])
        row = {"cipher": r["cipher"], "packing": r["packing"], "p": int(r.get("p") or 2),
               **{k: int(r[k]) for k in ("m", "phi", "d", "slots", "n", "state", "blocks", "hwt")}}
        row.update(security_target=t, plan_file=str(path), status=d["status"])
        if d["status"] != "ok":
            row["note"] = d["message"]
            out.append(row)
            continue
        pa, pl, ch = d["params"], d["plan"], ch_of[id(d)]
        phi, m, hwt = int(pa["phi"]), int(pa["m"]), int(pa["hwt"])
        log2_q = float(pa["log2_q"])
        pred = cost_model.predict_plan(model, d, chain=ch, threads=p["threads"])
        row.update(rounds=d["rounds"], bits=pl["bits"], c=pa["c"], L=ch.L, K=ch.K,
                   log2_q_ct=round(pa["log2_q_ct"], 3), log2_q=round(log2_q, 3),
                   helib_bits=round(security.helib_security(m, log2_q, hwt, phi), 3),
                   engine_security=round(pa["security"], 3),
                   helib_dense_bits=round(security.helib_security(m, log2_q, 0, phi), 3),
                   coresvp_bits=round(_coresvp(phi, round(log2_q, 3), hwt), 1),
                   predicted_latency_s=round(pred["seconds"], 3),
                   predicted_block_s=round(pred["seconds"] / int(r["blocks"]), 4),
                   plan_seconds=round(pl["seconds"], 1),
                   note=pl.get("choice", ""))
        results = {}
        if where is not None and where.available:
            results = run_estimator(where, phi, log2_q, hwt, estimator.attacks_for(est["mode"], False, hwt),
                                    est, log, f"{r['cipher']} m={m} bits={pl['bits']}")
        results_of[id(row)] = results
        row.update({k: v for k, v in estimator_columns(where, results).items() if k != "estimator_note"})
        for res in results.values():
            if res["status"] in ("error", "timeout"):
                _add_note(row, res["note"] + ": that attack is not counted")
        row["meets_target"] = int(meets(row, p, t))
        if not row["meets_target"] and row["est_best"] != "" and float(row["est_best"]) < t:
            _add_note(row, _below_note(row, t))
        out.append(row)
    _assign_ranks(out, p)
    if where is not None and where.available and est["hybrid"]:
        col = {"latency": "rank_latency", "block": "rank_block", "balanced": "rank_balanced"}[p["objective"]]
        for (name, t, _), group in groups(out, p).items():  # each answer's first ring
            while True:
                top = [r for r in group if r.get(col) == 1]
                if not top or int(top[0]["hwt"]) == 0 or "hybrid" in results_of[id(top[0])]:
                    break
                row = top[0]
                results = results_of[id(row)]
                results.update(run_estimator(where, int(row["phi"]), row["log2_q"], int(row["hwt"]), ["hybrid"],
                                             est, log, f"{name} m={row['m']} bits={row['bits']}"))
                row.update({k: v for k, v in estimator_columns(where, results).items() if k != "estimator_note"})
                if results["hybrid"]["status"] != "ok":
                    _add_note(row, results["hybrid"]["note"] + ": not checked by the hybrid")
                if not meets(row, p, t):
                    row["meets_target"] = 0
                    _add_note(row, _below_note(row, t))
                    _assign_ranks(out, p)
    if measured_dir is not None and p["measure_candidates"] > 0:
        plan_of = {str(path): d for _, path, d in docs}
        _measure_top(out, plan_of, model, p, measured_dir, log)
    out.sort(key=lambda r: (r["cipher"], r["security_target"], r.get("rank_latency") or 10**9, r["m"], r["packing"]))
    return out


def _measure_top(out: list[dict], plan_of: dict, model: dict, p: dict, measured_dir, log=print) -> None:
    """measured_* and dominated_by columns (see rank)."""
    k = p["measure_candidates"]
    for (name, t, _), rows in groups(out, p).items():
        rows = [r for r in rows if r.get("meets_target")]
        todo = [r for r in rows if min(r.get(c, 10**9) for c in ("rank_latency", "rank_block", "rank_balanced")) <= k]
        for r in sorted(todo, key=lambda r: (r["rank_latency"], r["m"])):
            try:
                r.update(measure.measure(r, plan_of[r["plan_file"]], model, p, measured_dir))
            except runner.RunError as e:
                _add_note(r, f"measuring run failed: {str(e).splitlines()[-1]}")
                continue
            log(f"{name} {r['packing']} m={r['m']} at {t:g}: measured {r['measured_latency_s']} s "
                f"({r['measured_block_s']} s per block; {r['measured_rounds']} rounds took "
                f"{r['measured_rounds_s']} s at {r['measured_threads']} threads), predicted "
                f"{r['predicted_latency_s']} s")
        for r in todo:
            by = measure.dominated(r, todo)
            if by is not None:
                r["dominated_by"] = f"m={by['m']} {by['packing']}"


MODEL_NAMES = {"helib": "HElib's formula", "coresvp": "core-SVP", "estimator": "the lattice estimator"}


def security_of(row: dict, p: dict) -> dict:
    """security_mode and security_source of a selected row: "estimator" when the lattice
    estimator's figures were checked against the target (with the models of target_models),
    else "HElib formula" (or "core-SVP" when that is the only model), the estimator's
    absence said in security_source."""
    models = " and ".join(MODEL_NAMES[k] for k in p["target_models"])
    est = row.get("estimator_source", "")
    if _num(row.get("est_best")) is not None:
        ran = [a for a in estimator.ATTACKS if row.get(f"est_{a}", "") != ""]
        return {"security_mode": "estimator",
                "security_source": f"target met by the lattice estimator's cheapest attack "
                                   f"({row['est_best_attack']} {float(row['est_best']):.1f} bits; ran "
                                   f"{', '.join(ran)}) and by {models}; {est}"}
    mode = "HElib formula" if "helib" in p["target_models"] else "core-SVP"
    return {"security_mode": mode,
            "security_source": f"target met by {models}; lattice estimator: "
                               + ("not run (" + est[6:] + ")" if est.startswith("none: ") else est)}


#: What each params.objective minimizes, in words (selected.csv's selected_by).
OBJECTIVES = {"latency": "latency", "block": "time per block", "balanced": "latency x time per block"}


def _objective(row: dict, objective: str, kind: str) -> float:
    """The objective's value of a row, from its measured or predicted times."""
    lat, blk = _num(row[f"{kind}_latency_s"]), _num(row[f"{kind}_block_s"])
    return {"latency": lat, "block": blk, "balanced": lat * blk}[objective]


def select(ranked: list[dict], p: dict, log=print) -> list[dict]:
    """Per instance and target (and packing, with params.select_per_packing: see groups),
    the ring (and packing) first by params.objective: by
    measured time among the measured rings that reach the target and no other measured
    ring dominates, else (none measured) by predicted time; selected_by says which. When
    none reaches the target, params.strict decides: SecurityError, or a row with status
    "unreachable"."""
    col = {"latency": "rank_latency", "block": "rank_block", "balanced": "rank_balanced"}[p["objective"]]
    out = []
    by_group = groups(ranked, p)
    for name, t, packing in answers(p):
        rows = by_group.get((name, t, packing), [])
        measured = [r for r in rows if str(r.get("meets_target", "")) in ("1", "True")
                    and _num(r.get("measured_latency_s")) is not None and not r.get("dominated_by")]
        best = sorted(measured, key=lambda r: (_objective(r, p["objective"], "measured"), int(r["m"])))[:1]
        how = (f"measured: the least {OBJECTIVES[p['objective']]} among {len(measured)} measured rings that "
               f"reach the target and no other measured ring beats on both latency and time per block")
        if not best:
            best = [r for r in rows if str(r.get(col, "")) == "1"]
            how = f"predicted: the first by {col} (no ring measured)"
        if best:
            row = dict(best[0], objective=p["objective"], status="ok", selected_by=how)
            row.update(security_of(row, p))
            out.append(row)
            continue
        planned = [r for r in rows if r.get("status") == "ok"]
        reach = max((min([float(r[f"{k}_bits"]) for k in p["target_models"] if k != "estimator"]
                         + ([float(r["est_best"])] if _num(r.get("est_best")) is not None else []), default=0.0)
                     for r in planned), default=None)
        who = f"cipher {name}" + (f" {packing}" if packing else "")
        why = (f"{who}: params.security_target={t:g} is reached by none of the {len(rows)} planned "
               f"rings (m <= {p['m_max']}; best {reach:.1f} bits)" if reach is not None else
               f"{who}: no ring of the sweep was planned for params.security_target={t:g} "
               f"(none estimated within slack_bits={p['slack_bits']:g} of it, or the engine refused all)")
        why += "; raise params.m_max or params.plan_candidates, or lower the target"
        if p["strict"]:
            raise SecurityError(why)
        log(f"warning: {why}")
        out.append({"cipher": name, "security_target": t, "status": "unreachable", "note": why,
                    "objective": p["objective"], **({"packing": packing} if packing else {})})
    return out


def selected_yaml(rows: list[dict]) -> str:
    """The selected rings as pipeline experiments (config/schema/config.schema.yaml), one
    per instance and target, at the planned chain and every block the ring holds; a
    config with `run_selected: true` runs them."""
    exps, notes = [], []
    for r in rows:
        if r.get("status", "ok") != "ok":
            notes.append(f"#   {r['cipher']} at {r['security_target']} bits: none ({r['note']})")
            continue
        inst = catalog.instances()[r["cipher"]]
        packing = r.get("packing") or "packed"
        name = f"{r['cipher']}-sel{target_label(r['security_target'])}" + ("" if packing == "packed" else f"-{packing}")
        own = {"packed": inst.packings[0], "sliced": inst.packings[1]}.get(packing, packing)
        fields = dict(inst.fields, packing=own)
        exps.append({"name": name, **fields, "rounds": int(r["rounds"]),
                     "c": int(r["c"]), "hwt": int(r["hwt"]),
                     "rings": [{"m": int(r["m"]), "bits": int(r["bits"]), "blocks": int(r["blocks"])}]})
        notes.append(f"#   {name}: m={r['m']} phi={r['phi']} blocks={r['blocks']} bits={r['bits']} c={r['c']} "
                     f"hwt={r['hwt']}: HElib's formula {float(r['helib_bits']):.1f}, core-SVP "
                     f"{float(r['coresvp_bits']):.1f} bits ({r['security_source']}); predicted "
                     f"{float(r['predicted_latency_s']):.1f} s, {float(r['predicted_block_s']):.2f} s per block"
                     + (f", measured {float(r['measured_latency_s']):.1f} s, {float(r['measured_block_s']):.3f} s "
                        f"per block" if _num(r.get("measured_latency_s")) is not None else "")
                     + f" ({packing}; {r['objective']} first, {(r.get('selected_by') or '').split(':')[0]})")
    head = ("# Generated by `python -m cbparams.select select` (sage/cbparams/select.py): per cipher\n"
            "# instance and target the ring the explorer runs, chains planned by the engine\n"
            "# (run_cipher --plan), times predicted by the cost model (results/cost/model.json).\n"
            "# Do not edit: a config with `run_selected: true` runs these experiments.\n"
            + "\n".join(notes) + "\n")
    return head + yaml.safe_dump({"experiments": exps}, sort_keys=False)


# ----------------------------------------------------------------------- security

def chain_row(m: int, phi: int, bits: int, p: dict) -> dict:
    """Chain and security columns for ring m with `bits` of capacity (the engine's chain, c of p)."""
    ch = chains.build_chain(m, bits, p["c"])
    lq = ch.log2_Q
    return {"bits": bits, "c": p["c"], "L": ch.L, "b_ct": ch.b_ct, "K": ch.K, "b_sp": ch.b_sp,
            "log2_q_ct": round(ch.log2_q_ct, 3), "log2_q": round(lq, 3), "hwt": p["hwt"],
            "helib_bits": round(security.helib_security(m, lq, p["hwt"], phi), 3),
            "helib_dense_bits": round(security.helib_security(m, lq, 0, phi), 3),
            "coresvp_bits": round(_coresvp(phi, round(lq, 3), p["hwt"]), 1)}


SECURITY_COLUMNS = ["source", "cipher", "m", "phi", "bits", "c", "log2_q_ct", "log2_q", "log2_q_exact",
                    "hwt", "helib_bits", "helib_dense_bits", "paper_bits", "coresvp_bits",
                    "est_log2_q", "est_usvp", "est_dual", "est_hybrid", "est_full", "est_best",
                    "est_best_attack", "estimator_note", "estimator_source", "security_target",
                    "below_target", "below_target_models"]


def flag_row(row: dict, est: dict) -> dict:
    """below_target and below_target_models for a security.csv row.

    below_target_models lists every figure under the row's target (helib, coresvp, and
    est_<attack>). below_target is 1 when the lattice estimator's best attack is under the
    target, or, where the estimator did not run, when HElib's formula or core-SVP is.
    """
    t = float(row["security_target"])
    figs = {"helib": float(row["helib_bits"]), "coresvp": float(row["coresvp_bits"])}
    figs.update({f"est_{a}": v for a, v in est.items()})
    below = [k for k, v in figs.items() if v < t]
    flag = min(est.values()) < t if est else figs["helib"] < t or figs["coresvp"] < t
    return {"below_target": int(flag), "below_target_models": ";".join(below)}


def security_rows(configs: list[dict], p: dict, log=print) -> list[dict]:
    """security.csv rows for configurations (dicts with source, cipher, m, phi, bits,
    paper_bits, security_target): exact chains, HElib's formula, core-SVP and, when it is
    there, the lattice estimator (estimator_source says which clone and which attacks)."""
    est = p["estimator"]
    where = None
    if est["mode"] != "off" and configs:
        where = estimator.locate(est["path"])
        if not where.available:
            log(f"note: {where.note}; estimator columns left empty")
    out = []
    for cfg in configs:
        row = dict(cfg)
        if "log2_q" in cfg:  # a run's own chain and key (run_configs)
            lq, hwt = float(cfg["log2_q"]), int(cfg["hwt"])
            row.update(log2_q_ct="", helib_dense_bits=round(security.helib_security(cfg["m"], lq, 0, cfg["phi"]), 3),
                       coresvp_bits=round(_coresvp(cfg["phi"], round(lq, 3), hwt), 1))
        else:
            row.update(chain_row(cfg["m"], cfg["phi"], cfg["bits"], dict(p, c=int(cfg.get("c") or p["c"]))))
        row["log2_q_exact"] = 1
        hwt = int(row["hwt"])
        results = {}
        if where is not None:
            results = run_estimator(where, cfg["phi"], row["log2_q"], hwt,
                                    estimator.attacks_for(est["mode"], est["hybrid"], hwt), est, log,
                                    f"{cfg['cipher']} m={cfg['m']} bits={cfg['bits']} hwt={hwt}")
        row.update(estimator_columns(where, results))
        if where is None:
            row["estimator_note"] = "estimator off (params.estimator.mode)"
        vals = {a: r["log2_rop"] for a, r in results.items() if r.get("log2_rop") is not None}
        if vals:
            row["est_log2_q"] = row["log2_q"]
        row.update(flag_row(row, vals))
        out.append(row)
    return out


def run_configs(paths: list[str], p: dict) -> list[dict]:
    """security_rows configurations of run_cipher records (run-security): one per engine
    chain and key that ran with every block right, with the modulus log2(Q P), digits, key
    weight and HElib figure the engine reported for it (the run's params), against the
    config's highest security target."""
    configs: dict[tuple, dict] = {}
    for path in paths:
        doc = json.loads(Path(path).read_text())
        if doc.get("backend", "bgv") != "bgv" or not doc.get("correct") or "params" not in doc:
            continue
        pr = doc["params"]
        key = (int(pr["m"]), int(pr["bits"]), int(pr["c"]), int(pr["hwt"]))
        configs.setdefault(key, {"source": "run", "cipher": doc.get("instance_id") or doc["cipher"], "m": key[0],
                                 "phi": int(pr["phi"]), "bits": key[1], "c": key[2], "hwt": key[3],
                                 "log2_q": round(float(pr["log2_q"]), 3), "helib_bits": round(float(pr["security"]), 3),
                                 "paper_bits": "", "security_target": float(max(targets(p)))})
    return list(configs.values())


def security_table(sel_rows: list[dict], p: dict, log=print, paper: bool = True,
                   cand_rows: list[dict] | None = None) -> list[dict]:
    """security.csv rows.

    First the selected configurations and (paper=True) the paper's five, with exact chains
    and the lattice estimator's figures when it is there; then every other row of the
    ranked rings (cand_rows: ranked.csv, source "ranked", planned chains) with HElib's
    formula and core-SVP. A configuration both selected and in the paper appears once
    (source "selected+paper"). below_target: see flag_row.
    """
    from .cyclotomic import basic_facts

    configs: dict[tuple, dict] = {}
    for r in sel_rows:
        if r.get("status", "ok") != "ok":
            continue
        key = (r["cipher"], int(r["m"]), int(r["bits"]))
        configs[key] = {"source": "selected", "cipher": r["cipher"], "m": int(r["m"]),
                        "phi": int(r["phi"]), "bits": int(r["bits"]), "c": int(r.get("c") or p["c"]), "paper_bits": "",
                        "security_target": float(r.get("security_target", targets(p)[0]))}
    for name, m, bits, _, paper_bits in (PAPER_CONFIGS if paper else []):
        key = (name, m, bits)
        if key in configs:
            configs[key].update(source="selected+paper", paper_bits=paper_bits)
        else:
            configs[key] = {"source": "paper", "cipher": name, "m": m, "phi": basic_facts(m)[1],
                            "bits": bits, "paper_bits": paper_bits, "security_target": max(targets(p))}
    out = security_rows(list(configs.values()), p, log)
    for r in cand_rows or []:
        if r.get("status") != "ok" or (r["cipher"], int(r["m"]), int(r["bits"])) in configs:
            continue
        row = {k: r[k] for k in ("cipher", "m", "phi", "bits", "c", "log2_q_ct", "log2_q", "hwt",
                                 "helib_bits", "helib_dense_bits", "coresvp_bits")}
        row.update(source="ranked", log2_q_exact=1, security_target=float(r["security_target"]),
                   estimator_note="ranked row: the estimator's hybrid runs on selected and paper configurations only",
                   estimator_source="none: ranked row")
        row.update(flag_row(row, {}))
        out.append(row)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.select", description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=["candidates", "plan", "select", "security", "paper-security", "run-security"])
    ap.add_argument("--config", help="pipeline config YAML (its params: section is used)")
    ap.add_argument("--params-json", help="the params: section as JSON (overrides --config)")
    ap.add_argument("--cyclotomics", default="results/params/cyclotomics.csv")
    ap.add_argument("--cost-model", default="results/cost/model.json")
    ap.add_argument("--candidates", default="results/params/candidates.csv")
    ap.add_argument("--plans-dir", default="results/params/plans")
    ap.add_argument("--ranked", default="results/params/ranked.csv")
    ap.add_argument("--selected", default="results/params/selected.csv")
    ap.add_argument("--selected-yaml", default="results/params/selected.yaml")
    ap.add_argument("--security", default="results/params/security.csv")
    ap.add_argument("--cipher", help="plan: the instance")
    ap.add_argument("--m", type=int, help="plan: the ring")
    ap.add_argument("--hwt", type=int, help="plan: the key weight")
    ap.add_argument("--target", type=float, help="plan: the security target")
    ap.add_argument("--out", help="plan: the plan JSON")
    ap.add_argument("--packing", default="packed", choices=["packed", "sliced", BIT_SLICED], help="plan: the packing")
    ap.add_argument("--measured-dir", help="select: where the measuring runs go (none: no measurement)")
    ap.add_argument("--runs", nargs="*", default=[], help="run-security: run_cipher JSON records")
    a = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    try:
        p = params_from_args(a.config, a.params_json)
        if a.step == "candidates":
            rows = candidates(read_csv(a.cyclotomics), p, cost_model.load_model(a.cost_model), log, a.plans_dir)
            write_csv(rows, a.candidates, CANDIDATE_COLUMNS)
            log(f"{a.candidates}: {len(rows)} rows, {sum(r['plan'] for r in rows)} to plan")
        elif a.step == "plan":
            missing = [f for f in ("cipher", "m", "hwt", "target", "out") if getattr(a, f) is None]
            if missing:
                raise ParamError(f"plan needs --{' --'.join(missing)}")
            doc = plan_one(a.cipher, a.m, a.hwt, a.target, p, a.out, a.packing)
            log(f"{a.cipher} m={a.m} target {a.target:g}: " + (
                f"{doc['plan']['bits']} bits, c={doc['params']['c']}, security {doc['params']['security']:.1f}"
                if doc["status"] == "ok" else f"refused: {doc['message']}"))
        elif a.step == "select":
            ranked = rank(read_csv(a.candidates), a.plans_dir, cost_model.load_model(a.cost_model), p, log,
                          a.measured_dir)
            write_csv(ranked, a.ranked, RANKED_COLUMNS)
            rows = select(ranked, p, log)
            write_csv(rows, a.selected, SELECTED_COLUMNS)
            Path(a.selected_yaml).write_text(selected_yaml(rows))
            for r in rows:
                if r["status"] == "ok":
                    log(f"{r['cipher']} (target {r['security_target']:g}): m={r['m']} phi={r['phi']} "
                        f"blocks={r['blocks']} bits={r['bits']} c={r['c']} HElib={r['helib_bits']} "
                        f"core-SVP={r['coresvp_bits']} predicted {r['predicted_latency_s']} s "
                        f"({r['security_source']})")
        elif a.step == "paper-security":
            rows = security_table([], p, log)
            write_csv(rows, a.security, SECURITY_COLUMNS)
        elif a.step == "run-security":
            rows = security_rows(run_configs(a.runs, p), p, log)
            write_csv(rows, a.security, SECURITY_COLUMNS)
            log(f"{a.security}: {len(rows)} chains of {len(a.runs)} runs")
        else:
            rows = security_table(read_csv(a.selected), p, log, cand_rows=read_csv(a.ranked))
            write_csv(rows, a.security, SECURITY_COLUMNS)
            for r in rows:
                if r["below_target"] and r["source"] != "ranked":
                    log(f"below target: {r['source']} {r['cipher']} m={r['m']} bits={r['bits']}")
            log(f"{a.security}: {len(rows)} rows")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
