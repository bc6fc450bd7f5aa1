"""The papers' two tables computed from our tidy CSV (aggregate.py's output).

table1_vision_ops: seconds per operation in one round for each instance of the papers'
    Table 1 (the instances published.table1 has figures for: Vision's four): the mean over
    all rounds and repetitions of each step's seconds, and of the whole round. The columns
    are the instances' step names as the catalog lists them (the paper's columns first,
    then the fused steps); run_cipher reports a step's seconds summed over the round.
    Each row carries its run's security.
table2_totals: per cipher instance, packing, ring and chain (the papers' Table 2): the
    ring, the chain, security, rounds, total minutes for all rounds (run_cipher's
    timings.total_s: evaluation of the rounds, without key generation and encryption),
    seconds per block amortized over the blocks of one run, peak memory.
table3_paper_vs_ours: per ring of the config with the paper's figures (config/paper.yaml),
    the paper's chain and security beside ours, the differences explained in words
    (analysis/paper_vs_ours.py); empty for a config without them.

Security, in every row: HElib's formula as the engine computed it for the run's chain
(run_cipher's params.security); the core-SVP cost of primal uSVP with the same Q
(ciphertext and special primes, log2_q): security.csv's figure for the same chain when the
explorer's stage ran, otherwise the explorer's one function for it
(cbparams.security.coresvp_of_chain); the explorer's estimates when its stage ran, and the
lattice estimator's for every run's own chain and key where it is installed
(tidy/run_security.csv, `cbparams.select run-security`); and below_80_bits, the mark of
runs on toy rings (analysis/security_marks.py).
"""

import math
import os

import pandas as pd

from analysis import ciphers
from analysis import published
from analysis import security_marks
from analysis.published import VISION_OPS


def explorer_security():
    """The explorer's security module (cbparams.security: it asks the engine for HElib's
    formula and computes core-SVP), imported when a table needs it."""
    from cbparams import security

    return security


def coresvp_bits(n, log2_q, hwt):
    """Core-SVP cost of primal uSVP [ADPS16] for Q = 2^log2_q (ciphertext and special
    primes), the explorer's figure for a chain (the same function security.csv uses)."""
    return explorer_security().coresvp_of_chain(n, log2_q, hwt)

GROUP = ["instance", "backend", "field_bits", "state_size", "packing", "linear", "m", "bits"]
def state_label(row):
    """'GF(2^8)^16': the instance's field and state (the catalog's label)."""
    return ciphers.label(row)


def step_columns(present):
    """Table 1's step columns for the steps `present` (run_cipher's op names): the paper's
    columns first, then the other steps of the catalog that some row has (the fused ones)."""
    return VISION_OPS + [s for s in ciphers.step_names() if s in set(present) and s not in VISION_OPS]


def _sort(df):
    key = df["field_bits"].fillna(0)
    return df.assign(_k=key).sort_values(["_k", "instance", "packing", "linear", "m", "bits", "backend"]).drop(
        columns="_k")


SECURITY_COLUMNS = ["security_helib", "security_coresvp"]


def run_security(runs):
    """Per GROUP: HElib's formula (the engine's, from the run) and core-SVP with the same Q."""
    sec = runs.groupby(GROUP, dropna=False).agg(
        phi=("phi", "first"), hwt=("hwt", "first"), log2_q=("log2_q", "first"),
        security_helib=("security_helib", "first"),
    ).reset_index()
    sec["security_coresvp"] = [coresvp_bits(int(r.phi), float(r.log2_q), int(r.hwt)) for r in sec.itertuples()]
    return sec[GROUP + SECURITY_COLUMNS]


def table1_vision_ops(rounds, ops, runs=None):
    """One row per instance of the paper's Table 1, packing, ring and chain, with its security
    when `runs` (tidy/runs.csv) is given."""
    covered = set(published.table1()["instance"])
    rounds = rounds[rounds["instance"].isin(covered)]
    ops = ops[ops["instance"].isin(covered)]
    marks = SECURITY_COLUMNS + ["below_80_bits"] if runs is not None else []
    steps = step_columns(ops["op"].unique())
    columns = ["instance", "backend", "packing", "linear", "m", "bits", *marks, *steps, "one_round", "runs"]
    if rounds.empty:
        return pd.DataFrame(columns=columns)
    per_op = ops.groupby(GROUP + ["op"], dropna=False)["seconds"].mean().unstack("op")
    per_op = per_op.reindex(columns=steps)
    one_round = rounds.groupby(GROUP, dropna=False).agg(
        one_round=("seconds", "mean"), runs=("rep", "nunique")
    )
    table = per_op.join(one_round, how="outer").reset_index()
    if runs is not None:
        table = security_marks.mark_columns(table.merge(run_security(runs), on=GROUP, how="left"))
    return _sort(table)[columns].reset_index(drop=True)


def join_estimates(table, estimates):
    """Add the parameter explorer's security estimates (results/params/security.csv) to the
    rows with the same ring and chain (m, bits, and c and hwt when it has them): its
    columns *_bits and est_* become security_<name> (helib_bits -> security_helib,
    est_usvp -> security_est_usvp); HElib's formula stays the run's own (the engine's, for
    the chain it ran), core-SVP is security.csv's."""
    if estimates is None or estimates.empty:
        return table
    if not {"m", "bits"} <= set(estimates.columns):
        raise ValueError(f"security estimates need columns m and bits, have {list(estimates.columns)}")
    keys = ["m", "bits"] + [k for k in ("c", "hwt") if k in estimates.columns and k in table.columns]
    wanted = [
        c for c in estimates.columns
        if (c.endswith("_bits") or c.startswith("est_")) and "log2_q" not in c and not c.endswith("_attack")
        and pd.api.types.is_numeric_dtype(estimates[c])
    ]
    names = {c: "security_" + (c[: -len("_bits")] if c.endswith("_bits") else c) for c in wanted}
    est = estimates[keys + wanted].rename(columns=names)
    # security.csv's core-SVP is the one figure for a chain: it is taken, never recomputed
    est = est[[c for c in est.columns if c in keys or c not in table.columns or c == "security_coresvp"]]
    if "security_coresvp" in est.columns and "security_coresvp" in table.columns:
        table = table.drop(columns="security_coresvp")
    est = est.drop_duplicates(keys)
    return table.merge(est, on=keys, how="left")


def table2_totals(runs, estimates=None):
    """One row per cipher instance, packing, ring and chain."""
    runs = runs.assign(
        state=runs.apply(state_label, axis=1),
        eval_min=runs["total_s"] / 60,
        wall_min=runs["wall_s"] / 60,
        amortized_s_per_block=runs["total_s"] / runs["blocks"],
    )
    table = (
        runs.groupby(GROUP, dropna=False)
        .agg(
            state=("state", "first"),
            phi=("phi", "first"),
            d=("d", "first"),
            slots=("slots", "first"),
            log2_q=("log2_q", "first"),
            log2_q_ct=("log2_q_ct", "first"),
            c=("c", "first"),
            hwt=("hwt", "first"),
            security_helib=("security_helib", "first"),
            rounds=("rounds", "first"),
            blocks=("blocks", "first"),
            total_min=("eval_min", "mean"),
            amortized_s_per_block=("amortized_s_per_block", "mean"),
            wall_min=("wall_min", "mean"),
            peak_mem_mb=("max_rss_mb", "max"),
            runs=("rep", "nunique"),
            threads=("threads", "first"),
            git_revision=("git_revision", lambda s: ",".join(sorted(set(s)))),
        )
        .reset_index()
    )
    # core-SVP: security.csv's figure for the same chain when the explorer ran (join_estimates),
    # else the explorer's function with the same Q (log2_q: ciphertext and special primes)
    table = join_estimates(table, estimates)
    if "security_coresvp" not in table.columns:
        table["security_coresvp"] = float("nan")
    table["security_coresvp"] = [
        r.security_coresvp if pd.notna(r.security_coresvp) else coresvp_bits(int(r.phi), float(r.log2_q), int(r.hwt))
        for r in table.itertuples()
    ]
    table = security_marks.mark_columns(table)
    estimates_cols = [c for c in table.columns
                      if c.startswith("security_") and c not in ("security_helib", "security_coresvp", "security_lowest")]
    columns = [
        "instance", "backend", "state", "packing", "linear", "m", "phi", "d", "slots", "bits", "log2_q_ct", "log2_q", "c", "hwt",
        "security_helib", "security_coresvp", *estimates_cols, "below_80_bits", "rounds", "blocks", "total_min",
        "amortized_s_per_block", "wall_min", "peak_mem_mb", "runs", "threads", "git_revision",
    ]
    return _sort(table)[columns].reset_index(drop=True)


#: The human Table 2 (Markdown, HTML): what a reader compares, at most 12 columns; the CSV
#: keeps every column for tools.
READABLE_COLUMNS = ["instance", "ring", "chain", "security (lowest)", "rounds", "blocks", "latency_s",
                    "per_block_s", "memory_gb", "paper"]


def _lowest_with_source(row):
    """'130.2 (core-SVP)', with the mark when below 80 bits: the lowest estimate the row has."""
    figs = [(security_marks._num(row.get(c)), name) for c, name in security_marks.FIGURES if c in row]
    figs = [(v, n) for v, n in figs if v is not None]
    if not figs:
        return "unknown: " + security_marks.MARK
    v, n = min(figs)
    return f"{v:.1f} ({n})" + (f", {security_marks.MARK}" if v < security_marks.THRESHOLD else "")


def table2_readable(t2):
    """Table 2 for people: one row per run configuration of table2_totals, in
    READABLE_COLUMNS; the paper's total time where config/paper.yaml has the ring."""
    pub = published.table2()
    paper = {(r.instance, int(r.m)): f"{r.total_min:g} min ({int(r.bits)} bits, {r.security:g})" for r in pub.itertuples()}
    rows = []
    for r in t2.to_dict("records"):
        name = f"{r['instance']} {r['packing']}" + (", fused" if r.get("linear") == "fused" else "")
        if r.get("backend", "engine") != "engine":
            name += f" ({r['backend']})"
        rows.append({
            "instance": name,
            "ring": f"m={int(r['m'])} (phi {int(r['phi'])})",
            "chain": f"{int(r['bits'])} bits, c={int(r['c'])}",
            "security (lowest)": _lowest_with_source(r),
            "rounds": int(r["rounds"]),
            "blocks": int(r["blocks"]),
            "latency_s": r["total_min"] * 60,
            "per_block_s": r["amortized_s_per_block"],
            "memory_gb": r["peak_mem_mb"] / 1000,
            "paper": paper.get((r["instance"], int(r["m"])), ""),
        })
    return pd.DataFrame(rows, columns=READABLE_COLUMNS)


def round_curves(rounds):
    """Mean seconds and capacity per round (over repetitions), one curve per instance,
    packing, ring and chain: the data of the per-round figure."""
    curves = rounds.groupby(["cipher", *GROUP, "round"], dropna=False).agg(
        seconds=("seconds", "mean"), capacity_bits=("capacity_bits", "mean")
    )
    return curves.reset_index()


def round_ops(ops):
    """Mean seconds per round of each operation (over rounds and repetitions), one row per
    instance, packing, ring, chain and operation: the data of the one-round figure."""
    per_op = ops.groupby(["cipher", *GROUP, "op"], dropna=False)["seconds"].mean()
    return per_op.reset_index()


def _cell(value):
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value == 0:
            return "0"
        if abs(value) >= 100:
            return f"{value:.1f}"
        return f"{value:.4g}"
    return str(value)


def to_markdown(df):
    """A GitHub-flavoured markdown table (no extra dependency)."""
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def write_table(df, csv_path, md_path, title, readable=None):
    """The full table as CSV; as Markdown, `readable` (the human view) when given."""
    df.to_csv(csv_path, index=False)
    with open(md_path, "w") as f:
        f.write(f"# {title}\n\n")
        f.write(to_markdown(df if readable is None else readable))


def table3_paper_vs_ours(experiments, runs, run_estimates=None):
    """The paper's chain and security beside ours, per ring of the config that carries the
    paper's figures (analysis/paper_vs_ours.py); HElib's formula with a dense key is the engine's;
    the lattice estimator's figure from the run-security rows where it ran."""
    from analysis import paper_vs_ours

    sec = explorer_security()
    return paper_vs_ours.paper_vs_ours(experiments, runs, lambda m, lq: sec.helib_security(m, lq, 0), coresvp_bits,
                                       run_estimates)


def tables(runs_csv, rounds_csv, ops_csv, estimates_csvs, t1_csv, t1_md, t2_csv, t2_md,
           experiments=None, t3_csv=None, t3_md=None, build_dir=None, run_estimates_csv=None):
    if build_dir:
        os.environ["CB_BUILD_DIR"] = os.path.abspath(build_dir)   # where the engine's security_info is
    runs = pd.read_csv(runs_csv, dtype={"git_revision": str})  # a short hash may be all digits
    rounds = pd.read_csv(rounds_csv)
    ops = pd.read_csv(ops_csv)
    # the explorer's figures (its selected and paper chains) first, then every run's own chain
    run_estimates = pd.read_csv(run_estimates_csv) if run_estimates_csv else None
    parts = [pd.read_csv(p) for p in estimates_csvs] + ([run_estimates] if run_estimates is not None else [])
    estimates = pd.concat(parts) if parts else None
    write_table(
        table1_vision_ops(rounds, ops, runs), t1_csv, t1_md,
        "Table 1: seconds per operation in one Vision round (mean over rounds and runs)",
    )
    t2 = table2_totals(runs, estimates)
    write_table(
        t2, t2_csv, t2_md,
        "Table 2: all rounds of each run (latency = evaluation of the rounds; the CSV has every column)",
        readable=table2_readable(t2),
    )
    if t3_csv:
        write_table(
            table3_paper_vs_ours(experiments or [], runs, run_estimates), t3_csv, t3_md,
            "Table 3: the paper's chain and security beside ours (rings with the paper's figures in the config)",
        )


if "snakemake" in globals():
    tables(
        snakemake.input.runs, snakemake.input.rounds, snakemake.input.ops,
        list(snakemake.input.estimates),
        snakemake.output.t1_csv, snakemake.output.t1_md, snakemake.output.t2_csv, snakemake.output.t2_md,
        snakemake.params.experiments, snakemake.output.t3_csv, snakemake.output.t3_md,
        snakemake.params.build_dir, snakemake.input.run_estimates,
    )
