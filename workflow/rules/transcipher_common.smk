# transcipher_common.smk: the transciphering leaderboard's config section (taken out of the
# config and validated against its schema) and the functions its rules ask
# (transcipher.smk, which includes this file first; rules and functions apart, as
# peers_common.smk and peers.smk).

import json
import os
import sys

def _tc_validate(section):
    """The section checked against its schema (the first error, naming the key and the value),
    with the schema's top-level defaults filled in."""
    import jsonschema
    import yaml

    with open(os.path.join(workflow.basedir, "config", "schema", "transciphering.schema.yaml")) as f:
        schema = yaml.safe_load(f)
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(section))
    if err is not None:
        where = "transciphering" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        what = f"{err.instance!r} is not allowed" if err.validator in ("oneOf", "anyOf") else err.message
        hint = f" ({' '.join(err.schema['description'].split())})" if isinstance(err.schema, dict) and \
            "description" in err.schema else ""
        raise WorkflowError(f"invalid config: {where}: {what}{hint}; see config/schema/transciphering.schema.yaml")
    for key, prop in schema["properties"].items():
        if "default" in prop:
            section.setdefault(key, prop["default"])
    return section


TRANSCIPHER = config.pop("transciphering", None)
if TRANSCIPHER is not None:
    _tc_validate(TRANSCIPHER)
    _names = [r["name"] for r in TRANSCIPHER["rows"]]
    _dups = sorted({n for n in _names if _names.count(n) > 1})
    if _dups:
        raise WorkflowError(f"invalid config: transciphering.rows: name(s) {_dups} appear more than once: "
                            "each row needs its own name (its files are named after it)")
    for _row in TRANSCIPHER["rows"]:
        _rings = _row["rings"]
        if isinstance(_rings, dict) and _rings["to"] < _rings["from"]:
            raise WorkflowError(f"invalid config: transciphering.rows[{_row['name']}].rings: from={_rings['from']} "
                                f"> to={_rings['to']}: the range is empty")
TC_ROWS = {r["name"]: r for r in (TRANSCIPHER or {}).get("rows", [])}
TC_DEFAULTS = {k: v for k, v in (TRANSCIPHER or {}).items() if k != "rows"}
TC_DIR = os.path.join(config["results_dir"], "transciphering")
TC_PY = sys.executable  # cbparams and analysis are installed in it (make venv)
TC_TABLE = {ext: os.path.join(TC_DIR, f"leaderboard.{ext}") for ext in ("csv", "md")}
TC_FIGURE = {ext: os.path.join(TC_DIR, f"leaderboard_throughput_capacity.{ext}") for ext in ("png", "svg")}


def tc_select_defaults():
    """The section's defaults a row's selection is given; with estimator among target_models,
    also the config's params.estimator settings (path, mode, cache, time limit) with the
    params schema's defaults filled in (cbparams.config.load_params)."""
    defaults = dict(TC_DEFAULTS)
    if "estimator" in defaults.get("target_models", []):
        from cbparams.config import load_params

        defaults["estimator"] = load_params(config.get("params"))["estimator"]
    return defaults


def transcipher_targets():
    """What rule all adds for a config with a transciphering section."""
    if TRANSCIPHER is None:
        return []
    return list(TC_TABLE.values()) + list(TC_FIGURE.values())


def tc_plan_cache():
    cache = config.get("plan_cache", ".cache/plans")
    return os.path.join(workflow.basedir, cache) if cache else ""


def tc_peers(wildcards):
    """tidy/peers.csv when the config runs the TFHE peers (peers.smk), for the TFHE rows."""
    return [PEERS_CSV] if PEERS else []
