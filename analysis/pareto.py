"""Pareto figure of the parameter explorer for one cipher instance (this file plots; the
ranking is sage/cbparams/select.py's ranked.csv).

Two panels: security (the lowest of HElib's formula, core-SVP and, where it ran, the lattice
estimator's cheapest attack, in bits; security_bits) against the cost
model's predicted time per block, and against predicted latency (one run of every block
the ring holds), for every ring the engine planned; rings that reach the target filled,
the others hollow, the Pareto front (no ring both faster and more secure) joined, the
selected ring starred, the target dashed. Runs of the pipeline on those rings (their run
JSONs, every block checked) are overlaid at their measured time, so the distance between
a star and a cross is the cost model's error on that ring.

    python analysis/pareto.py --cipher aes --ranked R --selected S --png P --pdf Q RUN.json...
"""
import argparse
import os
import sys
import json
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ciphers  # noqa: E402


def instance_of(run: dict) -> str | None:
    """The explorer's instance id of a run JSON (packed runs only): run_cipher writes it
    (instance_id); older runs name it by cipher and field (the catalog resolves them)."""
    if run.get("packing") != "packed":
        return None
    if run.get("instance_id"):
        return run["instance_id"]
    mt = re.search(r"GF\(2\^(\d+)\)\^(\d+)", str(run.get("instance", "")))
    exp = {"cipher": run.get("cipher"), "field_bits": int(mt.group(1)) if mt else None,
           "state_size": int(mt.group(2)) if mt else None}
    try:
        return ciphers.instance(exp).id
    except ciphers.catalog.CatalogError:
        return None


def measured(run_paths: list[str], cipher: str) -> pd.DataFrame:
    """Measured seconds (all rounds) and seconds per block of correct runs of `cipher`."""
    rows = []
    for path in run_paths:
        with open(path) as f:
            run = json.load(f)
        if instance_of(run) != cipher or not run.get("correct", run.get("wrong_blocks", 1) == 0):
            continue
        t = run["timings"]["total_s"]
        rows.append({"m": run["params"]["m"], "bits": run["params"]["bits"], "threads": run.get("threads", 1),
                     "latency": t, "block": t / run["blocks"]})
    return pd.DataFrame(rows, columns=["m", "bits", "threads", "latency", "block"])


SECURITY_COLUMNS = ["helib_bits", "coresvp_bits", "est_best"]
SECURITY_LABEL = "security, bits (lowest of HElib's formula, core-SVP, the lattice estimator where run)"


def security_bits(df: pd.DataFrame) -> pd.Series:
    """Per row the lowest of the security figures it has: HElib's formula and core-SVP
    always, the lattice estimator's cheapest attack (est_best) when the estimator ran;
    the selection checked the target with the same figures (sage/cbparams/select.py)."""
    cols = [c for c in SECURITY_COLUMNS if c in df.columns]
    return df[cols].apply(pd.to_numeric, errors="coerce").min(axis=1)


def front(df: pd.DataFrame, x: str) -> pd.DataFrame:
    """Rows no other row beats on both x (lower) and security (higher)."""
    df = df.sort_values([x, "security"], ascending=[True, False])
    best, keep = -1e9, []
    for i, r in df.iterrows():
        if r["security"] > best:
            keep.append(i)
            best = r["security"]
    return df.loc[keep]


def plot(cipher: str, ranked_csv: str, selected_csv: str, run_paths: list[str], png: str, pdf: str) -> None:
    ranked = pd.read_csv(ranked_csv)
    sel = pd.read_csv(selected_csv)
    ranked = ranked[(ranked["cipher"] == cipher) & (ranked["status"] == "ok")].copy()
    sel = sel[(sel["cipher"] == cipher) & (sel["status"] == "ok")]
    runs = measured(run_paths, cipher)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    if ranked.empty:
        for ax in axes:
            ax.text(0.5, 0.5, f"no ring planned for {cipher}\n(see results/params/candidates.csv)",
                    ha="center", va="center", transform=ax.transAxes)
    else:
        ranked["security"] = security_bits(ranked)
        sec_of = dict(zip(ranked["m"], ranked["security"]))
        for ax, (x, label) in zip(axes, [("predicted_block_s", "predicted seconds per block"),
                                         ("predicted_latency_s", "predicted latency, seconds (all blocks)")]):
            ok = ranked["meets_target"] == 1
            ax.scatter(ranked.loc[ok, x], ranked.loc[ok, "security"], color="#1f77b4", label="planned ring (meets target)")
            ax.scatter(ranked.loc[~ok, x], ranked.loc[~ok, "security"], facecolors="none", edgecolors="#1f77b4",
                       label="planned ring (below target)")
            fr = front(ranked, x)
            ax.plot(fr[x], fr["security"], color="#1f77b4", alpha=0.4, lw=1)
            for _, r in ranked.iterrows():
                ax.annotate(f"m={int(r['m'])}", (r[x], r["security"]), fontsize=7, xytext=(3, 3),
                            textcoords="offset points")
            if not sel.empty:
                ax.scatter(sel[x], security_bits(sel), marker="*", s=220,
                           color="#d62728", zorder=5, label=f"selected ({sel['objective'].iloc[0]} first)")
                for t in sel["security_target"].unique():
                    ax.axhline(t, ls="--", color="gray", lw=1)
            mx = {"predicted_block_s": "block", "predicted_latency_s": "latency"}[x]
            on = runs[runs["m"].isin(sec_of)]
            if not on.empty:
                ax.scatter(on[mx], on["m"].map(sec_of), marker="x", s=60, color="black", zorder=6,
                           label="measured run, wall (threads: " + ",".join(str(t) for t in sorted(on["threads"].unique())) + ")")
            ax.set_xscale("log")
            ax.set_xlabel(label)
        axes[0].set_ylabel(SECURITY_LABEL)
        axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{cipher}: security against predicted cost (cost model: one thread, this machine)")
    fig.tight_layout()
    fig.savefig(png)
    fig.savefig(pdf)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cipher", required=True)
    ap.add_argument("--ranked", required=True)
    ap.add_argument("--selected", required=True)
    ap.add_argument("--png", required=True)
    ap.add_argument("--pdf", required=True)
    ap.add_argument("runs", nargs="*")
    a = ap.parse_args(argv)
    plot(a.cipher, a.ranked, a.selected, a.runs, a.png, a.pdf)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
