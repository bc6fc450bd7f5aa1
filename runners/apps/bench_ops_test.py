"""CLI tests of bench_ops: every refused input gives a message naming the value and the
constraint, exit status 1, no JSON, and nothing computed (each refusal returns in well
under a second; a run on the same ring takes longer). The table of refused inputs is in
docs/refused_inputs.md.

The binary is $CB_BUILD/bin/bench_ops (CB_BUILD defaults to build/ in the repository).
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("CB_BUILD", REPO / "build"))
BIN = BUILD / "bin" / "bench_ops"

pytestmark = pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")


def run(*args, json_path):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return subprocess.run([str(BIN), *map(str, args), "--json", str(json_path), "--quiet"],
                          capture_output=True, text=True, timeout=120, env=env)


REFUSED = [
    # (arguments, --json, message)
    (["--m", 257, "--bits", 200], "/nonexistent/ops.json",
     "bench_ops: --json /nonexistent/ops.json: cannot write it (No such file or directory)"),
    (["--m", 257, "--bits", 200], "{tmp}", "bench_ops: --json {tmp}: cannot write it (Is a directory)"),
    (["--m", 257, "--bits", 200, "--bits", 300], "{tmp}/ops.json",
     "bench_ops: --bits given 2 times (200, 300): bench_ops measures one parameter set; run it once per value"),
    (["--m", 257, "--m", 641, "--bits", 300], "{tmp}/ops.json", "bench_ops: --m given 2 times (257, 641)"),
    (["--m", 257, "--bits", -5], "{tmp}/ops.json", "bench_ops: bits=-5 is too small: the chain needs at least 20 bits"),
    (["--m", 258, "--bits", 200], "{tmp}/ops.json", "bench_ops: m=258 is even: the ring needs odd m"),
    (["--m", 256, "--bits", 200], "{tmp}/ops.json",
     "bench_ops: m=256 is a power of two and p=2: no slots, Phi_m = X^128 + 1 = (X + 1)^128 mod 2; the ring at "
     "p=2 needs odd m"),
    (["--m", 257, "--bits", 200, "--hwt", 50], "{tmp}/ops.json",
     "bench_ops: --hwt 50: HElib's security formula rates key weights 1 to 119 at 0 bits; use 0 (dense) or "
     "at least 120, or --allow-insecure"),
    (["--m", 257, "--bits", 200, "--hwt", -3], "{tmp}/ops.json", "bench_ops: --hwt -3 is negative"),
    (["--m", 257, "--bits", 200, "--hwt", 300], "{tmp}/ops.json",
     "bench_ops: hwt=300 must be 0 (dense) or in [1, phi=256]"),
    (["--m", 257, "--bits", 200, "--c", 0], "{tmp}/ops.json", "bench_ops: c=0: key switching needs at least 1 digit"),
    (["--m", 257, "--bits", 200, "--reps", 0], "{tmp}/ops.json", "bench_ops: --reps=0 must be at least 1"),
    (["--m", 257, "--bits", 200, "--field-bits", 12], "{tmp}/ops.json",
     "bench_ops: --field-bits=12 must be a field degree of the catalog's ciphers (8, 16, 32, 64"),
    (["--m", 257, "--bits", 200, "--field-bits", 64], "{tmp}/ops.json",
     "bench_ops: m=257 has slots GF(2^16): GF(2^64) needs 64 | d"),
    (["--m", 241, "--bits", 200, "--p", 15], "{tmp}/ops.json", "bench_ops: p=15: a prime field F_p needs an odd prime p < 2^61 (p is not prime)"),
    (["--m", 255, "--bits", 200, "--p", 17], "{tmp}/ops.json", "bench_ops: p=17 divides m=255"),
]


@pytest.mark.parametrize("args, json_path, message", REFUSED, ids=[" ".join(map(str, r[0][2:])) or r[1] for r in REFUSED])
def test_refused(tmp_path, args, json_path, message):
    json_path = json_path.format(tmp=tmp_path)
    proc = run(*args, json_path=json_path)
    assert proc.returncode == 1, proc.stderr
    assert message.format(tmp=tmp_path) in proc.stderr
    assert not (tmp_path / "ops.json").exists()


def test_allow_insecure_marks_the_result(tmp_path):
    out = tmp_path / "chain.json"
    proc = run("--m", 257, "--bits", 200, "--hwt", 50, "--allow-insecure", "--info-only", json_path=out)
    assert proc.returncode == 0, proc.stderr
    chain = json.loads(out.read_text())
    assert chain["hwt"] == 50 and chain["security"] == 0 and chain["insecure_key"] is True


def test_checked_run_writes_json(tmp_path):
    out = tmp_path / "ops.json"
    proc = run("--m", 257, "--bits", 200, "--reps", 1, "--hwt", 120, json_path=out)
    assert proc.returncode == 0, proc.stderr
    ops = json.loads(out.read_text())
    assert ops["correct"] is True and ops["hwt"] == 120 and "insecure_key" not in ops


def test_records_which_transform_each_prime_uses(tmp_path):
    """m=1105 = 5*13*17 takes the prime-factor transform on IFMA moduli (a third less work
    than Bluestein), m=257 Bluestein's; either way every prime is counted once."""
    for m, bits in ((257, 200), (1105, 300)):
        out = tmp_path / f"ops{m}.json"
        proc = run("--m", m, "--bits", bits, "--reps", 1, "--hwt", 120, json_path=out)
        assert proc.returncode == 0, proc.stderr
        ops = json.loads(out.read_text())
        assert ops["correct"] is True
        assert set(ops["transforms"]) <= {"bluestein", "prime_factor"}
        assert sum(ops["transforms"].values()) == sum(ops["primes"].values())
        if m == 257:
            assert set(ops["transforms"]) == {"bluestein"}


@pytest.mark.parametrize("m, p, hwt, d, slots", [(256, 65537, 120, 1, 128), (241, 17, 0, 80, 3)])
def test_the_engine_at_a_prime_p(tmp_path, m, p, hwt, d, slots):
    """--p runs the engine at a prime plaintext modulus: F_p slot values, every operation
    checked against F_p arithmetic; no Frobenius map to time when d = 1 (m = 2^k, p = 1 mod m)."""
    out = tmp_path / "ops.json"
    proc = run("--m", m, "--bits", 150, "--c", 2, "--hwt", hwt, "--p", p, "--reps", 1, json_path=out)
    assert proc.returncode == 0, proc.stderr
    j = json.loads(out.read_text())
    assert (j["p"], j["d"], j["slots"], j["correct"]) == (p, d, slots, True)
    for op in ("encrypt", "decrypt", "add", "mul_relin", "mul_const", "rotate_dim0", "rotate", "mod_switch"):
        assert j[op + "_ms"] > 0
    assert ("frobenius_ms" in j) == (d > 1)


def check_sizes(j):
    """The "sizes" object (apps/record_sizes.h) is whole and adds up."""
    s = j["sizes"]
    for k in ("public_key_bytes", "eval_key_bytes", "eval_keys", "relin_key_bytes", "automorphism_key_bytes",
              "automorphism_keys", "fresh_ciphertext_bytes", "output_ciphertext_bytes", "plaintext_bits",
              "expansion", "fresh_expansion", "counted"):
        assert k in s, k
    assert s["public_key_bytes"] > 0 and s["relin_key_bytes"] > 0
    assert s["eval_keys"] == s["automorphism_keys"] + 1
    assert s["eval_key_bytes"] == s["relin_key_bytes"] + s["automorphism_key_bytes"]
    assert 0 < s["output_ciphertext_bytes"] <= s["fresh_ciphertext_bytes"]
    assert s["expansion"] == pytest.approx(8 * s["output_ciphertext_bytes"] / s["plaintext_bits"])
    assert s["fresh_expansion"] == pytest.approx(8 * s["fresh_ciphertext_bytes"] / s["plaintext_bits"])
    return s


def test_sizes_of_keys_and_ciphertexts(tmp_path):
    """m=256 at p=65537: 128 slots of 16.00002 bits; every key and the fresh ciphertext at the
    Q ciphertext primes (2 Q limbs of phi words), each key 2 c (Q + K) limbs, and the depth-2
    output a leveled ciphertext, smaller than the fresh one by whole limbs."""
    out = tmp_path / "ops.json"
    proc = run("--m", 256, "--bits", 150, "--c", 2, "--hwt", 120, "--p", 65537, "--reps", 1, json_path=out)
    assert proc.returncode == 0, proc.stderr
    j = json.loads(out.read_text())
    s = check_sizes(j)
    phi, Q, K = j["phi"], j["primes"]["ciphertext"], j["primes"]["special"]
    limb = phi * 8
    assert s["plaintext_bits"] == pytest.approx(128 * 16.000022)
    assert s["public_key_bytes"] == s["fresh_ciphertext_bytes"] == 2 * Q * limb
    assert s["relin_key_bytes"] == 2 * 2 * (Q + K) * limb
    assert s["eval_key_bytes"] == s["eval_keys"] * s["relin_key_bytes"]
    assert s["output_ciphertext_bytes"] < s["fresh_ciphertext_bytes"]
    assert s["output_ciphertext_bytes"] % (2 * limb) == 0
    assert s["expansion"] < s["fresh_expansion"]


def test_sizes_on_helib_beside_the_engine(tmp_path):
    """--backend helib (a binary built with HElib: CB_BUILD=build-helib-debian) reports the
    same "sizes" fields, from HElib's own serialization: the fresh ciphertext two parts of
    phi 8-byte residues at each of HElib's ciphertext primes, and a header."""
    out = tmp_path / "ops.json"
    proc = run("--backend", "helib", "--m", 257, "--bits", 300, "--c", 2, "--hwt", 120, "--reps", 1, json_path=out)
    if proc.returncode != 0 and "helib not in" in proc.stderr:
        pytest.skip(f"{BIN} built without HElib")
    assert proc.returncode == 0, proc.stderr
    j = json.loads(out.read_text())
    s = check_sizes(j)
    assert s["counted"].startswith("helib")
    residues = 2 * j["helib_chain"]["ctxt_primes"] * j["phi"] * 8
    assert residues <= s["fresh_ciphertext_bytes"] < residues + 4096
    assert residues <= s["public_key_bytes"] < residues + 4096
