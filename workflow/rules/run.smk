# run.smk: one job per experiment x ring x chain x repetition.
#
# run_experiment runs build/bin/run_cipher under a benchmark: directive (wall time of the
# job) through workflow/scripts/measure.py, which records from inside the job (on the node
# that ran it) the host, start date, thread count, git revision and the exact peak memory
# of run_cipher (the benchmark's sampling misses runs shorter than its interval). run_cipher exits non-zero when its decryption
# disagrees with the reference cipher, so an incorrect run fails its job and leaves no
# output. annotate_run merges the raw JSON, that provenance and the benchmark into
# <results_dir>/runs/<id>.json (the raw output stays under raw/), and refuses a result
# that says correct=false or whose parameters differ from the ones asked for.
#
# A run dies with the Snakemake process that started it (Ctrl-C, kill -9, a SLURM job
# cancelled): measure.py watches the process named here, which is the main Snakemake
# locally and the job's own Snakemake under SLURM (each re-reads this file).

os.environ.update(CB_PIPELINE_PID=str(os.getpid()))
# Every run_cipher of the pipeline (plans, measuring runs, runs, the cost model's reference
# circuits) shares one plan cache (config plan_cache; '' for none).
os.environ.update(CB_PLAN_CACHE=os.path.join(workflow.basedir, config["plan_cache"]) if config["plan_cache"] else "")

# Damaged results set aside before planning, and the count of runs done / to do.
include: "records.smk"

# Snakemake gives a job at most the cores it was given (a dry run without --cores counts 1).
_cores = workflow.resource_settings.cores if workflow.resource_settings else None
if workflow.is_main_process and isinstance(_cores, int) and _cores < config["threads"]:
    logger.warning(
        f"threads: the config asks for {config['threads']} per run but Snakemake has {_cores} core(s), "
        f"so runs get {_cores} (give --cores {config['threads']} or more)"
    )



rule run_experiment:
    input:
        build=run_build_stamp,
    output:
        raw=run_path("raw", ".json"),
        env=run_path("raw", ".env.json"),
    log:
        run_path("logs/run", ".log"),
    message:
        "run_cipher {wildcards.name} m={wildcards.m} bits={wildcards.bits} rep={wildcards.rep}"
        " (threads={params.threads}, {threads} cores held, mem_mb={resources.mem_mb}, runtime={resources.runtime} min; progress in {log})"
    benchmark:
        run_path("benchmarks", ".tsv")
    params:
        binary=run_binary,
        args=run_cipher_args,
        repo=workflow.basedir,
        python=sys.executable,
        measure=os.path.join(workflow.basedir, "workflow", "scripts", "measure.py"),
        threads=run_threads,
    threads: run_job_cores
    conda:
        "../envs/runners.yaml"
    resources:
        mem_mb=run_mem_mb,
        runtime=run_runtime_min,
    shell:
        "OMP_NUM_THREADS={params.threads} {params.python:q} {params.measure:q} --record {output.env:q}"
        " --threads {params.threads} --repo {params.repo:q} --"
        " {params.binary:q} {params.args} --json {output.raw:q} > {log:q} 2>&1"


rule annotate_run:
    input:
        raw=run_path("raw", ".json"),
        env=run_path("raw", ".env.json"),
        benchmark=run_path("benchmarks", ".tsv"),
    output:
        run=run_path("runs", ".json"),
    log:
        run_path("logs/annotate", ".log"),
    params:
        experiment=run_record,
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/annotate.py"
