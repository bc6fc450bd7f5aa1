"""Table 3: the paper's chain and security beside ours, ring by ring, with the differences
explained in words taken from the figures.

Rows: every ring of the config that carries the paper's figures (`paper:` in
config/paper.yaml, [TMA] Table 2 as docs/references.md §1 restates it). Ours: the chain the
config runs there (the engine's planner sized it), and, when the run exists, its security
(HElib's formula as the engine computed it for the run's chain, its key weight), the same
chain's figure with a dense key (the paper's figure is for a dense key, docs/references.md
§2; asked of the engine), core-SVP, the modulus the run used per round (chain minus the
capacity left, over the rounds) and the minutes. The notes compare them:

AES-128 at m=53261 (the engine's plan on 2026-11-23: 905 bits, 86.9 bits per round,
log2 Q = 1259.8, HElib's formula 107.5 with key weight 120 and 120.0 with a dense key):

>>> chain_note(905, 820, 10, 86.9)
"chain 905 > 820: the engine planned more; it used 87 bits per round here, against at most 82 in the paper's chain (820 bits / 10 rounds)"
>>> chain_note(780, 820, 10, 70.0)
"chain 780 < 820: tighter noise bounds; 70 bits per round used here, against up to 82 in the paper's chain"
>>> security_note(107.5, 136.256, 120, 120.0, 1259.8)
"security 107.5 < 136.3: key weight 120 where the paper used a dense key (HElib's sparse-key line; our chain with a dense key: 120.0); and a longer chain (log2 Q = 1260 with the special primes): 120.0 < 136.3 with a dense key"
"""

import pandas as pd

from analysis import published
from analysis import security_marks

COLUMNS = ["name", "instance", "packing", "m", "rounds", "paper_bits", "bits", "paper_security", "security_target",
           "security_helib", "hwt", "c", "security_helib_dense", "security_coresvp", "security_est_best",
           "est_best_attack", "below_80_bits", "bits_used_per_round",
           "paper_total_min", "total_min", "status", "chain_note", "security_note", "time_note"]


def _rel(a, b, tol):
    return "<" if a < b - tol else ">" if a > b + tol else "="


def chain_note(bits, paper_bits, rounds, used_per_round=None, linear="separate"):
    """Our chain against the paper's, in words (used_per_round: from a run, else None; bits
    "plan": the engine plans the chain at the run, none yet)."""
    paper_pr = paper_bits / rounds
    if bits == "plan":
        return (f"chain planned by the engine at the run (not run here): the paper's {paper_bits} bits allow at "
                f"most {paper_pr:.0f} bits per round")
    rel = _rel(bits, paper_bits, 0)
    head = f"chain {bits} {rel} {paper_bits}"
    if linear == "fused":
        head += " (affine maps fused with the linear layer: one constant product a step where the paper has two)"
    if used_per_round is None:
        return head + f" (planned; not run here): at most {paper_pr:.0f} bits per round in the paper's chain"
    if rel == ">":
        return (f"{head}: the engine planned more; it used {used_per_round:.0f} bits per round here, against at most "
                f"{paper_pr:.0f} in the paper's chain ({paper_bits} bits / {rounds} rounds)")
    if rel == "<":
        return (f"{head}: tighter noise bounds; {used_per_round:.0f} bits per round used here, against up to "
                f"{paper_pr:.0f} in the paper's chain")
    return f"{head}: the same chain; {used_per_round:.0f} bits per round used here"


def security_note(security, paper_security, hwt, dense, log2_q):
    """Our security (HElib's formula, key weight hwt) against the paper's (dense key), in words:
    the key weight's share (dense: our chain with a dense key) and the chain's."""
    head = f"security {security:.1f} {_rel(security, paper_security, 0.05)} {paper_security:.1f}"
    reasons = []
    if hwt != 0:
        reasons.append(f"key weight {hwt} where the paper used a dense key (HElib's sparse-key line; "
                       f"our chain with a dense key: {dense:.1f})")
    gap = dense - paper_security
    if gap < -1:
        reasons.append(f"a longer chain (log2 Q = {log2_q:.0f} with the special primes): {dense:.1f} < "
                       f"{paper_security:.1f} with a dense key")
    elif gap > 1:
        reasons.append(f"a shorter chain (log2 Q = {log2_q:.0f} with the special primes): {dense:.1f} > "
                       f"{paper_security:.1f} with a dense key")
    else:
        reasons.append(f"with a dense key our chain gives {dense:.1f}, within {abs(gap):.1f} bits of the paper's")
    return f"{head}: " + "; and ".join(reasons)


def estimator_note(est, attack, paper_security, coresvp):
    """The lattice estimator's figure for the run's chain and key beside the paper's, or why
    there is none.

    >>> estimator_note(128.0, "bdd_hybrid", 136.3, 127.9)
    "the lattice estimator's cheapest attack (bdd_hybrid): 128.0 < 136.3 (core-SVP 127.9)"
    >>> estimator_note(None, "", 136.3, 127.9)
    'no lattice estimator figure (not installed here, or it did not finish: make estimator)'
    """
    if est is None:
        return "no lattice estimator figure (not installed here, or it did not finish: make estimator)"
    return (f"the lattice estimator's cheapest attack ({attack}): {est:.1f} {_rel(est, paper_security, 0.05)} "
            f"{paper_security:.1f} (core-SVP {coresvp:.1f})")


def target_note(target, paper_security, hwt, c):
    """How a run reached its security: the config's target (run_cipher --security-target)
    and what the engine chose for it, or that the config fixed the chain and key."""
    if target is None:
        return f"the config fixed the chain and key (key weight {hwt}, c={c}); no security target"
    key = "a dense key" if hwt == 0 else f"key weight {hwt}"
    who = "the paper's figure" if abs(target - paper_security) < 0.05 else f"{target:g} bits"
    return (f"run at security target {target:g} ({who}, by HElib's formula for the key used): the engine chose "
            f"c={c} and {key}, the fewest digits, then the shortest chain, then the lightest key reaching it")


def time_note(total_min, paper_total_min, threads, blocks):
    return (f"time {total_min:.2f} min {_rel(total_min, paper_total_min, 0)} {paper_total_min:.2f}: "
            f"{total_min / paper_total_min:.2f} x the paper's, this machine with {threads} thread(s) and {blocks} "
            f"blocks, against HElib on the authors' hardware")


def estimator_of(estimates, m, bits, c, hwt):
    """The lattice estimator's cheapest attack on a run's chain and key, (bits, attack), from
    the run-security rows (tidy/run_security.csv: m, bits, c, hwt, est_best,
    est_best_attack); (None, "") when it did not run there (not installed, or timed out).

    >>> import pandas as pd
    >>> e = pd.DataFrame([{"m": 5, "bits": 9, "c": 3, "hwt": 120, "est_best": 130.5, "est_best_attack": "hybrid"}])
    >>> estimator_of(e, 5, 9, 3, 120), estimator_of(e, 5, 9, 3, 150), estimator_of(None, 5, 9, 3, 120)
    ((130.5, 'hybrid'), (None, ''), (None, ''))
    """
    if estimates is None or estimates.empty or "est_best" not in estimates.columns:
        return None, ""
    hit = estimates[(estimates["m"] == m) & (estimates["bits"] == bits) & (estimates["c"] == c)
                    & (estimates["hwt"] == hwt)]
    hit = hit[pd.to_numeric(hit["est_best"], errors="coerce").notna()]
    if hit.empty:
        return None, ""
    return float(hit["est_best"].iloc[0]), str(hit["est_best_attack"].iloc[0])


def paper_vs_ours(experiments, runs, dense_security, coresvp, estimates=None):
    """Table 3 (COLUMNS). experiments: the config's list; runs: tidy/runs.csv's DataFrame;
    dense_security(m, log2_q): HElib's formula with a dense key (the engine's);
    coresvp(phi, log2_q, hwt): the project's core-SVP figure of a chain; estimates: the
    run-security rows, for the lattice estimator's figure where it ran (estimator_of)."""
    rows = []
    for p in published.paper_rows(experiments):
        row = {k: p[k] for k in ("name", "instance", "packing", "m", "rounds", "paper_bits")}
        row.update(paper_security=p["paper_security"], paper_total_min=p["paper_total_min"], bits=p["config_bits"])
        row["security_target"] = p["security_target"]
        ran = runs[(runs["name"] == p["name"]) & (runs["m"] == p["m"])] if len(runs) else runs
        if len(ran) and p["config_bits"] != "plan":  # a planned chain's bits are the run's
            ran = ran[ran["bits"] == p["config_bits"]]
        if "backend" in ran.columns:
            ran = ran[ran["backend"].fillna("engine") == "engine"]
        if ran.empty:
            row.update(status="not run", chain_note=chain_note(p["config_bits"], p["paper_bits"], p["rounds"],
                                                              linear=p["linear"]),
                       security_note="not run here", time_note="not run here", below_80_bits=None)
            rows.append(row)
            continue
        r = ran.iloc[0]
        used = (float(r["bits"]) - float(r["final_capacity_bits"])) / int(r["rounds"])
        dense = dense_security(int(r["m"]), float(r["log2_q"]))
        row.update(status="run", security_helib=float(r["security_helib"]), hwt=int(r["hwt"]), c=int(r["c"]),
                   bits=int(r["bits"]),
                   security_helib_dense=round(dense, 3),
                   security_coresvp=coresvp(int(r["phi"]), float(r["log2_q"]), int(r["hwt"])),
                   bits_used_per_round=round(used, 1), total_min=float(ran["total_s"].mean()) / 60)
        est, attack = estimator_of(estimates, int(r["m"]), int(r["bits"]), int(r["c"]), int(r["hwt"]))
        row.update(security_est_best=est, est_best_attack=attack)
        row["below_80_bits"] = security_marks.is_below(row)
        row["chain_note"] = chain_note(int(r["bits"]), p["paper_bits"], p["rounds"], used, p["linear"])
        row["security_note"] = security_note(row["security_helib"], p["paper_security"], row["hwt"], dense,
                                             float(r["log2_q"]))
        row["security_note"] += "; " + target_note(p["security_target"], p["paper_security"], row["hwt"], row["c"])
        row["security_note"] += "; " + estimator_note(est, attack, p["paper_security"], row["security_coresvp"])
        row["time_note"] = time_note(row["total_min"], p["paper_total_min"], int(r["threads"]), int(r["blocks"]))
        rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)

