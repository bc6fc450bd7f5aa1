# run.smk: one job per experiment x ring x chain x repetition.
#
# run_experiment runs build/bin/run_cipher under a benchmark: directive (wall time and peak
# memory of the job) and records, from inside the job (on the node that ran it), the host,
# start date, thread count and git revision. run_cipher exits non-zero when its decryption
# disagrees with the reference cipher, so an incorrect run fails its job and leaves no
# output. annotate_run merges the raw JSON, that provenance and the benchmark into
# <results_dir>/runs/<id>.json (the raw output stays under raw/), and refuses a result
# that says correct=false or whose parameters differ from the ones asked for.


rule run_experiment:
    input:
        build=ancient(BUILD_STAMP),
    output:
        raw=run_path("raw", ".json"),
        env=run_path("raw", ".env.json"),
    log:
        run_path("logs/run", ".log"),
    benchmark:
        run_path("benchmarks", ".tsv")
    params:
        binary=RUN_CIPHER,
        args=run_cipher_args,
        repo=workflow.basedir,
    threads: run_threads
    conda:
        "../envs/runners.yaml"
    resources:
        mem_mb=run_mem_mb,
        runtime=run_runtime_min,
    shell:
        """
        printf '{{"host": "%s", "date": "%s", "threads": %s, "git_revision": "%s"}}\\n' \
          "$(hostname)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" {threads} \
          "$(git -C {params.repo:q} describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)" \
          > {output.env:q}
        OMP_NUM_THREADS={threads} {params.binary:q} {params.args} --json {output.raw:q} > {log:q} 2>&1
        """


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
