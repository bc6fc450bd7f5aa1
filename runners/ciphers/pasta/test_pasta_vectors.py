"""IAIK's Pasta known-answer tests (kat_pasta3.json, kat_pasta4.json) against the Python
reference (pasta_ref.py), which was written apart from the C++ one that pasta_test checks
against the same files."""
import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import pasta_ref  # noqa: E402

PRIMES = [65537, 8088322049, 1096486890805657601]


def kat(name):
    return json.loads((HERE / f"kat_{name}.json").read_text())


@pytest.mark.parametrize("name", ["pasta3", "pasta4"])
def test_kat_files_name_their_source_and_every_prime(name):
    data = kat(name)
    t, r = pasta_ref.VARIANTS[name]
    assert (data["t"], data["r"]) == (t, r)
    src = data["source"]
    assert src["repository"] == "https://github.com/IAIK/hybrid-HE-framework"
    assert src["path"] == f"ciphers/pasta_{name[-1]}/plain/testvectors.h"
    assert len(src["commit"]) == 40
    assert [v["p"] for v in data["vectors"]] == PRIMES
    for v in data["vectors"]:
        p = v["p"]
        assert len(v["key"]) == 2 * t and len(v["plaintext"]) == t == len(v["keystream"])
        assert v["keystream"] == [(c - m) % p for c, m in zip(v["ciphertext"], v["plaintext"])]


@pytest.mark.parametrize("name", ["pasta3", "pasta4"])
def test_python_reference_gives_iaik_keystream(name):
    data = kat(name)
    for v in data["vectors"]:
        ks = pasta_ref.keystream(pasta_ref.VARIANTS[name], v["p"], v["key"], data["nonce"], data["counter"])
        assert ks == v["keystream"], f"{name} at p={v['p']}"


def test_another_block_differs():
    data = kat("pasta4")
    v = data["vectors"][0]
    ks = pasta_ref.keystream(pasta_ref.VARIANTS["pasta4"], v["p"], v["key"], data["nonce"], 1)
    assert ks != v["keystream"] and all(0 <= x < v["p"] for x in ks)


def test_key_outside_the_field_is_refused():
    with pytest.raises(ValueError, match="elements of F_65537"):
        pasta_ref.keystream(pasta_ref.VARIANTS["pasta4"], 65537, [65537] + [0] * 63, 0, 0)
