"""Figures from the tidy CSV and the tables (computing lives in tables.py; this file plots).

fig3_aes_vs_vision_round  one round per cipher instance, split by operation (the poster's
                          Figure 3: AES vs Vision, one round, 128-bit state), like for
                          like: seconds per block (the round's time / the blocks its
                          ciphertexts hold) beside the latency of the round
round_time_capacity       seconds and capacity left after each round
vision_ops_vs_state       Vision's operations against the state dimension
ours_vs_published         our Table 1 and Table 2 numbers beside the papers' published ones
engine_vs_helib           per cipher instance, ring and chain: the engine's and HElib's total
                          time, time per round and peak memory side by side, with the
                          security (HElib's formula) of each bar's chain
Each figure is written as PNG and PDF, and its data (one row per bar or line, with the
security it is drawn with) as <name>.csv beside them. Every bar and line carries its
security (HElib's formula, core-SVP); runs below 80 bits are hatched and labelled
"below 80 bits" (analysis/security_marks.py), also beside the published figures.
"""

import math
import os
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import ciphers  # noqa: E402
from analysis import published  # noqa: E402
from analysis import security_marks as sm  # noqa: E402
from analysis import tables  # noqa: E402

def op_colors():
    """A colour per step name of the catalog (in catalog order), and grey for "other"."""
    palette = plt.get_cmap("tab20").colors
    out = {s: palette[i % len(palette)] for i, s in enumerate(ciphers.step_names())}
    out["other"] = "#bbbbbb"
    return out
plt.rcParams.update({"font.size": 10, "axes.grid": True, "grid.alpha": 0.3, "figure.dpi": 110})


def _label(row, with_ring=True):
    instance = row["instance"].replace("Vision ", "Vision\n")
    text = f"{instance}\n{row['packing']}"
    if row.get("linear") == "fused":
        text += ", fused"
    if with_ring:
        text += f"\nm={int(row['m'])}, {int(row['bits'])} bits"
    return text


def _subplots(ncols, figsize, **kw):
    """One row of panels, laid out by matplotlib's constrained layout (titles, labels, tick
    labels and legends outside the axes all kept on the canvas, none over another)."""
    return plt.subplots(1, ncols, figsize=figsize, layout="constrained", **kw)


def _wrap(text, fig, fontsize, share=1.0):
    """`text` wrapped to `share` of the figure's width (about 0.55 em a character)."""
    chars = max(20, int(share * fig.get_figwidth() * 72 / (0.55 * fontsize)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def _lines(security):
    """A security text one figure a line ("0 bits (HElib), 12 (core-SVP): below 80 bits" in
    three lines), narrow enough for a bar's or a group's width."""
    return security.replace(": ", "\n").replace(", ", "\n")


def _room_for_notes(fig, axes, margin_px=4):
    """Raises each axes' top so that the annotations above its bars (the notes anchored at a
    bar's top) end inside the axes, whatever their length; on the laid-out figure."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        notes = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation) and a.get_visible()]
        if not notes:
            continue
        box = ax.get_window_extent(renderer)
        log = ax.get_yscale() == "log"
        f, inv = (math.log10, lambda v: 10 ** v) if log else (float, float)
        bottom, top = (f(v) for v in ax.get_ylim())
        need = top
        for a in notes:
            y = a.xy[1]
            if log and y <= 0:
                continue
            anchor = ax.transData.transform((a.xy[0], y))[1]
            above = a.get_window_extent(renderer).y1 - anchor   # the note's height above its anchor
            room = box.height - margin_px - above
            if room > 0 and f(y) > bottom:
                need = max(need, bottom + (f(y) - bottom) * box.height / room)
        if need > top:
            ax.set_ylim(top=inv(need))


def _save(fig, png, pdf, data=None):
    """PNG and PDF, and `data` (the DataFrame drawn) as <png without .png>.csv."""
    fig.savefig(png, dpi=150)
    fig.savefig(pdf)
    plt.close(fig)
    if data is not None:
        data.to_csv(os.path.splitext(str(png))[0] + ".csv", index=False)


def _with_security(df, table2):
    """df with table 2's security columns and mark joined on the run's group."""
    keys = ["instance", "backend", "packing", "m", "bits"]   # what identifies a table 2 row
    cols = [c for c in table2.columns if c.startswith("security_")] + ["blocks", "below_80_bits"]
    sec = table2[keys + [c for c in cols if c in table2.columns and c not in df.columns]].drop_duplicates(keys)
    return sm.mark_columns(df.merge(sec, on=keys, how="left"))


def _legend(ax, rows, where=None, **kw):
    """The legend of ax's handles, with "below 80 bits" when some drawn row is below, drawn on
    `where` (ax, or the figure: a legend outside the panels, clear of their bars' labels)."""
    handles, labels = ax.get_legend_handles_labels()
    if any(sm.is_below(r) for r in rows):
        handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", hatch=sm.HATCH, edgecolor=sm.EDGE))
        labels.append(f"{sm.MARK} (toy ring: relative costs only)")
    return (where or ax).legend(handles, labels, **kw)


def plot_round_by_op(round_ops, rounds, png, pdf, table2=None):
    """Stacked bars of one round, split by operation, like for like: seconds per block (left)
    and the round's latency (right); each bar says its blocks and security."""
    one_round = tables.round_curves(rounds).groupby(["cipher", *tables.GROUP], dropna=False)["seconds"].mean()
    bars = one_round.reset_index().pipe(tables._sort).reset_index(drop=True)
    if table2 is not None:
        bars = _with_security(bars, table2)
    else:
        bars = sm.mark_columns(bars.assign(blocks=float("nan")))
    blocks = bars["blocks"].fillna(1).astype(float)
    fig, axes = _subplots(2, (4.5 + 3.0 * len(bars), 5.5))
    panels = [(axes[0], blocks, "seconds per block (one round / blocks)", "per block"),
              (axes[1], pd.Series(1.0, index=bars.index), "seconds per round (latency)", "latency")]
    for ax, divisor, ylabel, title in panels:
        bottoms = [0.0] * len(bars)
        colors = op_colors()
        for op in list(colors):
            heights = []
            for i, row in bars.iterrows():
                sel = round_ops
                for k in tables.GROUP:
                    sel = sel[(sel[k] == row[k]) | (sel[k].isna() & pd.isna(row[k]))]
                if op == "other":
                    h = max(0.0, row["seconds"] - sel["seconds"].sum())
                else:
                    h = float(sel.loc[sel["op"] == op, "seconds"].sum())
                heights.append(h / divisor[i])
            if any(h > 0 for h in heights):
                label = "not in an operation" if op == "other" else op
                for i, (h, b) in enumerate(zip(heights, bottoms)):
                    style = sm.bar_style(bars.iloc[i], colors[op])
                    style.setdefault("edgecolor", "white")
                    ax.bar(i, h, bottom=b, label=label if i == 0 else None, **style)
                bottoms = [b + h for b, h in zip(bottoms, heights)]
        for i, row in bars.iterrows():
            total = row["seconds"] / divisor[i]
            nb = "" if pd.isna(row["blocks"]) else f"{int(row['blocks'])} block(s)\n"
            ax.annotate(f"{total:.3g} s\n{nb}{_lines(sm.security_text(row, short=True))}", (i, total),
                        ha="center", va="bottom", fontsize=7, color=sm.TEXT if row["below_80_bits"] else "black")
        ax.margins(y=0.05)
        ax.set_xlim(-0.7, len(bars) - 0.3)
        ax.set_xticks(range(len(bars)), [_label(r) for _, r in bars.iterrows()], fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
    _legend(axes[1], bars.to_dict("records"), fontsize=8, title="operation", bbox_to_anchor=(1.01, 1),
            loc="upper left")
    fig.suptitle(_wrap("AES vs Vision: one round, 128-bit state (per block beside latency)", fig, 11), fontsize=11)
    _room_for_notes(fig, axes)
    data = bars.assign(seconds_per_block=bars["seconds"] / blocks)
    _save(fig, png, pdf, data)
    return data


def plot_round_curves(rounds, png, pdf, table2=None):
    """Seconds per round and capacity left after each round; each line says its security."""
    curves = tables.round_curves(rounds)
    fig, (ax_t, ax_c) = _subplots(2, (12, 4.8))
    drawn = []
    for _, group in curves.groupby(tables.GROUP, dropna=False):
        row = group.iloc[[0]]
        row = (_with_security(row, table2) if table2 is not None else sm.mark_columns(row)).iloc[0]
        label = (f"{row['instance']} {row['packing']} (m={int(row['m'])}, {int(row['bits'])} b)\n"
                 f"  {sm.security_text(row)}")
        style = "-" if row["packing"] == "packed" else "--"
        ax_t.plot(group["round"], group["seconds"], style, marker="o", label=label)
        ax_c.plot(group["round"], group["capacity_bits"], style, marker="o", label=label)
        drawn.append(row)
    ax_t.set(xlabel="round", ylabel="seconds (log scale)", title="Time per round")
    ax_t.set_yscale("log")
    ax_c.set(xlabel="round", ylabel="capacity left (bits)", title="Capacity after each round")
    ax_c.axhline(0, color="black", lw=0.8)
    for ax in (ax_t, ax_c):
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax_c.legend(fontsize=6, bbox_to_anchor=(1.01, 1), loc="upper left")
    data = pd.DataFrame(drawn)
    _save(fig, png, pdf, data)
    return data


def plot_vision_ops_vs_state(table1, png, pdf):
    """Seconds per round of each Vision operation against the state dimension; each state's
    tick says its ring and security."""
    fig, ax = _subplots(1, (7.5, 5))
    data = pd.DataFrame()
    if table1.empty:
        ax.text(0.5, 0.5, "no Vision runs in this config", ha="center", va="center", transform=ax.transAxes)
    else:
        t1 = sm.mark_columns(table1.assign(state_size=table1["instance"].str.extract(r"\^(\d+)$")[0].astype(int)))
        for (packing,), rows in t1.groupby(["packing"]):
            # One point per instance: its largest ring and chain.
            rows = rows.sort_values(["m", "bits"]).groupby("state_size").tail(1).sort_values("state_size")
            style = "-" if packing == "packed" else ":"
            for op in published.VISION_OPS + ["one_round"]:
                color = op_colors().get(op, "black")
                ax.plot(rows["state_size"], rows[op], style, marker="o", color=color,
                        lw=2.5 if op == "one_round" else 1.5, label=f"{op} ({packing})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        last = t1.sort_values(["m", "bits"]).groupby("state_size").tail(1).set_index("state_size")
        sizes = sorted(t1["state_size"].unique())
        ax.set_xticks(sizes, [f"{s}\nGF(2^{128 // s})\nm={int(last.loc[s, 'm'])}\n"
                              f"{sm.security_text(last.loc[s].to_dict(), short=True).replace(': ', chr(10))}"
                              for s in sizes], fontsize=7)
        for lab, s_ in zip(ax.get_xticklabels(), sizes):
            if sm.is_below(last.loc[s_].to_dict()):
                lab.set_color(sm.TEXT)
        ax.legend(fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
        data = last.reset_index()
    ax.set(xlabel="state dimension (field elements)", ylabel="seconds per round (mean)",
           title="Vision: operation cost against state dimension")
    _save(fig, png, pdf, data)
    return data


def _published_security_text(security):
    return f"{security:.0f} bits (HElib, as published)"


def plot_ours_vs_published(table1, table2, png, pdf):
    """Our per-operation and total times beside the papers' published numbers. Every bar says
    its security; ours below 80 bits are hatched and labelled so (never beside the published
    ones without the mark)."""
    pub1, pub2 = published.table1(), published.table2()
    table1 = sm.mark_columns(table1) if not table1.empty else table1.assign(below_80_bits=[])
    table2 = sm.mark_columns(table2)
    fig, (ax1, ax2) = _subplots(2, (15, 7))
    drawn = []
    head_lines = 1
    # Left: Table 1, one round of each Vision instance, ours (first packed row) vs published.
    cols = published.VISION_OPS + ["one_round"]
    width = 0.38
    for i, (_, p) in enumerate(pub1.iterrows()):
        ours = table1[table1["instance"] == p["instance"]]
        ours = ours[ours["packing"] == "packed"] if (ours["packing"] == "packed").any() else ours
        x0 = i * (len(cols) + 1)
        xs = [x0 + j for j in range(len(cols))]
        ax1.bar([x - width / 2 for x in xs], [p[c] for c in cols], width, color="#cccccc",
                hatch="//", edgecolor="#666666",
                label="published (HElib, toy parameters, security not stated, authors' hardware)" if i == 0 else None)
        drawn.append({"panel": "table1", "origin": "published", "instance": p["instance"],
                      "value": p["one_round"], "security": "not stated (toy parameters)", "below_80_bits": None})
        head = p["instance"].replace("Vision ", "")
        if not ours.empty:
            o = ours.iloc[-1]
            ax1.bar([x + width / 2 for x in xs], [o[c] for c in cols], width,
                    label="ours (this machine, our rings)" if i == 0 else None, **sm.bar_style(o, "#1f77b4"))
            head += f"\nours: m={int(o['m'])}\n{_lines(sm.security_text(o, short=True))}"
            drawn.append({"panel": "table1", "origin": "ours", "instance": p["instance"], "m": o["m"],
                          "bits": o["bits"], "value": o["one_round"], "security": sm.security_text(o),
                          "below_80_bits": bool(o["below_80_bits"])})
        # the instance's head above its bars, one fact a line (four heads side by side)
        ax1.annotate(head, (x0 + (len(cols) - 1) / 2, 1), xycoords=ax1.get_xaxis_transform(), xytext=(0, 4),
                     textcoords="offset points", ha="center", va="bottom", fontsize=7,
                     color=sm.TEXT if not ours.empty and ours.iloc[-1]["below_80_bits"] else "black")
        head_lines = max(head_lines, head.count("\n") + 1)
    ticks = [i * (len(cols) + 1) + j for i in range(len(pub1)) for j in range(len(cols))]
    ax1.set_xticks(ticks, [c.replace("_", " ") for _ in range(len(pub1)) for c in cols], rotation=90, fontsize=7)
    ax1.set_yscale("log")
    ax1.set_ylim(top=ax1.get_ylim()[1] * 3)
    ax1.set_ylabel("seconds (per round)")
    ax1.set_title("Table 1: Vision operations in one round", pad=10 + 1.2 * 7 * head_lines)  # above the heads
    _legend(ax1, table1.to_dict("records"), where=fig, fontsize=7, loc="outside lower left")
    # Right: Table 2, total minutes for all rounds.
    labels, pub_vals, our_rows = [], [], []
    for _, p in pub2.iterrows():
        ours = table2[table2["instance"] == p["instance"]]
        ours = ours[ours["packing"] == "packed"] if (ours["packing"] == "packed").any() else ours
        labels.append(p["instance"].replace("Vision ", "") + f"\npaper: m={int(p['m'])}\n{int(p['bits'])} b, "
                      f"{p['security']:.0f} bits")
        pub_vals.append(p["total_min"])
        our_rows.append(None if ours.empty else ours.sort_values(["m", "bits"]).iloc[-1])
        drawn.append({"panel": "table2", "origin": "published", "instance": p["instance"], "m": p["m"],
                      "bits": p["bits"], "value": p["total_min"], "security": _published_security_text(p["security"]),
                      "below_80_bits": bool(p["security"] < sm.THRESHOLD)})
    xs = list(range(len(labels)))
    ax2.bar([x - width / 2 for x in xs], pub_vals, width, color="#cccccc", hatch="//", edgecolor="#666666",
            label="published (HElib, their rings and security (HElib's formula), authors' hardware)")
    ran = [(x, o) for x, o in zip(xs, our_rows) if o is not None]
    for k, (x, o) in enumerate(ran):
        ax2.bar(x + width / 2, o["total_min"], width, label="ours (this machine, ring as noted)" if k == 0 else None,
                **sm.bar_style(o, "#1f77b4"))
        drawn.append({"panel": "table2", "origin": "ours", "instance": o["instance"], "m": o["m"], "bits": o["bits"],
                      "value": o["total_min"], "security": sm.security_text(o), "below_80_bits": bool(o["below_80_bits"])})
    ax2.set_yscale("log")
    values = [o["total_min"] for _, o in ran] + pub_vals
    low = min(values) / 3
    ax2.set_ylim(bottom=low, top=max(values) * 3)
    for x, o in zip(xs, our_rows):
        if o is None:
            ax2.annotate("not run", (x + width / 2, low), ha="center", va="bottom", fontsize=7)
            continue
        note = f"m={int(o['m'])}\n{int(o['bits'])} b, {int(o['rounds'])} r\n{_lines(sm.security_text(o))}"
        ax2.annotate(note, (x + width / 2, o["total_min"]), ha="center", va="bottom", fontsize=6,
                     color=sm.TEXT if o["below_80_bits"] else "black")
    ax2.set_xticks(xs, labels, fontsize=7)
    ax2.set_ylabel("minutes, all rounds")
    ax2.set_title("Table 2: total time")
    _legend(ax2, [o for _, o in ran], where=fig, fontsize=7, loc="outside lower right")
    fig.suptitle("Ours beside the published numbers (" + published.SOURCE.split(":")[0] + ", HElib)", fontsize=10)
    _room_for_notes(fig, [ax2])
    data = pd.DataFrame(drawn)
    _save(fig, png, pdf, data)
    return data


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
    t2 = sm.mark_columns(t2)
    drawn = []
    fig, axes = _subplots(3, (4 + 2.2 * len(groups) * 1.5, 5.5))
    width = 0.8 / max(1, len(backends))
    for ax, (col, ylabel) in zip(axes, metrics):
        for j, backend in enumerate(backends):
            xs, ys, notes, styles = [], [], [], []
            for i, g in groups.iterrows():
                row = t2[(t2["backend"] == backend) & (t2["instance"] == g["instance"])
                         & (t2["packing"] == g["packing"]) & (t2["m"] == g["m"]) & (t2["bits"] == g["bits"])]
                if row.empty:
                    continue
                r = row.iloc[0]
                xs.append(i + (j - (len(backends) - 1) / 2) * width)
                ys.append(r[col])
                notes.append(sm.security_text(r, short=True))
                styles.append(sm.bar_style(r, BACKEND_COLORS[backend]))
                if col == "total_min":
                    drawn.append({"backend": backend, "instance": r["instance"], "packing": r["packing"],
                                  "m": r["m"], "bits": r["bits"], "total_min": r["total_min"],
                                  "security": sm.security_text(r), "below_80_bits": sm.is_below(r)})
            for k, (x, y, style) in enumerate(zip(xs, ys, styles)):
                ax.bar(x, y, width, label=backend if k == 0 else None, **style)
            for x, y, note in zip(xs, ys, notes):
                ax.annotate(note, (x, y), ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(groups)), [_label(g) for _, g in groups.iterrows()], fontsize=7)
        ax.set_ylabel(ylabel)
    _legend(axes[0], t2.to_dict("records"), where=fig, fontsize=8, loc="outside lower center", ncol=3)
    title = "Engine and HElib 2.3.0 on the same circuits, rings and chain bits (one thread)"
    if "helib" not in backends:
        title += " - no HElib runs in this config (backends: [engine, helib])"
    fig.suptitle(_wrap(title, fig, 10), fontsize=10)
    _room_for_notes(fig, axes)
    data = pd.DataFrame(drawn)
    _save(fig, png, pdf, data)
    return data


def figures(rounds_csv, ops_csv, table1_csv, table2_csv, outdir):
    rounds, ops = pd.read_csv(rounds_csv), pd.read_csv(ops_csv)
    t1, t2 = pd.read_csv(table1_csv), pd.read_csv(table2_csv)
    out = lambda name: (os.path.join(outdir, f"{name}.png"), os.path.join(outdir, f"{name}.pdf"))  # noqa: E731
    plot_round_by_op(tables.round_ops(ops), rounds, *out("fig3_aes_vs_vision_round"), table2=t2)
    plot_round_curves(rounds, *out("round_time_capacity"), table2=t2)
    plot_vision_ops_vs_state(t1, *out("vision_ops_vs_state"))
    plot_ours_vs_published(t1, t2, *out("ours_vs_published"))
    plot_engine_vs_helib(t2, *out("engine_vs_helib"))


if "snakemake" in globals():
    figures(
        snakemake.input.rounds, snakemake.input.ops, snakemake.input.table1, snakemake.input.table2,
        snakemake.params.outdir,
    )
