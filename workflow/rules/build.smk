# build.smk: the C++ runners (run_cipher, bench_ops) with CMake.
#
# The output is a flag file, not the binaries: when a build fails Snakemake deletes the
# failed job's outputs, and it must never delete binaries that `make build` made.
# The flag is redone whenever a source under runners/ is newer; the run jobs depend on it
# as ancient(), so rebuilding never by itself reruns finished experiments (each result
# records the git revision it ran at).


RUNNERS_DIR = os.path.join(workflow.basedir, "runners")
RUNNER_SOURCES = sorted(
    os.path.join(root, f)
    for root, _, files in os.walk(RUNNERS_DIR)
    for f in files
    if f.endswith((".h", ".cpp", ".txt"))
)


rule build_runners:
    input:
        sources=RUNNER_SOURCES,
    output:
        stamp=BUILD_STAMP,
    log:
        os.path.join(R, "logs", "build.log"),
    params:
        src=lambda wildcards, input: os.path.commonpath(input.sources),
        build_dir=lambda wildcards, output: os.path.dirname(output.stamp),
        build_type=config["build_type"],
        targets="run_cipher bench_ops",  # only what the pipeline runs (not the C++ tests)
        binaries=f"{RUN_CIPHER} {BENCH_OPS}",
    threads: workflow.cores
    conda:
        "../envs/runners.yaml"
    shell:
        """
        (cmake -S {params.src} -B {params.build_dir} -DCMAKE_BUILD_TYPE={params.build_type} \
          && cmake --build {params.build_dir} -j {threads} --target {params.targets}) > {log} 2>&1
        for b in {params.binaries}; do
          test -x "$b" || {{ echo "build finished but $b is missing" >> {log}; exit 1; }}
        done
        touch {output.stamp}
        """
