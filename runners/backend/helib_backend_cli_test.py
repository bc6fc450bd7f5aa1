"""The HElib backend from the outside: the build rule (dry run, argument checks, always run)
and, when HElib has been built with `make helib`, run_cipher and bench_ops --backend helib
on a small ring (skipped with the reason otherwise).

The HElib-enabled binaries live in $CB_HELIB_BUILD (default build-helib-debian/ in the
repository, what `make helib` makes).
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HELIB_BUILD = Path(os.environ.get("CB_HELIB_BUILD", REPO / "build-helib-debian"))
RUN_CIPHER = HELIB_BUILD / "bin" / "run_cipher"
BENCH_OPS = HELIB_BUILD / "bin" / "bench_ops"
needs_helib = pytest.mark.skipif(
    not RUN_CIPHER.exists(),
    reason=f"HElib backend not built ({RUN_CIPHER} missing): run `make helib` to build HElib 2.3.0 and enable it")


def test_make_helib_dry_run_builds_pinned_helib_then_the_runners():
    out = subprocess.run(["make", "-n", "helib", "NTL_ROUTE=native", "HELIB_SRC=/x/HElib"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    assert "NTL_ROUTE=native" in out and "HELIB_SRC=/x/HElib" in out and "scripts/build-helib.sh" in out
    assert "-DCB_HELIB_DIR=" + str(REPO / ".deps" / "helib-native") in out
    assert "build-helib-native" in out


@pytest.mark.parametrize("env, message", [
    ({"NTL_ROUTE": "conda"}, "NTL_ROUTE='conda' must be 'debian' or 'native'"),
    ({"JOBS": "0"}, "JOBS='0' must be a positive integer"),
])
def test_build_script_refuses_bad_settings_before_any_work(tmp_path, env, message):
    proc = subprocess.run(["bash", str(REPO / "scripts" / "build-helib.sh")], capture_output=True, text=True,
                          env=dict(os.environ, DEPS=str(tmp_path), **env))
    assert proc.returncode == 1
    assert message in proc.stderr
    assert not (tmp_path / "src").exists() or not any((tmp_path / "src").iterdir())


def test_build_script_refuses_a_checkout_at_another_tag(tmp_path):
    src = tmp_path / "HElib"
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    proc = subprocess.run(["bash", str(REPO / "scripts" / "build-helib.sh")], capture_output=True, text=True,
                          env=dict(os.environ, DEPS=str(tmp_path / "deps"), HELIB_SRC=str(src)))
    assert proc.returncode == 1
    assert "is not at tag v2.3.0" in proc.stderr


@needs_helib
def test_run_cipher_aes_on_helib(tmp_path):
    out = tmp_path / "out.json"
    proc = subprocess.run([str(RUN_CIPHER), "--cipher", "aes128", "--backend", "helib", "--m", "257", "--bits", "400",
                           "--rounds", "2", "--json", str(out)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["correct"] is True and d["backend"] == "helib" and d["wrong_blocks"] == 0
    assert d["helib_version"]["tag"] == "v2.3.0"
    assert d["ntl_route"] in ("debian", "native") and d["ntl_version"] == "11.5.1"
    assert d["helib_chain"]["ctxt_primes"] > 0 and d["helib_keys"]["automorphism_keys"] == d["automorphism_keys"]
    assert [r["round"] for r in d["per_round"]] == [1, 2]
    assert d["per_round"][1]["capacity_bits"] < d["per_round"][0]["capacity_bits"]


@needs_helib
def test_run_cipher_mimc_prime_on_helib(tmp_path):
    """MiMC over F_65537 on HElib at p = 65537, m = 256 (65537 = 1 mod 256: 128 slots of
    F_p), the full 11 rounds at the engine's planned chain: Sage's vector as block 0, every
    block checked against the reference, p in the record, HElib's chain and hypercube."""
    v = json.loads((REPO / "runners" / "ciphers" / "mimc" / "vectors_fp_65537.json").read_text())["vectors"][3]
    args = ["--instance", "mimcp17", "--m", "256", "--key", v["key_text"], "--plaintext", v["plaintext_text"]]
    plan = tmp_path / "plan.json"
    proc = subprocess.run([str(RUN_CIPHER), *args, "--plan", "--json", str(plan)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    bits = json.loads(plan.read_text())["params"]["bits"]
    out = tmp_path / "out.json"
    proc = subprocess.run([str(RUN_CIPHER), *args, "--backend", "helib", "--bits", str(bits), "--json", str(out)],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["correct"] is True and d["wrong_blocks"] == 0 and d["backend"] == "helib"
    assert d["instance_id"] == "mimcp17" and d["p"] == 65537 and d["params"]["p"] == 65537
    assert d["params"]["m"] == 256 and d["params"]["d"] == 1 and d["blocks"] == d["params"]["slots"] == 128
    assert d["plaintext"] == v["plaintext_text"] and d["ciphertext"] == v["ciphertext_text"] == d["expected"]
    assert "ciphertext_hex" not in d and d["rounds"] == 11 and d["helib_chain"]["ctxt_primes"] > 0
    assert all(r["counts"]["mul"] == 2 and r["counts"]["automorph"] == 0 for r in d["per_round"])
    assert all(b < a for a, b in zip([r["capacity_bits"] for r in d["per_round"]],
                                     [r["capacity_bits"] for r in d["per_round"]][1:]))


@needs_helib
def test_run_cipher_keystream_entries_on_helib(tmp_path):
    """The transciphering session of keystream entries on HElib (apps/keystream_run.h):
    HERA-5 at p = 65537 on m = 256 with IAIK's key (block 0 is IAIK's keystream) and a
    product after, every stage checked; HElib's sizes. (Rasta on HElib works too but takes
    minutes: 7 layers of n^2 constant products.)"""
    v = json.loads((REPO / "runners" / "ciphers" / "hera" / "kat_hera5.json").read_text())["vectors"][0]
    out = tmp_path / "out.json"
    proc = subprocess.run([str(RUN_CIPHER), "--cipher", "hera", "--m", "256", "--backend", "helib", "--bits", "600",
                           "--key", ",".join(map(str, v["key"])), "--nonce", "123456789", "--depth-after", "1",
                           "--json", str(out)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["correct"] is True and d["backend"] == "helib" and d["mode"] == "keystream"
    assert d["keystream"] == ",".join(map(str, v["keystream"]))
    assert d["wrong_blocks"] == {"keystream": 0, "messages": 0, "work_after": 0}
    assert d["sizes"]["counted"].startswith("helib") and d["sizes"]["output_ciphertext_bytes"] > 0
    assert d["capacity"]["after_work_bits"] > 0 and d["params"]["p"] == 65537


@needs_helib
def test_run_cipher_helib_refuses_a_ring_at_p(tmp_path):
    """A ring HElib's context cannot take at p is refused in one line, no JSON: p divides m."""
    out = tmp_path / "out.json"
    proc = subprocess.run([str(RUN_CIPHER), "--instance", "mimcp17", "--backend", "helib", "--m", "65537",
                           "--bits", "200", "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and not out.exists()
    assert "p=65537 divides m=65537" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


@needs_helib
def test_bench_ops_on_helib(tmp_path):
    out = tmp_path / "ops.json"
    proc = subprocess.run([str(BENCH_OPS), "--backend", "helib", "--m", "257", "--bits", "200", "--reps", "1",
                           "--quiet", "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    d = json.loads(out.read_text())
    assert d["correct"] is True and d["backend"] == "helib"
    assert {"mul_relin_ms", "frobenius_ms", "rotate_ms", "helib_chain"} <= set(d)
