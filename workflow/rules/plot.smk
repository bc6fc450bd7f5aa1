# plot.smk: the figures, PNG for the report and PDF for papers.


rule figures:
    input:
        rounds=rules.aggregate.output.rounds,
        ops=rules.aggregate.output.ops,
        table1=rules.tables.output.t1_csv,
        table2=rules.tables.output.t2_csv,
    output:
        png=[
            report(
                path,
                caption=f"../report/{name}.rst",
                category="Figures",
                labels=lambda wildcards, name=name: {"result": name, **context_of(RUNS_CSV)},
            )
            for name, path in zip(FIGURES, figure_files("png"))
        ],
        pdf=figure_files("pdf"),
    log:
        os.path.join(R, "logs", "figures.log"),
    params:
        outdir=lambda wildcards, output: os.path.dirname(output.png[0]),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/figures.py"
