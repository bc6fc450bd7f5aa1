# helib.smk: HElib 2.3.0 and the runners built against it, for configs whose `backends`
# include helib. `make helib` does the work (scripts/build-helib.sh: pinned HElib against
# the NTL of helib_ntl_route, into .deps/; then the runners with -DCB_HELIB_DIR into
# build-helib-<route>/); HELIB_SRC / NTL_SRC from the environment select local checkouts.
# As for the engine (build.smk), the output is a flag file in the results folder, never
# the binaries.


rule build_helib_runners:
    output:
        stamp=HELIB_STAMP,
    log:
        os.path.join(R, "logs", f"build-helib-{HELIB_ROUTE}.log"),
    params:
        repo=workflow.basedir,
        route=HELIB_ROUTE,
        binary=os.path.join(HELIB_BUILD_DIR, "bin", "run_cipher"),
    threads: min(2, workflow.cores)
    conda:
        "../envs/runners.yaml"
    shell:
        """
        make -C {params.repo:q} helib NTL_ROUTE={params.route} HELIB_JOBS={threads} \
          HELIB_SRC="${{HELIB_SRC:-}}" NTL_SRC="${{NTL_SRC:-}}" > {log:q} 2>&1
        test -x {params.binary:q} || {{ echo "make helib finished but {params.binary} is missing" >> {log:q}; exit 1; }}
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) ntl_route={params.route}" > {output.stamp:q}
        """
