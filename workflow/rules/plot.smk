# plot.smk: the figures, PNG for the report and PDF for papers, and each figure's data
# (one row per bar or line, with its security and the below-80-bits mark) as CSV.


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
        data=figure_files("csv"),  # each figure's bars and lines with their security (figures.py)
    log:
        os.path.join(R, "logs", "figures.log"),
    params:
        outdir=lambda wildcards, output: os.path.dirname(output.png[0]),
    conda:
        "../envs/python.yaml"
    script:
        "../../analysis/figures.py"
