# params.smk: the parameter explorer (sage/cbparams): rings -> candidates (estimated) ->
# the engine's plans of the promising ones -> ranking by the cost model (cost.smk) and
# selection -> security, Pareto figures. Settings come from the config's `params:` section (config/schema/params.schema.yaml),
# passed to each step as JSON; every step is `python -m cbparams.<module>`, run by the Python
# that runs Snakemake (the .venv's, where `make venv` installs cbparams), or by the conda
# env's python under --sw-deployment-method conda (common.smk puts the checkout on its
# PYTHONPATH; the explorer needs numpy, PyYAML, jsonschema).

import json
import sys

PARAMS_DIR = os.path.join(R, "params")
# The planner plans with the runs' seed (the config's `seed`), so each run accepts its plan.
# The selection predicts and measures at the config's threads.
PARAMS_JSON = json.dumps(dict(config.get("params") or {}, seed=config["seed"], threads=config["threads"]),
                         sort_keys=True)
PARAMS_PY = "python" if CONDA_JOBS else sys.executable  # common.smk: the packages, under conda too
from cbparams.config import load_params
from cbparams.errors import ParamError

try:
    PARAMS_SETTINGS = load_params(json.loads(PARAMS_JSON))
except ParamError as err:
    raise WorkflowError(f"invalid config: {err}")
PARAMS_WORKERS = PARAMS_SETTINGS["workers"]

# The cost model's outputs (its rules: cost.smk).
COST_DIR = os.path.join(R, "cost")
COST_MODEL = os.path.join(COST_DIR, "model.json")
CHAIN_INFO = os.path.join(BUILD_DIR, "bin", "chain_info")




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


# Per cipher instance and target: every ring of the sweep the engine runs, with estimates
# from two reference plans (kept in plans/<instance>/ref_*.json for `cbparams select` to
# reuse) and the cost model; the promising ones get plan = 1. A checkpoint: which plans
# params_select waits for is known once this has run.
checkpoint params_candidates:
    input:
        cyclotomics=rules.params_cyclotomics.output.csv,
        model=COST_MODEL,
        bins=binary_inputs(RUN_CIPHER, CHAIN_INFO),
    output:
        os.path.join(PARAMS_DIR, "candidates.csv"),
    log:
        os.path.join(R, "logs", "params", "candidates.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "candidates.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        build_dir=lambda wildcards: BUILD_DIR,  # the runners (CB_BUILD_DIR for cbparams.runner)
        plans_dir=os.path.join(PARAMS_DIR, "plans"),
    shell:
        "OMP_NUM_THREADS=1 CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.select candidates"
        " --params-json {params.cfg:q} --cyclotomics {input.cyclotomics:q} --cost-model {input.model:q}"
        " --plans-dir {params.plans_dir:q} --candidates {output:q} > {log:q} 2>&1"


# One candidate planned by the engine at the target (run_cipher --plan --security-target:
# it picks c), cached per (instance, m, key weight, target) and redone when run_cipher is
# rebuilt. A refusal (no c reaches the target) is a result, written as such.
rule params_plan:
    input:
        binary_inputs(RUN_CIPHER, CHAIN_INFO),
    output:
        os.path.join(PARAMS_DIR, "plans", "{cipher}", "m{m}_hwt{hwt}_t{target}_{packing}.json"),
    log:
        os.path.join(R, "logs", "params", "plans", "{cipher}", "m{m}_hwt{hwt}_t{target}_{packing}.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "plans", "{cipher}", "m{m}_hwt{hwt}_t{target}_{packing}.tsv")
    wildcard_constraints:
        cipher="[a-z][a-z0-9]*",  # an instance id of the catalog
        hwt=r"\d+",
        target=r"[0-9]+(p[0-9]+)?",
        packing="packed|sliced|bit-sliced",
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        build_dir=lambda wildcards: BUILD_DIR,  # the runners (CB_BUILD_DIR for cbparams.runner)
        target=lambda wildcards: wildcards.target.replace("p", "."),
    shell:
        "OMP_NUM_THREADS=1 CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.select plan"
        " --params-json {params.cfg:q} --cipher {wildcards.cipher} --m {wildcards.m} --hwt {wildcards.hwt}"
        " --target {params.target} --packing {wildcards.packing} --out {output:q} > {log:q} 2>&1"


# The planned rings ranked by predicted latency and time per block (ranked.csv); the first
# few by each run for a round or two at the config's threads (params.measure_candidates,
# measured/: cbparams.measure); per instance and target the first by params.objective
# among the measured rings no other measured ring dominates (selected.csv, and
# selected.yaml: the experiments a config with run_selected runs). A target no ring
# reaches gets a row saying why; the warning is shown here too. A checkpoint: the selected
# rings' runs are planned once it is done (common.smk, all_runs), in the same invocation.
# Its measuring runs hold every core, as the runs do (held_cores): nothing shares the
# machine while they are timed.
checkpoint params_select:
    input:
        candidates=os.path.join(PARAMS_DIR, "candidates.csv"),
        plans=planned_files,
        model=COST_MODEL,
        bins=binary_inputs(RUN_CIPHER, CHAIN_INFO),
    output:
        ranked=os.path.join(PARAMS_DIR, "ranked.csv"),
        csv=os.path.join(PARAMS_DIR, "selected.csv"),
        yaml=SELECTED_YAML,
    log:
        os.path.join(R, "logs", "params", "select.log"),
    benchmark:
        os.path.join(R, "benchmarks", "params", "select.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
        build_dir=lambda wildcards: BUILD_DIR,  # the runners (CB_BUILD_DIR for cbparams.runner)
        plans_dir=os.path.join(PARAMS_DIR, "plans"),
        measured_dir=os.path.join(PARAMS_DIR, "measured"),
    threads: lambda wildcards: held_cores(config["threads"])
    shell:
        "CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.select select --params-json {params.cfg:q}"
        " --candidates {input.candidates:q} --plans-dir {params.plans_dir:q} --cost-model {input.model:q}"
        " --measured-dir {params.measured_dir:q}"
        " --ranked {output.ranked:q} --selected {output.csv:q} --selected-yaml {output.yaml:q} > {log:q} 2>&1;"
        " grep '^warning:' {log:q} >&2 || true"


# The explorer's selection alone (`snakemake params_selection`); `make run` makes it on the
# way (see run_selected in config/schema/config.schema.yaml).
rule params_selection:
    input:
        [SELECTED_YAML] if config["stages"]["params"] else [],


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
        ranked=rules.params_select.output.ranked,
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
        " --selected {input.selected:q} --ranked {input.ranked:q}"
        " --security {output:q} > {log:q} 2>&1"


rule params_all:
    input:
        rules.params_cyclotomics.output.csv,
        os.path.join(PARAMS_DIR, "candidates.csv"),
        rules.params_select.output.csv,
        rules.params_select.output.ranked,
        rules.params_security.output[0],
        os.path.join(PARAMS_DIR, "sagechecks.json"),
        COST_MODEL,


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


# Per cipher instance: security against predicted time per block and against latency for
# every planned ring, the selected one marked, the runs of this pipeline on those rings
# overlaid (analysis/pareto.py).
rule params_pareto:
    input:
        ranked=rules.params_select.output.ranked,
        selected=rules.params_select.output.csv,
        runs=run_files("runs"),
    output:
        png=report(os.path.join(R, "figures", "pareto_{cipher}.png"), category="Parameters",
                   caption="../report/pareto.rst", labels=lambda wildcards: {"result": f"Pareto: {wildcards.cipher}"}),
        pdf=os.path.join(R, "figures", "pareto_{cipher}.pdf"),
    log:
        os.path.join(R, "logs", "params", "pareto_{cipher}.log"),
    wildcard_constraints:
        cipher="[a-z][a-z0-9]*",  # an instance id of the catalog
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        script=os.path.join(workflow.basedir, "analysis", "pareto.py"),
    shell:
        "{params.py} {params.script:q} --cipher {wildcards.cipher} --ranked {input.ranked:q}"
        " --selected {input.selected:q} --png {output.png:q} --pdf {output.pdf:q} {input.runs:q} > {log:q} 2>&1"
