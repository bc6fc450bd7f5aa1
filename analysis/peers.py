"""Peer results (other FHE implementations timed on this machine) into records and tidy CSV.

annotate   one raw tfhe_aes result + the job's provenance (workflow/scripts/measure.py) +
           Snakemake's benchmark TSV -> <results_dir>/peers/<id>.json; refused (PeerRejected,
           the job fails) unless every block was right and the run is the one asked for.
aggregate  every peer record -> <results_dir>/tidy/peers.csv, one row per run: scheme,
           implementation and method (tfhe_aes --method: transciphering for the peer `tfhe`,
           leveled for `tfhe-leveled`), parameter set and its stated security, threads, blocks, latency
           and time per block (wall), CPU seconds per block (all threads: on a shared
           machine the steadier figure), setup, bootstraps per block, peak memory, host, date.
"""

import json

import pandas as pd

from analysis.annotate import read_benchmark


class PeerRejected(ValueError):
    """A peer result that must not be aggregated; the message says why."""


COLUMNS = [
    "peer", "scheme", "implementation", "method", "version", "params", "security", "threads", "blocks",
    "latency_s", "per_block_s", "cpu_per_block_s", "total_s", "setup_s", "keygen_s", "key_schedule_s",
    "pbs_per_block", "max_rss_mb", "host", "cpu", "date", "git_revision",
]


#: The cipher the TFHE peer (runners/tfhe: tfhe_aes) evaluates, as the catalog names it.
PEER_CIPHER = "aes128"

#: tfhe_aes --method of each TFHE peer (workflow/rules/peers_common.smk, TFHE_PEERS).
PEER_METHODS = {"tfhe": "transciphering", "tfhe-leveled": "leveled"}


def check_peer(raw, asked):
    """Raise PeerRejected unless `raw` is a correct tfhe_aes run of what `asked` says."""
    peer = asked.get("peer", "tfhe")
    where = f"peer {peer} params={asked['params']} threads={asked['threads']} blocks={asked['blocks']}"
    if raw.get("correct") is not True:
        raise PeerRejected(f"{where}: correct={raw.get('correct')!r}: a block disagrees with the reference AES")
    if "timings" not in raw or "invalid_timings" in raw:
        raise PeerRejected(f"{where}: no valid timings in the result")
    if raw.get("cipher") != PEER_CIPHER or raw.get("scheme") != "tfhe":
        raise PeerRejected(f"{where}: result is cipher={raw.get('cipher')!r} scheme={raw.get('scheme')!r}")
    got = {"params": raw.get("params", {}).get("name"), "threads": raw.get("threads"), "blocks": raw.get("blocks")}
    for key, value in got.items():
        if value != asked[key]:
            raise PeerRejected(f"{where}: result has {key}={value!r}, expected {asked[key]!r}")
    # Results from before --method existed are tfhe-rs's transciphering AES.
    method = raw.get("method", "transciphering")
    if method != PEER_METHODS[peer]:
        raise PeerRejected(f"{where}: result has method={method!r}, expected {PEER_METHODS[peer]!r}")


def annotate(raw_path, env_path, benchmark_path, asked, out_path):
    with open(raw_path) as f:
        raw = json.load(f)
    with open(env_path) as f:
        provenance = json.load(f)
    check_peer(raw, asked)
    record = dict(raw)
    record["peer"] = asked.get("peer", "tfhe")
    record["asked"] = dict(asked)
    record["benchmark"] = read_benchmark(benchmark_path)
    if "max_rss_mb" in provenance:  # measure.py's exact peak of the runner itself
        record["benchmark"]["sampled_max_rss_mb"] = record["benchmark"]["max_rss_mb"]
        record["benchmark"]["max_rss_mb"] = provenance.pop("max_rss_mb")
    provenance.pop("exit_status", None)
    record["provenance"] = provenance
    with open(out_path, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def peer_row(record):
    t, p = record["timings"], record["params"]
    return {
        "peer": record["peer"],
        "scheme": record["scheme"].upper(),
        "implementation": f"{record['crate']['name']} {record['crate']['version']} ({record['implementation']})",
        "method": record.get("method", "transciphering"),
        "version": record["crate"]["version"],
        "params": p["name"],
        "security": p["security"],
        "threads": record["threads"],
        "blocks": record["blocks"],
        "latency_s": t["latency_s"],
        "per_block_s": t["per_block_s"],
        "cpu_per_block_s": t["cpu_per_block_s"],
        "total_s": t["total_s"],
        "setup_s": t["setup_s"],
        "keygen_s": t["keygen_s"],
        "key_schedule_s": t["key_schedule_s"],
        "pbs_per_block": record["pbs"]["per_block"],
        "max_rss_mb": record["benchmark"]["max_rss_mb"],
        "host": record["provenance"]["host"],
        "cpu": record["machine"]["cpu"],
        "date": record["provenance"]["date"],
        "git_revision": record["provenance"]["git_revision"],
    }


def tidy(paths):
    rows = []
    for path in sorted(paths):
        with open(path) as f:
            record = json.load(f)
        if record.get("correct") is not True or "timings" not in record:
            raise PeerRejected(f"{path}: not a correct peer record: never aggregated")
        rows.append(peer_row(record))
    return pd.DataFrame(rows, columns=COLUMNS)


def aggregate(paths, out_csv):
    tidy(paths).to_csv(out_csv, index=False)


if "snakemake" in globals():
    if snakemake.rule == "annotate_peer":
        annotate(snakemake.input.raw, snakemake.input.env, snakemake.input.benchmark,
                 snakemake.params.asked, snakemake.output.run)
    else:
        aggregate(snakemake.input.peers, snakemake.output.csv)
