"""HERA-5's second implementation (hera_ref.py, Python's hashlib SHAKE128) against IAIK's
known-answer tests (kat_hera5.json), which hera_test checks the C++ reference and the
catalog program against as well."""
import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hera_ref  # noqa: E402

KAT = json.loads((HERE / "kat_hera5.json").read_text())


def test_kat_file_names_its_source():
    src = KAT["source"]
    assert src["repository"] == "https://github.com/IAIK/hybrid-HE-framework"
    assert src["path"] == "ciphers/hera_5/plain/testvectors.h"
    assert len(src["commit"]) == 40
    assert sorted(v["p"] for v in KAT["vectors"]) == [65537, 8088322049, 1096486890805657601]


@pytest.mark.parametrize("v", KAT["vectors"], ids=lambda v: v["name"])
def test_keystream_matches_iaik(v):
    p = v["p"]
    assert v["keystream"] == [(c - m) % p for c, m in zip(v["ciphertext"], v["plaintext"])]
    ks = hera_ref.keystream(p, v["key"], KAT["nonce"], KAT["counter"])
    assert ks == v["keystream"]
    # Decryption as IAIK's DEC test runs it: ciphertext - keystream is the plaintext.
    assert [(c - k) % p for c, k in zip(v["ciphertext"], ks)] == v["plaintext"]


def test_a_changed_key_or_counter_changes_the_keystream():
    v = KAT["vectors"][0]
    p = v["p"]
    key = list(v["key"])
    key[5] = (key[5] + 1) % p
    assert hera_ref.keystream(p, key, KAT["nonce"], 0) != v["keystream"]
    assert hera_ref.keystream(p, v["key"], KAT["nonce"], 1) != v["keystream"]


def test_draws_are_masked_and_rejected():
    # p = 65537 has 17 bits: draws are the low 17 bits of each 8-byte word, kept below p.
    xof = hera_ref.RandomElements(65537, 123456789, 0)
    assert xof.mask == (1 << 17) - 1
    rc = hera_ref.round_constants(65537, 123456789, 0)
    assert len(rc) == 6 and all(len(r) == 16 and all(0 <= x < 65537 for x in r) for r in rc)
    # The same prefix of the stream, however it is read.
    assert hera_ref.RandomElements(65537, 123456789, 0).vector(96) == [x for r in rc for x in r]


def test_mix_layers_are_circulant_2311():
    p = 65537
    e = [0] * 16
    e[0] = 1
    # Column 0 of MixColumns' matrix is (2, 1, 1, 3): x_0 feeds rows 0..3 of column 0.
    assert hera_ref.mix_columns(p, e) == [2, 1, 1, 3] + [0] * 12
    # MixRows acts on elements 0, 4, 8, 12 (row 0 of the 4 x 4 state).
    y = hera_ref.mix_rows(p, e)
    assert [y[i] for i in (0, 4, 8, 12)] == [2, 1, 1, 3] and sum(y) == 7


def test_bad_key_is_refused():
    with pytest.raises(ValueError, match="below p=65537"):
        hera_ref.keystream(65537, [65537] + [0] * 15, 0, 0)
    with pytest.raises(ValueError, match="16 elements"):
        hera_ref.keystream(65537, [0] * 15, 0, 0)
