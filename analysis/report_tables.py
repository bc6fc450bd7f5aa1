"""The tables as HTML for the Snakemake report, each opened by what it was measured on.

`snakemake --report` shows an HTML result inline but offers a CSV only as a download, so
the papers' two tables are also written as HTML pages: a heading, the context (rings,
chains, security, machine: `context()`, also the label columns the report shows beside
every table and figure) and the table itself. The CSV and markdown files stay the
tables' data (analysis/tables.py).
"""

import html

import pandas as pd

from analysis import tables
from analysis.tables import _cell


def _span(values, fmt="{}"):
    values = sorted(set(values))
    if not values:
        return "none"
    if len(values) == 1:
        return fmt.format(values[0])
    return f"{fmt.format(values[0])} to {fmt.format(values[-1])}"


def context(runs):
    """{rings, chains, security, machine}: one line each, from tidy/runs.csv's DataFrame."""
    rings = ", ".join(f"m={m} (phi {p})" for m, p in sorted(set(zip(runs["m"], runs["phi"]))))
    security = runs["security_helib"].round(0).astype(int)
    weights = ", ".join("dense" if h == 0 else str(h) for h in sorted(set(runs["hwt"])))
    sec = f"{_span(security, '{} bits')} (HElib's formula, key weight {weights})"
    if security.min() < 80:
        sec += (": below 80 bits, toy rings (relative costs only)" if security.max() < 80
                else ": some runs below 80 bits (marked below_80_bits)")
    elif security.min() < 128:
        sec += ": below 128 bits" if security.max() < 128 else ": some runs below 128 bits"
    cpus = sorted(set(runs["cpu"].fillna("unknown"))) if "cpu" in runs else ["unknown"]
    machine = (f"{', '.join(sorted(set(runs['host'])))}: {', '.join(cpus)}; "
               f"{_span(runs['threads'], '{}')} thread(s); git {', '.join(sorted(set(runs['git_revision'])))}; "
               f"run {_span(runs['date'].str[:10])}")
    return {
        "rings": rings,
        "chains": f"{_span(runs['bits'], '{} bits')} of ciphertext primes",
        "security": sec,
        "machine": machine,
    }


def context_of(runs_csv):
    """context() of a tidy/runs.csv file; for report labels (the file exists by then)."""
    try:
        return context(pd.read_csv(runs_csv, dtype={"git_revision": str}))
    except (OSError, KeyError, ValueError) as err:
        return {"rings": f"unknown ({err})", "chains": "", "security": "", "machine": ""}


def to_html(df, title, ctx):
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>"
        for row in df.itertuples(index=False)
    )
    facts = "".join(f"<li><b>{k}</b>: {html.escape(v)}</li>" for k, v in ctx.items())
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>" + html.escape(title) + "</title>"
        "<style>body{font-family:sans-serif;font-size:13px} table{border-collapse:collapse}"
        " td,th{border:1px solid #bbb;padding:2px 6px;text-align:right} th{background:#eee}</style>"
        f"</head><body><h3>{html.escape(title)}</h3><ul>{facts}</ul>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></body></html>\n"
    )


TITLES = {
    "table1": "Table 1: seconds per operation in one Vision round (mean over rounds and runs)",
    "table2": "Table 2: all rounds of each run (latency = evaluation of the rounds; the CSV has every column)",
    "table3": "Table 3: the paper's chain and security beside ours, the differences explained",
}


def report_tables(runs_csv, t1_csv, t2_csv, t1_html, t2_html, t3_csv=None, t3_html=None):
    ctx = context(pd.read_csv(runs_csv, dtype={"git_revision": str}))
    todo = [(t1_csv, t1_html, "table1"), (t2_csv, t2_html, "table2")] + ([(t3_csv, t3_html, "table3")] if t3_csv else [])
    for csv, out, key in todo:
        df = pd.read_csv(csv, dtype={"git_revision": str})
        if key == "table2":
            df = tables.table2_readable(df)
        with open(out, "w") as f:
            f.write(to_html(df, TITLES[key], ctx))


if "snakemake" in globals():
    report_tables(snakemake.input.runs, snakemake.input.t1, snakemake.input.t2,
                  snakemake.output.t1, snakemake.output.t2, snakemake.input.t3, snakemake.output.t3)
