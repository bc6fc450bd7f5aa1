# aggregate.smk: every run record into tidy CSV, then the papers' two tables.


rule aggregate:
    input:
        runs=run_files("runs"),
    output:
        runs=os.path.join(R, "tidy", "runs.csv"),
        rounds=os.path.join(R, "tidy", "rounds.csv"),
        ops=os.path.join(R, "tidy", "ops.csv"),
    log:
        os.path.join(R, "logs", "aggregate.log"),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/aggregate.py"


# The security of every chain and key the engine ran (run_cipher's own log2(Q P), digits and
# key weight): HElib's formula, core-SVP and, where it is installed, the lattice estimator
# (params.estimator; cached, so only a new chain costs its minutes): the figures tables 2
# and 3 show beside each run.
rule run_security:
    input:
        runs=run_files("runs"),
    output:
        os.path.join(R, "tidy", "run_security.csv"),
    log:
        os.path.join(R, "logs", "run_security.log"),
    benchmark:
        os.path.join(R, "benchmarks", "run_security.tsv")
    conda:
        "../envs/python.yaml"
    params:
        py=PARAMS_PY,
        cfg=PARAMS_JSON,
    shell:
        "{params.py} -m cbparams.select run-security --params-json {params.cfg:q}"
        " --security {output:q} --runs {input.runs:q} > {log:q} 2>&1"


rule tables:
    input:
        runs=rules.aggregate.output.runs,
        rounds=rules.aggregate.output.rounds,
        ops=rules.aggregate.output.ops,
        estimates=security_estimates,
        run_estimates=rules.run_security.output[0],
    output:
        t1_csv=os.path.join(R, "tables", "table1_vision_ops.csv"),
        t1_md=os.path.join(R, "tables", "table1_vision_ops.md"),
        t2_csv=os.path.join(R, "tables", "table2_totals.csv"),
        t2_md=os.path.join(R, "tables", "table2_totals.md"),
        t3_csv=os.path.join(R, "tables", "table3_paper_vs_ours.csv"),
        t3_md=os.path.join(R, "tables", "table3_paper_vs_ours.md"),
    log:
        os.path.join(R, "logs", "tables.log"),
    params:
        build_dir=BUILD_DIR,
        experiments=all_experiments,
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/tables.py"


# The tables as HTML pages for the report (shown inline there; a CSV is only a download),
# opened by their rings, chains, security and machine, which the report also shows as
# label columns beside every table and figure.
from analysis.report_tables import context_of

# Report labels (read when the report is made): rings, chains, security, machine.
RUNS_CSV = rules.aggregate.output.runs


rule report_tables:
    input:
        runs=rules.aggregate.output.runs,
        t1=rules.tables.output.t1_csv,
        t2=rules.tables.output.t2_csv,
        t3=rules.tables.output.t3_csv,
    output:
        t1=report(
            os.path.join(R, "tables", "table1_vision_ops.html"),
            caption="../report/table1.rst",
            category="Tables",
            labels=lambda wildcards: {"result": "Table 1: Vision operations", **context_of(RUNS_CSV)},
        ),
        t2=report(
            os.path.join(R, "tables", "table2_totals.html"),
            caption="../report/table2.rst",
            category="Tables",
            labels=lambda wildcards: {"result": "Table 2: totals", **context_of(RUNS_CSV)},
        ),
        t3=report(
            os.path.join(R, "tables", "table3_paper_vs_ours.html"),
            caption="../report/table3.rst",
            category="Tables",
            labels=lambda wildcards: {"result": "Table 3: the paper's chain and security beside ours",
                                      **context_of(RUNS_CSV)},
        ),
    log:
        os.path.join(R, "logs", "report_tables.log"),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/report_tables.py"
