"""Candidates, selection, the security table, the estimator integration and bad input."""
import json
import sys
import textwrap

import pytest

from cbparams import enumerate as E
from cbparams import estimator as EST
from cbparams import select as SEL
from cbparams.config import load_params, params_from_args
from cbparams.errors import EstimatorMissing, ParamError, SecurityError


@pytest.fixture(scope="module")
def small_rows():
    return E.sweep(3, 5000, [8, 16, 32, 64], workers=1)


def test_selection_is_smallest_phi(small_rows):
    p = load_params({"m_max": 5000, "security_target": 10, "use_measured": False})
    cand = SEL.candidates(small_rows, p)
    sel = SEL.select(cand, p)
    assert [r["cipher"] for r in sel] == p["ciphers"]
    for r in sel:
        assert float(r["helib_bits"]) >= 10 and float(r["coresvp_bits"]) >= 10 and r["blocks"] >= 1
        smaller = [c for c in cand if c["cipher"] == r["cipher"] and c["phi"] < r["phi"] and c["blocks"] >= 1]
        assert not any(SEL.meets(c, p) for c in smaller)
    text = SEL.selected_yaml(sel)
    assert "aes-sel10" in text and "cipher: aes128" in text
    table = SEL.security_table(sel, dict(p, estimator=dict(p["estimator"], mode="off")),
                               log=lambda s: None, cand_rows=cand)
    assert [r["source"] for r in table[:len(sel)]] == ["selected"] * len(sel)
    assert len(table) == len(cand) + 5            # each selected row replaces its sweep row
    assert {r["source"] for r in table} == {"selected", "paper", "sweep"}
    assert all(r["log2_q_exact"] == (r["source"] != "sweep") for r in table)


def test_several_targets(small_rows):
    p = load_params({"m_max": 5000, "security_target": [5, 10], "use_measured": False, "ciphers": ["aes"]})
    sel = SEL.select(SEL.candidates(small_rows, p), p)
    assert [(r["cipher"], r["security_target"]) for r in sel] == [("aes", 5), ("aes", 10)]
    assert sel[0]["phi"] <= sel[1]["phi"]


def test_target_unreachable(small_rows):
    p = load_params({"m_max": 5000, "security_target": 300, "use_measured": False, "strict": True})
    with pytest.raises(SecurityError, match=r"cipher aes: params.security_target=300 is not reached by any "
                                            r"ring m <= 5000.*raise params.m_max"):
        SEL.select(SEL.candidates(small_rows, p), p)


def test_min_blocks_too_large(small_rows):
    p = load_params({"m_max": 5000, "min_blocks": 10**6, "use_measured": False, "strict": True})
    with pytest.raises(ParamError, match=r"params.min_blocks=1000000 is more than any ring holds"):
        SEL.select(SEL.candidates(small_rows, p), p)


def test_unreachable_not_strict(small_rows):
    """Default: the others are selected, the unreachable one gets a row saying why."""
    p = load_params({"m_max": 5000, "security_target": [10, 300], "use_measured": False, "ciphers": ["aes"]})
    warnings = []
    sel = SEL.select(SEL.candidates(small_rows, p), p, log=warnings.append)
    assert [r["status"] for r in sel] == ["ok", "unreachable"]
    assert "params.security_target=300 is not reached" in sel[1]["note"]
    assert warnings and warnings[0].startswith("warning: cipher aes: params.security_target=300")
    text = SEL.selected_yaml(sel)
    assert "aes-sel10" in text and "aes-sel300" not in text and "aes at 300 bits: none" in text
    assert len(SEL.security_table(sel, dict(p, estimator=dict(p["estimator"], mode="off")),
                                  log=lambda s: None, paper=False)) == 1


def test_unknown_cipher():
    p = load_params({"ciphers": ["des"]})
    with pytest.raises(ParamError, match=r"params.ciphers names 'des'"):
        SEL.profiles_for(p)


def test_no_ring_for_degree(tmp_path, capsys):
    out = tmp_path / "cyc.csv"
    rc = E.main(["--params-json", json.dumps({"m_max": 200, "field_degrees": [8, 64]}),
                 "--out", str(out), "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "field degree n=64: no odd m in [3, 200] has n | ord_m(2); raise params.m_max" in err
    assert out.exists() and (tmp_path / "cache" / "zmstar.pkl").exists()   # nothing lost


def test_bad_params():
    with pytest.raises(ParamError, match="--params-json is not valid JSON"):
        params_from_args(None, "{bad")
    with pytest.raises(ParamError, match=r"params.m_min=9 exceeds params.m_max=5"):
        load_params({"m_min": 9, "m_max": 5})
    with pytest.raises(ParamError, match=r"params.estimator.mode: 'sometimes' is not one of"):
        load_params({"estimator": {"mode": "sometimes"}})


def test_security_table_without_estimator(monkeypatch):
    monkeypatch.setattr(EST, "locate", lambda path="": EST.Located(False, "", "lattice estimator not found (test)"))
    p = load_params({"use_measured": False})
    rows = SEL.security_table([], p, log=lambda s: None)
    assert [r["m"] for r in rows] == [53261, 163455, 148733, 164737, 164737]
    for r in rows:
        assert r["est_usvp"] == "" and "lattice estimator not found" in r["estimator_note"]
    # HElib's formula on the engine's chain, dense key: within 3 bits of the paper's figures.
    for r in rows:
        assert abs(float(r["helib_dense_bits"]) - r["paper_bits"]) < 3
    assert rows[0]["below_target"] == 1      # m=53261, 820 bits: core-SVP below 128
    assert rows[0]["below_target_models"] == "helib;coresvp"    # weight-120 HElib figure too


def test_estimator_missing_path():
    with pytest.raises(EstimatorMissing, match=r"params.estimator.path='/nonexistent' does not contain"):
        EST.locate("/nonexistent")


FAKE_ESTIMATOR = '''
"""A stand-in for the lattice estimator with its call signatures (tests only)."""
import time


class ND:
    SparseTernary = staticmethod(lambda p, m, n: ("T", p, m, n))
    Uniform = staticmethod(lambda a, b, n: ("U", a, b, n))
    DiscreteGaussian = staticmethod(lambda s: ("D", s))


class LWE:
    Parameters = staticmethod(lambda n, q, Xs, Xe: dict(n=n, q=q, Xs=Xs, Xe=Xe))

    @staticmethod
    def primal_usvp(p):
        return {"rop": 2.0 ** (p["n"] / 100), "beta": 123}

    @staticmethod
    def dual(p):
        if p["n"] == 4321:
            time.sleep(30)
        return {"rop": 2.0 ** (p["n"] / 100 + 1), "beta": 124}

    @staticmethod
    def primal_hybrid(p, mitm, babai):
        raise RuntimeError("boom")

    @staticmethod
    def estimate(p, quiet):
        return {"usvp": {"rop": 2.0 ** 90, "beta": 1}, "dual": {"rop": 2.0 ** 80, "beta": 2}}
'''


@pytest.fixture
def fake_estimator(tmp_path):
    (tmp_path / "est" / "estimator").mkdir(parents=True)
    (tmp_path / "est" / "estimator" / "__init__.py").write_text(textwrap.dedent(FAKE_ESTIMATOR))
    return tmp_path / "est"


def test_estimator_subprocess_cache_timeout(fake_estimator, tmp_path):
    where = EST.locate(str(fake_estimator))
    cache = tmp_path / "cache"
    r = EST.estimate(1000, 500.0, 120, "usvp", where, 60, cache)
    assert r["status"] == "ok" and r["log2_rop"] == pytest.approx(10) and r["beta"] == 123
    assert len(list(cache.glob("*.json"))) == 1
    again = EST.estimate(1000, 500.0, 120, "usvp", where, 60, cache)
    assert again.get("cached") and again["log2_rop"] == pytest.approx(10)
    t = EST.estimate(4321, 500.0, 120, "dual", where, 2, cache)
    assert t["status"] == "timeout" and "timed out after 2 s" in t["note"]
    h = EST.estimate(1000, 500.0, 120, "hybrid", where, 60, cache)
    assert h["status"] == "error" and "boom" in h["note"]
    f = EST.estimate(1000, 500.0, 0, "full", where, 60, cache)
    assert f["log2_rop"] == pytest.approx(80) and f["detail"]["best_attack"] == "dual"


def test_security_table_with_estimator(fake_estimator, tmp_path):
    p = load_params({"use_measured": False, "estimator": {"path": str(fake_estimator), "hybrid": False,
                                                         "cache_dir": str(tmp_path / "c")}})
    sel = [{"cipher": "aes", "m": 53261, "phi": 46080, "bits": 820}]
    rows = SEL.security_table(sel, p, log=lambda s: None, paper=False)
    assert len(rows) == 1
    r = rows[0]
    assert r["est_usvp"] == pytest.approx(460.8) and r["est_dual"] == pytest.approx(461.8)
    assert r["est_best"] == pytest.approx(460.8) and r["est_best_attack"] == "usvp"
    assert r["est_log2_q"] == r["log2_q"] and r["est_hybrid"] == ""
    assert r["below_target"] == 0 and r["below_target_models"] == "helib;coresvp"  # estimator rules
    assert SEL.flag_row({"security_target": 128, "helib_bits": 130, "coresvp_bits": 129},
                        {"usvp": 140, "hybrid": 120}) == {"below_target": 1, "below_target_models": "est_hybrid"}


# The real estimator: CB_LATTICE_ESTIMATOR=<clone>, else `make estimator`'s third_party clone.
REAL_ESTIMATOR = __import__("os").environ.get("CB_LATTICE_ESTIMATOR", "") or (
    str(EST.DEFAULT_DIR) if (EST.DEFAULT_DIR / "estimator" / "__init__.py").exists() else "")
NO_ESTIMATOR = "no lattice-estimator: run `make estimator` (or set CB_LATTICE_ESTIMATOR to a clone)"


@pytest.mark.skipif(not REAL_ESTIMATOR, reason=NO_ESTIMATOR)
def test_real_estimator_usvp(tmp_path):
    """docs/references.md §3: usvp at m=53261, q=2^820, weight 120 is 2^196.6 (commit 27a581b)."""
    r = EST.estimate(46080, 820.0, 120, "usvp", EST.locate(REAL_ESTIMATOR), 300, tmp_path)
    assert r["status"] == "ok" and r["log2_rop"] == pytest.approx(196.6, abs=0.1)
