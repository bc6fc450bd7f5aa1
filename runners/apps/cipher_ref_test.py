"""build/bin/cipher_ref against the `cryptography` package's AES-128 (random keys and
blocks, both directions) and against every AES and Vision test vector, plus its error
messages. Needs the binary (make build); set CB_BUILD_DIR to use another build tree.
Skipped only when the binary is missing AND CB_ALLOW_NO_RUNNER=1."""

import json
import os
import pathlib
import random
import subprocess

import pytest
from cbparams import catalog
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("CB_BUILD_DIR", REPO / "build"))
BINARY = BUILD / "bin" / "cipher_ref"


@pytest.fixture(scope="module")
def cipher_ref():
    if not BINARY.exists():
        if os.environ.get("CB_ALLOW_NO_RUNNER") == "1":
            pytest.skip(f"{BINARY} is missing (CB_ALLOW_NO_RUNNER=1)")
        pytest.fail(f"{BINARY} is missing: run `make build` (or set CB_ALLOW_NO_RUNNER=1 to skip)")

    def run(*args, check=True):
        p = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=60)
        if check:
            assert p.returncode == 0, p.stderr
            return p.stdout.strip()
        return p
    return run


def aes_ecb(key: bytes, block: bytes, decrypt: bool) -> bytes:
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(block) + op.finalize()


def test_aes_against_cryptography(cipher_ref):
    rng = random.Random(20261122)
    for _ in range(50):
        key, block = rng.randbytes(16), rng.randbytes(16)
        assert cipher_ref("--cipher", "aes128", "--key", key.hex(), "--plaintext", block.hex()) \
            == aes_ecb(key, block, False).hex()
        assert cipher_ref("--cipher", "aes128", "--key", key.hex(), "--ciphertext", block.hex(), "--decrypt") \
            == aes_ecb(key, block, True).hex()


def test_aes_vectors(cipher_ref):
    d = json.loads((REPO / "runners" / "ciphers" / "aes128" / "vectors.json").read_text())
    for v in d["vectors"]:
        ct = cipher_ref("--cipher", "aes128", "--key", v["key_bytes"], "--plaintext", v["plaintext_bytes"])
        assert ct == v["ciphertext_bytes"], v["name"]
        pt = cipher_ref("--cipher", "aes128", "--key", v["key_bytes"], "--plaintext", ct, "--decrypt")
        assert pt == v["plaintext_bytes"], v["name"]


def state_bytes(state, n):
    return "".join(format(int(x, 16), "0{}x".format(n // 4)) for x in state)


@pytest.mark.parametrize("n,m", [(8, 16), (16, 8), (32, 4), (64, 2)])
def test_vision_vectors(cipher_ref, n, m):
    d = json.loads((REPO / "runners" / "ciphers" / "vision" / "vectors" / f"vision_gf2_{n}_m{m}.json").read_text())
    for v in d["vectors"]:
        base = ["--cipher", "vision", "--field-bits", str(n), "--key", v["key_bytes"]]
        ct = cipher_ref(*base, "--state-size", str(m), "--plaintext", v["plaintext_bytes"])
        assert ct == v["ciphertext_bytes"], v["name"]
        assert cipher_ref(*base, "--plaintext", ct, "--decrypt") == v["plaintext_bytes"]
        # Reduced rounds: round_states[r-1] is the r-round output (13 = the FHE paper's GF(2^64)^2).
        for r in sorted({1, 2, 13 if d["rounds"] >= 13 else d["rounds"] - 1}):
            want = state_bytes(v["round_states"][r - 1], n)
            got = cipher_ref(*base, "--rounds", str(r), "--plaintext", v["plaintext_bytes"])
            assert got == want, (v["name"], r)
            assert cipher_ref(*base, "--rounds", str(r), "--plaintext", got, "--decrypt") == v["plaintext_bytes"]


@pytest.mark.parametrize("args,message", [
    (["--cipher", "aes128", "--key", "00" * 15, "--plaintext", "00" * 16], "key has 15 bytes: AES-128 needs 16"),
    (["--cipher", "aes128", "--key", "00" * 16, "--plaintext", "00" * 17], "plaintext has 17 bytes: AES-128 needs 16"),
    (["--cipher", "aes128", "--key", "0" * 31, "--plaintext", "00" * 16], "key has 31 hex digits"),
    (["--cipher", "aes128", "--key", "zz" * 16, "--plaintext", "00" * 16], "key has 'z' at position 0"),
    (["--cipher", "vision", "--field-bits", "32", "--key", "00" * 8, "--plaintext", "00" * 16],
     "key has 8 bytes: Vision GF(2^32)^4 needs 16"),
    (["--cipher", "vision", "--field-bits", "8", "--state-size", "8", "--key", "00" * 8, "--plaintext", "00" * 8],
     "vision has no instance with --field-bits 8 and --state-size 8: it has GF(2^8)^16, GF(2^16)^8, GF(2^32)^4, GF(2^64)^2"),
    (["--cipher", "vision", "--field-bits", "64", "--rounds", "19", "--key", "00" * 16, "--plaintext", "00" * 16],
     "rounds=19 is outside [1, 18]"),
    (["--cipher", "vision", "--field-bits", "12", "--key", "00" * 16, "--plaintext", "00" * 16],
     "vision has no instance with --field-bits 12"),
    (["--cipher", "rijndael", "--key", "00" * 16, "--plaintext", "00" * 16], "not in the catalog ({catalog})"),
])
def test_errors(cipher_ref, args, message):
    if "{catalog}" in message:  # the catalog's names, asked of it (a new entry leaves this green)
        message = message.format(catalog=", ".join(c["name"] for c in catalog.catalog()["ciphers"]))
    p = cipher_ref(*args, check=False)
    assert p.returncode != 0
    assert message in p.stderr, p.stderr


# ---- Prime-field instances: decimal elements in and out ----

@pytest.mark.parametrize("p,iid", [(65537, "mimcp17"), (8088322049, "mimcp33")])
def test_mimc_prime_vectors(cipher_ref, p, iid):
    """Sage's vectors (mimc_sage.py, GF(p)) through cipher_ref, by --p and by --instance."""
    d = json.loads((REPO / "runners" / "ciphers" / "mimc" / f"vectors_fp_{p}.json").read_text())
    for v in d["vectors"]:
        by_p = cipher_ref("--cipher", "mimc", "--p", str(p), "--key", v["key_text"], "--plaintext", v["plaintext_text"])
        assert by_p == v["ciphertext_text"], v["name"]
        assert cipher_ref("--instance", iid, "--key", v["key_text"], "--plaintext", v["plaintext_text"]) == by_p
        for r in (1, 2, d["rounds"] - 1):  # reduced rounds: round state r plus the key, mod p
            want = (v["round_states"][r - 1][0] + v["key"][0]) % p
            assert cipher_ref("--instance", iid, "--rounds", str(r), "--key", v["key_text"],
                              "--plaintext", v["plaintext_text"]) == str(want), (v["name"], r)


@pytest.mark.parametrize("args,message", [
    (["--cipher", "mimc", "--p", "7", "--key", "1", "--plaintext", "2"],
     "MiMC over F_7: 3 divides p - 1 = 6, so x^3 is not a permutation of F_7 (MiMC over F_p needs p = 2 mod 3)"),
    (["--cipher", "mimc", "--p", "65536", "--key", "1", "--plaintext", "2"],
     "--p 65536: the characteristic is 2 (GF(2^n)) or an odd prime below 2^61"),
    (["--cipher", "mimc", "--p", "11", "--key", "1", "--plaintext", "2"], "mimc has no instance with --p 11: it has"),
    (["--instance", "mimcp17", "--key", "65537", "--plaintext", "2"],
     "--key 65537: element 0 is 65537, not below p=65537 (F_65537 elements are 0..65536)"),
    (["--instance", "mimcp17", "--key", "1", "--plaintext", "2,3"],
     "--plaintext 2,3 has 2 elements: mimcp17 needs 1 (of F_65537, comma-separated)"),
    (["--instance", "mimcp17", "--key", "ff", "--plaintext", "2"],
     "--key ff: element 0 'ff' is not a decimal number (F_65537 elements are written 0..65536, comma-separated)"),
    (["--instance", "mimcp17", "--key", "1", "--plaintext", "2", "--decrypt"],
     "mimcp17: no cheap inverse for --decrypt: step cube: the inverse of x^3 in F_65537 is x^43691"),
    (["--instance", "mimcp33", "--rounds", "22", "--key", "1", "--plaintext", "2"], "rounds=22 is outside [1, 21]"),
    (["--instance", "mimcp17", "--p", "65537", "--key", "1", "--plaintext", "2"],
     "--instance mimcp17 names the instance: drop --field-bits, --state-size and --p"),
    (["--instance", "mimcp17", "--cipher", "aes128", "--key", "1", "--plaintext", "2"],
     "--instance mimcp17 is mimc's, not --cipher aes128's"),
    (["--instance", "mimcp5", "--key", "1", "--plaintext", "2"], "instance mimcp5: not in the catalog ("),
])
def test_prime_field_errors(cipher_ref, args, message):
    p = cipher_ref(*args, check=False)
    assert p.returncode != 0
    assert message in p.stderr, p.stderr
