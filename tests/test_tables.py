"""Unit tests of analysis/tables.py and analysis/figures.py on hand-made fixtures."""

import glob
import os
import sys

import pandas as pd
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
sys.path.insert(0, os.path.join(HERE, "..", "analysis"))

import aggregate  # noqa: E402
import figures  # noqa: E402
import published  # noqa: E402
import tables  # noqa: E402

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
    runs.loc[runs["name"] == "aes-packed", ["m", "phi", "bits", "hwt"]] = [53261, 46080, 820, 120]
    t2 = tables.table2_totals(runs)
    # docs/references.md §3: the estimator's rough (ADPS16) uSVP at m=53261, 820 bits, hwt 120
    assert t2[t2["m"] == 53261]["security_coresvp"].iloc[0] == pytest.approx(166.4, abs=0.05)


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
    # our own figures are kept where the explorer has the same ones; log2_q is not an estimate
    assert v64["security_coresvp"] == 11.7 and v64["security_helib"] == 0.0
    assert v64["log2_q"] == pytest.approx(661.5)
    assert t2[t2["m"] == 257]["security_est_usvp"].isna().all()


def test_markdown_and_csv_written(tidy, tmp_path):
    runs, rounds, ops = tidy
    t2 = tables.table2_totals(runs)
    tables.write_table(t2, tmp_path / "t.csv", tmp_path / "t.md", "Table 2")
    md = (tmp_path / "t.md").read_text().splitlines()
    assert md[0] == "# Table 2"
    assert md[2].startswith("| instance | backend | state | packing | m |")
    assert len(md) == 2 + 2 + 3
    assert "| Vision GF(2^64)^2 | engine | GF(2^64)^2 | packed | 641 |" in md[-1]
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
    tables.table1_vision_ops(rounds, ops).to_csv(d / "t1.csv", index=False)
    tables.table2_totals(runs).to_csv(d / "t2.csv", index=False)
    figures.figures(d / "rounds.csv", d / "ops.csv", d / "t1.csv", d / "t2.csv", d)
    for name in ("fig3_aes_vs_vision_round", "round_time_capacity", "vision_ops_vs_state", "ours_vs_published",
                 "engine_vs_helib"):
        for ext in ("png", "pdf"):
            assert (d / f"{name}.{ext}").stat().st_size > 5000
