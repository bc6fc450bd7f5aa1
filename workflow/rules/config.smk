# config.smk: validate the config against config/schema/config.schema.yaml (which takes the
# `params:` section from params.schema.yaml by $ref) and fill in the schema's defaults.
# Snakemake's own message prints the whole schema and config; this one names the key.

import jsonschema


def _config_path(path):
    """experiments[1].packing from a jsonschema error path."""
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return text.lstrip(".") or "(top level)"


# The experiments that name a key weight themselves, before validate fills in the schema's
# default: a ring with a security target leaves the weight to the engine unless its
# experiment names one (common.smk).
EXPLICIT_HWT = {e.get("name") for e in config.get("experiments") or [] if isinstance(e, dict) and "hwt" in e}

try:
    validate(config, "../../config/schema/config.schema.yaml")
except WorkflowError as err:
    cause = err.__context__  # the jsonschema error that snakemake's validate caught
    if not isinstance(cause, jsonschema.ValidationError):
        raise
    schema = cause.schema if isinstance(cause.schema, dict) else {}
    message = cause.message
    if cause.validator in ("oneOf", "anyOf", "not"):
        # jsonschema would print the whole instance; the schema's description says what is allowed.
        scalar = isinstance(cause.instance, (int, float, str, bool))
        message = f"{cause.instance!r} is not allowed" if scalar else "not an allowed combination"
    hint = ""
    if cause.validator not in ("additionalProperties", "required") and schema.get("description"):
        hint = f" ({' '.join(schema['description'].split())})"
    raise WorkflowError(
        f"invalid config: {_config_path(cause.absolute_path)}: {message}{hint}; "
        "see config/schema/config.schema.yaml for every key and its meaning"
    )
