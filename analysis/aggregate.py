"""Gather the pipeline's run records (runs/<id>.json) into tidy CSV tables.

runs.csv   one row per run: what was asked (experiment), the ring as the runner built it,
           timings, benchmark (wall, peak memory) and provenance.
rounds.csv one row per run and round: seconds, capacity left (bits).
ops.csv    one row per run, round and operation: seconds.

Only results that annotate.py accepted exist as records; aggregate re-checks every record
(analysis/records.py: complete, correct, of the run its path names) and refuses a run
counted twice, so that a damaged, hand-placed or copied file cannot slip in.
"""


import pandas as pd

from analysis import ciphers  # noqa: E402
from analysis.records import BadRecord, load_record, run_id  # noqa: E402

# Columns that identify a run; rounds.csv and ops.csv repeat them.
KEYS = ["name", "backend", "cipher", "instance", "field_bits", "state_size", "p", "packing", "linear", "m", "bits", "rep"]


def instance_label(experiment):
    """'AES-128' or 'Vision GF(2^16)^8': the cipher instance as the catalog names it."""
    return ciphers.display(experiment)


def record_rows(record):
    """(run row, round rows, op rows) of one record."""
    e, p = record["experiment"], record["params"]
    key = {k: e.get(k) for k in KEYS if k != "instance"}
    key["instance"] = instance_label(e)
    key["backend"] = e.get("backend", "engine")  # records from before the backends axis: the engine
    key["linear"] = e.get("linear", "separate")  # records from before the linear axis: apart
    key["bits"] = p["bits"]  # the chain it ran at: a ring without bits ran at the plan's

    per_round = record["per_round"]
    run = dict(key)
    run.update(
        rounds=record["rounds"],
        chain_from="plan" if e.get("bits") == "plan" else "config",
        blocks=record["blocks"],
        phi=p["phi"],
        d=p["d"],
        slots=p["slots"],
        c=p["c"],
        hwt=p["hwt"],
        log2_q=p["log2_q"],
        log2_q_ct=p.get("log2_q_ct"),
        security_helib=p["security"],
        ntl_route=record.get("ntl_route"),
        layout=record.get("layout"),
        blocks_per_run_max=record.get("blocks_per_run_max"),
        **{k: record["timings"][k] for k in ("setup_s", "keygen_s", "encrypt_input_s", "total_s")},
        # the chain planner's share of the process (~0 from the plan cache) and the whole
        # process (planning, setup, rounds, checks); records before these have neither
        plan_s=record["timings"].get("plan_s"),
        process_s=record["timings"].get("process_s"),
        rounds_s=sum(r["seconds"] for r in per_round),
        final_capacity_bits=per_round[-1]["capacity_bits"] if per_round else None,
        wall_s=record["benchmark"]["wall_s"],
        max_rss_mb=record["benchmark"]["max_rss_mb"],
        git_revision=record["provenance"]["git_revision"],
        host=record["provenance"]["host"],
        cpu=record["provenance"].get("cpu"),
        threads=record["provenance"]["threads"],
        date=record["provenance"]["date"],
        ciphertext_hex=record.get("ciphertext_hex"),
    )
    rounds, ops = [], []
    for r in per_round:
        rounds.append(dict(key, round=r["round"], seconds=r["seconds"], capacity_bits=r["capacity_bits"]))
        for op, seconds in r.get("ops", {}).items():
            ops.append(dict(key, round=r["round"], op=op, seconds=seconds))
    return run, rounds, ops


def tidy(paths):
    """DataFrames (runs, rounds, ops) of the records at `paths`."""
    runs, rounds, ops = [], [], []
    seen = {}
    for path in sorted(paths):
        record = load_record(path)
        key = run_id(record["experiment"])
        if key in seen:
            raise BadRecord(f"{path}: run {key} is already counted from {seen[key]}")
        seen[key] = path
        run, rs, os_ = record_rows(record)
        runs.append(run)
        rounds += rs
        ops += os_
    if not runs:
        raise BadRecord("no run records to aggregate")
    return (
        pd.DataFrame(runs),
        pd.DataFrame(rounds, columns=KEYS + ["round", "seconds", "capacity_bits"]),
        pd.DataFrame(ops, columns=KEYS + ["round", "op", "seconds"]),
    )


def aggregate(paths, runs_csv, rounds_csv, ops_csv):
    runs, rounds, ops = tidy(paths)
    runs.to_csv(runs_csv, index=False)
    rounds.to_csv(rounds_csv, index=False)
    ops.to_csv(ops_csv, index=False)


if "snakemake" in globals():
    aggregate(snakemake.input.runs, snakemake.output.runs, snakemake.output.rounds, snakemake.output.ops)
