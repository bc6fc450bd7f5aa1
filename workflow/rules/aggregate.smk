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


rule tables:
    input:
        runs=rules.aggregate.output.runs,
        rounds=rules.aggregate.output.rounds,
        ops=rules.aggregate.output.ops,
        estimates=security_estimates,
    output:
        t1_csv=report(
            os.path.join(R, "tables", "table1_vision_ops.csv"),
            caption="../report/table1.rst",
            category="Tables",
        ),
        t1_md=os.path.join(R, "tables", "table1_vision_ops.md"),
        t2_csv=report(
            os.path.join(R, "tables", "table2_totals.csv"),
            caption="../report/table2.rst",
            category="Tables",
        ),
        t2_md=os.path.join(R, "tables", "table2_totals.md"),
    log:
        os.path.join(R, "logs", "tables.log"),
    params:
        sage_dir=os.path.join(workflow.basedir, "sage"),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/tables.py"
