"""Figures from the tidy CSV and the tables (computing lives in tables.py; this file plots).

fig3_aes_vs_vision_round  seconds of one round per cipher instance, split by operation
                          (the poster's Figure 3: AES vs Vision, one round, 128-bit state)
round_time_capacity       seconds and capacity left after each round
vision_ops_vs_state       Vision's operations against the state dimension
ours_vs_published         our Table 1 and Table 2 numbers beside the papers' published ones
engine_vs_helib           per cipher instance, ring and chain: the engine's and HElib's total
                          time, time per round and peak memory side by side, with the
                          security (HElib's formula) of each bar's chain
Each figure is written as PNG and PDF.
"""

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import published  # noqa: E402
import tables  # noqa: E402

AES_OPS = ["subbytes", "shiftrows_mixcolumns", "addroundkey"]
OP_COLORS = {
    "subbytes": "#1f77b4", "shiftrows_mixcolumns": "#aec7e8", "addroundkey": "#c6dbef",
    "inversion": "#d62728", "affine1": "#ff7f0e", "matmul": "#2ca02c",
    "keyadd": "#9467bd", "affine2": "#8c564b", "other": "#bbbbbb",
}
plt.rcParams.update({"font.size": 10, "axes.grid": True, "grid.alpha": 0.3, "figure.dpi": 110})


def _label(row, with_ring=True):
    instance = row["instance"].replace("Vision ", "Vision\n")
    text = f"{instance}\n{row['packing']}"
    if with_ring:
        text += f"\nm={int(row['m'])}, {int(row['bits'])} bits"
    return text


def _save(fig, png, pdf):
    fig.tight_layout()
    fig.savefig(png, dpi=150)
    fig.savefig(pdf)
    plt.close(fig)


def plot_round_by_op(round_ops, rounds, png, pdf):
    """Stacked bars: mean seconds of one round, split by operation."""
    one_round = tables.round_curves(rounds).groupby(["cipher", *tables.GROUP], dropna=False)["seconds"].mean()
    bars = one_round.reset_index().pipe(tables._sort).reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(3.5 + 1.5 * len(bars), 5))
    bottoms = [0.0] * len(bars)
    for op in AES_OPS + published.VISION_OPS + ["other"]:
        heights = []
        for i, row in bars.iterrows():
            sel = round_ops
            for k in tables.GROUP:
                sel = sel[(sel[k] == row[k]) | (sel[k].isna() & pd.isna(row[k]))]
            if op == "other":
                heights.append(max(0.0, row["seconds"] - sel["seconds"].sum()))
            else:
                heights.append(float(sel.loc[sel["op"] == op, "seconds"].sum()))
        if any(h > 0 for h in heights):
            label = "not in an operation" if op == "other" else op
            ax.bar(range(len(bars)), heights, bottom=bottoms, color=OP_COLORS[op], label=label, edgecolor="white")
            bottoms = [b + h for b, h in zip(bottoms, heights)]
    for i, total in enumerate(bars["seconds"]):
        ax.annotate(f"{total:.3g} s", (i, total), ha="center", va="bottom", fontsize=9)
    ax.margins(y=0.1)
    ax.set_xticks(range(len(bars)), [_label(r) for _, r in bars.iterrows()], fontsize=8)
    ax.set_ylabel("seconds per round (mean)")
    ax.set_title("AES vs Vision: one round, 128-bit state")
    ax.legend(fontsize=8, title="operation", bbox_to_anchor=(1.01, 1), loc="upper left")
    _save(fig, png, pdf)


def plot_round_curves(rounds, png, pdf):
    """Seconds per round and capacity left after each round."""
    curves = tables.round_curves(rounds)
    fig, (ax_t, ax_c) = plt.subplots(1, 2, figsize=(11, 4.5))
    for _, group in curves.groupby(tables.GROUP, dropna=False):
        row = group.iloc[0]
        label = f"{row['instance']} {row['packing']} (m={int(row['m'])}, {int(row['bits'])} b)"
        style = "-" if row["cipher"] == "vision" else "--"
        ax_t.plot(group["round"], group["seconds"], style, marker="o", label=label)
        ax_c.plot(group["round"], group["capacity_bits"], style, marker="o", label=label)
    ax_t.set(xlabel="round", ylabel="seconds (log scale)", title="Time per round")
    ax_t.set_yscale("log")
    ax_c.set(xlabel="round", ylabel="capacity left (bits)", title="Capacity after each round")
    ax_c.axhline(0, color="black", lw=0.8)
    for ax in (ax_t, ax_c):
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax_c.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
    _save(fig, png, pdf)


def plot_vision_ops_vs_state(table1, png, pdf):
    """Seconds per round of each Vision operation against the state dimension."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if table1.empty:
        ax.text(0.5, 0.5, "no Vision runs in this config", ha="center", va="center", transform=ax.transAxes)
    else:
        t1 = table1.assign(state_size=table1["instance"].str.extract(r"\^(\d+)$")[0].astype(int))
        for (packing,), rows in t1.groupby(["packing"]):
            # One point per instance: its largest ring and chain.
            rows = rows.sort_values(["m", "bits"]).groupby("state_size").tail(1).sort_values("state_size")
            style = "-" if packing == "packed" else ":"
            for op in published.VISION_OPS + ["one_round"]:
                color = OP_COLORS.get(op, "black")
                ax.plot(rows["state_size"], rows[op], style, marker="o", color=color,
                        lw=2.5 if op == "one_round" else 1.5, label=f"{op} ({packing})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        rings = t1.sort_values(["m", "bits"]).groupby("state_size").tail(1).set_index("state_size")["m"]
        sizes = sorted(t1["state_size"].unique())
        ax.set_xticks(sizes, [f"{s}\nGF(2^{128 // s})\nm={int(rings[s])}" for s in sizes])
        ax.legend(fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
    ax.set(xlabel="state dimension (field elements)", ylabel="seconds per round (mean)",
           title="Vision: operation cost against state dimension")
    _save(fig, png, pdf)


def plot_ours_vs_published(table1, table2, png, pdf):
    """Our per-operation and total times beside the papers' published numbers."""
    pub1, pub2 = published.table1(), published.table2()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    # Left: Table 1, one round of each Vision instance, ours (first packed row) vs published.
    cols = published.VISION_OPS + ["one_round"]
    width = 0.38
    for i, (_, p) in enumerate(pub1.iterrows()):
        ours = table1[table1["instance"] == p["instance"]]
        ours = ours[ours["packing"] == "packed"] if (ours["packing"] == "packed").any() else ours
        x0 = i * (len(cols) + 1)
        xs = [x0 + j for j in range(len(cols))]
        ax1.bar([x - width / 2 for x in xs], [p[c] for c in cols], width, color="#cccccc",
                hatch="//", edgecolor="#666666", label="published (HElib, toy parameters, authors' hardware)" if i == 0 else None)
        if not ours.empty:
            o = ours.iloc[-1]
            ax1.bar([x + width / 2 for x in xs], [o[c] for c in cols], width, color="#1f77b4",
                    label="ours (this machine, our rings)" if i == 0 else None)
        ax1.text(x0 + (len(cols) - 1) / 2, 1.02, p["instance"].replace("Vision ", ""), ha="center",
                 transform=ax1.get_xaxis_transform(), fontsize=9)
    ticks = [i * (len(cols) + 1) + j for i in range(len(pub1)) for j in range(len(cols))]
    ax1.set_xticks(ticks, [c.replace("_", " ") for _ in range(len(pub1)) for c in cols], rotation=90, fontsize=7)
    ax1.set_yscale("log")
    ax1.set_ylim(top=ax1.get_ylim()[1] * 30)
    ax1.set_ylabel("seconds (per round)")
    ax1.set_title("Table 1: Vision operations in one round", pad=18)
    ax1.legend(fontsize=8, loc="upper left")
    # Right: Table 2, total minutes for all rounds.
    labels, pub_vals, our_vals, notes = [], [], [], []
    for _, p in pub2.iterrows():
        ours = table2[table2["instance"] == p["instance"]]
        ours = ours[ours["packing"] == "packed"] if (ours["packing"] == "packed").any() else ours
        labels.append(p["instance"].replace("Vision ", "Vision\n"))
        pub_vals.append(p["total_min"])
        if ours.empty:
            our_vals.append(0)
            notes.append("not run")
        else:
            o = ours.sort_values(["m", "bits"]).iloc[-1]
            our_vals.append(o["total_min"])
            notes.append(f"m={int(o['m'])}\n{int(o['bits'])} b, {int(o['rounds'])} r")
    xs = list(range(len(labels)))
    ax2.bar([x - width / 2 for x in xs], pub_vals, width, color="#cccccc", hatch="//", edgecolor="#666666",
            label="published (HElib, their rings, authors' hardware)")
    ran = [(x, v, note) for x, v, note in zip(xs, our_vals, notes) if v > 0]
    ax2.bar([x + width / 2 for x, _, _ in ran], [v for _, v, _ in ran], width, color="#1f77b4",
            label="ours (this machine, ring as noted)")
    ax2.set_yscale("log")
    low = min([v for v in our_vals if v > 0] + pub_vals) / 3
    ax2.set_ylim(bottom=low, top=max(pub_vals + our_vals) * 30)
    for x, v, note in zip(xs, our_vals, notes):
        ax2.annotate(note, (x + width / 2, v if v > 0 else low), ha="center", va="bottom", fontsize=7)
    ax2.set_xticks(xs, labels, fontsize=8)
    ax2.set_ylabel("minutes, all rounds")
    ax2.set_title("Table 2: total time")
    ax2.legend(fontsize=8, loc="upper left")
    fig.suptitle("Ours beside the published numbers (" + published.SOURCE.split(":")[0] + ", HElib)", fontsize=10)
    _save(fig, png, pdf)


BACKEND_COLORS = {"engine": "#1f77b4", "helib": "#ff7f0e"}


def plot_engine_vs_helib(table2, png, pdf):
    """Grouped bars per cipher instance x packing x ring x chain, one bar per backend:
    total minutes, seconds per round, peak memory; each bar says its chain's security."""
    t2 = table2.copy()
    if "backend" not in t2:
        t2["backend"] = "engine"
    groups = t2[["instance", "packing", "m", "bits"]].drop_duplicates().reset_index(drop=True)
    backends = [b for b in BACKEND_COLORS if b in set(t2["backend"])]
    metrics = [("total_min", "minutes, all rounds"), ("per_round_s", "seconds per round (mean)"),
               ("peak_mem_mb", "peak memory (MB)")]
    t2["per_round_s"] = t2["total_min"] * 60 / t2["rounds"]
    fig, axes = plt.subplots(1, 3, figsize=(4 + 2.2 * len(groups) * 1.5, 5))
    width = 0.8 / max(1, len(backends))
    for ax, (col, ylabel) in zip(axes, metrics):
        for j, backend in enumerate(backends):
            xs, ys, notes = [], [], []
            for i, g in groups.iterrows():
                row = t2[(t2["backend"] == backend) & (t2["instance"] == g["instance"])
                         & (t2["packing"] == g["packing"]) & (t2["m"] == g["m"]) & (t2["bits"] == g["bits"])]
                if row.empty:
                    continue
                r = row.iloc[0]
                xs.append(i + (j - (len(backends) - 1) / 2) * width)
                ys.append(r[col])
                notes.append(f"{r['security_helib']:.0f}-bit sec." if pd.notna(r["security_helib"]) else "")
            ax.bar(xs, ys, width, color=BACKEND_COLORS[backend], label=backend)
            for x, y, note in zip(xs, ys, notes):
                ax.annotate(note, (x, y), ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(groups)), [_label(g) for _, g in groups.iterrows()], fontsize=7)
        ax.set_ylabel(ylabel)
        ax.set_ylim(top=ax.get_ylim()[1] * 1.25)
    axes[0].legend(fontsize=8, loc="upper left")
    title = "Engine and HElib 2.3.0 on the same circuits, rings and chain bits (one thread)"
    if "helib" not in backends:
        title += " - no HElib runs in this config (backends: [engine, helib])"
    fig.suptitle(title, fontsize=10)
    _save(fig, png, pdf)


def figures(rounds_csv, ops_csv, table1_csv, table2_csv, outdir):
    rounds, ops = pd.read_csv(rounds_csv), pd.read_csv(ops_csv)
    t1, t2 = pd.read_csv(table1_csv), pd.read_csv(table2_csv)
    out = lambda name: (os.path.join(outdir, f"{name}.png"), os.path.join(outdir, f"{name}.pdf"))  # noqa: E731
    plot_round_by_op(tables.round_ops(ops), rounds, *out("fig3_aes_vs_vision_round"))
    plot_round_curves(rounds, *out("round_time_capacity"))
    plot_vision_ops_vs_state(t1, *out("vision_ops_vs_state"))
    plot_ours_vs_published(t1, t2, *out("ours_vs_published"))
    plot_engine_vs_helib(t2, *out("engine_vs_helib"))


if "snakemake" in globals():
    figures(
        snakemake.input.rounds, snakemake.input.ops, snakemake.input.table1, snakemake.input.table2,
        snakemake.params.outdir,
    )
