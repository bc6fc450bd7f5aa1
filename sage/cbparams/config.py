"""The `params:` section of the pipeline configuration, with defaults and validation.

The defaults live in one place, the JSON schema config/schema/params.schema.yaml (every
key has a `default` and a `description`); this module fills them in and validates.

>>> p = load_params({"m_max": 5000})
>>> p["m_max"], p["field_degrees"], p["estimator"]["mode"]
(5000, [8, 16, 32, 64], 'fast')
>>> load_params({"m_maxx": 5000})
Traceback (most recent call last):
...
cbparams.errors.ParamError: params: Additional properties are not allowed ('m_maxx' was unexpected); see config/schema/params.schema.yaml for the keys and their meaning
"""
from __future__ import annotations

import copy
from pathlib import Path

import yaml

from .catalog import instance_of
from .errors import ParamError
from .paths import ROOT

SCHEMA_PATH = ROOT / "config" / "schema" / "params.schema.yaml"


def schema() -> dict:
    """The params schema as a dict."""
    with open(SCHEMA_PATH) as f:
        return yaml.safe_load(f)


def _fill(sch: dict, value):
    """Fills defaults of `sch` into `value` (recursively for objects)."""
    if value is None:
        value = copy.deepcopy(sch.get("default"))
    if sch.get("type") == "object" and isinstance(value, dict):
        for key, sub in sch.get("properties", {}).items():
            if key not in value and "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            if key in value:
                value[key] = _fill(sub, value[key])
    return value


def load_params(section: dict | None = None) -> dict:
    """Validated `params:` dict with defaults filled in. Raises ParamError on bad keys."""
    import jsonschema

    sch = schema()
    value = _fill(sch, copy.deepcopy(section) if section else {})
    try:
        jsonschema.validate(value, sch)
    except jsonschema.ValidationError as e:
        where = "params" + "".join(f".{p}" if isinstance(p, str) else f"[{p}]" for p in e.absolute_path)
        raise ParamError(f"{where}: {e.message}; see config/schema/params.schema.yaml "
                         f"for the keys and their meaning") from None
    if value["m_min"] > value["m_max"]:
        raise ParamError(f"params.m_min={value['m_min']} exceeds params.m_max={value['m_max']}: "
                         f"give a non-empty range of m")
    return value


def params_from_args(config_path: str | None, params_json: str | None) -> dict:
    """The params section from --params-json (as Snakemake passes it) or --config FILE."""
    if params_json is not None:
        import json
        try:
            section = json.loads(params_json)
        except ValueError as e:
            raise ParamError(f"--params-json is not valid JSON ({e}): pass the params: section as a JSON object") from None
        return load_params(section)
    return load_config_file(config_path)


def load_config_file(path: str | Path | None) -> dict:
    """Reads a pipeline config YAML and returns its validated `params:` section."""
    if path is None:
        return load_params({})
    path = Path(path)
    if not path.exists():
        raise ParamError(f"config file {path} does not exist: pass --config with an existing YAML file")
    with open(path) as f:
        cfg = yaml.safe_load(f) or {}
    return load_params(cfg.get("params"))


#: The papers' configuration: the rings [TMA] ran, each with the paper's own figures under
#: `paper:` (docs/references.md §1), beside the chains this project runs there.
PAPER_CONFIG = ROOT / "config" / "paper.yaml"


def paper_configs(path: str | Path = PAPER_CONFIG) -> list[tuple[str, int, int, int, float]]:
    """The paper's configurations, read from config/paper.yaml (its one copy in data):
    (instance, m, the paper's chain bits, rounds, the security the paper reports), one per
    ring that has a `paper:` entry, in the file's order.

    >>> [len(c) for c in paper_configs()] == [5] * len(paper_configs()) and len(paper_configs()) == 5
    True
    """
    with open(path) as f:
        cfg = yaml.safe_load(f) or {}
    out = []
    for e in cfg.get("experiments", []):
        for ring in e["rings"]:
            p = ring.get("paper")
            if p:
                out.append((instance_of(e), int(ring["m"]), int(p["bits"]), int(e["rounds"]), float(p["security"])))
    return out
