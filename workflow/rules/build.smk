# build.smk: the C++ runners (run_cipher, bench_ops) with CMake.
#
# The rule's output is a flag file in the results folder, not the binaries: Snakemake
# deletes a job's outputs before running it and after a failure, and must never delete
# binaries that `make build` made. The flag says "this results folder's runs were made with
# a build this pipeline checked"; the build runs when it is missing (a new results folder),
# and rebuilding later (`make build`, which `make run` does first) never by itself reruns
# finished experiments: each result records the git revision it ran at. (Snakemake's
# ancient() cannot express this: when the producer of an ancient input must run, 9.27
# drops or reruns the jobs downstream.)


rule build_runners:
    output:
        stamp=BUILD_STAMP,
    log:
        os.path.join(R, "logs", "build.log"),
    params:
        src=RUNNERS_DIR,
        build_dir=BUILD_DIR,
        build_type=config["build_type"],
        # only what the pipeline runs (not the C++ tests): the runners and the batch
        # commands the explorer and the analysis ask (ring facts, chains, HElib's formula)
        targets="run_cipher bench_ops zmstar_info chain_info security_info",
        binaries=f"{RUN_CIPHER} {BENCH_OPS} {os.path.join(BUILD_DIR, 'bin', 'chain_info')}",
        repo=workflow.basedir,
    # Every core of the host that builds (Snakemake lowers it to --cores); not
    # workflow.cores, which is undefined under --report, -n without --cores and SLURM.
    threads: os.cpu_count() or 1
    conda:
        "../envs/runners.yaml"
    shell:
        """
        (cmake -S {params.src:q} -B {params.build_dir:q} -DCMAKE_BUILD_TYPE={params.build_type} \
          && cmake --build {params.build_dir:q} -j {threads} --target {params.targets}) > {log:q} 2>&1
        for b in {params.binaries}; do
          test -x "$b" || {{ echo "build finished but $b is missing" >> {log:q}; exit 1; }}
        done
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) at $(git -C {params.repo:q} describe --always --dirty 2>/dev/null || echo unknown)" > {output.stamp:q}
        """
