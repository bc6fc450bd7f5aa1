# peers.smk: other FHE implementations of AES-128 timed on the same machine (optional stage).
#
# `peers: [tfhe]` in the config turns it on: build_tfhe builds runners/tfhe (Rust, tfhe-rs
# from crates.io, pinned by its Cargo.lock) into <build_dir>/tfhe; run_tfhe times tfhe_aes
# (`tfhe`: tfhe-rs's transciphering AES; `tfhe-leveled`: tfhe_aes --method leveled, the
# leveled-TFHE lookup AES, settings under tfhe_leveled:) once per thread count and repetition under workflow/scripts/measure.py (host, date, git
# revision, exact peak memory); tfhe_aes exits non-zero when a block differs from the
# reference AES, so a wrong run fails its job. annotate_peer refuses anything but a correct
# run of what was asked (<results_dir>/peers/<peer>_aes128_<params>_t<threads>_b<blocks>_rep<r>.json),
# aggregate_peers writes tidy/peers.csv, and figure_schemes draws "AES-128 across schemes"
# (the engine's packed AES runs of this config, tfhe-rs, and the published figures).
#
# As in build.smk, the build rule's output is a flag file in the results folder, never the
# binary (Snakemake deletes a job's outputs before it runs). Paths and target builders are in
# peers_common.smk.

rule build_tfhe:
    output:
        stamp=TFHE_STAMP,
    log:
        os.path.join(R, "logs", "build_tfhe.log"),
    params:
        find_cargo=os.path.join(workflow.basedir, "scripts", "find-cargo.sh"),
        manifest=TFHE_MANIFEST,
        target_dir=TFHE_TARGET_DIR,
        binary=TFHE_AES,
        repo=workflow.basedir,
    # As build_runners: every core of the host (Snakemake lowers it to --cores); not
    # workflow.cores, undefined under --report, -n without --cores and SLURM.
    threads: os.cpu_count() or 1
    conda:
        "../envs/rust.yaml"
    shell:
        """
        cargo=$({params.find_cargo:q} 2> {log:q}) || {{ echo "peers: [tfhe] cannot build runners/tfhe: $(cat {log:q})" >&2; exit 1; }}
        "$cargo" build --release --locked -j {threads} --manifest-path {params.manifest:q} \
          --target-dir {params.target_dir:q} >> {log:q} 2>&1
        test -x {params.binary:q} || {{ echo "build finished but {params.binary} is missing" >> {log:q}; exit 1; }}
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) at $(git -C {params.repo:q} describe --always --dirty 2>/dev/null || echo unknown)" > {output.stamp:q}
        """


rule run_tfhe:
    input:
        build=TFHE_STAMP,
    output:
        raw=os.path.join(R, "peers", "raw", f"{PEER_ID}.json"),
        env=os.path.join(R, "peers", "raw", f"{PEER_ID}.env.json"),
    log:
        os.path.join(R, "logs", "peers", f"{PEER_ID}.log"),
    benchmark:
        os.path.join(R, "benchmarks", "peers", f"{PEER_ID}.tsv")
    wildcard_constraints:
        peer="tfhe|tfhe-leveled",
        params="[a-z0-9-]+",
        threads=r"\d+",
        blocks=r"\d+",
    params:
        binary=TFHE_AES,
        method=peer_method,
        seed=lambda wildcards: config["seed"] + int(wildcards.rep),
        repo=workflow.basedir,
        python=sys.executable,
        measure=os.path.join(workflow.basedir, "workflow", "scripts", "measure.py"),
    threads: lambda wildcards: int(wildcards.threads)
    resources:
        # tfhe-rs's keys and a block's ciphertexts at the 128-bit sets: well under 1 GB.
        mem_mb=2000,
        # One block at 128 bits used 252 CPU seconds (plus 70 for the key schedule) and took
        # 16.5 min of wall time on 1 thread of a busy shared machine (BENCHMARKS.md); the
        # leveled method about 32 s plus 24 s of key schedule and 5 s of keys.
        runtime=lambda wildcards: 30 + 30 * int(wildcards.blocks),
    conda:
        "../envs/rust.yaml"
    shell:
        "{params.python:q} {params.measure:q} --record {output.env:q} --threads {wildcards.threads}"
        " --repo {params.repo:q} -- {params.binary:q} --method {params.method} --params {wildcards.params}"
        " --blocks {wildcards.blocks}"
        " --threads {wildcards.threads} --seed {params.seed} --json {output.raw:q} > {log:q} 2>&1"


rule annotate_peer:
    input:
        raw=rules.run_tfhe.output.raw,
        env=rules.run_tfhe.output.env,
        benchmark=os.path.join(R, "benchmarks", "peers", f"{PEER_ID}.tsv"),
    output:
        run=os.path.join(R, "peers", f"{PEER_ID}.json"),
    log:
        os.path.join(R, "logs", "peers", "annotate", f"{PEER_ID}.log"),
    wildcard_constraints:
        peer="tfhe|tfhe-leveled",
        params="[a-z0-9-]+",
        threads=r"\d+",
        blocks=r"\d+",
    params:
        asked=peer_asked,
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/peers.py"


rule aggregate_peers:
    input:
        peers=peer_files(),
    output:
        csv=PEERS_CSV,
    log:
        os.path.join(R, "logs", "aggregate_peers.log"),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/peers.py"


rule figure_schemes:
    input:
        runs=rules.aggregate.output.runs,
        peers=PEERS_CSV,
    output:
        png=report(SCHEMES_FIGURE["png"], caption="../report/aes128_across_schemes.rst", category="Figures"),
        pdf=SCHEMES_FIGURE["pdf"],
        data=os.path.splitext(SCHEMES_FIGURE["png"])[0] + ".csv",  # the bars with their security
    log:
        os.path.join(R, "logs", "figure_schemes.log"),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/figure_schemes.py"
