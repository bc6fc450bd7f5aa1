"""What a valid run record is: <results_dir>/runs/<name>/m<m>_bits<bits>_rep<rep>.json.

annotate.py writes a record only for a correct run of the experiment asked for; the
record may still be lost or damaged afterwards (a deleted or truncated file, a hand edit,
a copy under another name). Everything that reads records checks them here first:
- aggregate.py refuses a record that fails these checks, so it is never counted, and a
  run id that appears twice;
- the pipeline (workflow/rules/run.smk), before it plans the jobs, moves an invalid
  record aside to <results_dir>/rejected/ so that Snakemake rebuilds it.

>>> check_record({"experiment": {"name": "a", "m": 257, "bits": 400, "rep": 0}}, "runs/a/m257_bits400_rep0.json")
Traceback (most recent call last):
...
records.BadRecord: runs/a/m257_bits400_rep0.json: no 'provenance' key: not a pipeline run record
"""

import json
import math
import os
import re

# Keys annotate.py writes into every record.
REQUIRED = ("experiment", "provenance", "benchmark", "params", "timings", "per_round", "rounds", "correct")
# run id <name>/<backend>/m<m>_bits<bits>_rep<rep>, as in workflow/rules/common.smk (RUN_ID)
RUN_ID = re.compile(r"(?P<name>[a-z0-9][a-z0-9-]*)/(?P<backend>[a-z]+)/m(?P<m>\d+)_bits(?P<bits>\d+)_rep(?P<rep>\d+)$")


class BadRecord(ValueError):
    """A run record that cannot be aggregated; the message names the file and the fault."""


def run_id_of_path(path):
    """'vision8/engine/m257_bits800_rep0' from '.../runs/vision8/engine/m257_bits800_rep0.json', or None."""
    stem = path[: -len(".json")] if path.endswith(".json") else path
    parts = stem.replace(os.sep, "/").split("/")
    match = RUN_ID.search("/".join(parts[-3:]))
    return match.group(0) if match else None


def run_id(experiment):
    return (f"{experiment.get('name')}/{experiment.get('backend', 'engine')}/m{experiment.get('m')}"
            f"_bits{experiment.get('bits')}_rep{experiment.get('rep')}")


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check_record(record, path, expected=None):
    """Raise BadRecord unless `record` (read from `path`) is a complete record of a correct
    run, for the run its path names and, when given, of the experiment `expected`."""
    if not isinstance(record, dict):
        raise BadRecord(f"{path}: not a JSON object: not a pipeline run record")
    for key in REQUIRED:
        if key not in record:
            raise BadRecord(f"{path}: no '{key}' key: not a pipeline run record")
    if record["correct"] is not True:
        raise BadRecord(f"{path}: correct={record['correct']!r}: incorrect runs are never aggregated")
    e = record["experiment"]
    if not isinstance(e, dict):
        raise BadRecord(f"{path}: 'experiment' is not an object")
    want = run_id_of_path(path)
    if want is not None and run_id(e) != want:
        raise BadRecord(f"{path}: the record is of run {run_id(e)}, not of the run its path names ({want})")
    if expected is not None:
        for key in ("name", "cipher", "packing", "m", "bits", "rep", "rounds", "field_bits", "state_size", "hwt", "c"):
            if e.get(key) != expected.get(key):
                raise BadRecord(f"{path}: experiment.{key}={e.get(key)!r}, the config asks for {expected.get(key)!r}")
        # Records from before the linear axis ran the affine maps apart.
        if e.get("linear", "separate") != expected.get("linear", "separate"):
            raise BadRecord(f"{path}: experiment.linear={e.get('linear', 'separate')!r}, the config asks for "
                            f"{expected.get('linear')!r}")
    rounds = record["per_round"]
    if not isinstance(rounds, list) or record["rounds"] != e.get("rounds") or len(rounds) != e.get("rounds"):
        n = len(rounds) if isinstance(rounds, list) else rounds
        raise BadRecord(f"{path}: {n} per_round entries and rounds={record['rounds']!r} "
                        f"for the {e.get('rounds')!r} rounds asked for")
    for i, r in enumerate(rounds):
        if not isinstance(r, dict) or not _number(r.get("seconds")) or not _number(r.get("capacity_bits")):
            raise BadRecord(f"{path}: per_round[{i}] lacks seconds or capacity_bits")
    params = record["params"]
    # a ring without bits ran at the engine's plan ("plan"): its chain is the plan's
    bits = (record.get("plan") or {}).get("bits") if e.get("bits") == "plan" else e.get("bits")
    if not isinstance(params, dict) or params.get("m") != e.get("m") or params.get("bits") != bits:
        raise BadRecord(f"{path}: params (m, bits) differ from the experiment's")
    for section, keys in (("timings", ("total_s",)), ("benchmark", ("wall_s", "max_rss_mb"))):
        for k in keys:
            if not isinstance(record[section], dict) or not _number(record[section].get(k)):
                raise BadRecord(f"{path}: {section}.{k} is missing or not a number")


def load_record(path, expected=None):
    """The record at `path`, checked (BadRecord when unreadable or invalid)."""
    try:
        with open(path) as f:
            record = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise BadRecord(f"{path}: unreadable ({err})") from err
    check_record(record, path, expected)
    return record
