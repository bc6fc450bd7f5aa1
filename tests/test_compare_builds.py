"""scripts/compare_builds.py (p = 2 before and after a change): what it leaves out of a
record (timings, memory, the p field older builds lack) and what it keeps (plans, capacities,
outputs), and its refusal of a build without run_cipher."""

import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "compare_builds.py")
spec = importlib.util.spec_from_file_location("compare_builds", SCRIPT)
compare_builds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_builds)

RECORD = {
    "params": {"m": 4369, "bits": 614, "p": 2},
    "timings": {"total_s": 1.7},
    "plan": {"bits": 614, "round_capacity_bits": [532.78, 480.1], "seconds": 0.4},
    "per_round": [{"round": 1, "capacity_bits": 532.78, "ops": {"subbytes": 0.12}, "counts": {"mul": 4}}],
    "subkeys": {"ciphertexts": 11, "why": "about 0.0 GB, against 23.2 GB available"},
    "ciphertext_hex": "7efd28d8",
    "peak_rss_mb": 410.0,
}


def test_repetition_noise_is_left_out():
    other = {**RECORD, "timings": {"total_s": 2.9}, "peak_rss_mb": 388.0,
             "per_round": [{**RECORD["per_round"][0], "ops": {"subbytes": 0.04}}],
             "subkeys": {"ciphertexts": 11, "why": "about 0.0 GB, against 24.3 GB available"},
             "params": {"m": 4369, "bits": 614}}
    assert compare_builds.comparable(RECORD) == compare_builds.comparable(other)


def test_plans_capacities_and_outputs_are_kept():
    for change in ({"plan": {**RECORD["plan"], "round_capacity_bits": [532.78, 480.2]}},
                   {"per_round": [{**RECORD["per_round"][0], "capacity_bits": 532.7}]},
                   {"ciphertext_hex": "7efd28d9"},
                   {"params": {**RECORD["params"], "bits": 615}}):
        assert compare_builds.comparable(RECORD) != compare_builds.comparable({**RECORD, **change}), change


def test_refuses_a_build_without_run_cipher(tmp_path):
    res = subprocess.run([sys.executable, SCRIPT, str(tmp_path), str(tmp_path)], capture_output=True, text=True)
    assert res.returncode != 0
    assert f"{tmp_path}/bin/run_cipher: no such file" in res.stderr
