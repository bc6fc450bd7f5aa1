"""Ring facts as the engine answers them (zmstar_info): the paper's rings, known answers, and
small m against an independent brute force here and Sage's own factoring and orders."""
from math import gcd

import pytest

from cbparams.cyclotomic import basic_facts, basic_facts_many, check_m, limits, ring_facts, ring_facts_many, \
    zmstar_structure
from cbparams.errors import RingError
from cbparams.runner import build_dir
from cbparams.sageall import sage_all

pytestmark = pytest.mark.skipif(not (build_dir() / "bin" / "zmstar_info").exists(),
                                reason="engine not built (make build): the ring facts are the engine's")

# docs/references.md §1 (measured with HElib): m -> (phi, d, slots).
PAPER_RINGS = {53261: (46080, 24, 1920), 163455: (81920, 64, 1280),
               148733: (129024, 48, 2688), 164737: (163840, 64, 2560)}


# Known answers: m -> (d, slots, gens, ords, good dimensions). d and slots from
# docs/references.md §1 (4369 = 17 * 257: d = 16, 4096 / 16 = 256 slots); the hypercubes are
# those of zmstar.h's greedy rule (53261: 11^8 = 2^20, a bad second dimension), the same the
# explorer's own Python implementation found before it was replaced by the engine's answer.
KNOWN = {4369: (16, 256, (3, 317), (128, 2), (False, False)),
         53261: (24, 1920, (3, 11), (240, 8), (True, False)),
         163455: (64, 1280, None, None, None)}


@pytest.mark.parametrize("m", sorted(KNOWN))
def test_known_answers(m):
    d, slots, gens, ords, good = KNOWN[m]
    r = ring_facts(m)
    assert (r.d, r.slots) == (d, slots)
    if gens is not None:
        assert (r.gens, r.ords, r.good) == (gens, ords, good)
    assert r.slots_ok


def test_batches_agree_with_single_answers():
    ms = [4369, 53261, 257, 163455]
    assert ring_facts_many(ms) == [ring_facts(m) for m in ms]
    assert basic_facts_many(ms) == [basic_facts(m) for m in ms]
    assert basic_facts(163455) == (((3, 1), (5, 1), (17, 1), (641, 1)), 81920, 64)


def test_limits_are_the_engines():
    lim = limits()
    assert lim["m_max"] == 2 ** 20 and lim["max_slot_degree"] == 1024 and lim["prime_bits"] in (50, 60)
    from cbparams import cyclotomic
    assert cyclotomic.D_LIMIT == lim["max_slot_degree"] and cyclotomic.M_LIMIT == lim["m_max"]


@pytest.mark.parametrize("m", sorted(PAPER_RINGS))
def test_paper_rings(m):
    r = ring_facts(m)
    assert (r.phi, r.d, r.ell) == PAPER_RINGS[m]
    prod = 1
    for o in r.ords:
        prod *= o
    assert prod == r.ell


def brute_structure(m):
    """The engine's greedy rule by exhaustive search over all units, sets of integers only."""
    units = [x for x in range(1, m) if gcd(x, m) == 1]
    two, x = [], 1
    while True:
        two.append(x)
        x = x * 2 % m
        if x == 1:
            break
    two_set = set(two)
    d = len(two)
    H = set(two)
    gens, ords, twists = [], [], []
    while len(H) < len(units):
        def qord(y):
            k, z = 1, y
            while z not in H:
                z = z * y % m
                k += 1
            return k
        orders = {y: qord(y) for y in units}
        big = max(orders.values())
        cand = [y for y in units if orders[y] == big]
        exact = [y for y in cand if pow(y, big, m) == 1]
        in2 = [y for y in cand if pow(y, big, m) in two_set]
        g = (exact or in2 or cand)[0]
        p = pow(g, big, m)
        gens.append(g)
        ords.append(big)
        twists.append(two.index(p) if p in two_set else -1)
        H = {h * pow(g, k, m) % m for h in H for k in range(big)}
    ghs = any(pow(t, 16, m) == 1 and pow(t, 8, m) not in two_set for t in units)
    return d, tuple(gens), tuple(ords), tuple(twists), ghs


SMALL_M = [3, 5, 7, 9, 15, 17, 21, 31, 33, 45, 51, 63, 73, 85, 91, 93, 105, 127, 255, 257,
           273, 315, 341, 455, 511, 585, 771, 819, 1023, 1105, 1285, 2047]


@pytest.mark.parametrize("m", SMALL_M)
def test_small_m_brute_force(m):
    d, gens, ords, twists, ghs = brute_structure(m)
    f, phi, d2 = basic_facts(m)
    assert d2 == d
    assert zmstar_structure(m, d) == (gens, ords, twists, ghs)
    assert zmstar_structure(m) == (gens, ords, twists, ghs)


def test_d_and_slots_against_sage_factoring():
    """d and ell from factoring Phi_m over GF(2) in Sage (independent of ord_m(2))."""
    sage = sage_all()   # passagemath is installed by `make venv`: not skipped
    R = sage.PolynomialRing(sage.GF(2), "x")
    for m in [17, 51, 85, 257, 273, 771, 1105, 4369]:
        fac = R(sage.cyclotomic_polynomial(m)).factor()
        degs = {p.degree() for p, _ in fac}
        r = ring_facts(m)
        assert degs == {r.d} and len(fac) == r.ell, m


def test_orders_against_sage_unit_group():
    """Every generator's order in Z_m^* agrees with Sage's multiplicative order."""
    sage = sage_all()   # passagemath is installed by `make venv`: not skipped
    for m in [4369, 21845, 28679, 11441]:
        r = ring_facts(m)
        for g, o, good in zip(r.gens, r.ords, r.good):
            order = sage.Mod(g, m).multiplicative_order()
            assert (order == o) == good
            assert order % o == 0


@pytest.mark.parametrize("bad, text", [
    (53262, "m=53262 is even: the ring needs odd m"),
    (1, "m=1 is outside [3, 2^20]: the ring needs 3 <= m <= 1048576"),
    (2**21 + 1, "m=2097153 is outside [3, 2^20]"),
    ("abc", "m='abc' is not an integer"),
    (3.5, "m=3.5 is not an integer"),
])
def test_bad_m(bad, text):
    import re
    with pytest.raises(RingError, match=re.escape(text)):
        check_m(bad)


def test_cli(capsys):
    from cbparams.cyclotomic import main
    assert main(["53261"]) == 0
    assert "phi=46080 d=24 slots=1920" in capsys.readouterr().out
    assert main(["53262"]) == 2
    assert "m=53262 is even: the ring needs odd m" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# Any prime p (issue 45): odd m coprime to p, and m = 2^k at odd p.

# (m, p) -> (phi, d, slots, gens, ords, twists). phi, d, slots by the definition (checked
# against Sage below); the hypercubes are zmstar.h's greedy rule, re-derived by the brute
# force below. m = 2^16, p = 65537 is HElib's and IAIK's Pasta-3 ring (32768 slots of F_p).
KNOWN_AT_P = {
    (65536, 65537): (32768, 1, 32768, (3, 32767), (16384, 2), (0, 0)),
    (256, 257): (128, 1, 128, (3, 127), (64, 2), (0, 0)),
    (64, 17): (32, 4, 8, (3, 31), (4, 2), (1, 0)),
    (16, 3): (8, 4, 2, (7,), (2,), (0,)),
    (53261, 3): (46080, 240, 192, (11, 242), (48, 4), (0, 0)),
    (4369, 8088322049): (4096, 128, 32, (129, 38), (16, 2), (0, 55)),
}


@pytest.mark.parametrize("m, p", sorted(KNOWN_AT_P))
def test_known_answers_at_p(m, p):
    phi, d, slots, gens, ords, twists = KNOWN_AT_P[m, p]
    r = ring_facts(m, p)
    assert (r.p, r.phi, r.d, r.slots, r.gens, r.ords, r.twists) == (p, phi, d, slots, gens, ords, twists)
    assert r.good == tuple(t == 0 for t in twists) and not r.ghs16


def brute_structure_at(m, p):
    """brute_structure at p: the greedy rule over all units, sets of integers only, H = <p>."""
    units = [x for x in range(1, m) if gcd(x, m) == 1]
    powers, x = [], 1
    while True:
        powers.append(x)
        x = x * (p % m) % m
        if x == 1:
            break
    pset = set(powers)
    H = set(powers)
    gens, ords, twists = [], [], []
    while len(H) < len(units):
        def qord(y):
            k, z = 1, y
            while z not in H:
                z = z * y % m
                k += 1
            return k
        orders = {y: qord(y) for y in units}
        big = max(orders.values())
        cand = [y for y in units if orders[y] == big]
        exact = [y for y in cand if pow(y, big, m) == 1]
        inp = [y for y in cand if pow(y, big, m) in pset]
        g = (exact or inp or cand)[0]
        gp = pow(g, big, m)
        gens.append(g)
        ords.append(big)
        twists.append(powers.index(gp) if gp in pset else -1)
        H = {h * pow(g, k, m) % m for h in H for k in range(big)}
    return len(powers), tuple(gens), tuple(ords), tuple(twists)


SMALL_AT_P = [(m, p) for p in (3, 17, 257, 65537)
              for m in (5, 7, 13, 15, 21, 31, 35, 63, 73, 85, 91, 105, 127, 255, 273, 4, 8, 16, 32, 64, 128, 256)
              if m % p]


@pytest.mark.parametrize("m, p", SMALL_AT_P)
def test_small_m_brute_force_at_p(m, p):
    d, gens, ords, twists = brute_structure_at(m, p)
    assert basic_facts(m, p)[2] == d
    r = ring_facts(m, p)
    assert (r.d, r.gens, r.ords, r.twists) == (d, gens, ords, twists)
    assert zmstar_structure(m, d, p=p) == (gens, ords, twists, False)


def test_p_two_is_the_default():
    """ring_facts(m) is ring_facts(m, 2): the same answer, asked the same way as before p."""
    for m in (257, 4369, 53261):
        assert ring_facts(m) == ring_facts(m, 2) == ring_facts(m, "2")
        assert ring_facts(m).p == 2


def test_batches_agree_at_p():
    ms = [65536, 4097, 64, 53261]
    assert ring_facts_many(ms, p=65537) == [ring_facts(m, 65537) for m in ms]
    assert basic_facts_many(ms, p=65537) == [basic_facts(m, 65537) for m in ms]


AT_P_SAGE = [(m, p) for p in (3, 17, 257, 65537) for m in (4, 16, 64, 256, 1024, 13, 85, 273, 771, 4369)
             if m % p] + [(65536, 65537), (32, 8088322049), (15, 1096486890805657601)]


def test_d_phi_ell_against_sage_at_p():
    """d = Sage's multiplicative order of p mod m, phi = euler_phi(m), ell = phi / d; for
    small phi also Sage's factorization of Phi_m over GF(p): ell factors, all of degree d."""
    sage = sage_all()
    for m, p in AT_P_SAGE:
        r = ring_facts(m, p)
        assert r.d == int(sage.Mod(p, m).multiplicative_order()), (m, p)
        assert r.phi == int(sage.euler_phi(m)) and r.ell * r.d == r.phi, (m, p)
        if r.phi <= 600:
            fac = sage.PolynomialRing(sage.GF(p), "x")(sage.cyclotomic_polynomial(m)).factor()
            assert {q.degree() for q, _ in fac} == {r.d} and len(fac) == r.ell, (m, p)


def test_hypercube_against_sage_at_p():
    """Each generator's order in Z_m^* (Sage) is ord_i exactly when the dimension is good, and
    g_i^ord_i = p^twist_i in Sage's Z/mZ."""
    sage = sage_all()
    for m, p in AT_P_SAGE:
        r = ring_facts(m, p)
        for g, o, good, t in zip(r.gens, r.ords, r.good, r.twists):
            order = sage.Mod(g, m).multiplicative_order()
            assert (order == o) == good and order % o == 0, (m, p, g)
            assert sage.Mod(g, m) ** o == sage.Mod(p, m) ** t, (m, p, g)


@pytest.mark.parametrize("m, p, text", [
    (9, 3, "p=3 divides m=9: the plaintext modulus must be coprime to m"),
    (4369, 257, "p=257 divides m=4369: the plaintext modulus must be coprime to m"),
    (257, 9, "p=9 is not prime: the plaintext modulus must be a prime"),
    (257, 65535, "p=65535 is not prime: the plaintext modulus must be a prime"),
    (257, 1, "p=1 is outside [2, 2^61): the plaintext modulus needs 2 <= p < 2305843009213693952"),
    (257, 2**61, "p=2305843009213693952 is outside [2, 2^61)"),
    (12, 5, "m=12 is even but not a power of two: the ring at p=5 needs odd m or m = 2^k"),
    (65536, 2, "m=65536 is a power of two and p=2: no slots, Phi_m = X^32768 + 1 = (X + 1)^32768 mod 2"),
    (2**21, 3, "m=2097152 is outside [3, 2^20]: the ring needs 3 <= m <= 1048576"),
    (257, "x", "p='x' is not an integer: give the plaintext modulus as a prime 2 <= p < 2^61"),
    (257, 3.5, "p=3.5 is not an integer"),
])
def test_bad_m_or_p(m, p, text):
    import re
    with pytest.raises(RingError, match=re.escape(text)):
        check_m(m, p)
    with pytest.raises(RingError, match=re.escape(text)):
        ring_facts(m, p)


def test_cli_at_p(capsys):
    from cbparams.cyclotomic import main
    assert main(["65536", "--p", "65537"]) == 0
    assert "m=65536 p=65537 = 2^16: phi=32768 d=1 slots=32768" in capsys.readouterr().out
    assert main(["9", "--p", "3"]) == 2
    assert "p=3 divides m=9" in capsys.readouterr().err


def test_sweep_cache_keeps_p_apart(tmp_path):
    """One cache file serves sweeps at several p: the structures at p = 2 (keyed by m, as
    before) and at p (keyed by (m, p)) do not mix."""
    from cbparams.enumerate import sweep
    cache = tmp_path / "zmstar.pkl"
    at2 = sweep(3, 200, [1], workers=1, cache=cache)
    at17 = sweep(3, 200, [1], workers=1, cache=cache, p=17)
    stats = {}
    assert sweep(3, 200, [1], workers=1, cache=cache, stats=stats) == at2 and stats["computed"] == 0
    assert sweep(3, 200, [1], workers=1, cache=cache, p=17, stats=stats) == at17 and stats["computed"] == 0
    r2, r17 = (next(r for r in rows if r["m"] == 91) for rows in (at2, at17))
    assert (r2["d"], r17["d"]) == (12, 6) and "p" not in r2 and r17["p"] == 17   # ord_91(2), ord_91(17)
    assert all(r["m"] % 2 for r in at2) and 64 in {r["m"] for r in at17}
    assert not any(r["m"] % 17 == 0 for r in at17)
