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


# Rings at primes p > 2 (issue 45): odd and power-of-two m, d = 1 and d > 1, good and bad
# dimensions; (m, p) -> why.
RINGS_AT_P = {
    (65536, 65537): "HElib/IAIK Pasta-3: 2^16, 32768 slots of F_65537 (the factorization is skipped)",
    (256, 257): "2^8, p = 1 mod m: 128 slots of F_p",
    (64, 17): "2^6, d = 4, a bad dimension (3^4 = 17)",
    (1024, 3): "2^10, d = 256, 2 slots",
    (4369, 3): "17*257, d = 256",
    (771, 17): "3*257, d = 32",
    (4097, 65537): "17*241, d = 24, p > m",
    (15, 8088322049): "IAIK's 33-bit prime",
}


@pytest.mark.parametrize("m, p", sorted(RINGS_AT_P))
def test_explorer_against_sage_at_p(m, p):
    rep = SC.check_ring(m, p=p, factor_limit=600)
    assert rep["ok"], failed(rep)
    assert rep["p"] == p and rep["hypercube_source"].startswith("engine's batch answer")
    names = {c["name"] for c in rep["checks"]}
    assert {f"|Z_m^*/<{p}>|", "hypercube", "cover", "Phi_m = prod of slot minimal polynomials",
            f"Phi_m factored over GF({p})"} <= names


def test_factorization_at_p_is_sages_own():
    rep = SC.check_ring(64, p=17, engine=False)
    fac = next(c for c in rep["checks"] if c["name"] == "Phi_m factored over GF(17)")
    assert fac["ok"] and "8 factors of degree [4]" in fac["detail"]


@pytest.mark.parametrize("m, p", [(64, 17), (4369, 3), (256, 257)])
def test_a_wrong_hypercube_is_caught_at_p(m, p):
    r = ring_facts(m, p)
    wrong_twist = [t + 1 for t in r.twists]   # at d = 1 out of [0, d), else g^ord != p^twist
    assert not all(c.ok for c in SC.check_hypercube(m, r.d, r.ell, r.gens, r.ords, r.good, wrong_twist, p))
    # Another prime's hypercube (p = 2 for odd m, p = 3 for 2^k) is not the one at p.
    q = ring_facts(m, 2 if m % 2 else 3)
    assert not all(c.ok for c in SC.check_hypercube(m, q.d, q.ell, q.gens, q.ords, q.good, q.twists, p))
    # A second generator inside the first's cosets: the cover counts some units twice.
    if len(r.gens) > 1:
        assert not SC.check_cover(m, r.d, (r.gens[0], r.gens[0]), r.ords[:2], p).ok
    assert SC.check_cover(m, r.d, r.gens, r.ords, p).ok


def test_main_checks_each_selected_ring_at_its_p(tmp_path):
    """The pipeline step reads a `p` column when selected.csv has one (empty: p = 2)."""
    import json
    sel = tmp_path / "selected.csv"
    sel.write_text("cipher,m,p,n,status\nx,64,17,1,ok\ny,257,,8,ok\nz,256,257,1,unreachable\n")
    out = tmp_path / "sagechecks.json"
    assert SC.main(["--selected", str(sel), "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["ok"] and [(r["m"], r.get("p", 2)) for r in doc["rings"]] == [(64, 17), (257, 2)]
