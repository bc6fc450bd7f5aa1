"""Sage's cross-checks (cbparams.sagecheck) on rings with one, two and three prime
factors and bad dimensions, against the explorer and, when it is built, the engine; and
the Vision constants re-derived with Sage's finite fields. Sage is installed by `make
venv` (passagemath): these tests are not skipped for its absence."""
import pytest

from cbparams import runner, sagecheck as SC
from cbparams.cyclotomic import ring_facts

# m: factors, and why it is here.
RINGS = {
    257: "one prime; its only dimension is bad (3^16 = 2^11)",
    4369: "17*257, two bad dimensions (HElib's small AES ring)",
    21845: "5*17*257, three primes (HElib's AES ring)",
    28679: "7*17*241, three primes, d=24",
    11441: "17*673, two primes, d=48 (GHS's L=10 ring)",
}
ENGINE_INFO = runner.supports("bench_ops", "--info-only")


def failed(rep):
    return [c for c in rep["checks"] if not c["ok"]]


@pytest.mark.parametrize("m", sorted(RINGS))
def test_explorer_against_sage(m):
    rep = SC.check_ring(m, engine=False)
    assert rep["ok"], failed(rep)
    names = {c["name"] for c in rep["checks"]}
    assert {"hypercube", "Phi_m = prod of slot minimal polynomials", "Phi_m factored over GF(2)"} <= names
    assert rep["hypercube_source"].startswith("engine's batch answer")


def test_factorization_is_sages_own():
    rep = SC.check_ring(4369, engine=False)
    fac = next(c for c in rep["checks"] if c["name"] == "Phi_m factored over GF(2)")
    assert "256 factors of degree [16]" in fac["detail"]


@pytest.mark.parametrize("m", [257, 4369])
def test_a_wrong_hypercube_is_caught(m):
    r = ring_facts(m)
    wrong_twist = [t + 1 for t in r.twists]
    assert not all(c.ok for c in SC.check_hypercube(m, r.d, r.ell, r.gens, r.ords, r.good, wrong_twist))
    wrong_good = [not g for g in r.good]
    assert not all(c.ok for c in SC.check_hypercube(m, r.d, r.ell, r.gens, r.ords, wrong_good, r.twists))
    # A generator that is not of largest order (2 lies in <2>: order 1 in the quotient).
    assert not all(c.ok for c in SC.check_hypercube(m, r.d, r.ell, (2,) + r.gens[1:], r.ords, r.good, r.twists))


def test_a_wrong_slot_set_is_caught():
    r = ring_facts(4369)
    # Orders halved: half the slots are missing, the product is not Phi_m.
    checks = SC.check_slots(4369, r.d, r.ell, r.gens, (r.ords[0] // 2, r.ords[1]), factor_limit=0)
    assert not checks[0].ok and "16 distinct" not in checks[0].detail


@pytest.mark.skipif(not ENGINE_INFO, reason="build/bin/bench_ops is not built (make build)")
@pytest.mark.parametrize("m", [257, 4369, 21845])
def test_engine_against_sage(m):
    rep = SC.check_ring(m)
    assert rep["hypercube_source"].startswith("engine"), rep["checks"]
    assert rep["ok"], failed(rep)
    names = [c["name"] for c in rep["checks"]]
    assert "bench_ops = zmstar_info" in names and "slot field" in names
    assert "GF(2^8) in the slots" in names and "GF(2^16) in the slots" in names


@pytest.mark.skipif(not ENGINE_INFO, reason="build/bin/bench_ops is not built (make build)")
def test_a_wrong_theta_is_caught():
    info = runner.ring_info(257, field_bits=8)
    G, th = int(info["slot_field"]["G"], 16), int(info["field"]["theta"], 16)
    assert SC.check_embedding(8, 0x1b, th, G, 16).ok
    assert not SC.check_embedding(8, 0x1b, th ^ 1, G, 16).ok
    assert not SC.check_embedding(8, 0x1d, th, G, 16).ok   # another GF(2^8) modulus


def test_vision_constants_with_sage():
    checks = SC.check_vision_constants()
    assert len(checks) == 4 and all(c.ok for c in checks), [c for c in checks if not c.ok]


def test_sage_primitive_element_is_the_spec_z():
    """vision_constants.py takes z as an input ("Sage's primitive_element()"): Sage says so."""
    got = {n: SC.derive_vision(n, m)["z"] for n, m in [(16, 8), (64, 2)]}
    assert got == {16: 0x3, 64: 0x2}
