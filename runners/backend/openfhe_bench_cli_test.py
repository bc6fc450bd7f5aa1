"""bench_ops --backend openfhe from the outside (runners/backend/openfhe_bench.h): OpenFHE's
BGV on a small power-of-two ring at p = 65537, every operation checked by decryption, and
the refusals. Opt-in: skipped with the reason unless bench_ops was built with
-DCB_OPENFHE_DIR (`make openfhe`); the binaries live in $CB_OPENFHE_BUILD (default
build-openfhe/ in the repository).
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OPENFHE_BUILD = Path(os.environ.get("CB_OPENFHE_BUILD", REPO / "build-openfhe"))
BENCH_OPS = OPENFHE_BUILD / "bin" / "bench_ops"


def _has_openfhe_backend():
    if not BENCH_OPS.exists():
        return False
    help_text = subprocess.run([str(BENCH_OPS), "--help"], capture_output=True, text=True).stdout
    return "openfhe" in help_text


pytestmark = pytest.mark.skipif(
    not _has_openfhe_backend(),
    reason=f"OpenFHE backend not built ({BENCH_OPS} missing or built without -DCB_OPENFHE_DIR): "
           "install OpenFHE v1.5.1 in .deps/openfhe and run `make openfhe`")

OPS = ["encrypt", "decrypt", "add", "mul_relin", "mul_const", "rotate_dim0", "rotate", "mod_switch", "add_mixed"]


def bench(tmp_path, *args, threads="1"):
    out = tmp_path / "ops.json"
    proc = subprocess.run([str(BENCH_OPS), "--backend", "openfhe", "--quiet", "--json", str(out), *args],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ, OMP_NUM_THREADS=threads))
    return proc, out


def test_small_ring_every_operation_checked(tmp_path):
    proc, out = bench(tmp_path, "--m", "4096", "--bits", "180", "--c", "2", "--p", "65537", "--reps", "2")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["backend"] == "openfhe" and d["correct"] is True
    assert (d["m"], d["phi"], d["slots"], d["d"], d["p"], d["c"]) == (4096, 2048, 2048, 1, 65537, 2)
    # Every operation timed and checked by decryption, with its process CPU time.
    assert all(d["checked"][op] for op in OPS), d["checked"]
    assert all(d[op + "_ms"] > 0 and op in d["cpu_ms"] for op in OPS)
    assert d["keygen_s"] > 0 and d["keygen_keys"] == 2 and d["threads"] == 1 and d["reps"] == 2
    # 180 bits: three 60-bit primes at most, log2 Q a fraction of a bit below.
    assert 179 < d["log2_q_ct"] <= 180 and len(d["openfhe"]["ciphertext_prime_bits"]) == 3
    assert d["log2_p"] > 0 and d["log2_q"] == pytest.approx(d["log2_q_ct"] + d["log2_p"])
    assert d["op_primes"]["fresh"] == 3 and d["op_primes"]["mod_switch"] == 2 and d["op_primes"]["add_mixed_to"] == 2
    o = d["openfhe"]
    assert o["version"] == "1.5.1" and o["tag"] == "v1.5.1"
    assert (o["scheme"], o["scaling"], o["key_switching"], o["num_large_digits"]) == ("BGVRNS", "FIXEDMANUAL", "HYBRID", 2)
    assert o["secret_key"] == "UNIFORM_TERNARY" and o["security_level"] == "HEStd_NotSet"
    assert [g["gen"] for g in d["dims"]] == [5, 4095] and [g["ord"] for g in d["dims"]] == [1024, 2]


def test_cost_ops_skips_rotations(tmp_path):
    proc, out = bench(tmp_path, "--m", "2048", "--bits", "120", "--c", "2", "--reps", "1", "--cost-ops")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["p"] == 65537 and d["keygen_keys"] == 0 and "rotate_ms" not in d and d["checked"]["mul_relin"]


@pytest.mark.parametrize("args, message", [
    (["--m", "4369", "--bits", "200"], "--m 4369: OpenFHE's BGV takes power-of-two cyclotomics only"),
    (["--m", "4096", "--bits", "200", "--p", "65535"], "--p 65535 is not an odd prime"),
    (["--m", "4096", "--bits", "200", "--p", "257"], "--p 257 = 257 mod m=4096"),
    (["--m", "4096", "--bits", "200", "--p", "8088322049"], "--p 8088322049 >= 2^32"),
    (["--m", "4096", "--bits", "30", "--c", "1"], "--bits 30: 1 primes of about 30 bits cannot be 1 mod m t"),
    (["--m", "4096", "--bits", "200", "--c", "0"], "--c 0 must be at least 1"),
    (["--m", "4096", "--bits", "120", "--c", "3"], "--c 3: 2 ciphertext primes at --bits 120 cannot form 3 digits"),
    (["--m", "4096", "--bits", "200", "--info-only"], "--info-only reports the engine's chain"),
])
def test_refusals_name_the_value(tmp_path, args, message):
    proc, out = bench(tmp_path, *args)
    assert proc.returncode == 1 and message in proc.stderr, proc.stderr
    assert not out.exists()


def test_the_engine_runs_beside_it_at_the_same_ring_and_p(tmp_path):
    """The side by side of BENCHMARKS.md: the same binary, the same N, p and 180 bits, each
    backend's every operation checked."""
    runs = {}
    for backend in ("openfhe", "bgv"):
        out = tmp_path / f"{backend}.json"
        proc = subprocess.run([str(BENCH_OPS), "--backend", backend, "--m", "4096", "--bits", "180", "--c", "2",
                               "--p", "65537", "--hwt", "0", "--reps", "1", "--quiet", "--json", str(out)],
                              capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
        assert proc.returncode == 0, proc.stderr
        runs[backend] = json.loads(out.read_text())
    for d in runs.values():
        assert d["correct"] is True and (d["m"], d["phi"], d["p"], d["slots"]) == (4096, 2048, 65537, 2048)
        assert 179 < d["log2_q_ct"] <= 180.5
        assert all(d[op + "_ms"] > 0 for op in OPS)