"""Rasta's second implementation (rasta_ref.py: Python ints as bit rows, its own
Keccak-f[1600] pinned to hashlib's SHAKE256) against IAIK's known-answer tests
(kat_rasta5.json, kat_rasta6.json), which rasta_test checks the C++ reference and the
catalog program against as well, and the vectors it wrote at other nonces and counters
(vectors_python.json, also read by rasta_test)."""
import hashlib
import json
import pathlib
import random
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import rasta_ref  # noqa: E402

KATS = {ident: json.loads((HERE / f"kat_{ident}.json").read_text()) for ident in ("rasta5", "rasta6")}


def test_kat_files_name_their_source():
    for ident, kat in KATS.items():
        src = kat["source"]
        assert src["repository"] == "https://github.com/IAIK/hybrid-HE-framework"
        assert src["path"] == f"ciphers/rasta_{kat['rounds']}/plain/testvectors.h"
        assert len(src["commit"]) == 40
        assert (kat["n"], kat["rounds"]) == rasta_ref.INSTANCES[ident]


@pytest.mark.parametrize("ident", sorted(KATS))
def test_keystream_matches_iaik(ident):
    kat = KATS[ident]
    n, rounds = kat["n"], kat["rounds"]
    for v in kat["vectors"]:
        pt, ct = rasta_ref.from_hex(v["plaintext"], n), rasta_ref.from_hex(v["ciphertext"], n)
        assert rasta_ref.to_hex(pt ^ ct, n) == v["keystream"]
        ks = rasta_ref.keystream(n, rounds, rasta_ref.from_hex(v["key"], n), kat["nonce"], kat["counter"])
        assert rasta_ref.to_hex(ks, n) == v["keystream"]
        # Decryption as IAIK's DEC test runs it.
        assert ct ^ ks == pt


def test_permutation_is_fips202s():
    lanes = [random.Random(1).getrandbits(64) for _ in range(25)]
    assert rasta_ref.keccak_f1600(lanes) == rasta_ref.keccak_f1600_spec(lanes)
    # As SHAKE256's sponge (rate 136, pad 0x1F .. 0x80) on a two-block message: hashlib's bytes.
    msg = bytes(range(200))
    block = bytearray(272)
    block[:200] = msg
    block[200] ^= 0x1F
    block[271] ^= 0x80
    A = [0] * 25
    for off in (0, 136):
        for i in range(17):
            A[i] ^= int.from_bytes(block[off + 8 * i:off + 8 * i + 8], "little")
        A = rasta_ref.keccak_f1600(A)
    out = b"".join(A[i].to_bytes(8, "little") for i in range(17))
    A = rasta_ref.keccak_f1600(A)
    out += b"".join(A[i].to_bytes(8, "little") for i in range(17))
    assert out == hashlib.shake_256(msg).digest(272)


def test_counter_zero_stream_is_shake256_and_others_are_not():
    for n, rounds in rasta_ref.INSTANCES.values():
        assert rasta_ref.xof_bytes(n, rounds, 99, 0, 500) == rasta_ref.shake256_stream(n, rounds, 99, 500)
        assert rasta_ref.xof_bytes(n, rounds, 99, 1, 64) != rasta_ref.shake256_stream(n, rounds, 99, 64)


def test_initial_state_layout():
    s = rasta_ref.initial_state(525, 5, 0x0102030405060708, 0x1112131415161718)
    assert s[:16] == bytes([5, 0, 0, 0, 5, 0, 0, 0, 0x0D, 0x02, 0, 0, 0x0D, 0x02, 0, 0])
    assert s[24:32] == bytes(range(8, 0, -1)) and s[32] == 0x1F
    assert s[40:48] == bytes(range(0x18, 0x10, -1)) and s[135] == 0x80
    assert sum(1 for b in s if b) == 2 + 4 + 8 + 1 + 8 + 1


def test_chi_and_rank():
    n = 351
    assert rasta_ref.chi(1 << 5, n) == (1 << 5) | (1 << 3)
    # x_0 and x_350 set: bit 349 gets x_0 + x_350 x_0 = 0, bit 348 gets x_350, bit 350 keeps itself.
    y = rasta_ref.chi(1 | (1 << 350), n)
    assert [(y >> j) & 1 for j in (0, 348, 349, 350)] == [1, 1, 0, 1]
    rows = [1 << i for i in range(8)]
    assert rasta_ref.rank(rows, 8) == 8
    assert rasta_ref.rank(rows[:7] + [rows[0] ^ rows[3]], 8) == 7


def test_codec_and_refusals():
    n = 525
    v = 1 | (1 << 524)
    assert rasta_ref.to_hex(v, n) == "80" + "00" * 64 + "08"
    assert rasta_ref.from_hex(rasta_ref.to_hex(v, n), n) == v
    with pytest.raises(ValueError, match="padding bit 525"):
        rasta_ref.from_hex("00" * 65 + "04", n)
    with pytest.raises(ValueError, match="65 bytes"):
        rasta_ref.from_hex("00" * 65, n)


def test_python_vectors_are_current():
    # vectors_python.json (read by the C++ test) is what rasta_ref computes.
    assert rasta_ref.main(["--check"]) == 0
