"""run_cipher --mode ctr: the block ciphers of the catalog on the transciphering path
(apps/ctr_run.h), on small rings: AES-128 against a library AES-CTR (the `cryptography`
package, OpenSSL underneath), MiMC over F_p with its subtraction by -1, every stage
checked, the plan covering the work after, and the refusals."""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("CB_BUILD", ROOT / "build"))
BIN = BUILD / "bin" / "run_cipher"
REF = BUILD / "bin" / "cipher_ref"

pytestmark = pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")

KEY = "2b7e151628aed2a6abf7158809cf4f3c"  # SP 800-38A F.5.1's key


def run(tmp_path, *args):
    out = tmp_path / "r.json"
    if out.exists():
        out.unlink()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.run([str(BIN), *map(str, args), "--json", str(out)], capture_output=True, text=True,
                          timeout=600, env=env)
    return proc, (json.loads(out.read_text()) if out.exists() else None)


def aes_ctr_keystream(key_hex, nonce, counter, blocks):
    """The library's AES-128-CTR keystream: zeros encrypted under IV = nonce || counter (big-endian)."""
    ciphers = pytest.importorskip("cryptography.hazmat.primitives.ciphers")
    iv = nonce.to_bytes(8, "big") + counter.to_bytes(8, "big")
    enc = ciphers.Cipher(ciphers.algorithms.AES(bytes.fromhex(key_hex)), ciphers.modes.CTR(iv)).encryptor()
    return enc.update(bytes(16 * blocks)) + enc.finalize()


def test_aes_ctr_on_bgv_is_the_library_aes_ctr(tmp_path):
    """All ten rounds of AES-128 packed at m = 771 (2 blocks): block 0's decrypted keystream
    is the library's, the counter block is SP 800-38A's nonce || counter, every stage right."""
    nonce, counter = 0xF0F1F2F3F4F5F6F7, 0xF8F9FAFBFCFDFEFF  # SP 800-38A F.5.1's initial counter block
    proc, r = run(tmp_path, "--cipher", "aes128", "--m", 771, "--mode", "ctr", "--key", KEY, "--nonce", nonce,
                  "--counter", counter, "--plan-cache", "")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["mode"] == "ctr" and r["rounds"] == 10 and r["blocks"] == 2
    assert r["counter_block"] == f"{nonce:016x}{counter:016x}"
    # SP 800-38A F.5.1's output blocks 1 and 2 (the second counter block carries into byte 14).
    ks = aes_ctr_keystream(KEY, nonce, counter, 2)
    assert ks.hex() == "ec8cdf7398607cb0f2d21675ea9ea1e4" "362b7c3c6773516318a077d7fc5073ae"
    assert r["keystream"] == ks[:16].hex()
    assert r["wrong_blocks"] == {"keystream": 0, "messages": 0, "work_after": 0}
    assert r["capacity"]["after_subtract_bits"] >= 0 and r["capacity"]["depth_after"] == 0
    assert r["params"]["bits"] == r["plan"]["bits"]


def test_aes_ctr_bit_sliced_on_the_clear_backend_is_the_library_aes_ctr(tmp_path):
    proc, r = run(tmp_path, "--cipher", "aes128", "--m", 257, "--packing", "bit-sliced", "--backend", "clear",
                  "--mode", "ctr", "--key", KEY, "--counter", 255)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 16 and r["packing"] == "bit-sliced"
    assert r["keystream"] == aes_ctr_keystream(KEY, 0, 255, 1).hex()


def test_aes_ctr_two_rounds_with_work_after(tmp_path):
    """Two rounds at m = 771 planned for 2 products after: the chain holds them, the planner's
    capacities are the run's, the record has the keystream record's fields."""
    proc, r = run(tmp_path, "--cipher", "aes128", "--m", 771, "--rounds", 2, "--mode", "ctr", "--nonce", 5,
                  "--counter", 7, "--depth-after", 2, "--plan-cache", "")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["wrong_blocks"] == {"keystream": 0, "messages": 0, "work_after": 0}
    cap = r["capacity"]
    assert cap["depth_after"] == 2 and cap["after_work_bits"] >= 0 and cap["depth_left"] >= 0
    assert cap["after_keystream_bits"] >= cap["after_subtract_bits"] > cap["after_work_bits"]
    assert r["plan"]["round_capacity_bits"] == pytest.approx(
        [x["capacity_bits"] for x in r["per_round"]] + [cap["after_subtract_bits"], cap["after_work_bits"]])
    t = r["timings"]
    for k in ["keygen_s", "material_s", "encrypt_key_s", "keystream_s", "subtract_s", "work_after_s", "decrypt_s"]:
        assert t[k] >= 0, k
    s = r["sizes"]
    assert s["plaintext_bits"] == 2 * 128 and s["fresh_ciphertext_bytes"] > s["output_ciphertext_bytes"] > 0
    assert r["throughput"]["plaintext_bits"] == 256
    assert r["subkeys"]["ciphertexts"] == 3 and r["ops"]["add_plain"] >= 1
    bw = r["fheorg"]["Bandwidth"]
    assert bw["Encrypted symmetric key"] == 3 * s["fresh_ciphertext_bytes"] and bw["Symmetric ciphertext"] == 2 * 16
    assert r["fheorg"]["Timing"]["Workload"] == t["work_after_s"]
    # The plan alone: the same chain.
    proc, p = run(tmp_path, "--cipher", "aes128", "--m", 771, "--rounds", 2, "--mode", "ctr", "--nonce", 5,
                  "--counter", 7, "--depth-after", 2, "--plan", "--plan-cache", "")
    assert proc.returncode == 0, proc.stderr
    assert p["plan"]["bits"] == r["plan"]["bits"] and p["mode"] == "ctr" and "timings" not in p


def test_mimc_prime_ctr_at_m256(tmp_path):
    """MiMC over F_p (mimcp17) at m = 256, 128 blocks: the keystream is cipher_ref's encryption
    of the counter block (nonce 0: the counter itself, below p), the subtraction negates it."""
    proc, r = run(tmp_path, "--instance", "mimcp17", "--m", 256, "--mode", "ctr", "--counter", 1000,
                  "--depth-after", 1, "--key", "12345", "--plan-cache", "")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 128 and r["params"]["p"] > 2 and r["counter_block"] == "1000"
    if REF.exists():
        want = subprocess.run([str(REF), "--instance", "mimcp17", "--key", "12345", "--plaintext", "1000"],
                              capture_output=True, text=True, check=True).stdout.strip()
        assert r["keystream"] == want
    assert r["capacity"]["after_work_bits"] >= 0


@pytest.mark.parametrize("instance,packing", [("vision8", "sliced"), ("chaghri", "sliced"), ("mimc63", "sliced"),
                                              ("aes", "byte-sliced")])
def test_every_block_cipher_in_ctr_mode_on_the_clear_backend(tmp_path, instance, packing):
    m = {"vision8": 257, "chaghri": 379, "mimc63": 379, "aes": 257}[instance]
    nonce = 0 if instance == "mimc63" else 3  # one GF(2^63) element: the counter block holds no nonce
    proc, r = run(tmp_path, "--instance", instance, "--m", m, "--packing", packing, "--backend", "clear", "--mode",
                  "ctr", "--nonce", nonce, "--counter", 11, "--depth-after", 3)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["mode"] == "ctr" and r["encryption"] == "none"


def test_keystream_entries_take_mode_ctr_and_refuse_block(tmp_path):
    proc, r = run(tmp_path, "--instance", "pasta3p17", "--m", 256, "--backend", "clear", "--blocks", 2, "--mode", "ctr")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["mode"] == "keystream"
    proc, r = run(tmp_path, "--instance", "pasta3p17", "--m", 256, "--backend", "clear", "--mode", "block")
    assert proc.returncode == 1 and r is None
    assert "--mode block: pasta is a keystream generator" in proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--cipher", "aes128", "--m", 771, "--mode", "ctr", "--counter", 2**64 - 1],
     f"--counter {2**64 - 1} with 2 blocks: the counters pass 2^64 - 1"),
    (["--cipher", "aes128", "--m", 257, "--packing", "sliced", "--mode", "ctr", "--counter", 2**64 - 5],
     f"--counter {2**64 - 5} with 16 blocks: the counters pass 2^64 - 1"),
    (["--instance", "mimcp17", "--m", 256, "--mode", "ctr", "--nonce", 1], "--nonce 1 --counter 0 with 128 blocks"),
    (["--instance", "mimcp17", "--m", 256, "--mode", "ctr", "--counter", 65500],
     "--counter 65500 with 128 blocks: the last counter block"),
    (["--cipher", "aes128", "--m", 771, "--mode", "ctr", "--depth-after", 1001],
     "--depth-after 1001: the products after the keystream are 0..1000"),
    (["--cipher", "aes128", "--m", 771, "--mode", "ctr", "--decrypt"], "--decrypt, --plaintext and --measure-noise"),
    (["--cipher", "aes128", "--m", 771, "--mode", "ctr", "--plaintext", "00" * 16], "--mode ctr: the blocks are counter"),
    (["--cipher", "aes128", "--m", 771, "--nonce", 3], "--nonce, --counter and --depth-after are for keystream entries "
                                                       "and --mode ctr; aes128 is a block cipher"),
    (["--cipher", "aes128", "--m", 771, "--mode", "ctr", "--key", "00"], "--key has 1 bytes"),
])
def test_refusals_before_any_work(tmp_path, args, message):
    proc, r = run(tmp_path, *args)
    assert proc.returncode == 1 and r is None, proc.stderr
    assert message in proc.stderr, proc.stderr
    assert "planned chain" not in proc.stderr


def test_security_target_in_ctr_mode(tmp_path):
    """--security-target chooses c and the key weight as block mode does (apps/security_target.h);
    beyond what the ring holds it is refused naming what the chains reached."""
    proc, r = run(tmp_path, "--cipher", "aes128", "--m", 771, "--mode", "ctr", "--rounds", 2, "--security-target", 20)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["params"]["security"] >= 20 and "reaching 20 bits by HElib's formula" in r["plan"]["choice"]
    proc, r = run(tmp_path, "--cipher", "aes128", "--m", 771, "--mode", "ctr", "--rounds", 2, "--security-target", 128)
    assert proc.returncode == 1 and r is None
    assert "--security-target 128: the planned chains at m=771 reach at most" in proc.stderr
