"""CLI tests of run_cipher: results against the test vectors, the JSON it writes, and its
error messages. Most runs use the clear backend (milliseconds); a few small BGV runs check
the real engine end to end.

The binary is $CB_BUILD/bin/run_cipher (CB_BUILD defaults to build/ in the repository).
"""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("CB_BUILD", REPO / "build"))
BIN = BUILD / "bin" / "run_cipher"
CIPHERS = REPO / "runners" / "ciphers"

pytestmark = pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")


def run(tmp_path, *args):
    out = tmp_path / "out.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")  # tiny rings: OpenMP only adds overhead
    proc = subprocess.run([str(BIN), *map(str, args), "--json", str(out)], capture_output=True, text=True,
                          timeout=600, env=env)
    data = json.loads(out.read_text()) if out.exists() else None
    return proc, data


def vector(name, index=0):
    """A vector of an entry's file: aes128.json is aes128/vectors.json, Vision's are under vision/vectors/."""
    path = CIPHERS / "aes128" / "vectors.json" if name == "aes128.json" else CIPHERS / "vision" / "vectors" / name
    return json.loads(path.read_text())["vectors"][index]


AES_C1 = vector("aes128.json")

#: Stands for the catalog's names in an expected message: the tests ask the catalog
#: (catalog_names) rather than list it, so a new entry leaves them green.
CATALOG = "<the catalog's names>"


def catalog_names(tmp_path):
    """The entries' names in the catalog's order, as run_cipher --list-ciphers writes them."""
    out = tmp_path / "catalog.json"
    subprocess.run([str(BIN), "--list-ciphers", "--json", str(out)], check=True, capture_output=True)
    return [c["name"] for c in json.loads(out.read_text())["ciphers"]]


def test_aes_fips197_vector_packed(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--backend", "clear", "--m", 771,
                  "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] is True
    assert d["ciphertext_hex"] == AES_C1["ciphertext_bytes"]
    assert d["blocks"] == 2 and d["rounds"] == 10 and d["packing"] == "packed"
    for key in ("cipher", "instance", "params", "timings", "per_round", "ciphertext_hex"):
        assert key in d
    assert set(d["params"]) >= {"m", "phi", "d", "slots", "bits", "c", "hwt", "log2_q", "security"}
    assert set(d["timings"]) >= {"setup_s", "keygen_s", "encrypt_input_s", "total_s"}
    assert [r["round"] for r in d["per_round"]] == list(range(1, 11))
    assert set(d["per_round"][0]["ops"]) == {"subbytes", "shiftrows_mixcolumns", "addroundkey"}
    assert d["per_round"][0]["counts"]["mul"] == 4
    assert AES_C1["key_bytes"] not in json.dumps(d)  # the cipher key is never written


@pytest.mark.parametrize("rounds", [3, 10])
def test_aes_byte_sliced_decrypt_round_states(tmp_path, rounds):
    v = vector("aes128.json", 1)
    proc, d = run(tmp_path, "--cipher", "aes128", "--backend", "clear", "--m", 257, "--packing", "byte-sliced",
                  "--rounds", rounds, "--decrypt", "--key", v["key_bytes"], "--plaintext", v["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["blocks"] == 16
    state = "".join(x[2:] for x in v["round_states"][rounds - 1])
    assert d["input_hex"] == state
    assert d["ciphertext_hex"] == v["plaintext_bytes"]


@pytest.mark.parametrize("m", [257, 31])
def test_aes_bit_sliced_vector_and_decrypt(tmp_path, m):
    """Bit-sliced: 128 ciphertexts of bits, a block per slot, on any ring (m=31: d=5, no
    GF(2^8) in its slots); the FIPS-197 vector both ways, 34 products per S-box and round."""
    proc, d = run(tmp_path, "--cipher", "aes128", "--backend", "clear", "--m", m, "--packing", "bit-sliced",
                  "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["packing"] == "bit-sliced" and d["ciphertext_hex"] == AES_C1["ciphertext_bytes"]
    assert d["blocks"] == d["params"]["slots"] == d["blocks_per_run_max"] and d["automorphism_keys"] == 0
    assert set(d["per_round"][0]["ops"]) == {"subbytes", "shiftrows_mixcolumns", "addroundkey"}
    assert all(r["counts"]["mul"] == 16 * 34 and r["counts"]["automorph"] == 0 for r in d["per_round"])
    (tmp_path / "dec").mkdir()
    proc, d = run(tmp_path / "dec", "--cipher", "aes128", "--backend", "clear", "--m", m, "--packing", "bit-sliced",
                  "--decrypt", "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["input_hex"] == AES_C1["ciphertext_bytes"] and d["ciphertext_hex"] == AES_C1["plaintext_bytes"]


def test_bit_sliced_plan_matches_the_run(tmp_path):
    """--plan for bit-sliced AES: the capacity after each round, and the engine operations
    it counts are the run's (the evaluator's counts: 34 ANDs per S-box a product), and a
    run at the plan decrypts with the plan's capacities."""
    plan_path = tmp_path / "plan.json"
    args = ["--cipher", "aes128", "--m", "257", "--rounds", "2", "--packing", "bit-sliced", "--threads", "1"]
    proc = subprocess.run([str(BIN), *args, "--plan", "--json", str(plan_path)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(plan_path.read_text())
    assert plan["packing"] == "bit-sliced" and len(plan["plan"]["round_capacity_bits"]) == 2
    assert plan["plan"]["round_capacity_bits"][0] > plan["plan"]["round_capacity_bits"][1] >= 0
    proc, d = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["params"] == plan["params"] and d["blocks"] == 16
    assert [r["capacity_bits"] for r in d["per_round"]] == pytest.approx(plan["plan"]["round_capacity_bits"], abs=1e-6)
    counted = {}
    for o in plan["plan"]["op_counts"]:
        counted[o["op"]] = counted.get(o["op"], 0) + o["count"]
    assert counted["mul"] == d["ops"]["mul"] == 2 * 16 * 34
    assert counted["add"] == d["ops"]["add"] and counted["add_plain"] == d["ops"]["add_plain"]
    assert d["ops"]["automorph"] == 0 and "automorph" not in counted


@pytest.mark.parametrize("packing", ["bit-sliced", "packed"])
def test_subkeys_per_round_same_result_keys_timed_apart(tmp_path, packing):
    """--subkeys per-round encrypts each subkey before the round that adds it (what a ring
    too large to hold 11 x 128 subkey ciphertexts needs): the same blocks come out right, the
    round timings leave that encryption out (it is in encrypt_keys_s), and the record says how
    the subkeys were held; auto holds them up front when they fit."""
    recs = {}
    for mode in ("up-front", "per-round", "auto"):
        (tmp_path / mode).mkdir()
        proc, d = run(tmp_path / mode, "--cipher", "aes128", "--m", 257, "--rounds", 2, "--packing", packing,
                      "--subkeys", mode, "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
        assert proc.returncode == 0, proc.stderr
        assert d["correct"], mode
        recs[mode] = d
    per = recs["per-round"]
    assert per["subkeys"]["encrypted"] == "per round" and per["subkeys"]["why"] == "--subkeys per-round"
    assert recs["up-front"]["subkeys"]["encrypted"] == "up front"
    assert recs["auto"]["subkeys"]["encrypted"] == "up front" and "available" in recs["auto"]["subkeys"]["why"]
    assert per["subkeys"]["ciphertexts"] == 3 * (128 if packing == "bit-sliced" else 1)
    assert per["ciphertext_hex"] == recs["up-front"]["ciphertext_hex"] == per["expected_hex"]
    assert per["ops"] == recs["up-front"]["ops"]  # the same evaluation, only the keys' timing moved
    for r in per["per_round"]:
        assert r["seconds"] >= 0 and all(v >= 0 for v in r["ops"].values())
        assert sum(r["ops"].values()) <= r["seconds"] + 1e-3
    assert per["timings"]["encrypt_keys_s"] > 0
    assert AES_C1["key_bytes"] not in json.dumps(per)


def test_encryption_by_either_key_same_plan_and_result(tmp_path):
    """The key and blocks are encrypted with the secret key by default, with the public key
    on --encryption public: the record says which, both decrypt every block to the
    reference at the same planned chain and the same evaluation (the bound of a fresh
    ciphertext is the same for both), and an unknown mode is refused before any work."""
    recs = {}
    for mode in ("default", "public", "secret"):
        (tmp_path / mode).mkdir()
        extra = () if mode == "default" else ("--encryption", mode)
        proc, d = run(tmp_path / mode, "--cipher", "aes128", "--m", 257, "--rounds", 2, "--seed", 3, *extra)
        assert proc.returncode == 0, proc.stderr
        assert d["correct"], mode
        recs[mode] = d
    assert recs["default"]["encryption"] == recs["secret"]["encryption"] == "secret"
    assert recs["public"]["encryption"] == "public"
    assert recs["public"]["plan"]["bits"] == recs["secret"]["plan"]["bits"]
    assert recs["public"]["plan"]["chain"] == recs["secret"]["plan"]["chain"]
    assert recs["public"]["ops"] == recs["secret"]["ops"]
    assert recs["public"]["ciphertext_hex"] == recs["secret"]["ciphertext_hex"] == recs["secret"]["expected_hex"]
    (tmp_path / "clear").mkdir()
    proc, d = run(tmp_path / "clear", "--cipher", "aes128", "--m", 257, "--rounds", 1, "--backend", "clear")
    assert proc.returncode == 0 and d["correct"] and d["encryption"] == "none"
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--encryption", "symmetric")
    assert proc.returncode != 0 and d is None
    assert "--encryption" in proc.stderr and "symmetric" in proc.stderr


def test_subkeys_refuses_an_unknown_policy(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--subkeys", "lazy")
    assert proc.returncode != 0 and d is None
    assert "--subkeys" in proc.stderr and "lazy" in proc.stderr and "per-round" in proc.stderr


def test_bits_hint_starts_the_search_elsewhere_same_plan(tmp_path):
    """--bits-hint (an earlier plan's chain at the ring): the planner starts there and still
    answers the least sufficient chain, the same as without it, from below and from above."""
    args = ["--cipher", "aes128", "--m", 257, "--rounds", 2, "--plan", "--plan-cache", ""]
    proc, base = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    bits = base["plan"]["bits"]
    for hint in (bits - 40, bits + 7, 4 * bits):
        (tmp_path / str(hint)).mkdir()
        proc, d = run(tmp_path / str(hint), *args, "--bits-hint", hint)
        assert proc.returncode == 0, proc.stderr
        assert d["plan"]["bits"] == bits and d["params"] == base["params"], hint
    proc, d = run(tmp_path, *args, "--bits-hint", 0)
    assert proc.returncode != 0 and "--bits-hint" in proc.stderr


def test_hint_is_plan_takes_the_plan_at_other_digits(tmp_path):
    """--hint-is-plan: the --bits-hint chain (planned elsewhere: --security-target passes the
    chain planned at other digits or another key weight) is taken when it holds at these
    digits and one bit less does not (two chains run, not a search); a hint that one bit less
    also holds is searched below; refused without --bits-hint. The hints are this build's
    own least chain at c=2 and 8 bits above it: which c=3's plan is depends on the primes'
    size (50 bits with IFMA, 60 without)."""
    args = ["--cipher", "aes128", "--m", 257, "--rounds", 2, "--plan", "--plan-cache", "", "--c", 2]
    proc, base = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    bits = base["plan"]["bits"]
    assert base["plan"]["chains_tried"] > 2
    proc, d = run(tmp_path, *args, "--bits-hint", bits, "--hint-is-plan")
    assert proc.returncode == 0, proc.stderr
    assert d["params"]["c"] == 2 and d["plan"]["bits"] == bits and d["plan"]["chains_tried"] == 2
    proc, d = run(tmp_path, *args, "--bits-hint", bits + 8, "--hint-is-plan")
    assert proc.returncode == 0, proc.stderr
    assert d["plan"]["bits"] == bits and d["plan"]["chains_tried"] > 2
    proc, d = run(tmp_path, *args, "--hint-is-plan")
    assert proc.returncode != 0 and "--hint-is-plan needs --bits-hint" in proc.stderr


@pytest.mark.parametrize("n,s,m", [(8, 16, 257), (16, 8, 257), (32, 4, 641), (64, 2, 641)])
@pytest.mark.parametrize("packing", ["packed", "sliced"])
def test_vision_vectors(tmp_path, n, s, m, packing):
    v = vector(f"vision_gf2_{n}_m{s}.json", 1)
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", n, "--state-size", s, "--backend", "clear",
                  "--m", m, "--packing", packing, "--key", v["key_bytes"], "--plaintext", v["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["ciphertext_hex"] == v["ciphertext_bytes"]
    assert d["instance"] == f"GF(2^{n})^{s}"
    assert set(d["per_round"][0]["ops"]) == {"inversion", "affine1", "matmul", "keyadd", "affine2"}


def test_vision_13_rounds_gf64(tmp_path):
    v = vector("vision_gf2_64_m2.json", 0)
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", 64, "--backend", "clear", "--m", 641,
                  "--rounds", 13, "--key", v["key_bytes"], "--plaintext", v["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["rounds"] == 13 and d["rounds_spec"] == 18
    assert d["ciphertext_hex"] == "".join(x[2:] for x in v["round_states"][12])


@pytest.mark.parametrize("args,message", [
    (["--cipher", "aes128", "--m", 257, "--key", "0011zz"],
     "--key has 'z' at position 4: only hex digits are allowed"),
    (["--cipher", "aes128", "--m", 257, "--key", "00112233"],
     "--key has 4 bytes: AES-128 GF(2^8)^16 needs 16"),
    (["--cipher", "aes128", "--m", 257, "--plaintext", "001"],
     "--plaintext has 3 hex digits: a byte string needs an even number"),
    (["--cipher", "vision", "--field-bits", 32, "--m", 257],
     "m=257 has d=16 (slots GF(2^16)): GF(2^32) needs 32 | d; rings near m=257 whose slots hold GF(2^32)"),
    (["--cipher", "vision", "--field-bits", 16, "--m", 193],
     "m=193 has 2 slots: Vision GF(2^16)^8 packed needs 8 per block"),
    (["--cipher", "vision", "--field-bits", 16, "--state-size", 4, "--m", 257],
     "vision has no instance with --field-bits 16 and --state-size 4: it has GF(2^8)^16"),
    (["--cipher", "rijndael", "--m", 257], "--cipher rijndael: not in the catalog (" + CATALOG + ")"),
    (["--cipher", "chaghri", "--field-bits", 8, "--m", 3577], "chaghri has no instance with --field-bits 8: it has GF(2^63)^3"),
    (["--cipher", "mimc", "--m", 3577, "--decrypt"],
     "mimc63: no cheap inverse for --decrypt: step cube: the inverse of x^3 in GF(2^63) is x^6148914691236517205, "
     "31 products at depth 5 against 1 at depth 1"),
    (["--cipher", "chaghri", "--m", 3577, "--packing", "bit-sliced"],
     "--packing bit-sliced: chaghri has packed or sliced (chaghri bit-sliced: step sbox is the power map "
     "x^4294967297, which has no Boolean form: the entry's bit_round must give its circuit)"),
    (["--cipher", "aes128", "--m", 257, "--packing", "bit-sliced", "--linear", "fused"],
     "aes bit-sliced: --linear fused has nothing to fuse (on the bits, affine maps and linear layers are both "
     "additions): use --linear separate"),
    (["--cipher", "aes128", "--m", 257, "--packing", "diagonal"], "--packing: diagonal not in"),
    (["--cipher", "aes128", "--m", 771, "--blocks", 3],
     "--blocks 3: m=771 holds 2 blocks of AES-128 GF(2^8)^16 packed"),
    (["--cipher", "aes128", "--m", 257, "--rounds", 11],
     "--rounds 11: aes128 GF(2^8)^16 has 1..10"),
    (["--cipher", "aes128", "--m", 257, "--rounds", 0],
     "--rounds 0: aes128 GF(2^8)^16 has 1..10"),
    (["--cipher", "aes128", "--m", 257, "--plan"],
     "--plan needs --backend bgv (the clear backend has no noise)"),
    (["--cipher", "aes128", "--m", 257, "--bits", -5],
     "--bits: Value -5 not in range"),
    (["--cipher", "aes128", "--m", 257, "--linear", "merged"],
     "--linear: merged not in {fused,separate}"),
])
def test_errors(tmp_path, args, message):
    message = message.replace(CATALOG, ", ".join(catalog_names(tmp_path)))
    proc, d = run(tmp_path, "--backend", "clear", *args)
    assert proc.returncode == 1
    assert d is None
    assert message in proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--cipher", "aes128", "--m", 257, "--hwt", 50],
     "--hwt 50: HElib's security formula rates secret keys of weight 1..119 at 0 bits; use 0 (dense) or >= 120, "
     "or --allow-insecure"),
    (["--cipher", "aes128", "--m", 257, "--c", 0], "--c 0: key switching needs at least 1 digit"),
    (["--cipher", "aes128", "--m", 257, "--security-target", 20, "--security-models", "helib,nope"],
     "--security-models: security model 'nope' is unknown: the engine's are helib, coresvp, estimator"),
    (["--cipher", "aes128", "--m", 257, "--security-target", 20, "--security-models", "estimator"],
     "--security-models ...,estimator needs --estimator-table PATH: the lattice estimator's figures, written by "
     "`python -m cbparams.estimator_table write --table PATH`"),
    (["--cipher", "aes128", "--m", 257, "--security-target", 20, "--security-models", "helib,estimator",
      "--estimator-table", "/nonexistent/t.csv"],
     "estimator table /nonexistent/t.csv cannot be read: write it with `python -m cbparams.estimator_table write"),
    (["--cipher", "aes128", "--m", 257, "--security-target", 20, "--estimator-table", "t.csv"],
     "--estimator-table t.csv is the estimator model's table: name it with --security-models ...,estimator"),
    (["--cipher", "aes128", "--m", 257, "--security-target", 20, "--security-models", "helib,helib"],
     "security model 'helib' is named twice"),
    (["--cipher", "aes128", "--m", 257, "--security-models", "coresvp"], "--security-models requires --security-target"),
])
def test_bgv_errors(tmp_path, args, message):
    proc, d = run(tmp_path, *args)
    assert proc.returncode == 1 and d is None
    assert message in proc.stderr
    assert "planned chain" not in proc.stderr  # refused before the planner ran


def test_keys_beyond_the_memory_are_refused_before_keygen(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--rounds", 2, "--max-memory-gb", 0.0001)
    assert proc.returncode == 1 and d is None
    assert "m=257 with a " in proc.stderr and "key-switching keys alone, more than the 0.0 GB allowed" in proc.stderr
    assert "round 1/2" not in proc.stderr


def test_memory_record_matches_the_model(tmp_path):
    """The run's memory record: the backend's objects counted one by one equal the engine's
    model (engine/bgv/memory.h) for the keys the circuit made, and the peaks are measured."""
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", 32, "--m", 641, "--rounds", 1, "--seed", 2)
    assert proc.returncode == 0, proc.stderr
    mem, model = d["memory"], d["memory"]["model"]
    assert mem["automorphism_keys"] == d["automorphism_keys"] > 0
    assert mem["setup_bytes"] == model["setup_bytes"] == (mem["transforms_bytes"] + mem["secret_key_bytes"]
                                                          + mem["public_key_bytes"] + mem["relin_key_bytes"]
                                                          + mem["automorphism_keys_bytes"])
    assert mem["transforms_bytes"] == model["transforms_bytes"]
    assert mem["relin_key_bytes"] == model["key_bytes"] == model["key_full_bytes"] and not mem["compact_keys"]
    assert mem["automorphism_keys_bytes"] == mem["automorphism_keys"] * model["key_bytes"]
    assert 0 < mem["peak_rss_setup_bytes"] <= mem["peak_rss_bytes"]
    assert mem["peak_rss_bytes"] > mem["setup_bytes"]
    # which transform the primes use (641 is prime: Bluestein's, cyclotomic_transform.h)
    assert d["transforms"] == {"bluestein": sum(d["transforms"].values())} and d["transforms"]["bluestein"] > 0


def test_unwritable_json_is_refused_before_any_work(tmp_path):
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "257", "--json", "/nonexistent/x.json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "--json /nonexistent/x.json: cannot open for writing" in proc.stderr
    assert "planned chain" not in proc.stderr  # refused before the planner ran


def test_chain_too_short_is_refused_before_running(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--bits", 150)
    assert proc.returncode == 1 and d is None
    assert "--bits 150 is below the planned chain: 10 rounds of AES-128 GF(2^8)^16 at m=257 need" in proc.stderr
    assert "(--bits " not in proc.stderr and "--force runs anyway" in proc.stderr
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", 64, "--m", 641, "--bits", 1000, "--rounds", 13)
    assert proc.returncode == 1 and "13 rounds of Vision GF(2^64)^2 at m=641 need" in proc.stderr


def test_plan_then_run_at_the_plan(tmp_path):
    """--plan writes the chain the planner finds and the params a run reports; a run without
    --bits uses it, decrypts, and its capacity after each round is the plan's; the chain one
    bit shorter is refused."""
    plan_path = tmp_path / "plan.json"
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "771", "--rounds", "3", "--plan",
                           "--json", str(plan_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(plan_path.read_text())
    bits = plan["plan"]["bits"]
    assert plan["params"]["bits"] == bits and plan["plan"]["min_capacity_bits"] >= 0
    assert set(plan["params"]) >= {"m", "phi", "bits", "c", "hwt", "log2_q", "log2_q_ct", "log2_p", "security"}
    assert len(plan["plan"]["round_capacity_bits"]) == 3 and plan["plan"]["bits_per_round"] > 0
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 771, "--rounds", 3)
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["params"] == plan["params"]
    assert [r["capacity_bits"] for r in d["per_round"]] == pytest.approx(plan["plan"]["round_capacity_bits"], abs=1e-6)
    assert "round 3/3 done" in proc.stderr
    t = d["timings"]  # the whole process is counted: planning before the backend's wall_s
    assert t["plan_s"] > 0 and t["process_s"] >= t["plan_s"] + t["wall_s"] >= t["total_s"]
    (tmp_path / "short").mkdir()
    proc, d = run(tmp_path / "short", "--cipher", "aes128", "--m", 771, "--rounds", 3, "--bits", bits - 1)
    assert proc.returncode == 1 and d is None and f"need {bits} bits" in proc.stderr


def test_plan_cache_answers_the_same_plan_and_only_it(tmp_path):
    """--plan-cache keeps a plan on disk: the same circuit, ring, digits, key weight and seed
    read it back (equal in every field, no planning), a run at that chain too; another seed
    or digit count plans anew; a damaged file is a miss and is rewritten; a directory that
    cannot be written is refused before any work."""
    cache = tmp_path / "plans"
    base = ["--cipher", "aes128", "--m", 771, "--rounds", 2, "--plan-cache", cache]
    plans = []
    for i in range(2):
        (tmp_path / str(i)).mkdir()
        proc, d = run(tmp_path / str(i), *base, "--plan")
        assert proc.returncode == 0, proc.stderr
        plans.append(d)
    first, second = (d["plan"] for d in plans)
    assert first["cache"] == {"dir": str(cache), "hits": 0, "misses": 1}
    assert second["cache"] == {"dir": str(cache), "hits": 1, "misses": 0}
    assert "from the plan cache" in proc.stderr
    strip = lambda p: {k: v for k, v in p.items() if k not in ("seconds", "cache")}  # noqa: E731
    assert strip(first) == strip(second) and plans[0]["params"] == plans[1]["params"]
    files = list(cache.glob("*.json"))
    assert len(files) == 1 and "aes" in json.loads(files[0].read_text())["key"]
    # at the plan's chain, every block (m=771 holds 2) named: the same circuit, the same plan
    proc, d = run(tmp_path, *base, "--bits", first["bits"], "--blocks", 2)
    assert proc.returncode == 0 and d["correct"], proc.stderr
    assert d["plan"]["cache"]["hits"] == 1 and d["plan"]["cache"]["misses"] == 0
    assert [r["capacity_bits"] for r in d["per_round"]] == pytest.approx(first["round_capacity_bits"], abs=1e-6)
    for other in (["--seed", 2], ["--c", 4]):
        proc, d = run(tmp_path, *base, *other, "--plan")
        assert proc.returncode == 0 and d["plan"]["cache"]["misses"] == 1, proc.stderr
    assert len(list(cache.glob("*.json"))) == 3
    files[0].write_text("{ not json")
    proc, d = run(tmp_path, *base, "--plan")
    assert proc.returncode == 0 and d["plan"]["cache"]["misses"] == 1 and strip(d["plan"]) == strip(first)
    json.loads(files[0].read_text())  # rewritten
    # a sliced plan's lane widths (runners/backend/lanes.h) come back from the cache as counted
    sliced = []
    for i in range(2):
        proc, d = run(tmp_path / str(i), "--cipher", "aes128", "--m", 257, "--rounds", 1, "--packing", "byte-sliced",
                      "--plan", "--plan-cache", cache)
        assert proc.returncode == 0, proc.stderr
        sliced.append(d["plan"])
    assert sliced[1]["cache"]["hits"] == 1 and sliced[1]["op_counts"] == sliced[0]["op_counts"]
    assert {o["lanes"] for o in sliced[0]["op_counts"] if o["op"] != "targets"} == {16}
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    proc, d = run(tmp_path / "0", "--cipher", "aes128", "--m", 771, "--plan", "--plan-cache", blocker / "x")
    assert proc.returncode == 1 and "--plan-cache" in proc.stderr and "writable directory" in proc.stderr


def test_measure_noise_reports_bound_beside_the_exact_noise(tmp_path):
    """--measure-noise: after every round the noise computed from the secret key is below
    its bound at every root, a few bits under it; the plan reports its union bound."""
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 771, "--rounds", 2, "--measure-noise")
    assert proc.returncode == 0, proc.stderr
    rounds = d["noise_per_round"]
    assert [r["round"] for r in rounds] == [1, 2]
    for r in rounds:
        assert r["measured_within_bound"] is True
        assert 0 < r["slack_bits"] < 15 and r["noise_bound_bits"] > r["noise_measured_bits"]
    assert "round 2 noise: bound 2^" in proc.stderr
    assert d["plan"]["random_terms"] > 0 and d["plan"]["log2_failure_probability"] <= -40
    (tmp_path / "clear").mkdir()
    proc, d = run(tmp_path / "clear", "--cipher", "aes128", "--backend", "clear", "--m", 771, "--measure-noise")
    assert proc.returncode == 1 and d is None and "--measure-noise needs --backend bgv" in proc.stderr


def test_security_target_chooses_digits_and_key_weight(tmp_path):
    """--security-target: every key weight of HElib's table (120..300) is planned, or said
    why it cannot win (its chain is at least the lightest key's), and the fewest digits,
    then the shortest chain, then the lightest key wins; a given --hwt is kept; an
    unreachable target is refused with what each weight reaches."""
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "4369", "--rounds", "2", "--security-target", "60",
                           "--plan", "--json", str(tmp_path / "a.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    d = json.loads((tmp_path / "a.json").read_text())
    assert (d["params"]["c"], d["params"]["hwt"]) == (3, 120) and d["params"]["security"] >= 60
    assert "hwt=120," in d["plan"]["choice"]  # planned: the c=3 it reaches cannot be beaten on digits
    assert all(f"hwt={w}: not planned (at the lightest key's" in d["plan"]["choice"] for w in (150, 200, 300))
    # chains_tried counts every search's chains: here the one weight planned, at the digits
    # chosen (the re-plan there is that plan); at other digits the re-plan's chains add
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "4369", "--rounds", "2", "--hwt", "120", "--c", "3",
                           "--plan", "--plan-cache", "", "--json", str(tmp_path / "w.json")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    alone = json.loads((tmp_path / "w.json").read_text())["plan"]
    assert alone["bits"] == d["plan"]["bits"] and d["plan"]["chains_tried"] == alone["chains_tried"]
    # a target just past c=3's security: the weight's search at c=3, then the re-plan at c=4
    ten = ["--cipher", "aes128", "--m", 4369, "--hwt", 120, "--plan", "--plan-cache", ""]
    (tmp_path / "c3").mkdir(), (tmp_path / "c4").mkdir(), (tmp_path / "t").mkdir()
    proc, c3 = run(tmp_path / "c3", *ten, "--c", 3)
    assert proc.returncode == 0, proc.stderr
    proc, c4 = run(tmp_path / "c4", *ten, "--c", 4, "--bits-hint", c3["plan"]["bits"], "--hint-is-plan")
    assert proc.returncode == 0, proc.stderr
    target = round(c3["params"]["security"] + 0.05, 2)
    assert c4["params"]["security"] >= target, "c=4 no longer reaches past c=3's security at m=4369"
    proc, t = run(tmp_path / "t", *ten, "--security-target", target)
    assert proc.returncode == 0, proc.stderr
    assert t["params"]["c"] == 4 and t["plan"]["bits"] == c4["plan"]["bits"]
    assert t["plan"]["chains_tried"] == c3["plan"]["chains_tried"] + c4["plan"]["chains_tried"]
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "4369", "--rounds", "2", "--security-target", "60",
                           "--hwt", "150", "--plan", "--json", str(tmp_path / "b.json")],
                          capture_output=True, text=True, timeout=300)
    d = json.loads((tmp_path / "b.json").read_text())
    assert d["params"]["hwt"] == 150 and "hwt=120," not in d["plan"]["choice"]
    proc = subprocess.run([str(BIN), "--cipher", "aes128", "--m", "4369", "--rounds", "2", "--security-target", "100",
                           "--plan", "--json", str(tmp_path / "c.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "--security-target 100: the planned chains at m=4369 reach at most" in proc.stderr
    assert "use a larger m" in proc.stderr and not (tmp_path / "c.json").exists()


def test_security_target_skips_only_weights_that_cannot_win(tmp_path):
    """--security-target plans the heavier keys by the digits they need at the lightest key's
    chain and skips those that cannot win: its choice is the least (digits, chain, weight)
    over every weight planned on its own. At m=21845 the lightest key needs c=4 for both
    targets, a heavier one c=3 (200 and 300 for 170 bits, 300 alone for 180)."""
    base = ["--cipher", "aes128", "--m", 21845, "--rounds", 2, "--plan", "--plan-cache", ""]
    for target in (170, 180):
        alone = {}
        for w in (120, 150, 200, 300):
            (tmp_path / f"{target}_{w}").mkdir()
            proc, d = run(tmp_path / f"{target}_{w}", *base, "--hwt", w, "--security-target", target)
            if proc.returncode == 0:
                bits_at_c3 = int(re.search(rf"hwt={w}, (\d+) bits", d["plan"]["choice"]).group(1))
                alone[w] = (d["params"]["c"], bits_at_c3, w)
        assert alone, f"no key weight reaches {target} bits at m=21845"
        (tmp_path / f"{target}").mkdir()
        proc, d = run(tmp_path / f"{target}", *base, "--security-target", target)
        assert proc.returncode == 0, proc.stderr
        assert (d["params"]["c"], d["params"]["hwt"]) == min(alone.values())[::2], (target, alone, d["plan"]["choice"])
        skipped = [w for w in alone if f"hwt={w}: not planned" in d["plan"]["choice"]]
        assert all(alone[w] > min(alone.values()) for w in skipped)


def test_bgv_aes_full_rounds(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--bits", 1500,
                  "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["ciphertext_hex"] == AES_C1["ciphertext_bytes"]
    assert d["backend"] == "bgv" and d["params"]["bits"] == 1500 and d["params"]["security"] > 0
    caps = [r["capacity_bits"] for r in d["per_round"]]
    assert caps == sorted(caps, reverse=True) and caps[-1] > 0
    assert d["timings"]["keygen_s"] > 0


@pytest.mark.parametrize("packing", ["packed", "sliced"])
def test_bgv_vision_one_round(tmp_path, packing):
    v = vector("vision_gf2_32_m4.json", 1)
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", 32, "--m", 641, "--bits", 520, "--rounds", 1,
                  "--packing", packing, "--key", v["key_bytes"], "--plaintext", v["plaintext_bytes"], "--decrypt")
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["ciphertext_hex"] == v["plaintext_bytes"]
    assert d["input_hex"] == "".join(x[2:] for x in v["round_states"][0])


def test_fused_linear_layers_plan_a_shorter_chain_and_decrypt(tmp_path):
    """--linear fused: the affine maps with the linear layers as one map; the plan is
    shorter than apart (one layer of constant products a step instead of two), the run at
    it decrypts, and the JSON says which was used and names the fused steps."""
    plans = {}
    for lin in ("separate", "fused"):
        path = tmp_path / f"{lin}.json"
        proc = subprocess.run([str(BIN), "--cipher", "vision", "--field-bits", "64", "--m", "641", "--rounds", "2",
                               "--linear", lin, "--plan", "--json", str(path)], capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        plans[lin] = json.loads(path.read_text())
        assert plans[lin]["linear"] == lin
    assert plans["fused"]["plan"]["bits"] < plans["separate"]["plan"]["bits"]
    proc, d = run(tmp_path, "--cipher", "vision", "--field-bits", 64, "--m", 641, "--rounds", 2, "--linear", "fused")
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["linear"] == "fused" and d["params"]["bits"] == plans["fused"]["plan"]["bits"]
    assert set(d["per_round"][0]["ops"]) == {"inversion", "affine1+matmul", "keyadd", "affine2+matmul"}
    (tmp_path / "aes").mkdir()
    proc, d = run(tmp_path / "aes", "--cipher", "aes128", "--backend", "clear", "--m", 771, "--linear", "fused",
                  "--key", AES_C1["key_bytes"], "--plaintext", AES_C1["plaintext_bytes"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] and d["ciphertext_hex"] == AES_C1["ciphertext_bytes"]
    assert set(d["per_round"][0]["ops"]) == {"inversion", "affine+shiftrows_mixcolumns", "addroundkey"}


def test_wrong_result_exits_2_with_invalid_timings(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--backend", "clear", "--m", 771, "--corrupt-output")
    assert proc.returncode == 2
    assert "WRONG RESULT" in proc.stderr
    assert d["correct"] is False and d["wrong_blocks"] == 1
    assert "timings" not in d and "per_round" not in d
    assert set(d["invalid_timings"]) == {"timings", "per_round"}


def test_capacity_exhausted_fails_cleanly(tmp_path):
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 257, "--bits", 200, "--force")
    assert proc.returncode == 1 and d is None
    assert "AES-128 GF(2^8)^16" in proc.stderr and "use more --bits" in proc.stderr


def test_blocks_and_seed_are_reproducible(tmp_path):
    args = ("--cipher", "vision", "--field-bits", 16, "--backend", "clear", "--m", 257, "--packing", "sliced",
            "--blocks", 5, "--seed", 42)
    proc1, d1 = run(tmp_path, *args)
    proc2, d2 = run(tmp_path, *args)
    assert proc1.returncode == 0 and proc2.returncode == 0
    assert d1["blocks"] == 5 and d1["blocks_per_run_max"] == 16
    assert d1["ciphertext_hex"] == d2["ciphertext_hex"] and d1["key_fingerprint"] == d2["key_fingerprint"]
    proc3, d3 = run(tmp_path, *args[:-1], 43)
    assert d3["key_fingerprint"] != d1["key_fingerprint"]


@pytest.mark.parametrize("cipher,field_bits,m", [("mimc", 31, 311), ("chaghri", 63, 2413)])
def test_catalog_entries_run_and_report_their_steps(tmp_path, cipher, field_bits, m):
    """Any entry of the catalog runs on BGV at its planned chain, every block correct, with
    per-round times under the step names the catalog lists for it."""
    proc, d = run(tmp_path, "--cipher", cipher, "--field-bits", field_bits, "--m", m, "--rounds", 2)
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] is True and d["wrong_blocks"] == 0 and d["cipher"] == cipher
    out = tmp_path / "catalog.json"
    subprocess.run([str(BIN), "--list-ciphers", "--json", str(out)], check=True)
    inst = next(i for c in json.loads(out.read_text())["ciphers"] for i in c["instances"] if i["id"] == d["instance_id"])
    assert inst["n"] == field_bits and d["rounds"] == 2 and d["rounds_spec"] == inst["rounds"]
    assert set(d["per_round"][0]["ops"]) == set(inst["steps"]["separate"])
    assert d["params"]["bits"] == d["plan"]["bits"]


# ---- Prime-field instances (F_p): the clear backend and the engine at p ----

def mimc_prime_vector(p, index):
    return json.loads((CIPHERS / "mimc" / f"vectors_fp_{p}.json").read_text())["vectors"][index]


@pytest.mark.parametrize("p,iid,m,packing", [(65537, "mimcp17", 257, "packed"), (65537, "mimcp17", 65536, "sliced"),
                                             (8088322049, "mimcp33", 4369, "packed")])
def test_mimc_prime_on_the_clear_backend(tmp_path, p, iid, m, packing):
    """MiMC over F_p: Sage's vector as block 0 (decimal elements), every block checked
    against the reference, one square and one product per round, no automorphism."""
    v = mimc_prime_vector(p, 3)
    proc, d = run(tmp_path, "--cipher", "mimc", "--p", p, "--backend", "clear", "--m", m, "--packing", packing,
                  "--key", v["key_text"], "--plaintext", v["plaintext_text"])
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] is True and d["wrong_blocks"] == 0
    assert d["instance_id"] == iid and d["instance"] == f"F_{p}^1" and d["p"] == p and d["params"]["p"] == p
    assert d["ciphertext"] == v["ciphertext_text"] == d["expected"] and d["plaintext"] == v["plaintext_text"]
    assert "ciphertext_hex" not in d and "plaintext_hex" not in d
    assert d["rounds"] == d["rounds_spec"] == (11 if p == 65537 else 21)
    assert all(r["counts"]["mul"] == 2 and r["counts"]["automorph"] == 0 for r in d["per_round"])
    assert set(d["per_round"][0]["ops"]) == {"keyadd", "cube"}
    assert d["automorphism_keys"] == 0 and d["encryption"] == "none"
    assert d["blocks"] == d["params"]["slots"]
    proc, d2 = run(tmp_path, "--instance", iid, "--backend", "clear", "--m", m, "--packing", packing,
                   "--key", v["key_text"], "--plaintext", v["plaintext_text"])
    assert proc.returncode == 0 and d2["ciphertext"] == d["ciphertext"]


@pytest.mark.parametrize("iid,m,rounds", [("mimcp17", 256, None), ("mimcp33", 256, 3)])
def test_mimc_prime_on_bgv_planned_and_checked(tmp_path, iid, m, rounds):
    """MiMC over F_p on the engine at plaintext modulus p: --plan, then the run at the plan
    (Sage's vector as block 0, every one of the m/2 slots a block), every block checked, the
    capacity after each round the plan's, p in the record and in params."""
    p = 65537 if iid == "mimcp17" else 8088322049
    v = mimc_prime_vector(p, 3)
    args = ["--instance", iid, "--m", m, "--key", v["key_text"], "--plaintext", v["plaintext_text"]]
    if rounds:
        args += ["--rounds", rounds]
    (tmp_path / "plan").mkdir()
    proc, plan = run(tmp_path / "plan", *args, "--plan")
    assert proc.returncode == 0, proc.stderr
    assert plan["params"]["p"] == p and plan["backend"] == "bgv" and plan["plan"]["min_capacity_bits"] >= 0
    proc, d = run(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert d["correct"] is True and d["wrong_blocks"] == 0 and d["backend"] == "bgv"
    assert d["p"] == p and d["params"]["p"] == p and d["params"] == plan["params"]
    assert d["blocks"] == d["params"]["slots"] == m // 2 and d["params"]["d"] == 1
    assert d["plaintext"] == v["plaintext_text"] and d["ciphertext"] == d["expected"]
    if not rounds:
        assert d["ciphertext"] == v["ciphertext_text"] and d["rounds"] == 11
    assert [r["capacity_bits"] for r in d["per_round"]] == pytest.approx(plan["plan"]["round_capacity_bits"], abs=1e-6)
    assert all(r["counts"]["mul"] == 2 and r["counts"]["automorph"] == 0 for r in d["per_round"])
    assert d["plan"]["bits"] == d["params"]["bits"]


def test_prime_plan_cache_key_names_p(tmp_path):
    """The plan cache's key carries p: a prime-field plan's file says p=65537, a GF(2^n)
    plan's p=2, and each is read back."""
    cache = tmp_path / "plans"
    for args in (["--instance", "mimcp17", "--m", 256, "--rounds", 2], ["--cipher", "mimc", "--field-bits", 31,
                                                                         "--m", 311, "--rounds", 2]):
        for i in range(2):
            (tmp_path / str(i)).mkdir(exist_ok=True)
            proc, d = run(tmp_path / str(i), *args, "--plan", "--plan-cache", cache)
            assert proc.returncode == 0, proc.stderr
        assert d["plan"]["cache"]["hits"] == 1
    keys = sorted(json.loads(f.read_text())["key"] for f in cache.glob("*.json"))
    assert len(keys) == 2 and any("|p=65537|" in k for k in keys) and any("|p=2|" in k for k in keys)


@pytest.mark.parametrize("args,message", [
    (["--instance", "mimcp17", "--m", 65537], "p=65537 divides m=65537: the plaintext modulus must be coprime to m"),
    (["--instance", "mimcp17", "--m", 12], "m=12 is even but not a power of two: the ring at p=65537 needs odd m or m = 2^k"),
    (["--instance", "mimcp17", "--m", 256, "--packing", "bit-sliced"], "--packing bit-sliced: mimc has packed or sliced"),
])
def test_prime_field_refused_rings_on_bgv(tmp_path, args, message):
    """The engine's backend refuses the rings the clear backend refuses at p, in one line, no JSON."""
    proc, d = run(tmp_path, *args)
    assert proc.returncode == 1 and d is None
    assert message in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--cipher", "mimc", "--p", 7, "--m", 257],
     "MiMC over F_7: 3 divides p - 1 = 6, so x^3 is not a permutation of F_7 (MiMC over F_p needs p = 2 mod 3)"),
    (["--instance", "mimcp17", "--m", 257, "--key", 65537],
     "--key 65537: element 0 is 65537, not below p=65537 (F_65537 elements are 0..65536)"),
    (["--instance", "mimcp17", "--m", 257, "--plaintext", "0x10"],
     "--plaintext 0x10: element 0 '0x10' is not a decimal number (F_65537 elements are written 0..65536, "
     "comma-separated)"),
    (["--instance", "mimcp17", "--m", 257, "--key", "1,2"], "--key 1,2 has 2 elements: mimcp17 needs 1"),
    (["--instance", "mimcp17", "--m", 65537], "p=65537 divides m=65537: the plaintext modulus must be coprime to m"),
    (["--instance", "mimcp17", "--m", 12], "m=12 is even but not a power of two: the ring at p=65537 needs odd m or m = 2^k"),
    (["--instance", "mimcp17", "--m", 257, "--packing", "bit-sliced"], "--packing bit-sliced: mimc has packed or sliced"),
    (["--instance", "mimcp17", "--m", 257, "--decrypt"],
     "mimcp17: no cheap inverse for --decrypt: step cube: the inverse of x^3 in F_65537 is x^43691"),
    (["--instance", "mimcp17", "--m", 257, "--blocks", 17], "--blocks 17: m=257 holds 16 blocks of"),
])
def test_prime_field_errors(tmp_path, args, message):
    proc, d = run(tmp_path, "--backend", "clear", *args)
    assert proc.returncode == 1 and d is None
    assert message in proc.stderr, proc.stderr


def test_catalog_lists_prime_field_instances(tmp_path):
    out = tmp_path / "catalog.json"
    subprocess.run([str(BIN), "--list-ciphers", "--json", str(out)], check=True)
    insts = {i["id"]: i for c in json.loads(out.read_text())["ciphers"] for i in c["instances"]}
    assert insts["mimcp17"]["p"] == 65537 and insts["mimcp17"]["label"] == "F_65537^1"
    assert insts["mimcp17"]["display"] == "MiMC F_65537" and insts["mimcp17"]["rounds"] == 11
    assert insts["mimcp17"]["block_bits"] == 16 and insts["mimcp17"]["key_bytes"] == 3
    assert insts["mimcp33"]["p"] == 8088322049 and insts["mimcp33"]["block_bits"] == 32
    assert insts["mimcp17"]["decrypt"] is False and insts["mimcp17"]["steps"]["separate"] == ["keyadd", "cube"]
    block = {i["id"] for c in json.loads(out.read_text())["ciphers"] if c["kind"] == "block" for i in c["instances"]}
    assert all(i["p"] == 2 for k, i in insts.items() if k in block and not k.startswith("mimcp"))


def test_ctr_mode_meets_every_named_model_in_one_search(tmp_path):
    """--mode ctr (and the keystream entries) take --security-models as block mode does:
    the one target search counts the lowest figure of the models named."""
    proc, d = run(tmp_path, "--cipher", "aes128", "--m", 4369, "--mode", "ctr", "--security-target", 10,
                  "--security-models", "helib,coresvp", "--plan")
    assert proc.returncode == 0, proc.stderr
    assert "by HElib's formula and core-SVP (the lowest counts)" in d["plan"]["choice"]
