# transcipher.smk: the transciphering leaderboard (issue 46 item 5; docs/transciphering.md,
# "The leaderboard"). A config with a `transciphering:` section gets, per row, the ring
# selection (cbparams.transcipher select: every candidate m planned by run_cipher, kept
# when HElib's formula and core-SVP both reach the target, the least cost picked), the run
# on that ring (cbparams.transcipher run), then the table and the figure
# (analysis/transciphering.py).
#
# Included before config.smk: the section is taken out of the config here and validated
# against config/schema/transciphering.schema.yaml, and the rest is validated as any config.
# Paths and the build flag come from common.smk (R, BUILD_DIR, BUILD_STAMP), read only when
# a job's inputs are computed, after every file is included.

include: "transcipher_common.smk"


rule transcipher_select:
    input:
        build=lambda wildcards: BUILD_STAMP,
    output:
        selection=os.path.join(TC_DIR, "selection", "{row}.json"),
    log:
        os.path.join(TC_DIR, "logs", "select_{row}.log"),
    benchmark:
        os.path.join(TC_DIR, "benchmarks", "select_{row}.tsv")
    wildcard_constraints:
        row="[a-z0-9][a-z0-9-]*",
    params:
        py=TC_PY,
        spec=lambda wildcards: json.dumps({"row": TC_ROWS[wildcards.row], "defaults": tc_select_defaults()}),
        build_dir=lambda wildcards: BUILD_DIR,
        cache=lambda wildcards: tc_plan_cache(),
    conda:
        "../envs/python.yaml"
    shell:
        "OMP_NUM_THREADS=1 CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.transcipher select"
        " --row-json {params.spec:q} --plan-cache {params.cache:q} --out {output.selection:q} > {log:q} 2>&1"


rule transcipher_run:
    input:
        selection=rules.transcipher_select.output.selection,
    output:
        record=os.path.join(TC_DIR, "runs", "{row}.json"),
    log:
        os.path.join(TC_DIR, "logs", "run_{row}.log"),
    benchmark:
        os.path.join(TC_DIR, "benchmarks", "run_{row}.tsv")
    wildcard_constraints:
        row="[a-z0-9][a-z0-9-]*",
    threads: lambda wildcards: TC_DEFAULTS.get("threads", 2)
    params:
        py=TC_PY,
        build_dir=lambda wildcards: BUILD_DIR,
        cache=lambda wildcards: tc_plan_cache(),
    conda:
        "../envs/python.yaml"
    shell:
        "OMP_NUM_THREADS={threads} CB_BUILD_DIR={params.build_dir:q} {params.py} -m cbparams.transcipher run"
        " --selection {input.selection:q} --threads {threads} --plan-cache {params.cache:q}"
        " --out {output.record:q} > {log:q} 2>&1"


rule transcipher_table:
    input:
        records=[os.path.join(TC_DIR, "runs", f"{row}.json") for row in TC_ROWS],
        selections=[os.path.join(TC_DIR, "selection", f"{row}.json") for row in TC_ROWS],
        peers=tc_peers,
        references=os.path.join(workflow.basedir, "docs", "references.md"),
    output:
        csv=TC_TABLE["csv"],
        md=TC_TABLE["md"],
    log:
        os.path.join(TC_DIR, "logs", "table.log"),
    params:
        py=TC_PY,
        script=os.path.join(workflow.basedir, "analysis", "transciphering.py"),
        published=lambda wildcards: "--published" if TC_DEFAULTS.get("published", True) else "",
    conda:
        "../envs/python.yaml"
    shell:
        "{params.py} {params.script:q} table --records {input.records:q} --peers {input.peers:q}"
        " --references {input.references:q} {params.published} --csv {output.csv:q} --md {output.md:q} > {log:q} 2>&1"


rule transcipher_figure:
    input:
        csv=rules.transcipher_table.output.csv,
    output:
        png=report(TC_FIGURE["png"], caption="../report/transciphering_leaderboard.rst", category="Transciphering"),
        svg=TC_FIGURE["svg"],
    log:
        os.path.join(TC_DIR, "logs", "figure.log"),
    params:
        py=TC_PY,
        script=os.path.join(workflow.basedir, "analysis", "transciphering.py"),
    conda:
        "../envs/python.yaml"
    shell:
        "{params.py} {params.script:q} figure --csv {input.csv:q} --png {output.png:q} --svg {output.svg:q} > {log:q} 2>&1"
