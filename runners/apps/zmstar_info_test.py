"""build/bin/zmstar_info's request protocol: "m", "m basic" and "limits" as before p existed
(no p field), "m p=P" and "m basic p=P" at a prime P (with a p field), and the refusals,
each naming the value. The ring facts themselves are tested in the engine
(engine/algebra/zmstar_test.cpp) and against Sage (sage/cbparams/test_cyclotomic.py).
Needs the binary (make build); set CB_BUILD_DIR to use another build tree. Skipped only
when the binary is missing AND CB_ALLOW_NO_RUNNER=1."""

import json
import os
import pathlib
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = pathlib.Path(os.environ.get("CB_BUILD_DIR", REPO / "build"))
BINARY = BUILD / "bin" / "zmstar_info"


@pytest.fixture(scope="module")
def ask():
    if not BINARY.exists():
        if os.environ.get("CB_ALLOW_NO_RUNNER") == "1":
            pytest.skip(f"{BINARY} is missing (CB_ALLOW_NO_RUNNER=1)")
        pytest.fail(f"{BINARY} is missing: run `make build` (or set CB_ALLOW_NO_RUNNER=1 to skip)")

    def run(*requests):
        out = subprocess.run([str(BINARY)], input="".join(r + "\n" for r in requests), capture_output=True,
                             text=True, timeout=120, check=True).stdout
        lines = out.splitlines()
        assert len(lines) == len(requests)
        return [json.loads(x) for x in lines], lines
    return run


def test_p2_answers_have_no_p_field(ask):
    (full, basic, lim), lines = ask("4369", "4369 basic", "limits")
    assert "p" not in full and "p" not in basic
    assert lines[0] == ('{"d":16,"ell":256,"factors":[[17,1],[257,1]],"gens":[3,317],"ghs16":true,'
                        '"good":[false,false],"m":4369,"ords":[128,2],"phi":4096,"slots_ok":true,"twists":[8,1]}')
    assert lines[1] == '{"d":16,"ell":256,"factors":[[17,1],[257,1]],"m":4369,"phi":4096}'
    assert set(lim) == {"m_max", "max_slot_degree", "prime_bits"}


def test_p_field_and_the_ring_at_p(ask):
    (full, basic, two), _ = ask("65536 p=65537", "65536 basic p=65537", "4369 p=2")
    assert (full["p"], full["d"], full["ell"], full["gens"], full["ords"], full["twists"], full["ghs16"]) == \
        (65537, 1, 32768, [3, 32767], [16384, 2], [0, 0], False)
    assert basic == {"m": 65536, "p": 65537, "factors": [[2, 16]], "phi": 32768, "d": 1, "ell": 32768}
    assert two["p"] == 2 and two["gens"] == [3, 317]   # p=2 asked: the same ring, with its p


@pytest.mark.parametrize("request_, answer", [
    ("9 p=3", {"m": 9, "p": 3, "error": "p=3 divides m=9: the plaintext modulus must be coprime to m"}),
    ("257 basic p=65535",
     {"m": 257, "p": 65535, "error": "p=65535 is not prime: the plaintext modulus must be a prime"}),
    ("12 p=5", {"m": 12, "p": 5,
                "error": "m=12 is even but not a power of two: the ring at p=5 needs odd m or m = 2^k"}),
    ("16", {"m": 16, "error": "m=16 is a power of two and p=2: no slots, Phi_m = X^8 + 1 = (X + 1)^8 mod 2; "
                              "the ring at p=2 needs odd m"}),
    ("53262", {"m": 53262, "error": "m=53262 is even: the ring needs odd m"}),
    ("257 p=x", {"m": 257, "error": "zmstar_info: \"p=x\" is no plaintext modulus (use p=P, P a prime)"}),
    ("257 p=3 p=5", {"m": 257, "error": "zmstar_info: unknown mode \"p=5\" (use \"basic\" or nothing)"}),
    ("257 fast", {"m": 257, "error": "zmstar_info: unknown mode \"fast\" (use \"basic\" or nothing)"}),
])
def test_refusals(ask, request_, answer):
    (got,), _ = ask(request_)
    assert got == answer
