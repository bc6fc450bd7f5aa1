# params.smk: the parameter explorer (sage/cbparams): rings -> candidates -> selection ->
# security. Settings come from the config's `params:` section (config/schema/params.schema.yaml),
# passed to each step as JSON; every step is `python -m cbparams.<module>`, run by the Python
# that runs Snakemake (the .venv's, where `make venv` installs cbparams), or by the conda
# env's python with sage/ on PYTHONPATH under --sw-deployment-method conda (the explorer
# needs numpy, PyYAML, jsonschema).

import json
import sys

from snakemake.settings.types import DeploymentMethod

PARAMS_DIR = os.path.join(R, "params")
PARAMS_JSON = json.dumps(config.get("params") or {})
_CONDA = DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method
PARAMS_PY = "PYTHONPATH=sage python" if _CONDA else sys.executable
if not _CONDA:
    try:
        import cbparams
    except ImportError:
        raise WorkflowError(f"the parameter explorer (cbparams) is not installed in {sys.executable}: "
                            "run `make venv` (it runs `pip install -e sage`)")
PARAMS_WORKERS = (config.get("params") or {}).get("workers", 2)
PARAMS_PROFILES = (config.get("params") or {}).get("depth_profiles", "config/depth_profiles.yaml")


# Every odd m in [m_min, m_max] with n | ord_m(2) for a configured field degree n: ring
# facts, Z_m^*/<2> and blocks per ciphertext, asked of the engine (build/bin/zmstar_info).
# Structures are cached in params/cache/.
rule params_cyclotomics:
    input:
        build=BUILD_STAMP,
    output:
        csv=os.path.join(PARAMS_DIR, "cyclotomics.csv"),
        meta=os.path.join(PARAMS_DIR, "cyclotomics.meta.json"),
    log:
        os.path.join(R, "logs", "params", "cyclotomics.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "cyclotomics.tsv")
    threads: PARAMS_WORKERS
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        build_dir=BUILD_DIR,
    shell:
        "CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.enumerate --params-json {params.cfg:q} --workers {threads}"
        " --out {output.csv:q} --meta {output.meta:q} > {log:q} 2>&1"


# Per cipher instance and ring: the engine's chain for the depth profile's bits (or the
# bits per round measured in <results_dir>/runs), HElib's formula and core-SVP.
rule params_candidates:
    input:
        cyclotomics=rules.params_cyclotomics.output.csv,
        profiles=PARAMS_PROFILES,
    output:
        os.path.join(PARAMS_DIR, "candidates.csv"),
    log:
        os.path.join(R, "logs", "params", "candidates.log"),
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        runs=os.path.join(R, "runs", "**", "*.json"),
    shell:
        "{params.py} -m cbparams.select candidates --params-json {params.cfg:q}"
        " --runs-glob {params.runs:q} --cyclotomics {input.cyclotomics:q}"
        " --candidates {output:q} > {log:q} 2>&1"


# Per cipher instance: the smallest-phi ring reaching the security target with a block.
# A cipher/target with no such ring gets a row saying why; the warning is shown here too.
rule params_select:
    input:
        candidates=rules.params_candidates.output[0],
        profiles=PARAMS_PROFILES,
    output:
        csv=os.path.join(PARAMS_DIR, "selected.csv"),
        yaml=os.path.join(PARAMS_DIR, "selected.yaml"),
    log:
        os.path.join(R, "logs", "params", "select.log"),
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        runs=os.path.join(R, "runs", "**", "*.json"),
    shell:
        "{params.py} -m cbparams.select select --params-json {params.cfg:q}"
        " --runs-glob {params.runs:q} --candidates {input.candidates:q}"
        " --selected {output.csv:q} --selected-yaml {output.yaml:q} > {log:q} 2>&1;"
        " grep '^warning:' {log:q} >&2 || true"


# The paper's five configurations: needs no sweep, so its (slow, cached) lattice-estimator
# runs start beside the sweep.
rule params_security_paper:
    output:
        os.path.join(PARAMS_DIR, "security_paper.csv"),
    log:
        os.path.join(R, "logs", "params", "security_paper.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "security_paper.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
    shell:
        "{params.py} -m cbparams.select paper-security --params-json {params.cfg:q}"
        " --security {output:q} > {log:q} 2>&1"


# Selected and paper configurations (HElib, core-SVP, the estimator when present), then
# every other row of the sweep (HElib, core-SVP).
rule params_security:
    input:
        selected=rules.params_select.output.csv,
        candidates=rules.params_candidates.output[0],
        paper=rules.params_security_paper.output[0],
    output:
        os.path.join(PARAMS_DIR, "security.csv"),
    log:
        os.path.join(R, "logs", "params", "security.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "security.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
    shell:
        "{params.py} -m cbparams.select security --params-json {params.cfg:q}"
        " --selected {input.selected:q} --candidates {input.candidates:q}"
        " --security {output:q} > {log:q} 2>&1"


rule params_all:
    input:
        rules.params_cyclotomics.output.csv,
        rules.params_candidates.output[0],
        rules.params_select.output.csv,
        rules.params_security.output[0],
        os.path.join(PARAMS_DIR, "sagechecks.json"),


# Sage's cross-checks of the selected rings (sage/cbparams/sagecheck.py): Phi_m's
# factorization, Z_m^*/<2> against the engine's hypercube, slot field and GF(2^n)
# embedding (from bench_ops --info-only), the Vision constants; each ring's time in the
# JSON, the whole step's in the benchmark file. Fails when a check fails.
rule params_sagechecks:
    input:
        selected=rules.params_select.output.csv,
        build=BUILD_STAMP,
    output:
        os.path.join(PARAMS_DIR, "sagechecks.json"),
    log:
        os.path.join(R, "logs", "params", "sagechecks.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "sagechecks.tsv")
    conda:
        "../envs/sage.yaml"
    params:
        py=PARAMS_PY,
        build_dir=BUILD_DIR,
    shell:
        "CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.sagecheck --vision --selected {input.selected:q}"
        " --out {output:q} > {log:q} 2>&1"
