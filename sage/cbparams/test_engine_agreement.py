"""The engine's batch answers (zmstar_info, chain_info) against the ring and chain the engine
actually builds for a run (bench_ops; skipped when it is not built): the explorer's facts
must be those of the runs, exactly."""
import json
import subprocess

import pytest

from cbparams.chains import build_chain
from cbparams.config import ROOT
from cbparams.cyclotomic import ring_facts

BENCH_OPS = ROOT / "build" / "bin" / "bench_ops"


@pytest.mark.skipif(not BENCH_OPS.exists(), reason="engine not built (make build)")
@pytest.mark.parametrize("m, bits, c", [(771, 300, 2), (257, 200, 2)])
def test_matches_engine(m, bits, c, tmp_path):
    out = tmp_path / "ops.json"
    subprocess.run([str(BENCH_OPS), "--m", str(m), "--bits", str(bits), "--c", str(c), "--reps", "1",
                    "--seed", "1", "--json", str(out), "--quiet"], check=True, timeout=300)
    eng = json.loads(out.read_text())
    r = ring_facts(m)
    assert [(x["gen"], x["ord"], x["good"]) for x in eng["dims"]] == list(zip(r.gens, r.ords, r.good))
    assert (eng["phi"], eng["d"], eng["slots"]) == (r.phi, r.d, r.ell)
    ch = build_chain(m, bits, c)
    assert (eng["primes"]["ciphertext"], eng["primes"]["special"]) == (ch.L - ch.S, ch.K)
    assert eng["log2_q_ct"] == pytest.approx(ch.log2_q_ct, abs=1e-9)
    assert eng["log2_q"] == pytest.approx(ch.log2_Q, abs=1e-9)


@pytest.mark.skipif(not BENCH_OPS.exists(), reason="engine not built (make build)")
def test_slot_degree_limit_is_the_engines(tmp_path):
    """cyclotomic.D_LIMIT (the engine's answer): the engine builds the slots of m=53261 (d=24)
    and refuses those of m=119941 (d=1656 > 1024), which zmstar_info marks slots_ok=False,
    so the selection must skip such rings."""
    from cbparams.cyclotomic import D_LIMIT
    from cbparams.runner import ring_info

    assert "slot_field" in ring_info(53261)
    assert ring_facts(119941).d > D_LIMIT
    info = ring_info(119941)
    assert "slot_field" not in info and f"> {D_LIMIT}" in info["slot_field_error"]
    assert ring_facts(53261).slots_ok and not ring_facts(119941).slots_ok


@pytest.mark.skipif(not BENCH_OPS.exists(), reason="engine not built (make build)")
def test_candidates_skip_rings_the_engine_cannot_run():
    from cbparams import cost_model
    from cbparams.cyclotomic import D_LIMIT
    from cbparams.config import load_params
    from cbparams.enumerate import sweep
    from cbparams.select import candidates

    rows = sweep(119000, 121000, [8], workers=1)
    assert any(r["d"] > D_LIMIT for r in rows)
    one = cost_model.Ring(n=1, T=1, S=1, K=1)
    free = {"features_version": cost_model.FEATURES_VERSION,
            "fits": {"1": {op: [0.0] * len(cost_model.features(op, one, 1, 1)) for op in cost_model.OPS}}}
    cand = candidates(rows, load_params({"ciphers": ["aes"], "security_target": 0}), free, log=lambda s: None)
    assert cand and all(r["d"] <= D_LIMIT for r in cand)
