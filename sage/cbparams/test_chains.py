"""The engine's chains as the explorer gets them (chain_info), and chain sizing."""
import json
import math

import pytest

from cbparams import chains as C
from cbparams.errors import ChainError


needs_engine = pytest.mark.skipif(not C.CHAIN_INFO.exists(), reason="engine not built (make build)")


def _is_prime(n: int) -> bool:
    """Fermat to four bases: enough to catch a composite among the engine's primes."""
    return n > 7 and all(pow(a, n - 1, n) == 1 for a in (2, 3, 5, 7))


def _bluestein_length(m: int) -> int:
    n = 1
    while n < 2 * m - 1:
        n *= 2
    return n


@needs_engine
@pytest.mark.parametrize("m, bits, c", [(53261, 905, 3), (163455, 1550, 3), (164737, 3150, 3), (257, 300, 2),
                                        (53261, 820, 2)])
def test_engine_chain_shape(m, bits, c):
    """The engine's chain (asked through chain_info): primes q = 1 mod m N, six ladder primes of
    increasing size first, log2 Q within a couple of bits of the request, digits covering the
    L - S ciphertext primes, P covering the largest digit plus the margin."""
    ch = C.build_chain(m, bits, c)
    step = m * _bluestein_length(m)
    assert len(ch.primes) == ch.L + ch.K == len(set(ch.primes))
    for q in ch.primes:
        assert q % step == 1 and _is_prime(q)
    assert ch.S == 6 and list(ch.primes[:6]) == sorted(ch.primes[:6])
    assert bits - 5 <= ch.log2_q_ct <= bits + 5
    assert sum(ch.digits) == ch.L - ch.S and len(ch.digits) == c  # the small primes are in no digit
    assert ch.log2_q_sp >= ch.log2_max_digit + 19
    assert "small primes" in ch.description
    # one batch answers several requests, in order
    a, b = C.build_chains([(m, bits, c), (257, 300, 2)])
    assert a == ch and b.m == 257


@needs_engine
def test_chain_errors():
    with pytest.raises(ChainError, match="c=9 exceeds the .* ciphertext primes of a 100-bit chain"):
        C.build_chain(257, 100, 9)
    with pytest.raises(ChainError, match="bits=10 is too small"):
        C.build_chain(53261, 10, 1)
    with pytest.raises(ChainError, match="c=0"):
        C.build_chain(53261, 820, 0)
    assert C.build_chains([(257, 100, 9), (257, 300, 2)], refused="none")[0] is None


@needs_engine
def test_sizing_monotonic_in_depth():
    """More rounds or more bits per round never shrink the chain nor raise security."""
    from cbparams.security import coresvp_bits, helib_security
    last_q, last_sec = 0, math.inf
    for rounds in range(1, 15):
        prof = C.Profile("aes", 8, 16, rounds, 76, "test")
        ch = C.build_chain(53261, prof.bits_needed(60), 3)
        sec = min(helib_security(53261, ch.log2_Q, 120, 46080), coresvp_bits(46080, ch.log2_Q, 120))
        assert ch.log2_Q >= last_q and sec <= last_sec
        last_q, last_sec = ch.log2_Q, sec
    bits = [C.Profile("v", 8, 16, 10, bpr, "t").bits_needed(60) for bpr in (50, 76, 149, 238)]
    assert bits == sorted(bits) and bits[1] == 820


def test_load_profiles_defaults():
    from cbparams.config import ROOT
    prof = C.load_profiles(ROOT / "config" / "depth_profiles.yaml", hwt=120)
    assert prof["aes"].bits_needed(60) == 820           # HElib's AES chain
    assert C.load_profiles(ROOT / "config" / "depth_profiles.yaml", hwt=0)["aes"].bits_per_round == 88
    for name, bits in [("vision8", 1550), ("vision16", 2000), ("vision32", 2300)]:
        assert prof[name].bits_needed(60) == bits       # the paper's chains
    assert prof["vision64"].rounds == 13
    # engine model = runners/ciphers/common/noise_budget.cpp: base 40 + R (a + 0.8 levels log2(phi/phi0))
    eng = C.load_profiles(ROOT / "config" / "depth_profiles.yaml", 120, "engine")
    assert eng["aes"].bits_needed(0, phi=4096) == 40 + 10 * 89
    assert eng["aes"].bits_needed(0, phi=46080) == int(40 + 10 * (89 + 4 * (math.log2(46080) - 12)) + 0.999)
    assert eng["vision64"].bits_needed(0, 18, phi=640) == 40 + 18 * 267
    bits = [eng["vision8"].bits_needed(60, phi=phi) for phi in (256, 4096, 65536)]
    assert bits == sorted(bits)


def test_load_profiles_errors(tmp_path):
    with pytest.raises(ChainError, match="does not exist"):
        C.load_profiles(tmp_path / "nope.yaml")
    f = tmp_path / "p.yaml"
    f.write_text("ciphers:\n  aes: {n: 8, state: 16, rounds: 10}\n")
    with pytest.raises(ChainError, match="cipher aes has no positive bits_per_round"):
        C.load_profiles(f)
    f.write_text("bits_per_level: 20\nciphers:\n  aes: {n: 8, state: 16, rounds: 10, levels_per_round: 5}\n")
    assert C.load_profiles(f)["aes"].bits_per_round == 100


def test_measured_bits_per_round(tmp_path):
    (tmp_path / "a").mkdir()
    run = {"cipher": "aes", "per_round": [{"round": r, "capacity_bits": 800 - 70 * r, "seconds": 1}
                                          for r in (1, 2, 3)], "params": {"m": 257}}
    (tmp_path / "a" / "r.json").write_text(json.dumps(run))
    (tmp_path / "a" / "broken.json").write_text("{")
    # run_cipher's own format: cipher/instance/packing, fresh capacity, nulls allowed
    vis = {"cipher": "vision", "instance": "GF(2^16)^8", "packing": "packed", "correct": True,
           "fresh_capacity_bits": 1900, "per_round": [{"round": 1, "capacity_bits": 1700},
                                                      {"round": 2, "capacity_bits": None},
                                                      {"round": 3, "capacity_bits": 1300}]}
    (tmp_path / "a" / "v.json").write_text(json.dumps(vis))
    sliced = dict(vis, packing="sliced", fresh_capacity_bits=5000)
    (tmp_path / "a" / "s.json").write_text(json.dumps(sliced))
    got = C.measured_bits_per_round(str(tmp_path / "**" / "*.json"))
    assert got == {"aes": (70.0, 0), "vision16": (300.0, 0)}
    # toy rings do not count when a minimum phi is asked for
    assert C.measured_bits_per_round(str(tmp_path / "**" / "*.json"), min_phi=1000) == {}
    prof = C.apply_measured({"aes": C.Profile("aes", 8, 16, 10, 76, "x")}, got)
    assert prof["aes"].bits_per_round == 70 and prof["aes"].source.startswith("measured")
    # the engine model is re-anchored at the measured ring and still grows with phi
    eng = C.Profile("aes", 8, 16, 10, 143, "x", levels=5, log2_phi_ref=8, growth=0.8, base=40)
    moved = C.apply_measured({"aes": eng}, {"aes": (150.0, 4096)})["aes"]
    assert moved.per_round(4096) == pytest.approx(150) and moved.per_round(2 ** 14) == pytest.approx(158)


@needs_engine
def test_cli(capsys):
    assert C.main(["--m", "53261", "--bits", "820"]) == 0
    expect = C.build_chain(53261, 820, 3).log2_Q
    assert f"log2 Q={expect:.3f}" in capsys.readouterr().out
    assert C.main(["--m", "257", "--bits", "100", "--c", "9"]) == 2
    assert "c=9 exceeds the" in capsys.readouterr().err
    assert C.main(["--m", "53261", "--cipher", "aes", "--rounds", "5", "--model", "paper"]) == 0
    assert "aes: 0 + 5 rounds x 76.0 bits + 60 = 440 bits" in capsys.readouterr().out
    assert C.main(["--m", "53261", "--cipher", "aes"]) == 0
    per_round = 89 + 0.8 * 5 * (math.log2(46080) - 12)
    assert f"aes: 40 + 10 rounds x {per_round:.1f} bits" in capsys.readouterr().out
    assert C.main(["--m", "53261", "--cipher", "des"]) == 2
    assert "--cipher 'des' is not in config/depth_profiles.yaml" in capsys.readouterr().err
