"""Figure text never overlaps and never leaves the canvas (issue 21 item 4).

Every figure the pipeline draws is built here from the fixtures of tests/data (or small
hand-made CSVs in the explorer's columns) through the same entry points the pipeline calls
(figures.figures, figure_schemes.figure, pareto.main), and every file they save is checked
as it is saved: while savefig renders (at the saving dpi, with bbox_inches if given, so the
canvas is the saved image's), each Text artist it actually draws (titles, suptitle, axis
labels, tick labels, legend texts, annotations; empty strings skipped) records its window
extent. A saved file fails when two of those boxes overlap by more than TOLERANCE_PT in both
directions (tick labels of one axis included), or when a box reaches outside the canvas.

Figures (workflow/rules):
  plot.smk        fig3_aes_vs_vision_round, round_time_capacity, vision_ops_vs_state,
                  ours_vs_published, engine_vs_helib (analysis/figures.py)
  params.smk      pareto_<cipher> (analysis/pareto.py, rule params_pareto)
  peers.smk       aes128_across_schemes (analysis/figure_schemes.py, rule figure_schemes)
"""

import csv
import glob
import itertools
import os

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.text import Annotation, Text  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

from analysis import aggregate  # noqa: E402
from analysis import figure_schemes  # noqa: E402
from analysis import figures  # noqa: E402
from analysis import pareto  # noqa: E402
from analysis import peers  # noqa: E402
from analysis import tables  # noqa: E402

RUNS = sorted(glob.glob(os.path.join(DATA, "runs", "*", "*", "*.json")))
AES_RUN = os.path.join(DATA, "runs", "aes-packed", "engine", "m257_bits300_rep0.json")
#: Two boxes may touch, or overlap by this much (points: half a 7-point glyph's stem or so).
TOLERANCE_PT = 1.5


# --- what a save draws ------------------------------------------------------------------

def _role(t):
    """Which text of the figure `t` is, in words (for the failure message)."""
    fig, ax = t.get_figure(root=True), t.axes
    if t is getattr(fig, "_suptitle", None):
        return "suptitle"
    if isinstance(t, Annotation):
        return "annotation"
    for a in fig.axes:
        for name, axis in (("x", a.xaxis), ("y", a.yaxis)):
            if t is axis.label:
                return f"{name} label"
            if t is axis.offsetText:
                return f"{name} offset text"
            if any(t is tick.label1 or t is tick.label2 for tick in axis.get_major_ticks() + axis.get_minor_ticks()):
                return f"{name} tick label"
        if t in (a.title, a._left_title, a._right_title):
            return "title"
    for leg in [c for a in fig.axes for c in a.get_children() if isinstance(c, Legend)] + list(fig.legends):
        if t is leg.get_title():
            return "legend title"
        if any(t is lt for lt in leg.get_texts()):
            return "legend text"
    return "text" if ax is None else "text in axes"


class Save:
    """One saved file: its canvas (pixels) and the text boxes drawn in it."""

    def __init__(self, path):
        self.path = str(path)
        self.texts = []      # (Text, Bbox) of the last draw of the save
        self.canvas = None   # the figure's bbox during that draw: the saved image
        self.dpi = 72.0

    @property
    def name(self):
        return os.path.basename(self.path)

    def problems(self):
        tol = TOLERANCE_PT * self.dpi / 72.0
        out = []
        boxes = [(t, b, f"{_role(t)} {t.get_text()[:60]!r}") for t, b in self.texts]
        c = self.canvas
        for t, b, what in boxes:
            if b.x0 < c.x0 - tol or b.y0 < c.y0 - tol or b.x1 > c.x1 + tol or b.y1 > c.y1 + tol:
                out.append(f"{self.name}: {what} is cut off: its box "
                           f"[{b.x0:.0f}, {b.x1:.0f}] x [{b.y0:.0f}, {b.y1:.0f}] leaves the canvas "
                           f"[{c.x0:.0f}, {c.x1:.0f}] x [{c.y0:.0f}, {c.y1:.0f}]")
        for (t1, b1, w1), (t2, b2, w2) in itertools.combinations(boxes, 2):
            dx = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
            dy = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
            if dx > tol and dy > tol:
                out.append(f"{self.name}: {w1} overlaps {w2} by {dx:.0f} x {dy:.0f} px")
        return out


@pytest.fixture
def saves(monkeypatch):
    """Every file saved while the test runs, as a Save (with the boxes it drew)."""
    out = []
    current = []
    fig_draw, text_draw, savefig = Figure.draw, Text.draw, Figure.savefig

    def draw_figure(self, renderer):
        if current:
            current[-1].texts = []
        fig_draw(self, renderer)
        if current:
            current[-1].canvas = self.bbox.frozen()
            current[-1].dpi = self.dpi

    def draw_text(self, renderer):
        text_draw(self, renderer)
        if current and self.get_visible() and self.get_text().strip():
            # the text's own box (an Annotation's get_window_extent adds its arrow's)
            current[-1].texts.append((self, text_extent(self, renderer).frozen()))

    def save(self, fname, *args, **kw):
        current.append(Save(fname))
        try:
            return savefig(self, fname, *args, **kw)
        finally:
            out.append(current.pop())

    text_extent = Text.get_window_extent
    monkeypatch.setattr(Figure, "draw", draw_figure)
    monkeypatch.setattr(Text, "draw", draw_text)
    monkeypatch.setattr(Figure, "savefig", save)
    return out


def check(saved, expected):
    """Every expected file was saved, drew text, and none has an overlap or a cut-off."""
    names = {s.name for s in saved}
    assert set(expected) <= names, f"not saved: {sorted(set(expected) - names)}"
    for s in saved:
        assert s.texts and s.canvas is not None, f"{s.name}: no text drawn"
    problems = [p for s in saved for p in s.problems()]
    assert not problems, "\n".join(problems)


# --- inputs -----------------------------------------------------------------------------

#: The paper's five rings ([TMA] Table 2, published.table2()) as if the pipeline had run
#: every instance there: (name, instance, field bits, state size, m, phi, chain bits,
#: HElib's security, the fixture run it copies).
PAPER_RINGS = [
    ("aes-packed", "AES-128", 8, 16, 53261, 46080, 905, 107.5, "aes-packed"),
    ("vision8", "Vision GF(2^8)^16", 8, 16, 163455, 77760, 1997, 131.2, "vision8"),
    ("vision16", "Vision GF(2^16)^8", 16, 8, 148733, 81920, 2000, 140.9, "vision8"),
    ("vision32", "Vision GF(2^32)^4", 32, 4, 164737, 84480, 2300, 151.3, "vision8"),
    ("vision64", "Vision GF(2^64)^2", 64, 2, 164737, 84480, 3150, 119.8, "vision64"),
]


def at_paper_rings(runs, rounds, ops):
    """The fixture's runs copied onto the paper's rings, one per instance of its Table 2,
    so every panel has all its bars, labels and notes (the longest texts the figures draw)."""
    out = []
    for df in (runs, rounds, ops):
        parts = []
        for name, instance, fb, ss, m, phi, bits, sec, src in PAPER_RINGS:
            part = df[df["name"] == src].copy()
            part = part.assign(name=name, instance=instance, field_bits=fb, state_size=ss, m=m, bits=bits)
            if "phi" in part:
                part = part.assign(phi=phi, hwt=120, log2_q=bits + 120.5, security_helib=sec,
                                   final_capacity_bits=bits / 4)
            parts.append(part)
        out.append(pd.concat(parts, ignore_index=True))
    return out


def tidy_csvs(tmp_path, run_files, paper_rings=False):
    runs, rounds, ops = aggregate.tidy(run_files)
    if paper_rings:
        runs, rounds, ops = at_paper_rings(runs, rounds, ops)
    paths = {k: tmp_path / f"{k}.csv" for k in ("runs", "rounds", "ops", "t1", "t2")}
    runs.to_csv(paths["runs"], index=False)
    rounds.to_csv(paths["rounds"], index=False)
    ops.to_csv(paths["ops"], index=False)
    tables.table1_vision_ops(rounds, ops, runs).to_csv(paths["t1"], index=False)
    tables.table2_totals(runs).to_csv(paths["t2"], index=False)
    return paths


#: Planned rings of one instance, as select.py's ranked.csv has them (the columns pareto.py
#: reads): an AES-like sweep whose rings sit close together on both axes (as the explorer's
#: real sweeps do: results/params, results/new_ciphers), the fixture run's toy ring m=257
#: among them so the run is overlaid, and two rings below the target.
RANKED = [
    # m, helib_bits, coresvp_bits, est_best, predicted_latency_s, predicted_block_s, meets_target
    (49955, 133.238, 129.6, 145.2, 5.735, 1.9118, 1),
    (53261, 133.249, 130.2, 162.1, 6.794, 0.0566, 1),
    (86037, 135.948, 134.3, 166.0, 6.954, 0.058, 1),
    (48671, 136.894, 135.5, 166.9, 7.74, 1.2899, 1),
    (44099, 134.076, 131.1, "", 6.194, 0.0699, 1),
    (41819, 135.412, 133.2, "", 6.227, 0.0704, 1),
    (41311, 132.998, 129.4, "", 6.334, 0.0803, 1),
    (257, 131.0, 128.6, "", 3.9, 3.9, 1),
    (45205, 131.047, 126.1, 157.9, 5.681, 2.8405, 0),
    (72165, 128.399, 121.8, 153.7, 6.311, 1.0518, 0),
]
RANKED_COLUMNS = ["cipher", "security_target", "m", "blocks", "status", "helib_bits", "coresvp_bits", "est_best",
                  "predicted_latency_s", "predicted_block_s", "meets_target"]
#: The short runs the selection will time (seconds, scaled to the full cipher), per ring.
MEASURED = {49955: (7.1, 2.37), 53261: (5.9, 0.049), 44099: (8.0, 0.09)}


#: A sweep whose security spreads over 100 bits, so that rings a few bits apart sit on one
#: another (as results/new_ciphers' mimc63 did: labels over labels before issue 21).
RANKED_WIDE = [
    (44099, 134.076, 131.1, "", 4.194, 0.0699, 1),
    (41819, 135.412, 133.2, "", 4.227, 0.0704, 1),
    (41311, 132.998, 129.4, "", 4.334, 0.0803, 1),
    (50407, 136.885, 135.8, "", 4.476, 0.0414, 1),
    (64897, 152.157, 161.5, "", 5.895, 0.0068, 1),
    (92737, 243.744, 325.9, "", 9.972, 0.0068, 1),
    (34529, 130.548, 124.7, "", 4.227, 0.1392, 0),
]


def write_params(tmp_path, cipher="aes", measured=False, rows=RANKED, values=MEASURED):
    """ranked.csv and selected.csv (the first ring by latency selected) for `cipher`;
    measured: with the measured_latency_s / measured_block_s columns (`values` per ring,
    empty where a ring was not measured)."""
    cols = RANKED_COLUMNS + (["measured_latency_s", "measured_block_s"] if measured else [])
    out = []
    for m, helib, core, est, lat, blk, ok in rows:
        row = dict(cipher=cipher, security_target=128.0, m=m, blocks=max(1, round(lat / blk)), status="ok",
                   helib_bits=helib, coresvp_bits=core, est_best=est, predicted_latency_s=lat,
                   predicted_block_s=blk, meets_target=ok)
        if measured:
            ml, mb = values.get(m, ("", ""))
            row.update(measured_latency_s=ml, measured_block_s=mb)
        out.append(row)
    ranked, selected = tmp_path / "ranked.csv", tmp_path / "selected.csv"
    for path, rs, extra in ((ranked, out, []), (selected, out[:1], ["objective"])):
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols + extra)
            w.writeheader()
            for r in rs:
                w.writerow(dict(r, objective="latency") if extra else r)
    return ranked, selected


def pareto_args(tmp_path, cipher, ranked, selected, runs=()):
    return ["--cipher", cipher, "--ranked", str(ranked), "--selected", str(selected),
            "--png", str(tmp_path / f"pareto_{cipher}.png"), "--pdf", str(tmp_path / f"pareto_{cipher}.pdf"),
            *runs]


# --- the figures ------------------------------------------------------------------------

FIGURE_NAMES = ["fig3_aes_vs_vision_round", "round_time_capacity", "vision_ops_vs_state", "ours_vs_published",
                "engine_vs_helib"]


@pytest.mark.parametrize("runs,paper_rings", [(RUNS, False), (RUNS, True), ([AES_RUN], False)],
                         ids=["fixture_runs", "paper_rings", "aes_only"])
def test_plot_figures_text(tmp_path, saves, runs, paper_rings):
    """plot.smk's five figures (PNG and PDF): with the fixture runs (toy rings, marked below
    80 bits), with a run of every instance on the paper's rings, and with AES alone (no Vision:
    the figures' "no runs" branches)."""
    p = tidy_csvs(tmp_path, runs, paper_rings)
    figures.figures(p["rounds"], p["ops"], p["t1"], p["t2"], tmp_path)
    check(saves, [f"{n}.{e}" for n in FIGURE_NAMES for e in ("png", "pdf")])


def test_engine_vs_helib_with_both_backends_text(tmp_path, saves):
    """engine_vs_helib with HElib bars beside the engine's (the config's backends: [engine, helib])."""
    runs, rounds, ops = aggregate.tidy(RUNS)
    t2 = tables.table2_totals(runs)
    both = pd.concat([t2, t2.assign(backend="helib", total_min=t2["total_min"] * 3)], ignore_index=True)
    figures.plot_engine_vs_helib(both, tmp_path / "engine_vs_helib.png", tmp_path / "engine_vs_helib.pdf")
    check(saves, ["engine_vs_helib.png", "engine_vs_helib.pdf"])


def test_schemes_figure_text(tmp_path, saves):
    """peers.smk's "AES-128 across schemes": the fixture's AES run, HElib beside it, a tfhe-rs run."""
    from test_peers import annotate_to

    runs, _, _ = aggregate.tidy(RUNS)
    aes = runs[(runs["cipher"] == "aes128") & (runs["packing"] == "packed")]
    runs_csv, peers_csv = tmp_path / "runs.csv", tmp_path / "peers.csv"
    pd.concat([runs, aes.assign(backend="helib")]).to_csv(runs_csv, index=False)
    peers.tidy([str(annotate_to(tmp_path))]).to_csv(peers_csv, index=False)
    figure_schemes.figure(str(runs_csv), str(peers_csv), str(tmp_path / "s.png"), str(tmp_path / "s.pdf"))
    check(saves, ["s.png", "s.pdf"])


def test_schemes_figure_without_runs_text(tmp_path, saves):
    figure_schemes.figure(str(tmp_path / "none.csv"), str(tmp_path / "none2.csv"), str(tmp_path / "s.png"),
                          str(tmp_path / "s.pdf"))
    check(saves, ["s.png", "s.pdf"])


@pytest.mark.parametrize("rows", [RANKED, RANKED_WIDE], ids=["close_rings", "wide_security"])
@pytest.mark.parametrize("measured", [False, True], ids=["predicted_only", "with_measured_columns"])
def test_pareto_text(tmp_path, saves, measured, rows):
    """params.smk's Pareto figure of a sweep with rings close together, the fixture's run
    overlaid, with and without the selection's measured columns."""
    ranked, selected = write_params(tmp_path, measured=measured, rows=rows)
    assert pareto.main(pareto_args(tmp_path, "aes", ranked, selected, [AES_RUN])) == 0
    check(saves, ["pareto_aes.png", "pareto_aes.pdf"])


def test_pareto_without_rings_text(tmp_path, saves):
    ranked, selected = write_params(tmp_path, cipher="other")
    assert pareto.main(pareto_args(tmp_path, "aes", ranked, selected)) == 0
    check(saves, ["pareto_aes.png", "pareto_aes.pdf"])


# --- the check itself can fail ----------------------------------------------------------

def test_check_finds_overlaps_and_cut_offs(tmp_path, saves):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_ylabel("a y label far too long to fit in a figure three inches tall, so it is cut off")
    ax.text(0.5, 0.5, "same place")
    ax.text(0.5, 0.5, "same place too")
    fig.savefig(tmp_path / "bad.png")
    plt.close(fig)
    problems = saves[0].problems()
    assert any("y label" in p and "cut off" in p for p in problems), problems
    assert any("overlaps" in p and "'same place'" in p for p in problems), problems
    # bbox_inches="tight" grows the canvas to the text: then nothing is cut off
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_xlabel("x")
    ax.annotate("outside", (1.3, 0.5), xycoords="axes fraction")
    fig.savefig(tmp_path / "tight.png", bbox_inches="tight")
    fig.savefig(tmp_path / "loose.png")
    plt.close(fig)
    assert not saves[1].problems() and any("cut off" in p for p in saves[2].problems())


# --- the Pareto figure marks the selection's measured points ----------------------------

MEASURED_LABEL = "measured (short run, scaled)"


def pareto_figure(tmp_path, monkeypatch, **params):
    """The Pareto figure pareto.main draws (kept open), from write_params(**params)."""
    import matplotlib.pyplot as plt

    kept = []
    monkeypatch.setattr(plt, "close", kept.append)
    ranked, selected = write_params(tmp_path, **params)
    assert pareto.main(pareto_args(tmp_path, "aes", ranked, selected, [AES_RUN])) == 0
    assert len(kept) == 1
    return kept[0]


def measured_marks(fig):
    """Per panel: the measured points drawn (x, y) and the lines from a predicted point to a
    measured one ((x0, x1), y); and the figure's legend texts."""
    out = []
    for ax in fig.axes:
        pts = [tuple(map(float, o)) for c in ax.collections if c.get_label() == MEASURED_LABEL
               for o in c.get_offsets()]
        lines = [((float(ln.get_xdata()[0]), float(ln.get_xdata()[1])), float(ln.get_ydata()[0]))
                 for ln in ax.lines if len(ln.get_xdata()) == 2 and ln.get_color() == "black"]
        out.append((sorted(pts), sorted(lines)))
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    legend = [t.get_text() for leg in legends for t in leg.get_texts()]
    return out, legend


def test_pareto_draws_measured_points_where_the_columns_have_them(tmp_path, monkeypatch):
    """ranked.csv with measured_latency_s / measured_block_s: a black diamond at each measured
    ring's measured time (its security unchanged), a thin line from its predicted point, and
    the legend says "measured (short run, scaled)"; rings left empty get neither."""
    import matplotlib.pyplot as plt

    fig = pareto_figure(tmp_path, monkeypatch, measured=True)
    (block, latency), legend = measured_marks(fig)
    rows = {r[0]: r for r in RANKED}
    sec = {m: min(float(v) for v in (h, c, e) if v != "") for m, (h, c, e) in
           ((r[0], r[1:4]) for r in RANKED)}
    want_lat = sorted((MEASURED[m][0], sec[m]) for m in MEASURED)
    want_blk = sorted((MEASURED[m][1], sec[m]) for m in MEASURED)
    assert latency[0] == pytest.approx(want_lat) and block[0] == pytest.approx(want_blk)
    assert latency[1] == pytest.approx(sorted(((rows[m][4], MEASURED[m][0]), sec[m]) for m in MEASURED))
    assert block[1] == pytest.approx(sorted(((rows[m][5], MEASURED[m][1]), sec[m]) for m in MEASURED))
    for ax in fig.axes:
        (c,) = [c for c in ax.collections if c.get_label() == MEASURED_LABEL]
        assert tuple(c.get_facecolor()[0][:3]) == (0.0, 0.0, 0.0)   # filled black
    assert MEASURED_LABEL in legend
    plt.close(fig)


@pytest.mark.parametrize("measured,values", [(False, MEASURED), (True, {})], ids=["no_columns", "columns_empty"])
def test_pareto_without_measured_points_is_drawn_as_before(tmp_path, monkeypatch, measured, values):
    """Without the columns (ranked.csv before the selection measured), or with them empty,
    nothing measured is drawn: the planned rings, the selected star and the pipeline's runs."""
    import matplotlib.pyplot as plt

    fig = pareto_figure(tmp_path, monkeypatch, measured=measured, values=values)
    (block, latency), legend = measured_marks(fig)
    assert block == ([], []) and latency == ([], []) and MEASURED_LABEL not in legend
    assert legend == ["planned ring (meets target)", "planned ring (below target)", "selected (latency first)",
                      "measured run, wall (threads: 1)"]
    assert [len(ax.collections) for ax in fig.axes] == [4, 4]
    plt.close(fig)
