"""cbparams.estimator_table: the table written from a fake estimator cache (the files
cbparams.estimator.estimate writes), read back, answered as the engine answers, and read
by the engine itself (run_cipher --security-models helib,coresvp,estimator, when built).
The real estimator's end-to-end run is test_estimator_table_real (opt-in: skipped without
a clone)."""
import json
import os

import pytest

from cbparams import estimator as EST
from cbparams import estimator_table as T
from cbparams import planner, runner
from cbparams.errors import EstimatorMissing, SecurityError

COMMIT = "27a581b"


def cached(d, n, log2_q, hwt, attack, log2_rop, commit=COMMIT, status="ok", sigma=3.2, detail=None):
    """One cache file as estimator.estimate writes it."""
    rec = {"status": status, "log2_rop": log2_rop if status == "ok" else None, "beta": 400, "detail": detail or {},
           "n": n, "log2_q": log2_q, "hwt": hwt, "attack": attack, "sigma": sigma, "commit": commit,
           "timeout_s": 900}
    key = EST.cache_key(n, log2_q, hwt, attack, sigma, commit)
    (d / f"{key}.json").write_text(json.dumps(rec))


@pytest.fixture
def cache(tmp_path):
    d = tmp_path / "cache"
    d.mkdir()
    cached(d, 5760, 280.0, 120, "usvp", 90.5)
    cached(d, 5760, 280.0, 120, "dual", 88.25)        # the cheaper: the point's figure
    cached(d, 5760, 260.0, 120, "usvp", 95.0)
    cached(d, 5760, 260.0, 120, "dual", 97.0)
    cached(d, 5760, 300.0, 120, "usvp", 80.0)         # dual missing: no point
    cached(d, 5760, 320.0, 120, "usvp", 70.0)
    cached(d, 5760, 320.0, 120, "dual", None, status="timeout")  # a timeout: no point
    cached(d, 5760, 240.0, 120, "usvp", 99.0, commit="0000000")  # another commit: not this table's
    cached(d, 5760, 240.0, 120, "dual", 99.0, commit="0000000")
    cached(d, 5760, 280.0, 0, "full", 91.0, detail={"usvp": 93.0, "dual_hybrid": 91.0, "best_attack": "dual_hybrid"})
    return d


def test_rows_from_cache(cache):
    rows = T.rows_from_cache(cache, ("usvp", "dual"), COMMIT)
    assert [(r["phi"], r["hwt"], r["log2_q"], r["bits"], r["attack"]) for r in rows] == [
        (5760, 120, 260.0, 95.0, "usvp"), (5760, 120, 280.0, 88.25, "dual")]
    assert {r["attacks"] for r in rows} == {"usvp;dual"} and {r["commit"] for r in rows} == {COMMIT}
    assert {r["sigma"] for r in rows} == {3.2}
    full = T.rows_from_cache(cache, ("full",), COMMIT)
    assert [(r["hwt"], r["bits"], r["attack"]) for r in full] == [(0, 91.0, "full:dual_hybrid")]
    assert T.rows_from_cache(cache, ("usvp", "dual"), "0000000")[0]["log2_q"] == 240.0


def test_write_read_and_answer(cache, tmp_path):
    path = T.write(tmp_path / "t" / "table.csv", T.rows_from_cache(cache, ("usvp", "dual"), COMMIT))
    text = path.read_text().splitlines()
    assert text[0] == ",".join(T.COLUMNS) == "phi,hwt,sigma,log2_q,bits,attack,attacks,commit"
    assert text[1] == "5760,120,3.2,260.0,95.0,usvp,usvp;dual,27a581b"
    rows = T.read(path)
    assert T.figure(rows, 5760, 120, 250) == 95.0       # below the lowest point: its figure
    assert T.figure(rows, 5760, 120, 260.5) == 88.25    # the next point up
    assert T.figure(rows, 5760, 120, 280.5) is None     # above the table: no figure
    assert T.figure(rows, 5760, 150, 250) is None       # another weight


def test_refusals(cache, tmp_path):
    with pytest.raises(SecurityError, match=r"attacks=\['nope'\]: name one or more of usvp, dual"):
        T.rows_from_cache(cache, ("nope",), COMMIT)
    missing = EST.Located(False, "", "lattice estimator not found")
    with pytest.raises(EstimatorMissing, match="lattice estimator not found"):
        T.fill(5760, 120, [280], tmp_path / "t.csv", missing, {"timeout_s": 1, "cache_dir": str(cache)})


def test_ladder_is_the_other_models_bound():
    """Q* is where the other models' lowest figure crosses the target; the ladder is Q*
    rounded up and points 3% apart under it."""
    from cbparams import security_models as SM
    q = T.bound(5917, 120, 32, ["helib", "coresvp", "estimator"])
    assert min(SM.bits(k, 5917, q, 120) for k in ("helib", "coresvp")) >= 32
    assert min(SM.bits(k, 5917, q + 0.02, 120) for k in ("helib", "coresvp")) < 32
    lad = T.ladder(5917, 120, 32, ["helib", "coresvp", "estimator"])
    assert lad[-1] == int(-(-q // 1)) and len(lad) == len(T.LADDER_STEPS) and lad == sorted(lad)
    assert T.ladder(257, 120, 128, ["helib", "estimator"]) == []   # no log2 Q reaches 128 at m=257


needs_engine = pytest.mark.skipif(not (runner.build_dir() / "bin" / "run_cipher").exists(),
                                  reason="engine not built (make build)")


@needs_engine
def test_engine_reads_the_table(tmp_path):
    """AES-128, 3 rounds at m=5917 (phi 5760), weight 120, target 32: HElib's formula and
    core-SVP alone choose c=5 (log2 Q 277.9); a table whose figure at 280 is 31 (under the
    target) and at 290 is 40 makes the one search refuse c=5 and name the estimator; one
    whose figure at 280 is 33 keeps c=5; and a table without the point is refused, naming
    it and the fill command."""
    def table(points):
        rows = [{"phi": 5760, "hwt": 120, "sigma": 3.2, "log2_q": q, "bits": b, "attack": "usvp",
                 "attacks": "usvp;dual", "commit": COMMIT} for q, b in points]
        return T.write(tmp_path / f"t{len(points)}-{points[0][1]}.csv", rows)
    models = ["helib", "coresvp", "estimator"]
    ok = planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=models, estimator_table=table([(280, 33.0)]))
    assert (ok["params"]["c"], ok["plan"]["bits"]) == (5, 204)
    assert "by HElib's formula, core-SVP and the lattice estimator (the lowest counts)" in ok["plan"]["choice"]
    with pytest.raises(runner.RunError, match=r"reach at most 31.0 bits by HElib's formula, core-SVP and the "
                                               r"lattice estimator"):
        planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=models, estimator_table=table([(280, 31.0)]))
    with pytest.raises(runner.RunError, match=r"has no figure for phi=5760, hwt=120, sigma=3.2 at log2 Q >= 277.881 "
                                               r"\(its largest log2 Q there is 270\): fill it with `python -m "
                                               r"cbparams.estimator_table fill --phi 5760 --hwt 120 --sigma 3.2 "
                                               r"--log2-q 278 --table "):
        planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=models, estimator_table=table([(270, 50.0)]))


REAL = os.environ.get("CB_LATTICE_ESTIMATOR", "") or (
    str(EST.DEFAULT_DIR) if (EST.DEFAULT_DIR / "estimator" / "__init__.py").exists() else "")


@needs_engine
@pytest.mark.skipif(not REAL, reason="no lattice estimator: run `make estimator` (or set CB_LATTICE_ESTIMATOR "
                                     "to a clone); opt-in, about a minute")
def test_estimator_table_real(tmp_path):
    """End to end with the real estimator: AES-128, 3 rounds at m=5917 (phi 5760), weight
    120, target 32. The ring's ladder is estimated (usvp and dual, ten estimates of seconds
    each), the table written, and the engine's one search meets HElib's formula, core-SVP
    and the estimator: never fewer digits than the first two alone (c=5), and the table's
    figure at the chosen chain reaches the target; the estimator run at that exact chain
    agrees (at least the figure tabulated at the larger log2 Q above it)."""
    est = {"path": REAL, "mode": "fast", "timeout_s": 600, "cache_dir": str(tmp_path / "cache")}
    models, table = T.search_models(["helib", "coresvp", "estimator"], 5917, 120, 32, est, log=lambda s: None)
    rows = T.read(table)
    assert [r["log2_q"] for r in rows] == T.ladder(5917, 120, 32, ["helib", "coresvp"])
    assert {r["commit"] for r in rows} == {EST.commit_of(EST.locate(REAL))} and {r["attacks"] for r in rows} == {
        "usvp;dual"}
    assert all(a["bits"] >= b["bits"] for a, b in zip(rows, rows[1:]))   # falls as log2 Q grows
    doc = planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=models, estimator_table=table)
    both = planner.plan("aes", 5917, 120, 3, 32, 7, 3, models=["helib", "coresvp"])
    assert doc["params"]["c"] >= both["params"]["c"] == 5
    tabulated = T.figure(rows, 5760, 120, doc["params"]["log2_q"])
    assert tabulated >= 32
    exact = [EST.estimate(5760, doc["params"]["log2_q"], 120, a, EST.locate(REAL), 600, tmp_path / "cache")
             for a in ("usvp", "dual")]
    assert min(e["log2_rop"] for e in exact) >= tabulated - 0.5
