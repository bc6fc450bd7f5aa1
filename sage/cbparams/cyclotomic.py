"""Ring facts for the m-th cyclotomic ring with p = 2: phi, d, ell and Z_m^*/<2>.

For odd m, Phi_m(X) splits mod 2 into ell = phi(m)/d irreducible factors of degree
d = ord_m(2); the plaintext slots are indexed by the cosets of <2> in Z_m^*, so

    phi  = |Z_m^*|                      (Euler's totient)
    d    = ord_m(2)                     (each slot is GF(2^d))
    ell  = phi / d = |Z_m^* / <2>|      (number of slots)

None of this needs Phi_m to be factored (that takes 54 s in Sage at m = 53261,
docs/references.md §6): d comes from the factorization of the Carmichael function, and
the quotient group is handled with plain modular arithmetic on the ell cosets.

The hypercube structure of Z_m^*/<2> follows the C++ engine
(runners/engine/algebra/zmstar.h), which in turn follows HElib's PAlgebra: generators
g_0..g_{D-1} are chosen greedily; g_i has the largest order ord_i in
Z_m^*/<2, g_0, ..., g_{i-1}>; among the elements of that order the engine prefers one with
g_i^ord_i = 1 exactly, then one with g_i^ord_i in <2>, and breaks ties by the smallest
integer. Dimension i is "good" when g_i^ord_i = 1 mod m (its order in Z_m^* equals its
order in the quotient); otherwise g_i^ord_i = 2^f_i with twist f_i != 0, or, if not even
that can be had, the twist is reported as -1 (g_i^ord_i lies outside <2>).

The ring of GHS's and HElib's AES (docs/references.md §1):

>>> r = ring_facts(53261)
>>> r.factors, r.phi, r.d, r.ell
(((13, 1), (17, 1), (241, 1)), 46080, 24, 1920)
>>> r.gens, r.ords, r.good
((3, 11), (240, 8), (True, False))
>>> r.twists               # 11^8 = 2^20 mod m: the second dimension is "bad"
(0, 20)
>>> r.ghs16
True
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Sequence

import numpy as np

from .errors import RingError

#: Largest m the explorer accepts; the engine's ZmStar takes 3 <= m <= 2^20.
M_LIMIT = 1 << 20
#: Largest slot degree d the engine runs: its SlotRing (runners/engine/algebra/slot_ring.h)
#: refuses d > 1024 (test_engine_agreement.py asks bench_ops).
D_LIMIT = 1024


# ---------------------------------------------------------------------------------------
# Integer arithmetic (m < 2^20, so trial division is cheap).

def factor_int(n: int) -> tuple[tuple[int, int], ...]:
    """Prime factorization of n >= 1 as ((p, e), ...), primes increasing.

    >>> factor_int(53261)
    ((13, 1), (17, 1), (241, 1))
    >>> factor_int(1)
    ()
    """
    out = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            out.append((p, e))
        p += 1 if p == 2 else 2
    if n > 1:
        out.append((n, 1))
    return tuple(out)


def euler_phi(factors: Sequence[tuple[int, int]]) -> int:
    """phi(m) = prod p^(e-1) (p - 1) from the factorization of m."""
    r = 1
    for p, e in factors:
        r *= p ** (e - 1) * (p - 1)
    return r


def carmichael(factors: Sequence[tuple[int, int]]) -> int:
    """lambda(m), the exponent of Z_m^*, for odd m: lcm of p^(e-1) (p - 1)."""
    r = 1
    for p, e in factors:
        x = p ** (e - 1) * (p - 1)
        r = r * x // gcd(r, x)
    return r


def mult_order(a: int, m: int, factors: Sequence[tuple[int, int]] | None = None) -> int:
    """ord_m(a) for gcd(a, m) = 1, from the factorization of lambda(m).

    >>> mult_order(2, 163455), mult_order(2, 148733), mult_order(2, 164737)
    (64, 48, 64)
    """
    if factors is None:
        factors = factor_int(m)
    o = carmichael(factors)
    for q, _ in factor_int(o):
        while o % q == 0 and pow(a, o // q, m) == 1:
            o //= q
    return o


def check_m(m) -> int:
    """Returns m as an int, or raises RingError naming what is wrong with it.

    >>> check_m(53262)
    Traceback (most recent call last):
    ...
    cbparams.errors.RingError: m=53262 is even: the ring needs odd m (p = 2 must be a unit mod m); use an odd m such as 53261
    """
    try:
        mi = int(m)
    except (TypeError, ValueError):
        raise RingError(f"m={m!r} is not an integer: give the cyclotomic index as an odd integer >= 3") from None
    if mi != m:
        raise RingError(f"m={m!r} is not an integer: give the cyclotomic index as an odd integer >= 3")
    if mi % 2 == 0:
        raise RingError(f"m={mi} is even: the ring needs odd m (p = 2 must be a unit mod m); "
                        f"use an odd m such as {mi - 1 if mi > 3 else 3}")
    if mi < 3:
        raise RingError(f"m={mi} is too small: the ring needs odd m >= 3")
    if mi > M_LIMIT:
        raise RingError(f"m={mi} exceeds {M_LIMIT} = 2^20, the largest m the engine (ZmStar) accepts")
    return mi


# ---------------------------------------------------------------------------------------
# Vectorized modular powers (m < 2^20 so products fit in int64).

def _vpow(x: np.ndarray, e, m: int) -> np.ndarray:
    """x^e mod m elementwise; e is an int or an array of non-negative ints like x."""
    x = np.asarray(x, dtype=np.int64) % m
    if np.isscalar(e) or np.ndim(e) == 0:
        e = int(e)
        r = np.ones_like(x)
        while e:
            if e & 1:
                r = r * x % m
            e >>= 1
            if e:
                x = x * x % m
        return r
    e = np.asarray(e, dtype=np.int64).copy()
    r = np.ones_like(x)
    while e.any():
        odd = (e & 1).astype(bool)
        r[odd] = r[odd] * x[odd] % m
        e >>= 1
        x = x * x % m
    return r


# ---------------------------------------------------------------------------------------
# The record.

@dataclass(frozen=True)
class RingFacts:
    """Facts about the m-th cyclotomic ring with plaintext modulus p = 2."""

    m: int                                #: cyclotomic index, odd
    factors: tuple[tuple[int, int], ...]  #: m = prod p^e, as ((p, e), ...)
    phi: int                              #: phi(m) = |Z_m^*|, the ring dimension
    d: int                                #: d = ord_m(2): slots are GF(2^d)
    ell: int                              #: ell = phi / d, the number of slots
    gens: tuple[int, ...]                 #: g_i, generators of Z_m^*/<2> (engine's greedy rule)
    ords: tuple[int, ...]                 #: ord_i, order of g_i in Z_m^*/<2, g_0..g_{i-1}>
    good: tuple[bool, ...]                #: g_i^ord_i == 1 mod m
    twists: tuple[int, ...]               #: f_i with g_i^ord_i = 2^f_i mod m (-1: not in <2>)
    ghs16: bool                           #: some g has order 16 in Z_m^* and in Z_m^*/<2>

    @property
    def slots(self) -> int:
        """Number of plaintext slots (= ell)."""
        return self.ell

    def blocks(self, state: int) -> int:
        """Cipher blocks per ciphertext for a cipher whose state has `state` field elements
        (16 for AES bytes or Vision over GF(2^8); 8, 4, 2 for Vision over GF(2^16/32/64)).
        """
        return self.ell // state


def basic_facts(m: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """(factors, phi, d) of odd m without the quotient structure (cheap, for filtering)."""
    m = check_m(m)
    f = factor_int(m)
    return f, euler_phi(f), mult_order(2, m, f)


def ring_facts(m: int) -> RingFacts:
    """All facts for one m (see the module doc). Raises RingError for bad m."""
    f, phi, d = basic_facts(m)
    gens, ords, twists, ghs16 = zmstar_structure(m, d)
    return RingFacts(m=m, factors=f, phi=phi, d=d, ell=phi // d, gens=gens, ords=ords,
                     good=tuple(t == 0 for t in twists), twists=twists, ghs16=ghs16)


def torsion(m: int, k: int) -> np.ndarray:
    """All t in Z_m^* with t^k = 1, by the CRT: Z_{p^e}^* is cyclic, so its k-torsion is
    generated by one element of order gcd(k, phi(p^e)); the k-torsion of Z_m^* is the
    product of these small cyclic groups.

    >>> sorted(torsion(15, 2).tolist())
    [1, 4, 11, 14]
    """
    t = np.array([1], dtype=np.int64)
    for p, e in factor_int(m):
        pe = p ** e
        ph = pe // p * (p - 1)
        o = gcd(k, ph)
        if o == 1:
            continue
        qs = [q for q, _ in factor_int(o)]
        for x in range(2, pe):
            if x % p == 0:
                continue
            h = pow(x, ph // o, pe)            # order divides o
            if all(pow(h, o // q, pe) != 1 for q in qs):
                break                          # order exactly o
        # Lift h to Z_m^*: h mod p^e, 1 mod m / p^e.
        rest = m // pe
        hm = (h * rest * pow(rest, -1, pe) + pe * pow(pe, -1, rest)) % m if rest > 1 else h
        powers = np.array([pow(hm, j, m) for j in range(o)], dtype=np.int64)
        t = (t[:, None] * powers[None, :] % m).ravel()
    return t


def zmstar_structure(m: int, d: int):
    """Generators, orders and twists of Z_m^*/<2> by the engine's greedy rule, and ghs16.

    Works on residues as numpy arrays: every unit is labelled with its <2>-coset, numbered
    by the coset's least element (walking the orbits when there are few cosets, else a min
    over the orbit x, 2x, 4x, ... by doubling), then orders in the quotient are computed on
    the ell coset representatives. Cost O(m log d) per m. Returns (gens, ords, twists,
    ghs16). When no element of maximal order has its power in <2>, the engine
    (zmstar.cpp) throws; here the smallest element of maximal order is taken, twist -1.

    >>> zmstar_structure(4369, 16)   # HElib's small AES ring: 256 slots, two bad dimensions
    ((3, 317), (128, 2), (8, 1), True)
    """
    idx = np.arange(m, dtype=np.int64)
    is_unit = np.ones(m, dtype=bool)
    for p, _ in factor_int(m):
        is_unit[::p] = False
    units = idx[is_unit]
    phi = units.size
    ell = phi // d

    # Powers of 2 (vectorized doubling) and the discrete log base 2 on <2> (-1 outside).
    pw = np.ones(d, dtype=np.int64)
    k = 1
    while k < d:
        c = pow(2, k, m)
        pw[k:2 * k] = pw[:min(k, d - k)] * c % m
        k *= 2
    dlog2 = np.full(m, -1, dtype=np.int32)
    dlog2[pw] = np.arange(d)

    # Label each unit by the index of its coset x<2>; cosets are numbered by their least
    # element, increasing. Few cosets: walk them; many: min over the orbit by doubling.
    label = np.full(m, -1, dtype=np.int32)
    if ell <= 256:
        reps = np.empty(ell, dtype=np.int64)
        free = is_unit.copy()
        start = 0
        for i in range(ell):
            x = start + int(np.argmax(free[start:]))
            reps[i] = x
            orbit = x * pw % m
            label[orbit] = i
            free[orbit] = False
            start = x + 1
    else:
        lab = idx.copy()
        c, span = 2 % m, 1
        while span < d:
            lab = np.minimum(lab, lab[idx * c % m])
            c = c * c % m
            span *= 2
        reps = np.flatnonzero(is_unit & (lab == idx))
        if reps.size != ell:
            raise RuntimeError(f"m={m}: found {reps.size} cosets of <2>, expected phi/d = {ell}")
        cid = np.full(m, -1, dtype=np.int32)
        cid[reps] = np.arange(ell)
        label = cid[lab]

    # ghs16: some t with t^16 = 1 whose image has order 16 in the quotient (t^8 not in <2>).
    t16 = torsion(m, 16)
    ghs16 = bool((dlog2[_vpow(t16, 8, m)] < 0).any())

    inH = np.zeros(ell, dtype=bool)
    inH[label[1]] = True                          # H_0 = <2>: the coset of 1
    q = ell                                       # |Z_m^* / H_i|
    gens, ords, twists = [], [], []
    while q > 1:
        o = np.full(ell, q, dtype=np.int64)       # order of each coset in Z_m^*/H_i
        for p, _ in factor_int(q):
            active = np.ones(ell, dtype=bool)
            while True:
                active &= (o % p == 0)
                ai = np.flatnonzero(active)
                if ai.size == 0:
                    break
                t = _vpow(reps[ai], o[ai] // p, m)
                ok = inH[label[t]]
                o[ai[ok]] //= p
                active[ai[~ok]] = False
        big = int(o.max())
        # Preference 1: the smallest unit y of quotient order `big` with y^big = 1. Per
        # candidate coset x<2> with x^big = 2^f: y = x 2^j has y^big = 1 iff
        # j big = -f (mod d), solvable iff gg = gcd(big, d) divides f, with the gg
        # solutions j = j0 + k d/gg.
        cands = reps[o == big]
        f = dlog2[_vpow(cands, big, m)]
        gg = gcd(big, d)
        ok = (f >= 0) & (f % gg == 0)
        g = None
        if ok.any():
            dd = d // gg
            inv = pow(big // gg, -1, dd) if dd > 1 else 0
            j0 = (-(f[ok] // gg) * inv) % dd if dd > 1 else np.zeros(int(ok.sum()), dtype=np.int64)
            js = (j0[:, None] + dd * np.arange(gg, dtype=np.int64)[None, :]) % d
            ys = cands[ok][:, None] * pw[js] % m
            g = int(ys.min())
        elif (f >= 0).any():
            g = int(cands[f >= 0][0])   # preference 2: power in <2>
        else:
            g = int(cands[0])           # otherwise: the smallest element of that order
        gens.append(g)
        ords.append(big)
        twists.append(int(dlog2[pow(g, big, m)]))
        # H_{i+1} = H_i <g>.
        hre = reps[np.flatnonzero(inH)]
        gk = np.array([pow(g, k, m) for k in range(big)], dtype=np.int64)
        inH[label[(hre[:, None] * gk[None, :] % m).ravel()]] = True
        q //= big
        if int(inH.sum()) * q != ell:
            raise RuntimeError(f"m={m}: subgroup bookkeeping failed at generator {g}")
    return tuple(gens), tuple(ords), tuple(twists), ghs16


def main(argv=None) -> int:
    """`python -m cbparams.cyclotomic M [M ...]`: the facts of single rings."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m cbparams.cyclotomic", description="Facts of cyclotomic rings (p = 2).")
    ap.add_argument("m", nargs="+", help="odd cyclotomic indices")
    a = ap.parse_args(argv)
    try:
        for m in a.m:
            r = ring_facts(int(m) if m.lstrip("-").isdigit() else m)
            fac = "*".join(f"{p}^{e}" if e > 1 else str(p) for p, e in r.factors)
            dims = ", ".join(f"g={g} ord={o} {'good' if gd else f'bad (g^ord = 2^{t})'}"
                             for g, o, gd, t in zip(r.gens, r.ords, r.good, r.twists))
            print(f"m={r.m} = {fac}: phi={r.phi} d={r.d} slots={r.ell} dims: {dims or 'none'}; "
                  f"ghs16={r.ghs16}")
    except RingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
