# cipherbench pipeline: config -> parameters -> build -> runs -> tidy CSV -> tables, figures.
# `make run` (or `snakemake --cores all`) runs config/config.yaml; pass another with
# `--configfile config/paper.yaml`. `snakemake --report results/report.html` gathers the
# tables and figures into one HTML file.

from snakemake.utils import min_version, validate

min_version("9.0")


report: "workflow/report/workflow.rst"

# The default config is read only when no --configfile is given: a config file given on
# the command line would otherwise be merged into it, and their experiment lists would mix.
# (--config key=value still overrides single keys of either.)
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


# Before config.smk: takes a transciphering leaderboard's section out of the config.
include: "workflow/rules/transcipher.smk"
include: "workflow/rules/config.smk"
include: "workflow/rules/common.smk"
include: "workflow/rules/params.smk"
include: "workflow/rules/cost.smk"
include: "workflow/rules/build.smk"
include: "workflow/rules/helib.smk"
include: "workflow/rules/run.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/plot.smk"
include: "workflow/rules/summary.smk"
include: "workflow/rules/peers_common.smk"
include: "workflow/rules/peers.smk"


localrules:
    all,
    build_runners,
    build_helib_runners,
    annotate_run,
    aggregate,
    tables,
    report_tables,
    figures,
    annotate_peer,
    aggregate_peers,
    figure_schemes,
    transcipher_table,
    transcipher_figure,


rule all:
    default_target: True
    input:
        all_targets(),
        selected_run_targets,
        peer_targets(),
        transcipher_targets(),
