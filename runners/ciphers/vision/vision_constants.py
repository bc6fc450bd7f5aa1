"""Vision instance constants, derived from the description in docs/vision.md.

Vision (Aly, Ashur, Ben-Sasson, Dhooghe, Szepieniec, ToSC 2020(3)) draws its constants
from SHAKE256("winteriscoming"). This module re-derives, for the four 128-bit-block
instances GF(2^n)^m with (n, m) in {(8, 16), (16, 8), (32, 4), (64, 2)}:

* the field modulus: the irreducible x^n + P_i(x), i = 1, 3, 5, ... smallest (spec §1);
* the round count Nb = max(10, 2 ceil((s + m + 8) / (8 m))) at s = 128 (spec §2);
* B = [b0, b1, b2, b3], c0, CM, CC from the SHAKE256 stream (spec §4): ceil(n/8) bytes
  per candidate read little-endian and bit-reversed over their own length, kept when
  not in the maximal proper subfields, with the two rejection rules (Dickson matrix of
  (b1, b2, b3) singular; the m x m block constants[4 : 4 + m^2] singular);
* B_inv = (c0; c1..cn): L^-1 read from row 0 of the inverse Dickson matrix of
  L(x) = b1 x + b2 x^2 + b3 x^4, c0 = L^-1(b0) (spec §3);
* MDS = V_L^-1 V_R with V[i][j] = z^(i j), i < m, j < 2m (spec §5), where z is the
  per-instance constant of the spec (Sage's primitive_element(); it depends on Sage's
  iteration order, so it is an input here, not recomputed).

Field elements are Python ints, bit i = coefficient of x^i. No Sage needed.

Running `python vision_constants.py --out vision_params.inc` writes the C++ initializers
that runners/ciphers/vision/vision.cpp includes; `--check FILE` exits non-zero when
FILE differs from what the generator produces.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass, field
from math import ceil

SECURITY_LEVEL = 128
SEED = b"winteriscoming"

# (n, m) of the four instances and z = Sage's F.primitive_element() for each
# (docs/vision.md §5: Givaro's iteration order gives 0x13 for GF(2^8); NTL-backed
# fields give x + 1 for GF(2^16) and GF(2^32) and x for GF(2^64)).
INSTANCES = [(8, 16), (16, 8), (32, 4), (64, 2)]
PRIMITIVE_ELEMENT_Z = {8: 0x13, 16: 0x3, 32: 0x3, 64: 0x2}


class DerivationError(ValueError):
    """A derivation step met a case the spec does not cover (e.g. a singular matrix)."""


# ---------------------------------------------------------------- GF(2)[x] and GF(2^n)

def _gf2_mulmod(a: int, b: int, f: int, n: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if (a >> n) & 1:
            a ^= f
    return r


def _gf2_polymod(a: int, f: int) -> int:
    df = f.bit_length() - 1
    while a.bit_length() - 1 >= df:
        a ^= f << (a.bit_length() - 1 - df)
    return a


def _gf2_gcd(a: int, b: int) -> int:
    while b:
        a, b = b, _gf2_polymod(a, b)
    return a


def _prime_factors(k: int) -> list[int]:
    out, p = [], 2
    while p * p <= k:
        if k % p == 0:
            out.append(p)
            while k % p == 0:
                k //= p
        p += 1
    if k > 1:
        out.append(k)
    return out


def is_irreducible(f: int) -> bool:
    """Rabin's test for f in GF(2)[x] of degree n: x^(2^n) = x mod f and
    gcd(x^(2^(n/p)) - x, f) = 1 for every prime p | n."""
    n = f.bit_length() - 1
    if n < 1:
        return False

    def x_pow_2k(k: int) -> int:
        y = 2 if n > 1 else _gf2_polymod(2, f)
        for _ in range(k):
            y = _gf2_mulmod(y, y, f, n)
        return y

    if x_pow_2k(n) != _gf2_polymod(2, f):
        return False
    return all(_gf2_gcd(f, x_pow_2k(n // p) ^ 2) == 1 for p in _prime_factors(n))


def field_modulus(n: int) -> int:
    """Spec §1: the first irreducible x^n + P_i(x), i = 1, 3, 5, ..."""
    i = 1
    while not is_irreducible((1 << n) | i):
        i += 2
    return (1 << n) | i


class GF2n:
    """GF(2^n) = GF(2)[x]/f on ints."""

    def __init__(self, n: int, f: int):
        self.n, self.f = n, f

    def mul(self, a: int, b: int) -> int:
        return _gf2_mulmod(a, b, self.f, self.n)

    def pow(self, a: int, e: int) -> int:
        r = 1
        while e:
            if e & 1:
                r = self.mul(r, a)
            a = self.mul(a, a)
            e >>= 1
        return r

    def frob(self, a: int, j: int) -> int:
        for _ in range(j % self.n):
            a = self.mul(a, a)
        return a

    def inv(self, a: int) -> int:
        """a^(2^n - 2): 0 -> 0."""
        return self.pow(a, (1 << self.n) - 2)

    def in_proper_subfield(self, c: int) -> bool:
        """Spec §4.4 ("is_generator" negated): c^(2^(n/p)) == c for some prime p | n."""
        return any(self.frob(c, self.n // p) == c for p in _prime_factors(self.n))

    def order(self, a: int) -> int:
        """Multiplicative order of a != 0."""
        q1 = (1 << self.n) - 1
        o = q1
        for p in _prime_factors(q1):
            while o % p == 0 and self.pow(a, o // p) == 1:
                o //= p
        return o

    # ------------------------------------------------------------ matrices over GF(2^n)

    def mat_inv(self, a: list[list[int]]) -> list[list[int]] | None:
        """Gauss-Jordan inverse; None when singular."""
        k = len(a)
        w = [row[:] + [int(i == j) for j in range(k)] for i, row in enumerate(a)]
        for col in range(k):
            piv = next((r for r in range(col, k) if w[r][col]), None)
            if piv is None:
                return None
            w[col], w[piv] = w[piv], w[col]
            s = self.inv(w[col][col])
            w[col] = [self.mul(s, x) for x in w[col]]
            for r in range(k):
                if r != col and w[r][col]:
                    t = w[r][col]
                    w[r] = [x ^ self.mul(t, y) for x, y in zip(w[r], w[col])]
        return [row[k:] for row in w]

    def mat_mul(self, a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
        out = []
        for row in a:
            r = []
            for j in range(len(b[0])):
                acc = 0
                for t, x in enumerate(row):
                    acc ^= self.mul(x, b[t][j])
                r.append(acc)
            out.append(r)
        return out

    def dickson(self, coeffs: list[int]) -> list[list[int]]:
        """n x n Dickson matrix of L(x) = sum_k coeffs[k] x^(2^k):
        D[i][j] = a_{(j - i) mod n}^(2^i) (spec §3)."""
        a = coeffs + [0] * (self.n - len(coeffs))
        return [[self.frob(a[(j - i) % self.n], i) for j in range(self.n)] for i in range(self.n)]

    def linearized(self, coeffs: list[int], x: int) -> int:
        """sum_k coeffs[k] x^(2^k)."""
        acc, y = 0, x
        for c in coeffs:
            acc ^= self.mul(c, y)
            y = self.mul(y, y)
        return acc


# ---------------------------------------------------------------- the derivation

def rounds(n: int, m: int, s: int = SECURITY_LEVEL) -> int:
    """Spec §2: Nb = max(10, 2 ceil((s + m + 8) / (8 m)))."""
    return max(10, 2 * ceil((s + m + 8) / (8 * m)))


def bytes_to_element(chunk: bytes, n: int) -> int:
    """Spec §4.3: v = chunk little-endian; x^i gets bit (L-1-i) of v, L = bitlen(v)."""
    v = int.from_bytes(chunk, "little")
    L = v.bit_length()
    e = 0
    for i in range(min(n, L)):
        if (v >> (L - 1 - i)) & 1:
            e |= 1 << i
    return e


def shake_stream(nbytes: int) -> bytes:
    return hashlib.shake_256(SEED).digest(nbytes)


@dataclass
class Instance:
    n: int
    m: int
    modulus: int             # f with its x^n term
    rounds: int              # Nb (each round = two steps)
    z: int                   # MDS generator (spec §5)
    B: list[int]             # b0..b3
    B_inv: list[int]         # c0, c1..cn
    initial_constant: list[int]
    constants_matrix: list[list[int]]
    constants_constant: list[int]
    MDS: list[list[int]]
    stats: dict = field(default_factory=dict)  # rejection counts of the sampling


def derive(n: int, m: int, z: int | None = None) -> Instance:
    f = field_modulus(n)
    F = GF2n(n, f)
    if z is None:
        z = PRIMITIVE_ELEMENT_Z[n]
    chunk = ceil(n / 8)
    total = 4 + 2 * m + m * m
    stats = {"subfield_skipped": 0, "B_rejected": 0, "matrix_rejected": 0}

    # Constants (spec §4). The stream is read as one infinite XOF output; enlarge on demand.
    buf_len = 4096
    stream = shake_stream(buf_len)
    pos = 0
    consts: list[int] = []
    while len(consts) < total:
        if pos + chunk > len(stream):
            buf_len *= 2
            stream = shake_stream(buf_len)
        c = bytes_to_element(stream[pos:pos + chunk], n)
        pos += chunk
        if F.in_proper_subfield(c):
            stats["subfield_skipped"] += 1
            continue
        consts.append(c)
        if len(consts) == 4 and F.mat_inv(F.dickson(consts[1:4])) is None:
            stats["B_rejected"] += 1
            consts = consts[:1]
        elif len(consts) == 4 + m * m:
            block = [consts[4 + i * m: 4 + (i + 1) * m] for i in range(m)]
            if F.mat_inv(block) is None:
                stats["matrix_rejected"] += 1
                consts = consts[:4]

    B = consts[0:4]
    initial_constant = consts[4:4 + m]
    constants_matrix = [consts[4 + m + i * m: 4 + m + (i + 1) * m] for i in range(m)]
    constants_constant = consts[4 + m + m * m: 4 + 2 * m + m * m]

    # B^-1 (spec §3).
    Dinv = F.mat_inv(F.dickson(B[1:4]))
    if Dinv is None:  # cannot happen after the rejection rule
        raise DerivationError(f"n={n}: Dickson matrix of B is singular")
    lin_inv = Dinv[0]
    B_inv = [F.linearized(lin_inv, B[0])] + lin_inv

    # MDS = V_L^-1 V_R (spec §5).
    V = [[F.pow(z, i * j) for j in range(2 * m)] for i in range(m)]
    VL = [row[:m] for row in V]
    VR = [row[m:] for row in V]
    VLinv = F.mat_inv(VL)
    if VLinv is None:
        raise DerivationError(f"n={n}, m={m}: V_L is singular for z={z:#x}")
    MDS = F.mat_mul(VLinv, VR)

    return Instance(n=n, m=m, modulus=f, rounds=rounds(n, m), z=z, B=B, B_inv=B_inv,
                    initial_constant=initial_constant, constants_matrix=constants_matrix,
                    constants_constant=constants_constant, MDS=MDS, stats=stats)


# ---------------------------------------------------------------- output formats

def hex_element(x: int, n: int) -> str:
    return "0x" + format(x, "0{}x".format(n // 4))


def as_vector_parameters(inst: Instance) -> dict:
    """The `parameters` object of vectors/vision_gf2_<n>_m<m>.json."""
    h = lambda x: hex_element(x, inst.n)  # noqa: E731
    return {
        "primitive_element_z": h(inst.z),
        "B": [h(x) for x in inst.B],
        "B_inv": [h(x) for x in inst.B_inv],
        "initial_constant": [h(x) for x in inst.initial_constant],
        "constants_matrix": [[h(x) for x in row] for row in inst.constants_matrix],
        "constants_constant": [h(x) for x in inst.constants_constant],
        "MDS": [[h(x) for x in row] for row in inst.MDS],
    }


def _cxx_list(xs: list[int], n: int, indent: str, per_line: int) -> str:
    items = [hex_element(x, n) + "ull" for x in xs]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "{\n" + ",\n".join(indent + "    " + ln for ln in lines) + "}"


def cxx_initializer(inst: Instance) -> str:
    n, m = inst.n, inst.m
    per_line = {8: 16, 16: 8, 32: 4, 64: 2}[n]
    flat = lambda rows: [x for row in rows for x in row]  # noqa: E731
    f_low = inst.modulus & ((1 << n) - 1)
    ind = "    "
    parts = [
        f"{ind}/*n=*/{n}, /*m=*/{m}, /*modulus_low=*/{hex(f_low)}ull, /*rounds=*/{inst.rounds},",
        f"{ind}/*B=*/{_cxx_list(inst.B, n, ind, 4)},",
        f"{ind}/*B_inv=*/{_cxx_list(inst.B_inv, n, ind, per_line)},",
        f"{ind}/*c0=*/{_cxx_list(inst.initial_constant, n, ind, per_line)},",
        f"{ind}/*CM=*/{_cxx_list(flat(inst.constants_matrix), n, ind, per_line)},",
        f"{ind}/*CC=*/{_cxx_list(inst.constants_constant, n, ind, per_line)},",
        f"{ind}/*MDS=*/{_cxx_list(flat(inst.MDS), n, ind, per_line)},",
        f"{ind}/*z=*/{hex_element(inst.z, n)}ull,",
    ]
    return f"  // Vision GF(2^{n})^{m}\n  {{\n" + "\n".join(parts) + "\n  },\n"


def generate_inc() -> str:
    head = (
        "// vision_params.inc: GENERATED by runners/ciphers/vision/vision_constants.py\n"
        "// (`python vision_constants.py --out vision_params.inc`); do not edit by hand.\n"
        "// The constants of the four Vision instances GF(2^n)^m, derived from SHAKE256(\"winteriscoming\")\n"
        "// as docs/vision.md sections 1-5 describe; test_vision_constants.py checks them against the\n"
        "// test vectors and that this file equals the generator's output.\n"
        "// One VisionParams aggregate initializer per instance:\n"
        "// {n, m, modulus_low, rounds, B, B_inv, c0, CM (row-major), CC, MDS (row-major), z}.\n"
    )
    return head + "".join(cxx_initializer(derive(n, m)) for n, m in INSTANCES)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", help="write the C++ initializers to this file")
    g.add_argument("--check", help="fail when this file differs from the generator's output")
    args = ap.parse_args(argv)
    text = generate_inc()
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
        return 0
    with open(args.check) as fh:
        if fh.read() != text:
            print(f"{args.check} is stale: rerun vision_constants.py --out", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
