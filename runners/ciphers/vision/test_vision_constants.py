"""The Vision constants derived by vision_constants.py equal the test vectors' parameters,
satisfy the properties the spec claims for them, and the committed vision_params.inc is
the generator's current output."""

import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import vision_constants as vc  # noqa: E402

INSTANCES = [pytest.param(n, m, id=f"GF(2^{n})^{m}") for n, m in vc.INSTANCES]


def load_vectors(n, m):
    return json.loads((HERE / "vectors" / f"vision_gf2_{n}_m{m}.json").read_text())


@pytest.fixture(scope="module")
def derived():
    return {(n, m): vc.derive(n, m) for n, m in vc.INSTANCES}


@pytest.mark.parametrize("n,m", INSTANCES)
def test_parameters_equal_vector_file(derived, n, m):
    d = load_vectors(n, m)
    inst = derived[(n, m)]
    assert vc.as_vector_parameters(inst) == d["parameters"]
    assert hex(inst.modulus) == d["field"]["modulus_int"]
    assert inst.rounds == d["rounds"]
    assert 2 * inst.rounds == d["steps"]


# Spec §4.6: observed rejection counts of the sampling.
@pytest.mark.parametrize("n,m,skipped,b_rejected", [
    (8, 16, 32, 0), (16, 8, 0, 1), (32, 4, 0, 6), (64, 2, 0, 1)])
def test_rejection_counts(derived, n, m, skipped, b_rejected):
    assert derived[(n, m)].stats == {
        "subfield_skipped": skipped, "B_rejected": b_rejected, "matrix_rejected": 0}


def test_byte_mapping_example():
    # Spec §4.3: the first bytes e2 b4 give 0x47 in GF(2^8) and 0x472d in GF(2^16).
    assert vc.shake_stream(2) == bytes([0xe2, 0xb4])
    assert vc.bytes_to_element(bytes([0xe2]), 8) == 0x47
    assert vc.bytes_to_element(bytes([0xe2, 0xb4]), 16) == 0x472d
    assert vc.bytes_to_element(bytes([0, 0]), 16) == 0


@pytest.mark.parametrize("n,expected", [(8, 0x11b), (16, 0x1002b), (32, 0x10000008d),
                                        (64, 0x1000000000000001b)])
def test_field_modulus(n, expected):
    assert vc.field_modulus(n) == expected


def test_irreducibility_test():
    assert vc.is_irreducible(0b111)          # x^2 + x + 1
    assert not vc.is_irreducible(0b101)      # (x + 1)^2
    assert not vc.is_irreducible(0b110001)   # x^5 + x^4 + 1 = (x^2 + x + 1)(x^3 + x + 1)
    assert vc.is_irreducible(0x11d)          # the other common GF(2^8) modulus


@pytest.mark.parametrize("n,m", INSTANCES)
def test_B_inv_inverts_B(derived, n, m):
    inst = derived[(n, m)]
    F = vc.GF2n(n, inst.modulus)
    B = lambda x: inst.B[0] ^ F.linearized(inst.B[1:], x)  # noqa: E731
    Binv = lambda y: inst.B_inv[0] ^ F.linearized(inst.B_inv[1:], y)  # noqa: E731
    assert len(inst.B_inv) == n + 1
    assert all(c != 0 for c in inst.B_inv[1:])  # spec §3: B^-1 needs all n Frobenius powers
    for x in [0, 1, 2, 3, 0x47, (1 << n) - 1, 0x1234567890abcdef & ((1 << n) - 1)]:
        assert Binv(B(x)) == x
        assert B(Binv(x)) == x


@pytest.mark.parametrize("n,m", INSTANCES)
def test_mds_is_systematic_rs(derived, n, m):
    # [I | MDS] spans the row space of the Vandermonde-like V: V_L * MDS == V_R.
    inst = derived[(n, m)]
    F = vc.GF2n(n, inst.modulus)
    V = [[F.pow(inst.z, i * j) for j in range(2 * m)] for i in range(m)]
    assert F.mat_mul([row[:m] for row in V], inst.MDS) == [row[m:] for row in V]


@pytest.mark.parametrize("n,m", [p for p in INSTANCES if p.values[1] <= 4])
def test_mds_all_minors_nonsingular(derived, n, m):
    from itertools import combinations
    inst = derived[(n, m)]
    F = vc.GF2n(n, inst.modulus)
    for k in range(1, m + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(m), k):
                sub = [[inst.MDS[r][c] for c in cols] for r in rows]
                assert F.mat_inv(sub) is not None


@pytest.mark.parametrize("n,m", INSTANCES)
def test_z_is_primitive(derived, n, m):
    inst = derived[(n, m)]
    F = vc.GF2n(n, inst.modulus)
    assert F.order(inst.z) == (1 << n) - 1


@pytest.mark.parametrize("n", [16, 32, 64])
def test_z_is_first_primitive_x_plus_e_in_integer_order(n):
    # Spec §5: for the NTL-backed fields Sage returns the first primitive x + e, e = 0, 1, ...
    F = vc.GF2n(n, vc.field_modulus(n))
    first = next(2 ^ e for e in range(1 << n) if F.order(2 ^ e) == (1 << n) - 1)
    assert first == vc.PRIMITIVE_ELEMENT_Z[n]


def test_gf2_8_z_follows_givaro_order():
    # Spec §5: Givaro iterates 0, h, h^2, ..., h^255 = 1 with h = 0x03; the candidates x + e
    # in that order are x, 1, x^2+x+1, x^3+x^2+1, x^4+x+1, ...
    F = vc.GF2n(8, 0x11b)
    order, e = [0], 3
    for _ in range(255):
        order.append(e)
        e = F.mul(e, 3)
    assert [2 ^ e for e in order[:5]] == [0x2, 0x1, 0x7, 0xd, 0x13]
    first = next(2 ^ e for e in order if 2 ^ e and F.order(2 ^ e) == 255)
    assert first == 0x13


def test_rounds_formula():
    assert [vc.rounds(n, m) for n, m in vc.INSTANCES] == [10, 10, 10, 18]


def test_committed_inc_is_current():
    committed = (HERE / "vision_params.inc").read_text()
    assert committed == vc.generate_inc(), "rerun: python vision_constants.py --out vision_params.inc"
    assert vc.main(["--check", str(HERE / "vision_params.inc")]) == 0


def test_check_detects_a_stale_file(tmp_path):
    stale = tmp_path / "vision_params.inc"
    stale.write_text((HERE / "vision_params.inc").read_text().replace("0x47ull", "0x46ull", 1))
    assert vc.main(["--check", str(stale)]) == 1
