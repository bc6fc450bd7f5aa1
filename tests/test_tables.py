"""Unit tests of analysis/tables.py and analysis/figures.py on hand-made fixtures."""

import glob
import os

import pandas as pd
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

from analysis import aggregate  # noqa: E402
from analysis import figures  # noqa: E402
from analysis import published  # noqa: E402
from analysis import tables  # noqa: E402

RUNS = sorted(glob.glob(os.path.join(DATA, "runs", "*", "*", "*.json")))


@pytest.fixture(scope="module")
def tidy():
    return aggregate.tidy(RUNS)


def test_table1_means_over_rounds_and_repetitions(tidy):
    runs, rounds, ops = tidy
    t1 = tables.table1_vision_ops(rounds, ops)
    assert list(t1["instance"]) == ["Vision GF(2^8)^16", "Vision GF(2^64)^2"]  # AES excluded, by field size
    v8, v64 = t1.iloc[0], t1.iloc[1]
    assert v8["inversion"] == pytest.approx(2.0)
    assert v8["keyadd"] == pytest.approx(0.02)
    assert v8["one_round"] == pytest.approx(5.0) and v8["runs"] == 1
    assert v64["inversion"] == pytest.approx(2.0)  # (1 + 2 + 2 + 3) / 4
    assert v64["affine1"] == pytest.approx(1.0)
    assert v64["one_round"] == pytest.approx(4.0) and v64["runs"] == 2


def test_table2_totals(tidy):
    runs, rounds, ops = tidy
    t2 = tables.table2_totals(runs)
    assert list(t2["instance"]) == ["AES-128", "Vision GF(2^8)^16", "Vision GF(2^64)^2"]
    aes, v8, v64 = (t2.iloc[i] for i in range(3))
    assert aes["state"] == "GF(2^8)^16" and v64["state"] == "GF(2^64)^2"
    assert aes["total_min"] == pytest.approx(4.0 / 60)
    assert v8["total_min"] == pytest.approx(10.0 / 60)
    assert v64["total_min"] == pytest.approx(8.0 / 60)  # mean of 6 s and 10 s
    assert v64["amortized_s_per_block"] == pytest.approx(1.6)  # mean of 6/5 and 10/5
    assert v64["peak_mem_mb"] == 90.0  # the larger of the two runs
    assert v64["wall_min"] == pytest.approx(11.0 / 60)
    assert v64["git_revision"] == "abc123,def456"
    assert v64["rounds"] == 2 and v64["runs"] == 2
    assert v64["security_coresvp"] == 11.7  # toy ring: the smallest block size the model tries


def test_table2_coresvp_on_paper_ring(tidy):
    runs = tidy[0].copy()
    # core-SVP takes Q = the chain's log2_q (ciphertext and special primes, as HElib's formula
    # and security.csv): here Q = 2^820, the q of docs/references.md §3
    runs.loc[runs["name"] == "aes-packed", ["m", "phi", "bits", "hwt", "log2_q"]] = [53261, 46080, 820, 120, 820.0]
    t2 = tables.table2_totals(runs)
    # docs/references.md §3: the estimator's rough (ADPS16) uSVP at m=53261, q=2^820, hwt 120
    row = t2[t2["m"] == 53261].iloc[0]
    assert row["security_coresvp"] == pytest.approx(166.4, abs=0.05)
    assert not row["below_80_bits"] or row["security_helib"] < 80


def test_table2_coresvp_uses_the_same_q_as_helib(tidy):
    """Two runs that differ only in log2_q_ct (the ciphertext primes) but have the same Q get
    the same core-SVP: the figure depends on Q, as security.csv's does, never on another q."""
    runs = tidy[0].copy()
    aes = runs["name"] == "aes-packed"
    runs.loc[aes, ["m", "phi", "bits", "hwt", "log2_q", "log2_q_ct"]] = [53261, 46080, 820, 120, 1000.0, 820.0]
    a = tables.table2_totals(runs)
    runs.loc[aes, "log2_q_ct"] = 780.0
    b = tables.table2_totals(runs)
    assert a["security_coresvp"].tolist() == b["security_coresvp"].tolist()
    runs.loc[aes, "log2_q"] = 1200.0
    c = tables.table2_totals(runs)
    assert c[c["m"] == 53261]["security_coresvp"].iloc[0] < a[a["m"] == 53261]["security_coresvp"].iloc[0]


def test_tables_carry_security_and_the_mark(tidy):
    """Every row of both tables carries HElib's formula, core-SVP and below_80_bits; the
    fixtures' toy rings (phi 256, 640) are all below 80 bits."""
    runs, rounds, ops = tidy
    t1 = tables.table1_vision_ops(rounds, ops, runs)
    t2 = tables.table2_totals(runs)
    for t in (t1, t2):
        assert {"security_helib", "security_coresvp", "below_80_bits"} <= set(t.columns)
        assert t["security_helib"].notna().all() and t["security_coresvp"].notna().all()
        assert t["below_80_bits"].all()
    # a run at 118.7 bits (HElib) and 166 (core-SVP) is not marked
    runs = runs.copy()
    aes = runs["name"] == "aes-packed"
    runs.loc[aes, ["m", "phi", "bits", "hwt", "log2_q", "security_helib"]] = [53261, 46080, 820, 120, 820.0, 118.7]
    t2 = tables.table2_totals(runs)
    assert not t2[t2["m"] == 53261]["below_80_bits"].iloc[0]


def test_table2_joins_security_estimates(tidy):
    runs = tidy[0]
    # columns as the explorer's security.csv names them
    estimates = pd.DataFrame({
        "source": ["selected", "selected", "selected"], "cipher": ["vision64", "x", "vision64"],
        "m": [641, 999, 641], "bits": [600, 600, 600], "c": [3, 3, 2], "hwt": [0, 0, 0],
        "log2_q": [700.0, 1.0, 2.0], "helib_bits": [1.0, 2.0, 3.0], "coresvp_bits": [5.0, 6.0, 7.0],
        "paper_bits": [float("nan")] * 3, "est_usvp": [12.5, 99.0, 3.0], "est_best_attack": ["usvp"] * 3,
        "est_log2_q": [600.0] * 3, "security_target": [128.0] * 3, "below_target": [1, 1, 1],
    })
    t2 = tables.table2_totals(runs, estimates)
    v64 = t2[t2["m"] == 641].iloc[0]
    assert v64["security_est_usvp"] == 12.5  # the row with the same c
    assert "security_paper" in t2.columns
    for not_an_estimate in ("security_est_best_attack", "security_est_log2_q", "security_security_target",
                            "below_target", "security_below_target"):
        assert not_an_estimate not in t2.columns
    # HElib's formula stays the run's own (the engine's for the chain it ran); core-SVP is
    # security.csv's figure for the same chain (one figure, never recomputed); log2_q is not an estimate
    assert v64["security_coresvp"] == 5.0 and v64["security_helib"] == 0.0
    assert v64["log2_q"] == pytest.approx(661.5)
    assert t2[t2["m"] == 257]["security_est_usvp"].isna().all()


def test_markdown_and_csv_written(tidy, tmp_path):
    runs, rounds, ops = tidy
    t2 = tables.table2_totals(runs)
    tables.write_table(t2, tmp_path / "t.csv", tmp_path / "t.md", "Table 2", readable=tables.table2_readable(t2))
    md = (tmp_path / "t.md").read_text().splitlines()
    assert md[0] == "# Table 2"
    assert md[2] == "| " + " | ".join(tables.READABLE_COLUMNS) + " |"
    assert len(tables.READABLE_COLUMNS) <= 12  # issue 21: a table people read
    assert len(md) == 2 + 2 + 3
    assert md[-1].startswith("| Vision GF(2^64)^2 packed | m=641 (phi 640) | ")
    assert "below 80 bits" in md[-1]
    back = pd.read_csv(tmp_path / "t.csv")
    assert back["total_min"].tolist() == pytest.approx(t2["total_min"].tolist())


def test_published_tables_match_reference():
    t1, t2 = published.table1(), published.table2()
    assert t1.set_index("instance").loc["Vision GF(2^64)^2", "affine1"] == 7.106
    assert t2.set_index("instance").loc["AES-128", "total_min"] == 1.93
    assert list(t2["m"]) == [53261, 163455, 148733, 164737, 164737]


def test_figures_written(tidy, tmp_path):
    runs, rounds, ops = tidy
    d = tmp_path
    rounds.to_csv(d / "rounds.csv", index=False)
    ops.to_csv(d / "ops.csv", index=False)
    tables.table1_vision_ops(rounds, ops, runs).to_csv(d / "t1.csv", index=False)
    tables.table2_totals(runs).to_csv(d / "t2.csv", index=False)
    figures.figures(d / "rounds.csv", d / "ops.csv", d / "t1.csv", d / "t2.csv", d)
    for name in ("fig3_aes_vs_vision_round", "round_time_capacity", "vision_ops_vs_state", "ours_vs_published",
                 "engine_vs_helib"):
        for ext in ("png", "pdf"):
            assert (d / f"{name}.{ext}").stat().st_size > 5000
        # the figure's data: every bar or line with its security and the mark
        data = pd.read_csv(d / f"{name}.csv")
        assert "below_80_bits" in data.columns and len(data) > 0, name
        assert any(c.startswith("security") for c in data.columns), name


def test_figures_mark_toy_runs_and_compare_like_for_like(tidy, tmp_path):
    """The fixtures' toy rings are drawn marked "below 80 bits", also beside the published
    figures, which carry their own security; AES vs Vision compares per block with per block
    (one round's seconds / the blocks of the ciphertext: Vision GF(2^64)^2 has 5)."""
    runs, rounds, ops = tidy
    t1 = tables.table1_vision_ops(rounds, ops, runs)
    t2 = tables.table2_totals(runs)
    pub = figures.plot_ours_vs_published(t1, t2, tmp_path / "p.png", tmp_path / "p.pdf")
    ours = pub[pub["origin"] == "ours"]
    assert len(ours) == 5 and ours["below_80_bits"].all()
    assert ours["security"].str.endswith("below 80 bits").all()
    theirs = pub[(pub["origin"] == "published") & (pub["panel"] == "table2")]
    assert theirs["security"].str.contains("136 bits").any() and not theirs["below_80_bits"].any()
    fig3 = figures.plot_round_by_op(tables.round_ops(ops), rounds, tmp_path / "f.png", tmp_path / "f.pdf", table2=t2)
    v64 = fig3[fig3["instance"] == "Vision GF(2^64)^2"].iloc[0]
    assert v64["blocks"] == 5 and v64["seconds_per_block"] == pytest.approx(v64["seconds"] / 5)
    assert fig3["below_80_bits"].all()
    # a run at 119 bits (HElib) and 166 (core-SVP) is drawn without the mark
    t2 = t2.copy()
    t2.loc[t2["instance"] == "AES-128", ["security_helib", "security_coresvp"]] = [118.7, 166.4]
    fig3 = figures.plot_round_by_op(tables.round_ops(ops), rounds, tmp_path / "g.png", tmp_path / "g.pdf", table2=t2)
    assert not fig3[fig3["instance"] == "AES-128"]["below_80_bits"].iloc[0]


def test_paper_figures_have_one_home():
    """The paper's Table 2 is read from config/paper.yaml by the analysis and by the explorer
    (never a second copy); the figures are those of docs/references.md §1."""
    from cbparams.config import paper_configs

    t2 = published.table2()
    assert list(zip(t2["m"], t2["bits"], t2["security"], t2["total_min"])) == [
        (53261, 820, 136.256, 1.93), (163455, 1550, 128.529, 26.83), (148733, 2000, 158.132, 37.07),
        (164737, 2300, 179.373, 63.3), (164737, 3150, 126.0, 76.9)]
    assert [(c[0], c[1], c[2], c[4]) for c in paper_configs()] == [
        ("aes", 53261, 820, 136.256), ("vision8", 163455, 1550, 128.529), ("vision16", 148733, 2000, 158.132),
        ("vision32", 164737, 2300, 179.373), ("vision64", 164737, 3150, 126.0)]


def test_paper_vs_ours_explains_differences_from_the_figures(tidy):
    """Table 3 on a fixture run placed as if on the paper's AES ring: our chain, security
    (HElib with our key weight, and with a dense key), bits per round used, and notes that
    say which is larger and why, in the figures' own words."""
    import doctest

    from analysis import paper_vs_ours
    from analysis import security_marks
    assert doctest.testmod(paper_vs_ours).failed == 0 and doctest.testmod(security_marks).failed == 0
    runs = tidy[0].copy()
    aes = runs["name"] == "aes-packed"
    runs.loc[aes, ["m", "phi", "bits", "hwt", "log2_q", "security_helib", "final_capacity_bits", "rounds"]] = \
        [53261, 46080, 905, 120, 1259.8, 107.5, 35.0, 10]
    exps = [{"name": "aes-packed", "cipher": "aes128", "packing": "packed", "rounds": 10,
             "rings": [{"m": 53261, "bits": 905, "paper": {"bits": 820, "security": 136.256, "total_min": 1.93}}]},
            {"name": "vision8", "cipher": "vision", "field_bits": 8, "state_size": 16, "packing": "packed",
             "rounds": 10, "rings": [{"m": 163455, "bits": 1997,
                                      "paper": {"bits": 1550, "security": 128.529, "total_min": 26.83}}]}]
    dense = {}
    t3 = paper_vs_ours.paper_vs_ours(exps, runs, lambda m, lq: dense.setdefault((m, lq), 120.0),
                                     lambda phi, lq, h: 150.0)
    a, v = t3.iloc[0], t3.iloc[1]
    assert a["status"] == "run" and a["bits"] == 905 and a["paper_bits"] == 820
    assert a["bits_used_per_round"] == pytest.approx((905 - 35) / 10)
    assert a["chain_note"].startswith("chain 905 > 820: the engine planned more; it used 87 bits per round")
    assert a["security_note"].startswith("security 107.5 < 136.3: key weight 120")
    assert "with a dense key: 120.0" in a["security_note"] and "a longer chain" in a["security_note"]
    assert dense == {(53261, 1259.8): 120.0} and not a["below_80_bits"]
    assert a["time_note"].startswith("time ")
    assert v["status"] == "not run" and v["chain_note"].startswith("chain 1997 > 1550 (planned; not run here)")
    assert "no security target" in a["security_note"]
    # a ring that asks for the paper's security (no bits: the engine plans and chooses c and
    # the key weight): its run is found by name and ring, and the note says what was chosen
    exps = [{"name": "aes-byte-sliced", "cipher": "aes128", "packing": "byte-sliced", "rounds": 10,
             "rings": [{"m": 53261, "security_target": 136.256,
                        "paper": {"bits": 820, "security": 136.256, "total_min": 1.93}}]}]
    (t,) = [r for _, r in paper_vs_ours.paper_vs_ours(exps, runs, lambda m, lq: 140.0, lambda phi, lq, h: 135.0).iterrows()]
    assert t["status"] == "not run" and t["chain_note"].startswith("chain planned by the engine at the run")
    sliced = runs[runs["name"] == "aes-packed"].copy()
    sliced["name"] = "aes-byte-sliced"
    sliced[["m", "phi", "bits", "hwt", "c", "log2_q", "security_helib", "final_capacity_bits", "rounds"]] = \
        [53261, 46080, 684, 150, 4, 900.0, 137.0, 20.0, 10]
    runs = pd.concat([runs, sliced], ignore_index=True)
    (t,) = [r for _, r in paper_vs_ours.paper_vs_ours(exps, runs, lambda m, lq: 140.0, lambda phi, lq, h: 135.0).iterrows()]
    assert t["status"] == "run" and t["bits"] == 684 and (t["hwt"], t["c"], t["security_target"]) == (150, 4, 136.256)
    assert t["security_note"].startswith("security 137.0 > 136.3")
    assert "run at security target 136.256 (the paper's figure" in t["security_note"]
    assert "the engine chose c=4 and key weight 150" in t["security_note"]
    assert pd.isna(t["security_est_best"]) and "no lattice estimator figure" in t["security_note"]
    # where the estimator ran on the run's own chain and key (run-security rows), its
    # cheapest attack stands beside the paper's figure and counts for below_80_bits
    est = pd.DataFrame([{"m": 53261, "bits": 684, "c": 4, "hwt": 150, "est_best": 141.2, "est_best_attack": "bdd_hybrid"},
                        {"m": 53261, "bits": 684, "c": 4, "hwt": 120, "est_best": 12.0, "est_best_attack": "usvp"}])
    (t,) = [r for _, r in paper_vs_ours.paper_vs_ours(exps, runs, lambda m, lq: 140.0, lambda phi, lq, h: 135.0,
                                                       est).iterrows()]
    assert (t["security_est_best"], t["est_best_attack"]) == (141.2, "bdd_hybrid") and not t["below_80_bits"]
    assert "the lattice estimator's cheapest attack (bdd_hybrid): 141.2 > 136.3 (core-SVP 135.0)" in t["security_note"]


def test_report_context_says_below_80_bits(tidy):
    from analysis import report_tables

    ctx = report_tables.context(tidy[0])
    assert ctx["security"].endswith("below 80 bits, toy rings (relative costs only)")
