"""Figure "AES-128 across schemes": latency and time per block of AES-128 under FHE.

Bars, on a log scale:
  measured here   the packed AES runs of tidy/runs.csv, per backend (the engine, and HElib
                  2.3.0 when the config's backends has helib; BGV, all blocks at once, so
                  latency = the rounds' total and per block = total / blocks) and the TFHE
                  peers (tidy/peers.csv: one block at a time): tfhe-rs's transciphering AES
                  and the leveled-TFHE lookup AES on tfhe-rs (tfhe_aes --method leveled),
                  each labelled with host, threads and security (the engine's by HElib's
                  formula and core-SVP, tfhe-rs's sets as tfhe-rs states it, the leveled
                  set's by tfhe-rs's secure-noise formula and the lattice estimator); runs below 80 bits (toy rings, tfhe-rs's insecure test
                  set) are cross-hatched and labelled "below 80 bits" (security_marks.py);
  published       the literature's figures (published.aes_across_schemes()), hatched and
                  labelled "published", on the authors' hardware, at the security its
                  source states.
Latency is compared with latency and time per block with time per block (two panels).
Computing the rows (rows()) is separate from plotting (plot()).
"""

import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from analysis import published  # noqa: E402
from analysis import security_marks as sm  # noqa: E402

#: The cipher this figure is about (the schemes' common benchmark), as the catalog names it.
AES = "aes128"
COLORS = {"engine": "#1f77b4", "helib": "#2ca02c", "peer": "#ff7f0e", "published": "#bbbbbb"}
BACKEND_NAMES = {"engine": "engine", "helib": "HElib 2.3.0"}
COLUMNS = ["origin", "label", "latency_s", "per_block_s", "security", "below_80_bits"]


def engine_rows(runs):
    """The packed AES-128 runs per backend (mean over repetitions of one configuration)."""
    aes = runs[(runs["cipher"] == AES) & (runs["packing"] == "packed")]
    if aes.empty:
        return []
    aes = aes.assign(backend=aes["backend"].fillna("engine") if "backend" in aes else "engine")
    keys = ["backend", "m", "bits", "rounds", "blocks", "threads", "host"]
    rows = []
    for k, g in aes.groupby(keys, dropna=False):
        backend, m, bits, rounds, blocks, threads, host = k
        total = g["total_s"].mean()
        sec = {"security_helib": g["security_helib"].mean()}
        if "security_coresvp" in g:
            sec["security_coresvp"] = g["security_coresvp"].mean()
        partial = "" if rounds == 10 else f", {int(rounds)} of 10 rounds"
        rows.append({
            "origin": backend if backend in COLORS else "engine",
            "label": f"{BACKEND_NAMES.get(backend, backend)} BGV packed, m={int(m)}, {int(bits)} bits{partial}\n"
                     f"{host}, {int(threads)} thr, {int(blocks)} blocks, {sm.security_text(sec)}",
            "latency_s": total,
            "per_block_s": total / blocks,
            "security": sm.security_text(sec),
            "below_80_bits": sm.is_below(sec),
        })
    return rows


#: How each TFHE peer is named in a label, and who states its security.
PEER_NAMES = {"transciphering": ("tfhe-rs {version} AES", "stated by tfhe-rs"),
              "leveled": ("leveled TFHE on tfhe-rs {version}", "tfhe-rs noise formula, estimator")}


def peer_rows(peers):
    rows = []
    if "method" not in peers:  # peers.csv from before tfhe_aes had --method
        peers = peers.assign(method="transciphering")
    keys = ["peer", "method", "version", "params", "security", "threads", "host"]
    for k, g in peers.groupby(keys, dropna=False):
        peer, method, version, params, security, threads, host = k
        name, source = PEER_NAMES.get(method, PEER_NAMES["transciphering"])
        below = not security >= sm.THRESHOLD
        stated = (f"{int(security)}-bit ({source})" if security > 0 else "INSECURE test set") + \
            (f": {sm.MARK}" if below else "")
        rows.append({
            "origin": "peer",
            "label": f"{name.format(version=version)}, {params}\n{host}, {int(threads)} thr, {stated}",
            "latency_s": g["latency_s"].mean(),
            "per_block_s": g["per_block_s"].mean(),
            "security": stated,
            "below_80_bits": below,
        })
    return rows


def published_rows():
    rows = []
    for _, r in published.aes_across_schemes().iterrows():
        rows.append({
            "origin": "published",
            "label": f"{r['implementation']} [{r['scheme']}]\npublished, {r['hardware']}",
            "latency_s": r["latency_s"],
            "per_block_s": r["per_block_s"],
            "security": "as its source states (docs/references.md §5)",
            "below_80_bits": False,
        })
    return rows


def rows(runs, peers):
    """All bars, measured ones first; runs or peers may be empty frames."""
    return pd.DataFrame(engine_rows(runs) + peer_rows(peers) + published_rows(), columns=COLUMNS)


def _room_for_values(fig, axes, margin_px=4):
    """Moves each (log-scale) axes' right limit so the value written after each bar ends
    inside the axes; on the laid-out figure."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        box = ax.get_window_extent(renderer)
        left, right = (math.log10(v) for v in ax.get_xlim())
        need = right
        for t in ax.texts:
            x = t.get_position()[0]
            if t.get_transform() is not ax.transData or not x > 0:
                continue   # "not published" sits at the axes' left, in axes coordinates
            after = t.get_window_extent(renderer).x1 - ax.transData.transform((x, 0))[0]
            room = box.width - margin_px - after
            if room > 0 and math.log10(x) > left:
                need = max(need, left + (math.log10(x) - left) * box.width / room)
        if need > right:
            ax.set_xlim(right=10 ** need)


def plot(df, png, pdf):
    df = df.iloc[::-1].reset_index(drop=True)  # first row at the top
    fig, axes = plt.subplots(1, 2, figsize=(12, 1.4 + 0.55 * len(df)), sharey=True, layout="constrained")
    for ax, col, title in zip(axes, ["latency_s", "per_block_s"], ["latency (one result)", "time per block"]):
        for i, r in df.iterrows():
            if pd.isna(r[col]):
                ax.text(0.01, i, "not published", va="center", fontsize=7, color="#666666",
                        transform=ax.get_yaxis_transform())
                continue
            pub = r["origin"] == "published"
            below = bool(r["below_80_bits"])
            ax.barh(i, r[col], color=COLORS[r["origin"]], hatch="//" if pub else sm.HATCH if below else None,
                    edgecolor="#666666" if pub else sm.EDGE if below else None)
            ax.text(r[col], i, f" {r[col]:.3g} s" + (f" ({sm.MARK})" if below else ""), va="center", fontsize=7,
                    color=sm.TEXT if below else "black")
        ax.set_xscale("log")
        ax.set_xlabel("seconds (log scale)")
        ax.set_title(title, fontsize=10)
    axes[0].set_yticks(range(len(df)))
    axes[0].set_yticklabels(df["label"], fontsize=7)
    names = {"engine": "engine (BGV), measured here", "helib": "HElib 2.3.0 (BGV), measured here",
             "peer": "TFHE on tfhe-rs, measured here", "published": "published, other hardware"}
    shown = [o for o in names if (df["origin"] == o).any()]
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=COLORS[o], hatch="//" if o == "published" else None,
                             edgecolor="#666666" if o == "published" else COLORS[o]) for o in shown]
    texts = [names[o] for o in shown]
    if df["below_80_bits"].astype(bool).any():
        handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", hatch=sm.HATCH, edgecolor=sm.EDGE))
        texts.append(f"{sm.MARK}: toy parameters, never comparable with the published figures")
    # below the panels, two entries a row (one row of all is wider than the figure)
    fig.legend(handles, texts, loc="outside lower center", ncol=min(2, len(texts)), fontsize=8)
    fig.suptitle("AES-128 across schemes", fontsize=11)
    _room_for_values(fig, axes)
    fig.savefig(png, dpi=150)
    fig.savefig(pdf)
    plt.close(fig)
    df.iloc[::-1].to_csv(os.path.splitext(str(png))[0] + ".csv", index=False)


def read_csv_or_empty(path):
    if path and os.path.exists(path) and os.path.getsize(path) > 0:
        return pd.read_csv(path)
    return pd.DataFrame()


def figure(runs_csv, peers_csv, png, pdf):
    runs = read_csv_or_empty(runs_csv)
    peers = read_csv_or_empty(peers_csv)
    if runs.empty:
        runs = pd.DataFrame(columns=["cipher", "packing"])
    if peers.empty:
        peers = pd.DataFrame(columns=["peer", "method", "version", "params", "security", "threads", "host"])
    plot(rows(runs, peers), png, pdf)


if "snakemake" in globals():
    figure(snakemake.input.runs, snakemake.input.peers, snakemake.output.png, snakemake.output.pdf)
