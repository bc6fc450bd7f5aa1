# cost.smk: the cost model (sage/cbparams/cost_model.py): bench_ops on a few rings, one
# thread and at the config's threads, every result checked by decryption, and a fit of
# the engine's time per step (its op_profile) in phi(m), each transform algorithm's size,
# primes and digits c; then its prediction against the runs this pipeline made, at the
# threads each ran with, in total and per step against each run's own op_profile.
#
# The binaries are inputs when they exist (make run builds them before Snakemake starts),
# so rebuilding bench_ops reruns the calibration, and rebuilding run_cipher the plans
# (COST_MODEL and binary_inputs are defined in params.smk, included before this file).
# The model's features version is a parameter: a model fitted on other features is
# refused by every step that reads it, so a new version calibrates again.

from cbparams.cost_model import FEATURES_VERSION  # noqa: E402 (pure Python, as params.smk's imports)


rule cost_model:
    input:
        binary_inputs(BENCH_OPS, CHAIN_INFO),
    output:
        model=COST_MODEL,
    log:
        os.path.join(R, "logs", "cost", "model.log"),
    benchmark:
        os.path.join(R, "benchmarks", "cost", "model.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        build_dir=lambda wildcards: BUILD_DIR,  # the runners (CB_BUILD_DIR for cbparams.runner)
        bench_dir=os.path.join(COST_DIR, "bench"),
        calibration=json.dumps(PARAMS_SETTINGS["cost_calibration"], sort_keys=True),
        reps=PARAMS_SETTINGS["cost_reps"],
        processes=PARAMS_SETTINGS["cost_processes"],
        reference=json.dumps(PARAMS_SETTINGS["cost_reference"], sort_keys=True),
        threads=",".join(str(t) for t in sorted({1, config["threads"]})),
        features_version=FEATURES_VERSION,
    # every core while bench_ops is timed (held_cores, as the runs); it runs at params.threads
    threads: lambda wildcards: held_cores(config["threads"])
    shell:
        "CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.cost_model calibrate"
        " --out {output.model:q} --bench-dir {params.bench_dir:q} --calibration {params.calibration:q}"
        " --reps {params.reps} --processes {params.processes} --threads {params.threads}"
        " --reference {params.reference:q} > {log:q} 2>&1"


# The model's prediction against every run of this config, at the threads each ran with,
# on the rounds' wall time: the table BENCHMARKS.md quotes. Runs older than the engine the
# model timed (kept across a rebuild) are marked stale, apart from the worst error.
rule cost_check:
    input:
        model=COST_MODEL,
        runs=run_files("runs"),
    output:
        csv=os.path.join(COST_DIR, "prediction_error.csv"),
        md=os.path.join(COST_DIR, "prediction_error.md"),
    log:
        os.path.join(R, "logs", "cost", "check.log"),
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
    shell:
        "{params.py} -m cbparams.cost_model check --model {input.model:q} --out {output.csv:q}"
        " {input.runs:q} > {output.md:q} 2> {log:q}"
