"""analysis/thread_scaling.py: the Amdahl fit per step, and the runs it refuses."""

import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from analysis import thread_scaling as TS  # noqa: E402


def record(threads, a=0.5, b=8.0, correct=True, m=53261):
    """A run whose step 'automorph' takes a + b / T and 'mod_switch' 1 + 3 / T seconds."""
    steps = {"automorph": a + b / threads, "mod_switch": 1.0 + 3.0 / threads}
    total = sum(steps.values()) + 0.1
    return {"threads": threads, "correct": correct, "wrong_blocks": 0 if correct else 3, "cipher": "aes128",
            "instance": "GF(2^8)^16", "packing": "packed", "linear": "separate", "blocks": 120, "rounds": 10,
            "params": {"m": m, "bits": 708, "c": 3, "hwt": 120},
            "timings": {"total_s": total, "total_cpu_s": total * threads, "setup_s": 1.0, "keygen_s": 0.5,
                        "plan_s": 0.0, "process_s": total + 1.2},
            "op_profile": [{"op": op, "primes": 10, "dropped": 0, "count": 5, "seconds": s} for op, s in steps.items()]}


def test_fit_recovers_serial_and_parallel_parts():
    s = TS.summarize([record(t) for t in (1, 2, 4, 8, 16)])
    fit = {f["step"]: f for f in s["steps"]}
    assert fit["automorph"]["a_s"] == pytest.approx(0.5) and fit["automorph"]["b_s"] == pytest.approx(8.0)
    assert fit["mod_switch"]["serial_fraction"] == pytest.approx(0.25)
    assert s["rows"][-1]["speedup"] == pytest.approx(s["rows"][0]["rounds_s"] / s["rows"][-1]["rounds_s"])
    assert sum(f["serial_share"] for f in s["steps"]) == pytest.approx(1.0)
    text = TS.markdown(s)
    assert "| automorph |" in text and "serial fraction" in text


def test_refuses_unchecked_runs_and_mixed_circuits(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record(2, correct=False)))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record(1)))
    assert TS.main([str(good), str(bad)]) == 2
    with pytest.raises(TS.BadRun, match="correct=False, wrong_blocks=3"):
        TS.load(str(bad))
    with pytest.raises(TS.BadRun, match="2 different circuits"):
        TS.summarize([record(1), record(2, m=4369)])
    plan = tmp_path / "plan_t4.json"
    plan.write_text(json.dumps({"plan": {"seconds": 2.5}}))
    out = tmp_path / "s.md"
    assert TS.main([str(good), "--plans", str(plan), "--markdown", str(out)]) == 0
    assert "4 thr 2.50 s" in out.read_text()
    with pytest.raises(TS.BadRun, match="named plan_t<threads>.json"):
        TS.plan_seconds(str(good))


def test_lanes_rows_are_thread_seconds():
    """A sliced run's steps in lanes (plan op_counts with lanes > 1) are the lanes' summed
    times: the table says so and fits the rounds alone."""
    recs = [dict(record(t), plan={"op_counts": [{"op": "automorph", "primes": 10, "dropped": 0, "count": 5,
                                                 "lanes": 16}]}) for t in (2, 4)]
    s = TS.summarize(recs)
    assert s["lanes"] == 16
    text = TS.markdown(s)
    assert "thread-seconds" in text and "serial a s" not in text and "Rounds, fitted" in text
