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


rule run_experiment:
    input:
        build=run_build_stamp,
    output:
        raw=run_path("raw", ".json"),
        env=run_path("raw", ".env.json"),
    log:
        run_path("logs/run", ".log"),
    benchmark:
        run_path("benchmarks", ".tsv")
    params:
        binary=run_binary,
        args=run_cipher_args,
        repo=workflow.basedir,
        python=sys.executable,
        measure=os.path.join(workflow.basedir, "workflow", "scripts", "measure.py"),
    threads: run_threads
    conda:
        "../envs/runners.yaml"
    resources:
        mem_mb=run_mem_mb,
        runtime=run_runtime_min,
    shell:
        "OMP_NUM_THREADS={threads} {params.python:q} {params.measure:q} --record {output.env:q}"
        " --threads {threads} --repo {params.repo:q} --"
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
