"""Candidates, plans, ranking and selection, the security table, the estimator integration and bad input."""
import json
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from cbparams import cost_model as CM
from cbparams import enumerate as E
from cbparams import estimator as EST
from cbparams import runner
from cbparams import select as SEL
from cbparams.config import load_params, params_from_args
from cbparams.errors import EstimatorMissing, ParamError, SecurityError


needs_engine = pytest.mark.skipif(not (runner.build_dir() / "bin" / "run_cipher").exists()
                                  or not (runner.build_dir() / "bin" / "bench_ops").exists(),
                                  reason="engine not built (make build)")
SMALL = {"m_max": 6000, "field_degrees": [8], "ciphers": ["aes"], "security_target": 25,
         "target_models": ["helib"], "plan_candidates": 1, "estimator": {"mode": "off"}, "seed": 7}


@pytest.fixture(scope="module")
def small_rows():
    return E.sweep(3, 6000, [8], workers=1)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A cost model fitted on two bench_ops runs at m=257 (seconds)."""
    if not (runner.build_dir() / "bin" / "bench_ops").exists():
        pytest.skip("engine not built (make build)")
    return CM.calibrate(tmp_path_factory.mktemp("bench"), [{"m": 257, "bits": 300, "c": 2},
                                                          {"m": 257, "bits": 600, "c": 3}], reps=1,
                        log=lambda s: None, processes=1)


def _selection(rows, p, model, plans, measured=None):
    cand = SEL.candidates(rows, p, model, log=lambda s: None)
    for r in cand:
        if r["plan"]:
            SEL.plan_one(r["cipher"], r["m"], r["hwt"], r["security_target"], p,
                         SEL.plan_path(plans, r["cipher"], r["m"], r["hwt"], r["security_target"], r["packing"]),
                         r["packing"])
    # as the pipeline reads them back: CSV strings
    cand = [{k: str(v) for k, v in r.items()} for r in cand]
    ranked = SEL.rank(cand, plans, model, p, log=lambda s: None, measured_dir=measured)
    return cand, ranked


def _measured(m, packing, latency, block, rank_latency, rank_block):
    return {"cipher": "aes", "packing": packing, "security_target": 128.0, "m": m, "meets_target": 1,
            "status": "ok", "rank_latency": rank_latency, "rank_block": rank_block,
            "measured_latency_s": latency, "measured_block_s": block}


def test_selection_never_takes_a_dominated_ring():
    """The issue's case: the model ranks m=49955 (3 blocks) first by latency, but m=53261
    (120 blocks) measures as fast and 40 times cheaper per block: the dominated ring is
    marked and not selected, whatever the objective; per block, a sliced packing can win."""
    rows = [_measured(49955, "packed", 9.7, 3.23, 1, 3), _measured(53261, "packed", 9.6, 0.08, 2, 2),
            _measured(53261, "sliced", 86.0, 0.045, 3, 1)]
    for r in rows:
        by = __import__("cbparams.measure", fromlist=["dominated"]).dominated(r, rows)
        r["dominated_by"] = f"m={by['m']} {by['packing']}" if by else ""
    assert [r["dominated_by"] for r in rows] == ["m=53261 packed", "", ""]
    p = load_params({"ciphers": ["aes"], "security_target": 128})
    sel = SEL.select(rows, p)[0]
    assert (sel["m"], sel["packing"]) == (53261, "packed") and sel["selected_by"].startswith("measured")
    sel = SEL.select(rows, dict(p, objective="block"))[0]
    assert (sel["m"], sel["packing"]) == (53261, "sliced")
    bal = SEL.select(rows, dict(p, objective="balanced"))[0]   # 9.6 x 0.08 < 86 x 0.045
    assert (bal["m"], bal["packing"]) == (53261, "packed") and "latency x time per block" in bal["selected_by"]
    exp = yaml.safe_load(SEL.selected_yaml([dict(sel, phi=43200, bits=684, c=3, hwt=120, rounds=10, blocks=1920,
                                                 helib_bits=136.1, coresvp_bits=131.0, predicted_latency_s=80.0,
                                                 predicted_block_s=0.04, security_source="HElib")]))
    assert exp["experiments"][0]["packing"] == "byte-sliced" and exp["experiments"][0]["name"] == "aes-sel128-sliced"



def test_select_per_packing_gives_each_packing_its_own_ring():
    """params.select_per_packing: one answer per packing (each the best of its own rings),
    where the default gives the best over all packings; a packing an instance does not
    offer (Vision has no bit-sliced form) gives no answer, one with no ring reaching the
    target an "unreachable" row that names the packing."""
    rows = [_measured(53261, "packed", 9.6, 0.08, 1, 3), _measured(49955, "packed", 12.0, 0.5, 2, 4),
            _measured(53261, "sliced", 86.0, 0.045, 3, 2), _measured(60787, "bit-sliced", 530.0, 0.19, 4, 1)]
    p = load_params({"ciphers": ["aes", "vision8"], "security_target": 128, "objective": "balanced",
                     "packings": ["packed", "sliced", "bit-sliced"]})
    one = [r for r in SEL.select(rows, p) if r["status"] == "ok"]
    assert [(r["m"], r["packing"]) for r in one] == [(53261, "packed")]
    each = SEL.select(rows, dict(p, select_per_packing=True))
    ok = [(r["cipher"], r["m"], r["packing"]) for r in each if r["status"] == "ok"]
    assert ok == [("aes", 53261, "packed"), ("aes", 53261, "sliced"), ("aes", 60787, "bit-sliced")]
    lost = [(r["cipher"], r.get("packing")) for r in each if r["status"] == "unreachable"]
    assert lost == [("vision8", "packed"), ("vision8", "sliced")]
    assert all("vision8 " in r["note"] for r in each if r["status"] == "unreachable")
    names = [e["name"] for e in yaml.safe_load(SEL.selected_yaml(
        [dict(r, phi=1, bits=700, c=3, hwt=120, rounds=10, blocks=1, helib_bits=130.0, coresvp_bits=130.0,
              predicted_latency_s=1.0, predicted_block_s=1.0, security_source="HElib") for r in each
         if r["status"] == "ok"]))["experiments"]]
    assert names == ["aes-sel128", "aes-sel128-sliced", "aes-sel128-bit-sliced"]

@needs_engine
def test_selection_measures_its_best_candidates(small_rows, model, tmp_path):
    """With measure_candidates, the first rings by each ranking are run (decryption checked
    by run_cipher) and carry measured times; the selection says it chose by them; packed
    and sliced compete."""
    p = load_params(dict(SMALL, packings=["packed", "sliced"], measure_candidates=1, measure_rounds=1))
    _, ranked = _selection(small_rows, p, model, tmp_path / "plans", tmp_path / "measured")
    measured = [r for r in ranked if r.get("measured_latency_s") not in (None, "")]
    assert measured and {r["packing"] for r in ranked} == {"packed", "sliced"}
    for r in measured:
        doc = json.loads(Path(r["measured_file"]).read_text())
        assert doc["correct"] and doc["rounds"] == 1 and doc["params"]["bits"] == r["bits"]
        assert r["measured_block_s"] == pytest.approx(r["measured_latency_s"] / r["blocks"], rel=1e-2)
    sel = SEL.select(ranked, p)[0]
    assert sel["selected_by"].startswith("measured") and not sel.get("dominated_by")


@needs_engine
def test_selection_at_a_prime(small_rows, model, tmp_path):
    """MiMC over F_65537 (mimcp17), p from the catalog: the sweep at p (odd m coprime to p
    and m = 2^k, a `p` column), the reference plans on powers of two, candidates only among
    the rows at p (the p = 2 rows beside them ignored), plans and the measuring run at p
    (run_cipher decrypts and checks every block), and selected.yaml naming the instance by
    the catalog's p, which the pipeline resolves back to mimcp17."""
    from cbparams import catalog

    p = load_params(dict(SMALL, m_max=4200, ciphers=["mimcp17"], security_target=18, measure_candidates=1,
                         measure_rounds=1))
    assert E.sweep_primes(p) == {65537: [1]}
    rows, cols = E.config_sweep(p)
    assert cols[:2] == ["m", "p"] and {r["p"] for r in rows} == {65537}
    assert {r["m"]: r["d"] for r in rows if r["m"] in (256, 4096)} == {256: 1, 4096: 1}   # 65537 = 1 mod 2^16
    assert SEL.reference_rings("mimcp17") == (512, 8192)
    _, ranked = _selection(rows + small_rows, p, model, tmp_path / "plans", tmp_path / "measured")
    at_p = {r["m"] for r in rows}
    assert ranked and all(int(r["p"]) == 65537 and int(r["m"]) in at_p for r in ranked)
    for r in ranked:
        plan = json.loads(Path(r["plan_file"]).read_text())
        assert plan["params"]["p"] == 65537 and plan["params"]["m"] == int(r["m"])
    measured = [r for r in ranked if r.get("measured_latency_s") not in (None, "")]
    assert measured
    for r in measured:
        doc = json.loads(Path(r["measured_file"]).read_text())
        assert doc["correct"] and doc["wrong_blocks"] == 0 and doc["p"] == 65537 and doc["instance_id"] == "mimcp17"
    (sel,) = SEL.select(ranked, p)
    assert sel["status"] == "ok" and float(sel["helib_bits"]) >= 18 and int(sel["p"]) == 65537
    (exp,) = yaml.safe_load(SEL.selected_yaml([sel]))["experiments"]
    assert exp["p"] == 65537 and exp["cipher"] == "mimc" and exp["name"] == "mimcp17-sel18"
    assert catalog.instance_of(exp) == "mimcp17"
    assert exp["rings"] == [{"m": int(sel["m"]), "bits": int(sel["bits"]), "blocks": int(sel["blocks"])}]


@needs_engine
def test_bit_sliced_is_a_packing_the_selection_compares(model, tmp_path):
    """Bit-sliced AES (one ciphertext per state bit, a block per slot): its rings are the
    sweep's n = 1 rows (any slot field), its estimates come from its own reference plans, and
    a ring it selects is planned and written as a bit-sliced experiment; an instance without
    a bit-sliced form (Vision) is left out of that packing with a note."""
    rows = E.sweep(3, 1100, [1, 8], workers=1)
    p = load_params(dict(SMALL, m_max=1100, field_degrees=[1, 8], ciphers=["aes", "vision8"], security_target=19,
                         packings=["packed", "bit-sliced"]))
    notes = []
    cand = SEL.candidates(rows, p, model, log=notes.append)
    bits = [r for r in cand if r["packing"] == "bit-sliced"]
    assert bits and all(r["cipher"] == "aes" and r["blocks"] == r["slots"] for r in bits)
    assert any(int(r["d"]) % 8 for r in bits)  # rings whose slots hold no GF(2^8)
    assert any("vision8: no bit-sliced form" in n for n in notes)
    assert any("aes bit-sliced: reference plan" in n for n in notes)
    # a bit-sliced chain is its own (longer than packed's at the same ring, from its own plans)
    both = {r["m"] for r in bits} & {r["m"] for r in cand if r["packing"] == "packed" and r["cipher"] == "aes"}
    for m in both:
        est = {r["packing"]: r["est_bits"] for r in cand if r["m"] == m and r["cipher"] == "aes"}
        assert est["bit-sliced"] != est["packed"]
    r = max((r for r in bits if r["plan"]), key=lambda r: (r["est_security"], -r["m"]))
    doc = SEL.plan_one("aes", r["m"], r["hwt"], 19, p, tmp_path / "plan.json", "bit-sliced")
    assert doc["status"] == "ok", doc.get("message")
    assert doc["packing"] == "bit-sliced" and doc["params"]["security"] >= 19
    sel = dict(r, status="ok", bits=doc["plan"]["bits"], c=doc["params"]["c"], rounds=10, helib_bits=20.5,
               coresvp_bits=20.5, predicted_latency_s=1.0, predicted_block_s=0.1, security_source="HElib",
               objective="latency", selected_by="predicted")
    exp = yaml.safe_load(SEL.selected_yaml([sel]))["experiments"][0]
    assert exp["packing"] == "bit-sliced" and exp["name"] == "aes-sel19-bit-sliced"


@pytest.fixture(scope="module")
def selection(small_rows, model, tmp_path_factory):
    """Candidates and ranking at targets 25 (reachable) and 300 (not), plans in a temp dir.
    Two candidates planned per ranking: with one, the rankings of a model fitted on two
    noisy m=257 timings sometimes agree on their first ring, and one ring is planned."""
    p = load_params(dict(SMALL, security_target=[25, 300], plan_candidates=2))
    return (p, *_selection(small_rows, p, model, tmp_path_factory.mktemp("plans")))


@needs_engine
def test_selection_runs_what_it_selects(selection):
    """On a small range: only rings the engine runs are candidates, the ranking is by the
    predicted times, the selected ring reaches the target at the engine's planned chain,
    and selected.yaml asks for that chain."""
    p, cand, ranked = selection
    p = dict(p, security_target=25)
    assert cand and all(int(r["d"]) <= 1024 and int(r["blocks"]) >= 1 for r in cand)
    assert {(int(r["m"]), r["security_target"]) for r in ranked} == {
        (int(r["m"]), float(r["security_target"])) for r in cand if r["plan"] == "1"}
    good = [r for r in ranked if r.get("meets_target")]
    assert good and all(float(r["helib_bits"]) >= 25 for r in good)
    by_latency = sorted(good, key=lambda r: r["rank_latency"])
    assert [r["predicted_latency_s"] for r in by_latency] == sorted(r["predicted_latency_s"] for r in good)
    by_block = sorted(good, key=lambda r: r["rank_block"])
    assert [r["predicted_block_s"] for r in by_block] == sorted(r["predicted_block_s"] for r in good)
    sel = SEL.select(ranked, p)
    assert len(sel) == 1 and sel[0]["status"] == "ok" and sel[0]["rank_latency"] == 1
    r = sel[0]
    plan = json.loads(Path(r["plan_file"]).read_text())
    assert plan["plan"]["bits"] == r["bits"] and plan["params"]["c"] == r["c"]
    exp = yaml.safe_load(SEL.selected_yaml(sel))["experiments"][0]
    assert exp["name"] == "aes-sel25" and exp["rings"] == [{"m": r["m"], "bits": r["bits"], "blocks": r["blocks"]}]
    # that run_cipher runs it at this chain: tests/test_selection_e2e.py (through the pipeline)


@needs_engine
def test_target_unreachable(selection):
    p, _, ranked = selection
    warnings = []
    sel = SEL.select(ranked, p, log=warnings.append)
    assert [r["status"] for r in sel] == ["ok", "unreachable"]
    assert "params.security_target=300" in sel[1]["note"] and "raise params.m_max" in sel[1]["note"]
    assert warnings and warnings[0].startswith("warning: cipher aes: ")
    text = SEL.selected_yaml(sel)
    assert "aes-sel25" in text and "aes-sel300" not in text and "aes at 300 bits: none" in text
    with pytest.raises(SecurityError, match=r"params.security_target=300"):
        SEL.select(ranked, dict(p, strict=True))


@needs_engine
def test_plan_refusal_is_a_result(tmp_path):
    """A ring no c brings to the target: the plan step writes the engine's refusal."""
    p = load_params(SMALL)
    doc = SEL.plan_one("aes", 257, 120, 200, p, tmp_path / "p.json")
    assert doc["status"] == "refused" and "--security-target 200" in doc["message"]
    assert json.loads((tmp_path / "p.json").read_text()) == doc


@needs_engine
def test_one_search_meets_both_models():
    """The engine's one search (run_cipher --security-models helib,coresvp) returns the c
    and weight the former two-pass path gave (HElib's formula's c, then the fewest more
    digits whose chain of the same bits reaches the target by core-SVP too): AES-128, 3
    rounds at m=5917, weight 120, target 32: c=3 by HElib's formula alone (30.4 by
    core-SVP), c=5 by both, 204 bits, as before."""
    from cbparams import chains, planner, security_models
    first = planner.plan("aes", 5917, 120, 3, 32, 7, 3)
    bits = first["plan"]["bits"]
    both = planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=["helib", "coresvp"])

    def lowest(c):
        lq = chains.build_chain(5917, bits, c).log2_Q
        return min(security_models.bits(k, 5917, lq, 120) for k in ("helib", "coresvp"))
    two_pass = next(c for c in range(first["params"]["c"], 17) if lowest(c) >= 32)
    assert first["params"]["c"] == 3 and two_pass == 5
    assert (both["params"]["c"], both["params"]["hwt"], both["plan"]["bits"]) == (two_pass, 120, bits) == (5, 120, 204)
    assert "by HElib's formula and core-SVP (the lowest counts)" in both["plan"]["choice"]


@needs_engine
def test_plan_one_passes_the_models(tmp_path):
    """plan_one asks the one search with the config's models: where no c brings the chain
    to the target by core-SVP (m=257 stays at 11.7 bits), the engine refuses, naming both."""
    p = load_params(dict(SMALL, target_models=["helib", "coresvp"]))
    doc = SEL.plan_one("aes", 257, 120, 20, p, tmp_path / "p.json")
    assert doc["status"] == "refused" and "by HElib's formula and core-SVP" in doc["message"]
    ok = SEL.plan_one("aes", 257, 120, 20, load_params(SMALL), tmp_path / "q.json")
    assert ok["status"] == "ok" and ok["params"]["c"] == 10


def test_unknown_cipher(small_rows):
    p = load_params({"ciphers": ["des"]})
    with pytest.raises(ParamError, match=r"cipher='des' is not in the catalog"):
        SEL.candidates(small_rows, p, {"coef": {}})


def test_removed_settings_are_refused():
    """The depth-profile settings are gone with the profiles: chains are the planner's."""
    for key in ("depth_profiles", "depth_model", "use_measured", "chain_margin_bits"):
        with pytest.raises(ParamError, match=f"'{key}' was unexpected"):
            load_params({key: 1})


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
    p = load_params({})
    rows = SEL.security_table([], p, log=lambda s: None)
    assert [r["m"] for r in rows] == [53261, 163455, 148733, 164737, 164737]
    for r in rows:
        assert r["est_usvp"] == "" and "lattice estimator not found" in r["estimator_note"]
    # HElib's formula on the engine's chain, dense key: within 4 bits of the paper's figures
    # (the special primes differ from HElib's: P is the largest digit + 20 bits, digits of
    # 50-bit primes with IFMA or 60-bit without; m=148733 at 2000 bits: 161.7 against 158.1
    # on an AVX2-only EPYC).
    for r in rows:
        assert abs(float(r["helib_dense_bits"]) - r["paper_bits"]) < 4
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

    class _Estimate:
        def __call__(self, p, deny_list=(), quiet=False):
            assert set(deny_list) == {"arora-gb", "bkw", "bdd_hybrid", "bdd_mitm_hybrid"}
            return {"usvp": {"rop": 2.0 ** 90, "beta": 1}, "dual": {"rop": 2.0 ** 80, "beta": 2},
                    "bkw": {"rop": float("inf")}}

        @staticmethod
        def rough(p, quiet=False):
            return {"usvp": {"rop": 2.0 ** 70, "beta": 3}, "dual_hybrid": {"rop": 2.0 ** 75, "beta": 4}}

    estimate = _Estimate()
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
    assert "bkw" not in f["detail"]                      # an infinite cost is no attack
    r = EST.estimate(1000, 500.0, 120, "rough", where, 60, cache)
    assert r["log2_rop"] == pytest.approx(70) and r["detail"]["best_attack"] == "usvp"


@needs_engine
def test_plan_one_meets_the_estimator_in_the_search(fake_estimator, tmp_path):
    """With estimator in target_models, plan_one fills the table for the ring on its ladder
    (the fake's usvp and dual: 2.56 and 3.56 bits at phi 256, whatever q) and the engine's
    one search meets HElib's formula and the estimator together: AES-128 at m=257, target
    20, reaches it by HElib's formula alone at c=10 (test_plan_one_passes_the_models), but
    not by the estimator's figures, asked only there: refused, naming both. A second call estimates nothing
    (cached)."""
    from cbparams import estimator_table as ET
    est = {"path": str(fake_estimator), "hybrid": False, "mode": "fast", "cache_dir": str(tmp_path / "c")}
    p = load_params(dict(SMALL, target_models=["helib", "estimator"], estimator=est))
    logs = []
    doc = SEL.plan_one("aes", 257, 120, 20, p, tmp_path / "p.json", log=logs.append)
    rows = ET.read(ET.table_path(p["estimator"]))
    lad = ET.ladder(257, 120, 20, ["helib"])
    assert [r["log2_q"] for r in rows] == lad and len(lad) == len(ET.LADDER_STEPS)
    assert {(r["phi"], r["hwt"], r["bits"], r["attack"], r["attacks"]) for r in rows} == {(256, 120, 2.56, "usvp",
                                                                                             "usvp;dual")}
    assert len(logs) == 2 * len(lad)                       # each point's usvp and dual, estimated once
    # HElib's formula alone passes from c=10 (20.0 bits): there the estimator's 2.6 counts.
    assert doc["status"] == "refused" and "by HElib's formula and the lattice estimator (the lowest counts)" \
        in doc["message"] and "c=9: 20.0, c=10: 2.6, c=11: 2.6)" in doc["message"], doc
    logs.clear()
    SEL.plan_one("aes", 257, 120, 20, p, tmp_path / "p.json", log=logs.append)
    assert logs == []
    off = load_params(dict(SMALL, target_models=["helib", "estimator"], estimator=dict(est, mode="off")))
    with pytest.raises(SecurityError, match="params.target_models names estimator but params.estimator.mode is off"):
        SEL.plan_one("aes", 257, 120, 20, off, tmp_path / "q.json")
    with pytest.raises(SecurityError, match="stay at or above 10 bits at every log2 Q"):
        ET.ladder(5917, 120, 10, ["helib", "coresvp"])


def test_security_table_with_estimator(fake_estimator, tmp_path):
    p = load_params({"estimator": {"path": str(fake_estimator), "hybrid": False,
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


FAKE_COSTS = '''
"""A stand-in for the lattice estimator whose log2 costs are COSTS[n][attack] (tests only)."""
COSTS = {costs!r}


class ND:
    SparseTernary = staticmethod(lambda p, m, n: ("T", p, m, n))
    Uniform = staticmethod(lambda a, b, n: ("U", a, b, n))
    DiscreteGaussian = staticmethod(lambda s: ("D", s))


def _cost(p, attack):
    return {{"rop": 2.0 ** COSTS[p["n"]][attack], "beta": 100}}


class LWE:
    Parameters = staticmethod(lambda n, q, Xs, Xe: dict(n=n, q=q, Xs=Xs, Xe=Xe))
    primal_usvp = staticmethod(lambda p: _cost(p, "usvp"))
    dual = staticmethod(lambda p: _cost(p, "dual"))
    primal_hybrid = staticmethod(lambda p, mitm, babai: _cost(p, "hybrid"))
'''


def _fake_with(tmp_path, costs):
    d = tmp_path / "fake" / "estimator"
    d.mkdir(parents=True)
    (d / "__init__.py").write_text(FAKE_COSTS.format(costs=costs))
    return str(d.parent)


@needs_engine
@pytest.mark.parametrize("case", ["hybrid", "dual", "no-hybrid", "error"])
def test_selection_with_estimator(selection, model, tmp_path, case):
    """With the estimator there, a planned ring whose cheapest attack is under the target is
    not ranked (a note says why); the primal hybrid runs on the first ring by the objective,
    then on the next while the first falls under the target by it; the selection says it
    was checked by the estimator. Target 25 on the fixture's first two rings by latency
    (the others, as many as the rankings planned, stay above the target and behind them)."""
    p0, cand, ranked0 = selection
    rows = [r for r in ranked0 if r["status"] == "ok" and r["security_target"] == 25]
    # The stand-in knows a ring by n = phi alone, so of rings sharing phi (m=3977 and 4097:
    # 3840) the one first by latency stays: which of them ranks first moves with the timings.
    seen = set()
    rows = [r for r in sorted(rows, key=lambda r: r["rank_latency"]) if not (int(r["phi"]) in seen or seen.add(int(r["phi"])))]
    cand = [c for c in cand if int(c["phi"]) not in seen or int(c["m"]) in {int(r["m"]) for r in rows}]
    assert len(rows) >= 2, "the fixture plans at least two rings of distinct phi at target 25"
    first, second, *others = rows      # by latency, mode off
    costs = {int(r["phi"]): {"usvp": 50.0 + i, "dual": 51.0 + i, "hybrid": 40.0 + i} for i, r in enumerate(others)}
    costs.update({int(first["phi"]): {"usvp": 40.0, "dual": 41.0, "hybrid": 20.0},
                  int(second["phi"]): {"usvp": 45.0, "dual": 46.0, "hybrid": 30.0}})
    if case == "dual":
        costs[int(first["phi"])]["dual"] = 24.0
    if case == "error":      # dual fails on the first ring (KeyError in the stand-in); its hybrid passes
        costs[int(first["phi"])] = {"usvp": 40.0, "hybrid": 35.0}
    cache = tmp_path / "cache"
    p = dict(p0, security_target=25, estimator={"path": _fake_with(tmp_path, costs), "mode": "fast",
                                                "hybrid": case != "no-hybrid", "timeout_s": 60,
                                                "cache_dir": str(cache)})
    plans = Path(first["plan_file"]).parents[1]
    ranked = {int(r["m"]): r for r in SEL.rank(cand, plans, model, p, log=lambda s: None)
              if r["security_target"] == 25 and r["status"] == "ok"}
    a, b = ranked[int(first["m"])], ranked[int(second["m"])]
    assert (a["est_usvp"], b["est_usvp"]) == (40.0, 45.0)
    assert "lattice-estimator" in a["estimator_source"] and "LWE.primal_usvp" in a["estimator_source"]
    (sel,) = SEL.select(ranked.values(), p)
    hybrids = sorted(json.loads(f.read_text())["n"] for f in cache.glob("*-hybrid-*.json"))
    if case == "no-hybrid":
        assert a["meets_target"] == 1 and a["rank_latency"] == 1 and a["est_hybrid"] == "" and not hybrids
        assert sel["m"] == a["m"] and sel["est_best"] == 40.0 and sel["est_best_attack"] == "usvp"
    elif case == "error":
        assert a["meets_target"] == 1 and a["est_dual"] == "" and "dual failed: " in a["note"]
        assert "that attack is not counted" in a["note"] and hybrids == [int(first["phi"])]
        assert sel["m"] == a["m"] and sel["est_best"] == 35.0 and "ran usvp, hybrid)" in sel["security_source"]
    else:
        assert a["meets_target"] == 0 and "rank_latency" not in a
        why = "hybrid 20.0" if case == "hybrid" else "dual 24.0"
        assert f"below target 25 by the lattice estimator: {why} bits" in a["note"]
        assert b["meets_target"] == 1 and b["rank_latency"] == 1 and b["est_hybrid"] == 30.0
        assert hybrids == (sorted([int(first["phi"]), int(second["phi"])]) if case == "hybrid" else [int(second["phi"])])
        assert sel["m"] == b["m"] and sel["est_best"] == 30.0 and sel["est_best_attack"] == "hybrid"
    assert sel["security_mode"] == "estimator"
    assert sel["security_source"].startswith("target met by the lattice estimator's cheapest attack")
    # a second ranking is answered from the cache: no new estimate
    before = sorted(f.name for f in cache.glob("*.json"))
    SEL.rank(cand, plans, model, p, log=lambda s: None)
    assert sorted(f.name for f in cache.glob("*.json")) == before


@needs_engine
def test_hybrid_checks_each_packings_answer(small_rows, model, tmp_path):
    """With select_per_packing each packing has its own answer, so the primal hybrid runs
    on the first ring of each (not only on the instance's first ring over all packings)."""
    p = load_params(dict(SMALL, packings=["packed", "sliced"], select_per_packing=True))
    cand, ranked0 = _selection(small_rows, p, model, tmp_path / "plans")
    phis = {int(r["phi"]) for r in ranked0 if r["status"] == "ok"}
    costs = {n: {"usvp": 60.0, "dual": 61.0, "hybrid": 50.0} for n in phis}
    p = dict(p, estimator={"path": _fake_with(tmp_path, costs), "mode": "fast", "hybrid": True,
                           "timeout_s": 60, "cache_dir": str(tmp_path / "cache")})
    ranked = SEL.rank(cand, tmp_path / "plans", model, p, log=lambda s: None)
    col = {"latency": "rank_latency", "block": "rank_block", "balanced": "rank_balanced"}[p["objective"]]
    firsts = [r for r in ranked if r.get(col) == 1]
    assert sorted(r["packing"] for r in firsts) == ["packed", "sliced"]
    assert all(r["est_hybrid"] == 50.0 for r in firsts)
    assert all(r["est_hybrid"] == "" for r in ranked if r.get(col, 0) > 1)


@needs_engine
def test_selection_says_helib_without_estimator(selection, model, monkeypatch):
    """The estimator asked for (mode fast) but absent: the selection is by HElib's formula,
    and says so and why."""
    monkeypatch.setattr(EST, "locate", lambda path="": EST.Located(False, "", "lattice estimator not found (test)"))
    p0, cand, ranked0 = selection
    p = dict(p0, security_target=25, estimator=dict(p0["estimator"], mode="fast"))
    plans = Path(ranked0[0]["plan_file"]).parents[1]
    notes = []
    ranked = SEL.rank(cand, plans, model, p, log=notes.append)
    assert "note: lattice estimator not found (test); the selection uses helib only" in notes
    (sel,) = SEL.select(ranked, p)
    assert sel["security_mode"] == "HElib formula" and sel["est_best"] == ""
    assert sel["security_source"] == ("target met by HElib's formula; lattice estimator: not run "
                                      "(lattice estimator not found (test))")


def test_run_security_rows_take_each_runs_own_chain_and_key(tmp_path, monkeypatch):
    """run-security (tidy/run_security.csv): one row per chain and key the engine ran with every
    block right, with the run's own log2(Q P), digits, key weight and HElib figure (not the
    config's hwt, not a chain rebuilt); core-SVP of that modulus; runs that failed, HElib's,
    and repeats of a chain add no row; the estimator is asked for the run's key weight."""
    def run(name, m, bits, c, hwt, lq, sec, correct=True, backend="bgv"):
        doc = {"cipher": "aes128", "instance_id": "aes", "backend": backend, "correct": correct,
               "params": {"m": m, "phi": 46080, "bits": bits, "c": c, "hwt": hwt, "log2_q": lq, "security": sec}}
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc))
        return str(path)

    paths = [run("a", 53261, 720, 3, 150, 989.8243, 138.5066), run("a2", 53261, 720, 3, 150, 989.8243, 138.5066),
             run("b", 53261, 692, 3, 150, 961.93, 142.18, correct=False), run("h", 53261, 820, 3, 0, 1100.0, 140.0,
                                                                              backend="helib")]
    p = load_params({"hwt": 120, "security_target": 128})
    configs = SEL.run_configs(paths, p)
    assert configs == [{"source": "run", "cipher": "aes", "m": 53261, "phi": 46080, "bits": 720, "c": 3, "hwt": 150,
                        "log2_q": 989.824, "helib_bits": 138.507, "paper_bits": "", "security_target": 128.0}]
    asked = []

    def fake_estimate(n, log2_q, hwt, attack, where, timeout_s, cache_dir, sigma=3.2):
        asked.append((n, log2_q, hwt, attack))
        return {"status": "ok", "log2_rop": 140.0 + len(asked), "note": f"{attack} fake", "commit": "0"}

    monkeypatch.setattr(EST, "locate", lambda path="": EST.Located(True, "/nowhere", "fake"))
    monkeypatch.setattr(EST, "estimate", fake_estimate)
    (row,) = SEL.security_rows(configs, p, log=lambda s: None)
    assert (row["hwt"], row["log2_q"], row["helib_bits"]) == (150, 989.824, 138.507)
    assert row["coresvp_bits"] == round(SEL._coresvp(46080, 989.824, 150), 1) and row["log2_q_ct"] == ""
    assert {a[2] for a in asked} == {150} and "hybrid" in {a[3] for a in asked}
    assert row["est_best"] == 141.0 and not row["below_target"]
