"""run_cipher and cipher_ref with the catalog's keystream entries (Pasta, HERA, Rasta):
the server's transciphering session on small rings, checked stage by stage, and the
refusals (apps/keystream_run.h)."""
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(__import__("os").environ.get("CB_BUILD", ROOT / "build"))
BIN = BUILD / "bin" / "run_cipher"
REF = BUILD / "bin" / "cipher_ref"
CIPHERS = ROOT / "runners" / "ciphers"

pytestmark = pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")


def run(tmp_path, *args):
    out = tmp_path / "r.json"
    proc = subprocess.run([str(BIN), *map(str, args), "--json", str(out)], capture_output=True, text=True, timeout=600)
    return proc, (json.loads(out.read_text()) if out.exists() else None)


def kat(name):
    return json.loads((CIPHERS / name).read_text())


def csv(v):
    return ",".join(map(str, v))


@pytest.mark.parametrize("file,cipher", [("hera/kat_hera5.json", "hera"), ("pasta/kat_pasta4.json", "pasta"),
                                         ("pasta/kat_pasta3.json", "pasta")])
def test_cipher_ref_gives_iaik_keystreams(file, cipher):
    doc = kat(file)
    for v in doc["vectors"]:
        args = [str(REF), "--cipher", cipher, "--p", str(v["p"]), "--key", csv(v["key"]), "--nonce", str(doc["nonce"]),
                "--counter", str(doc["counter"])]
        if cipher == "pasta":
            args += ["--state-size", str(len(v["keystream"]))]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()
        assert out == csv(v["keystream"]), v["name"]


def test_hera_session_with_work_after(tmp_path):
    """HERA-5 at p = 65537 on m = 256 (128 blocks, one per slot), planned for 2 products
    after the keystream: every stage checked, the capacity and sizes stated."""
    doc = kat("hera/kat_hera5.json")
    v = doc["vectors"][0]
    proc, r = run(tmp_path, "--cipher", "hera", "--m", 256, "--key", csv(v["key"]), "--nonce", doc["nonce"],
                  "--depth-after", 2)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["mode"] == "keystream" and r["blocks"] == 128 and r["params"]["p"] == 65537
    assert r["packing"] == "blocks" and r["rotations"] == 0 and r["rotation_keys"] == 0  # no rotations
    assert r["keystream"] == csv(v["keystream"])  # block 0: counter 0, IAIK's vector
    assert r["wrong_blocks"] == {"keystream": 0, "messages": 0, "work_after": 0}
    cap = r["capacity"]
    assert cap["depth_after"] == 2 and cap["depth_left"] >= 0 and cap["after_work_bits"] >= 0
    assert cap["after_subtract_bits"] > cap["after_work_bits"]
    assert [x["round"] for x in r["per_round"]] == [1, 2, 3, 4, 5]
    assert r["plan"]["round_capacity_bits"][:5] == pytest.approx([x["capacity_bits"] for x in r["per_round"]])
    s = r["sizes"]
    phi, primes = r["params"]["phi"], None
    assert s["fresh_ciphertext_bytes"] > s["output_ciphertext_bytes"] > 0
    assert s["fresh_ciphertext_bytes"] % (2 * phi * 8) == 0
    assert s["expansion"] == pytest.approx(8 * s["output_ciphertext_bytes"] / s["plaintext_bits"])
    t = r["timings"]
    assert all(t[k] >= 0 for k in ["material_s", "encrypt_key_s", "keystream_s", "subtract_s", "work_after_s"])
    assert r["throughput"]["plaintext_bits"] == pytest.approx(128 * 16 * 16.000022, rel=1e-5)
    # The FHE.org workload's shape: the same stages and sizes.
    f = r["fheorg"]
    assert f["Timing"]["Transciphering"] == pytest.approx(t["material_s"] + t["keystream_s"] + t["subtract_s"])
    assert f["Timing"]["Workload"] == t["work_after_s"]
    b = f["Bandwidth"]
    assert b["Public and evaluation keys"] == s["public_key_bytes"] + s["eval_key_bytes"]
    assert b["Encrypted symmetric key"] == 16 * s["fresh_ciphertext_bytes"]
    assert b["Encrypted results"] == 16 * s["output_ciphertext_bytes"] and b["Symmetric ciphertext"] == 128 * 16 * 3


def test_pasta_and_rasta_sessions_on_the_clear_backend(tmp_path):
    proc, r = run(tmp_path, "--instance", "pasta3p17", "--m", 256, "--backend", "clear", "--blocks", 5, "--nonce", 7)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 5 and len(r["keystream"].split(",")) == 128
    proc, r = run(tmp_path, "--instance", "rasta6", "--m", 341, "--backend", "clear", "--blocks", 3, "--nonce", 1,
                  "--counter", 4)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["params"]["p"] == 2 and r["counter"] == 4


def test_security_target_chooses_digits_and_weight(tmp_path):
    """--security-target: the same choice as the block ciphers' (apps/security_target.h)."""
    proc, r = run(tmp_path, "--cipher", "hera", "--m", 256, "--security-target", 15, "--blocks", 8, "--nonce", 1)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["params"]["security"] >= 15 and "reaching 15 bits by HElib's formula" in r["plan"]["choice"]
    proc, r = run(tmp_path, "--cipher", "hera", "--m", 256, "--security-target", 128, "--blocks", 8, "--nonce", 1)
    assert proc.returncode == 1 and "--security-target 128: the planned chains at m=256 reach at most" in proc.stderr


def test_pasta4_planned_on_the_engine(tmp_path):
    proc, r = run(tmp_path, "--instance", "pasta4p17", "--m", 256, "--blocks", 4, "--nonce", 123456789)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["capacity"]["after_subtract_bits"] >= 0 and r["backend"] == "bgv"


def test_state_packing_on_the_engine(tmp_path):
    """--packing state: HERA-5 at p = 65537 on m = 256, one block's state per row of 32
    slots (its elements and their replicas; 4 blocks in one ciphertext), planned for one
    product after; block 0 is IAIK's vector, and the rotations are counted: by baby-step
    giant-step (keystream_state_circuit.h) MixColumns 4, MixRows 2 and the replica 1 a round,
    twice that in the last (keys: 3 babies and a giant, a baby and a giant, the replica's)."""
    doc = kat("hera/kat_hera5.json")
    v = doc["vectors"][0]
    proc, r = run(tmp_path, "--cipher", "hera", "--m", 256, "--key", csv(v["key"]), "--nonce", doc["nonce"],
                  "--depth-after", 1, "--packing", "state")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["packing"] == "state" and r["blocks"] == 4 and r["blocks_per_run_max"] == 4
    assert r["keystream"] == csv(v["keystream"])
    assert r["wrong_blocks"] == {"keystream": 0, "messages": 0, "work_after": 0}
    assert r["rotations"] == 42 and r["rotation_keys"] == 7
    assert [x["counts"]["automorph"] for x in r["per_round"]] == [7, 7, 7, 7, 14]
    assert r["fheorg"]["Bandwidth"]["Encrypted symmetric key"] == r["sizes"]["fresh_ciphertext_bytes"]
    assert r["capacity"]["after_work_bits"] >= 0


def test_state_packing_of_pasta_on_the_clear_backend(tmp_path):
    """Pasta-4 at m = 512: rows of 128 slots (64 elements and replicas) along the first
    dimension of 128, 2 blocks; at m = 256 the row follows the slot order, 1 block."""
    proc, r = run(tmp_path, "--instance", "pasta4p17", "--m", 512, "--backend", "clear", "--packing", "state",
                  "--nonce", 7)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 2 and "along the first dimension" in r["layout"]
    proc, r = run(tmp_path, "--instance", "pasta4p17", "--m", 256, "--backend", "clear", "--packing", "state")
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 1 and "in slot order" in r["layout"]


def test_state_packing_of_rasta_on_the_clear_backend(tmp_path):
    """Rasta-6 (351 bits) over GF(2): a row of 702 slots (the bits and their replicas) in
    slot order at m = 16383 (756 slots of GF(2^14) holding bits), its 351 x 351 matrices
    by rotations, every block against the reference."""
    proc, r = run(tmp_path, "--instance", "rasta6", "--m", 16383, "--backend", "clear", "--packing", "state",
                  "--nonce", 1, "--counter", 4)
    assert proc.returncode == 0, proc.stderr
    assert r["correct"] and r["blocks"] == 1 and r["params"]["p"] == 2 and r["rotations"] > 0


@pytest.mark.parametrize("args,message", [
    (["--cipher", "hera", "--m", 16, "--packing", "state"],
     "--packing state: hera5p17 needs a row of 32 slots (16 state elements and their replicas) and m=16 has 8 slots"),
    (["--cipher", "hera", "--m", 256, "--packing", "state", "--blocks", 5],
     "--blocks 5: hera5p17 with --packing state holds 1..4 blocks per ciphertext at m=256"),
    (["--cipher", "aes128", "--m", 257, "--packing", "state"], "--packing state: aes128 has"),
    (["--cipher", "hera", "--m", 256, "--key", csv([65537] + [1] * 15)], "element 0 is 65537, not below p=65537"),
    (["--cipher", "hera", "--m", 256, "--key", "1,2,3"], "has 3 elements: hera5p17 needs 16"),
    (["--cipher", "hera", "--m", 256, "--blocks", 129], "--blocks 129: hera5p17 runs one block per slot, 1..128"),
    (["--cipher", "hera", "--m", 256, "--blocks", 2, "--counter", 2**64 - 1], "the counters pass 2^64 - 1"),
    (["--cipher", "hera", "--m", 256, "--decrypt"], "hera is a keystream generator"),
    (["--cipher", "hera", "--m", 256, "--depth-after", 1001], "--depth-after 1001"),
    (["--cipher", "aes128", "--m", 257, "--nonce", 3], "aes128 is a block cipher"),
    (["--cipher", "hera", "--m", 96], "m=96 is even but not a power of two"),
])
def test_refusals(tmp_path, args, message):
    proc, r = run(tmp_path, *args)
    assert proc.returncode == 1 and r is None
    assert message in proc.stderr, proc.stderr


def test_cipher_ref_refusals():
    proc = subprocess.run([str(REF), "--cipher", "hera", "--p", "65537", "--key", csv([1] * 16)], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "--nonce is required" in proc.stderr
    proc = subprocess.run([str(REF), "--cipher", "hera", "--p", "65537", "--key", csv([1] * 16), "--nonce", "1",
                           "--plaintext", "1"], capture_output=True, text=True)
    assert proc.returncode == 2 and "keystream generator" in proc.stderr


def test_plans_come_from_the_plan_cache(tmp_path):
    """--plan-cache: the second run of the same session reads its plan (the same chain)."""
    args = ["--cipher", "hera", "--m", 256, "--blocks", 8, "--nonce", 3, "--plan-cache", tmp_path / "plans"]
    proc, a = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert a["plan"]["cache"]["misses"] == 1 and a["plan"]["cache"]["hits"] == 0
    proc, b = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert b["plan"]["cache"]["hits"] == 1 and b["plan"]["cache"]["misses"] == 0
    assert b["plan"]["bits"] == a["plan"]["bits"] and b["correct"]
