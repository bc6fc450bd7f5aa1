"""Turn one raw run_cipher result into the pipeline's result record.

Input: the JSON run_cipher wrote, the provenance the run job recorded on its node
(workflow/scripts/measure.py: host, date, threads, git revision, run_cipher's exact peak
resident memory) and Snakemake's benchmark TSV for the job (wall time; its sampled peak
memory is kept as sampled_max_rss_mb). Output: the raw JSON with three more keys, `experiment` (what the
config asked for), `provenance` and `benchmark`.

A result is refused (RunRejected, the job fails and nothing is aggregated) when it says
correct=false or when its cipher, ring, chain or rounds differ from what was asked.
"""

import json

import pandas as pd


# The config's backend names and what run_cipher calls them (--backend, JSON "backend").
RUNNER_BACKEND = {"engine": "bgv", "helib": "helib"}


class RunRejected(ValueError):
    """A run result that must not be aggregated; the message says why."""


def read_benchmark(path):
    """Wall seconds and peak RSS (MB) from a Snakemake benchmark TSV (first line)."""
    row = pd.read_csv(path, sep="\t").iloc[0]
    return {"wall_s": float(row["s"]), "max_rss_mb": float(row["max_rss"])}


def check_run(raw, experiment):
    """Raise RunRejected unless `raw` is a correct run of `experiment`."""
    where = f"run {experiment['name']} ({experiment.get('backend', 'engine')}) m={experiment['m']} bits={experiment['bits']}"
    if raw.get("correct") is not True:
        raise RunRejected(f"{where}: correct={raw.get('correct')!r}: decryption disagrees with the reference cipher")
    if raw.get("cipher") != experiment["cipher"]:
        raise RunRejected(f"{where}: result is for cipher={raw.get('cipher')!r}, expected {experiment['cipher']!r}")
    params = raw.get("params", {})
    # a ring without bits runs at the engine's plan: its chain must be the plan's
    want = {"m": experiment["m"], "bits": (raw.get("plan") or {}).get("bits") if experiment["bits"] == "plan"
            else experiment["bits"]}
    for key in ("m", "bits"):
        if params.get(key) != want[key]:
            raise RunRejected(f"{where}: result has params.{key}={params.get(key)!r}, expected {want[key]}"
                              + (" (the plan's)" if experiment["bits"] == "plan" else ""))
    if raw.get("rounds") != experiment["rounds"]:
        raise RunRejected(f"{where}: result has rounds={raw.get('rounds')!r}, expected {experiment['rounds']}")
    want = RUNNER_BACKEND[experiment.get("backend", "engine")]
    if raw.get("backend", "bgv") != want:
        raise RunRejected(f"{where}: result has backend={raw.get('backend')!r}, expected {want!r} (never the clear backend)")
    if experiment.get("blocks") is not None and raw.get("blocks") != experiment["blocks"]:
        raise RunRejected(f"{where}: result has blocks={raw.get('blocks')!r}, expected {experiment['blocks']}")
    per_round = raw.get("per_round", [])
    if len(per_round) != experiment["rounds"]:
        raise RunRejected(f"{where}: result has {len(per_round)} per_round entries for {experiment['rounds']} rounds")


def annotate(raw_path, env_path, benchmark_path, experiment, out_path):
    with open(raw_path) as f:
        raw = json.load(f)
    with open(env_path) as f:
        provenance = json.load(f)
    check_run(raw, experiment)
    record = dict(raw)
    record["experiment"] = dict(experiment)
    record["provenance"] = provenance
    record["benchmark"] = read_benchmark(benchmark_path)
    if "max_rss_mb" in provenance:  # measure.py's exact peak of run_cipher itself
        record["benchmark"]["sampled_max_rss_mb"] = record["benchmark"]["max_rss_mb"]
        record["benchmark"]["max_rss_mb"] = provenance.pop("max_rss_mb")
    provenance.pop("exit_status", None)
    with open(out_path, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if "snakemake" in globals():
    annotate(
        snakemake.input.raw,
        snakemake.input.env,
        snakemake.input.benchmark,
        snakemake.params.experiment,
        snakemake.output.run,
    )
