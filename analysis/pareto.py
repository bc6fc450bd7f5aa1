"""Pareto figure of the parameter explorer for one cipher instance (this file plots; the
ranking is sage/cbparams/select.py's ranked.csv).

Two panels: security (the lowest of HElib's formula, core-SVP and, where it ran, the lattice
estimator's cheapest attack, in bits; security_bits) against the cost
model's predicted time per block, and against predicted latency (one run of every block
the ring holds), for every ring the engine planned; rings that reach the target filled,
the others hollow, the Pareto front (no ring both faster and more secure) joined, the
selected ring starred, the target dashed. Runs of the pipeline on those rings (their run
JSONs, every block checked) are overlaid at their measured time, so the distance between
a star and a cross is the cost model's error on that ring. Where the selection timed a ring
itself (ranked.csv's measured_latency_s / measured_block_s: a short run, scaled to the whole
cipher; empty where not measured), the measured point is a black diamond joined to the
predicted one by a thin line. Each ring's label m=... is written where it overlaps no other
label and no point; the legend is below the panels.

    python analysis/pareto.py --cipher aes --ranked R --selected S --png P --pdf Q RUN.json...
"""
import argparse
import json
import re
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import ciphers  # noqa: E402


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


#: The selection's own timings of a ring (a short run scaled to the whole cipher), beside each
#: predicted column of ranked.csv; absent from older ranked.csv files, empty where not measured.
MEASURED_COLUMNS = {"predicted_block_s": "measured_block_s", "predicted_latency_s": "measured_latency_s"}


def _bbox_around(ax, x0, y0, x1, y1, pad_pt):
    """The box from data point (x0, y0) to (x1, y1) grown by pad_pt points, in pixels."""
    from matplotlib.transforms import Bbox
    (ax0, ay0), (ax1, ay1) = ax.transData.transform([(x0, y0), (x1, y1)])
    h = pad_pt * ax.figure.dpi / 72
    return Bbox([[min(ax0, ax1) - h, min(ay0, ay1) - h], [max(ax0, ax1) + h, max(ay0, ay1) + h]])


def _overlap(a, b) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(fig, ax, labels, markers, fontsize=7):
    """Writes each (text, x, y) of `labels` beside its point, at the first spot of a widening
    ring of offsets where it stays inside the axes and overlaps neither a label already
    written nor a marker or line (markers: (x0, y0, x1, y1, pad in points), data coordinates:
    a point where x0 == x1 and y0 == y1); labels set far from their point get a thin leader
    line. On the laid-out figure (its layout is then fixed)."""
    fig.draw_without_rendering()
    fig.set_layout_engine("none")   # the axes stay where the labels were fitted
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    taken = [_bbox_around(ax, *m) for m in markers]
    rings = [4, 10, 18, 28, 40, 54]
    dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]
    for text, x, y in labels:
        ann = ax.annotate(text, (x, y), xytext=(4, 4), textcoords="offset points", fontsize=fontsize,
                          annotation_clip=False)
        ann.set_in_layout(False)
        best = None
        for r in rings:
            for dx, dy in dirs:
                ann.xyann = (dx * r, dy * r)
                ann.set_ha({1: "left", -1: "right", 0: "center"}[dx])
                ann.set_va({1: "bottom", -1: "top", 0: "center"}[dy])
                ext = ann.get_window_extent(renderer)
                outside = ext.x0 < box.x0 or ext.x1 > box.x1 or ext.y0 < box.y0 or ext.y1 > box.y1
                cost = sum(_overlap(ext, t) for t in taken) + (1e9 if outside else 0)
                if best is None or cost < best[0]:
                    best = (cost, (dx * r, dy * r), ann.get_ha(), ann.get_va(), ext)
                if cost == 0:
                    break
            if best[0] == 0:
                break
        _, xyann, ha, va, ext = best
        ann.remove()
        far = abs(xyann[0]) > 4 or abs(xyann[1]) > 4
        leader = dict(arrowstyle="-", color="#888888", lw=0.5, shrinkA=0, shrinkB=3)
        ann = ax.annotate(text, (x, y), xytext=xyann, textcoords="offset points", fontsize=fontsize, ha=ha, va=va,
                          annotation_clip=False, arrowprops=leader if far else None)
        ann.set_in_layout(False)
        taken.append(ext)


def plot(cipher: str, ranked_csv: str, selected_csv: str, run_paths: list[str], png: str, pdf: str) -> None:
    ranked = pd.read_csv(ranked_csv)
    sel = pd.read_csv(selected_csv)
    ranked = ranked[(ranked["cipher"] == cipher) & (ranked["status"] == "ok")].copy()
    sel = sel[(sel["cipher"] == cipher) & (sel["status"] == "ok")]
    runs = measured(run_paths, cipher)
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2), sharey=True, layout="constrained")
    labels = {ax: [] for ax in axes}
    markers = {ax: [] for ax in axes}
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
                labels[ax].append((f"m={int(r['m'])}", r[x], r["security"]))
                markers[ax].append((r[x], r["security"], r[x], r["security"], 3.5))
            if not sel.empty:
                ax.scatter(sel[x], security_bits(sel), marker="*", s=220,
                           color="#d62728", zorder=5, label=f"selected ({sel['objective'].iloc[0]} first)")
                markers[ax] += [(a, b, a, b, 8) for a, b in zip(sel[x], security_bits(sel))]
                for t in sel["security_target"].unique():
                    ax.axhline(t, ls="--", color="gray", lw=1)
            mcol = MEASURED_COLUMNS[x]
            if mcol in ranked.columns:
                got = ranked.assign(measured=pd.to_numeric(ranked[mcol], errors="coerce")).dropna(subset=["measured"])
                got = got[got["measured"] > 0]
                if not got.empty:
                    for _, r in got.iterrows():   # predicted -> measured, at the ring's security
                        ax.plot([r[x], r["measured"]], [r["security"], r["security"]], color="black", lw=0.6,
                                zorder=4)
                        markers[ax].append((r[x], r["security"], r["measured"], r["security"], 1))
                    ax.scatter(got["measured"], got["security"], marker="D", s=30, color="black", zorder=6,
                               label="measured (short run, scaled)")
                    markers[ax] += [(a, b, a, b, 3.5) for a, b in zip(got["measured"], got["security"])]
            mx = {"predicted_block_s": "block", "predicted_latency_s": "latency"}[x]
            on = runs[runs["m"].isin(sec_of)]
            if not on.empty:
                ax.scatter(on[mx], on["m"].map(sec_of), marker="x", s=60, color="black", zorder=6,
                           label="measured run, wall (threads: " + ",".join(str(t) for t in sorted(on["threads"].unique())) + ")")
                markers[ax] += [(a, b, a, b, 4) for a, b in zip(on[mx], on["m"].map(sec_of))]
            ax.set_xscale("log")
            ax.set_xlabel(label)
        # two lines: in one, the label is taller than the axes (and was cut off)
        axes[0].set_ylabel(textwrap.fill(SECURITY_LABEL, 48, break_on_hyphens=False))
        handles, texts = axes[1].get_legend_handles_labels()
        fig.legend(handles, texts, fontsize=7, loc="outside lower center", ncol=min(3, len(texts)))
    fig.suptitle(f"{cipher}: security against predicted cost (cost model: one thread, this machine)")
    for ax in axes:
        if labels[ax]:
            place_labels(fig, ax, labels[ax], markers[ax])
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
