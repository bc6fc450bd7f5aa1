# transcipher.smk: the transciphering leaderboard (issue 46 item 5; docs/transciphering.md,
# "The leaderboard"). A config with a `transciphering:` section gets, per row, the ring
# selection (cbparams.transcipher select: every candidate m planned by run_cipher, kept
# when HElib's formula and core-SVP both reach the target, the least cost picked), the run
# on that ring (cbparams.transcipher run), then the table and the figure
# (analysis/transciphering.py).
#
# Included before config.smk: the section is taken out of the config here and validated
# against config/schema/transciphering.schema.yaml, and the rest is validated as any config.
# Paths and the build flag come from common.smk (R, BUILD_DIR, BUILD_STAMP), read only when
# a job's inputs are computed, after every file is included.

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
TC_PY = f"PYTHONPATH={os.path.join(workflow.basedir, 'sage')} {sys.executable}"
TC_TABLE = {ext: os.path.join(TC_DIR, f"leaderboard.{ext}") for ext in ("csv", "md")}
TC_FIGURE = {ext: os.path.join(TC_DIR, f"leaderboard_throughput_capacity.{ext}") for ext in ("png", "svg")}


def transcipher_targets():
    """What rule all adds for a config with a transciphering section."""
    if TRANSCIPHER is None:
        return []
    return list(TC_TABLE.values()) + list(TC_FIGURE.values())


def tc_plan_cache():
    cache = config.get("plan_cache", ".cache/plans")
    return os.path.join(workflow.basedir, cache) if cache else ""


rule transcipher_select:
    input:
        build=lambda wildcards: BUILD_STAMP,
    output:
        selection=os.path.join(TC_DIR, "selection", "{row}.json"),
    log:
        os.path.join(TC_DIR, "logs", "select_{row}.log"),
    benchmark:
        os.path.join(TC_DIR, "benchmarks", "select_{row}.tsv")
    wildcard_constraints:
        row="[a-z0-9][a-z0-9-]*",
    params:
        py=TC_PY,
        spec=lambda wildcards: json.dumps({"row": TC_ROWS[wildcards.row], "defaults": TC_DEFAULTS}),
        build_dir=lambda wildcards: BUILD_DIR,
        cache=lambda wildcards: tc_plan_cache(),
    shell:
        "OMP_NUM_THREADS=1 CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.transcipher select"
        " --row-json {params.spec:q} --plan-cache {params.cache:q} --out {output.selection:q} > {log:q} 2>&1"


rule transcipher_run:
    input:
        selection=rules.transcipher_select.output.selection,
    output:
        record=os.path.join(TC_DIR, "runs", "{row}.json"),
    log:
        os.path.join(TC_DIR, "logs", "run_{row}.log"),
    benchmark:
        os.path.join(TC_DIR, "benchmarks", "run_{row}.tsv")
    wildcard_constraints:
        row="[a-z0-9][a-z0-9-]*",
    threads: lambda wildcards: TC_DEFAULTS.get("threads", 2)
    params:
        py=TC_PY,
        build_dir=lambda wildcards: BUILD_DIR,
        cache=lambda wildcards: tc_plan_cache(),
    shell:
        "OMP_NUM_THREADS={threads} CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.transcipher run"
        " --selection {input.selection:q} --threads {threads} --plan-cache {params.cache:q}"
        " --out {output.record:q} > {log:q} 2>&1"


def tc_peers(wildcards):
    """tidy/peers.csv when the config runs the TFHE peers (peers.smk), for the TFHE rows."""
    return [PEERS_CSV] if PEERS else []


rule transcipher_table:
    input:
        records=[os.path.join(TC_DIR, "runs", f"{row}.json") for row in TC_ROWS],
        selections=[os.path.join(TC_DIR, "selection", f"{row}.json") for row in TC_ROWS],
        peers=tc_peers,
        references=os.path.join(workflow.basedir, "docs", "references.md"),
    output:
        csv=TC_TABLE["csv"],
        md=TC_TABLE["md"],
    log:
        os.path.join(TC_DIR, "logs", "table.log"),
    params:
        py=TC_PY,
        script=os.path.join(workflow.basedir, "analysis", "transciphering.py"),
        published=lambda wildcards: "--published" if TC_DEFAULTS.get("published", True) else "",
    shell:
        "{params.py} {params.script:q} table --records {input.records:q} --peers {input.peers:q}"
        " --references {input.references:q} {params.published} --csv {output.csv:q} --md {output.md:q} > {log:q} 2>&1"


rule transcipher_figure:
    input:
        csv=rules.transcipher_table.output.csv,
    output:
        png=report(TC_FIGURE["png"], caption="../report/transciphering_leaderboard.rst", category="Transciphering"),
        svg=TC_FIGURE["svg"],
    log:
        os.path.join(TC_DIR, "logs", "figure.log"),
    params:
        py=TC_PY,
        script=os.path.join(workflow.basedir, "analysis", "transciphering.py"),
    shell:
        "{params.py} {params.script:q} figure --csv {input.csv:q} --png {output.png:q} --svg {output.svg:q} > {log:q} 2>&1"
