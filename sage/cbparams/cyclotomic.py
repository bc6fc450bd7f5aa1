"""Ring facts for the m-th cyclotomic ring at a prime plaintext modulus p, as the engine
computes them (p = 2 by default, the seed papers' case).

For p not dividing m, Phi_m(X) splits mod p into ell = phi(m)/d irreducible factors of
degree d = ord_m(p), and the plaintext slots are indexed by the cosets of <p> in Z_m^*:

    phi  = |Z_m^*|                      (Euler's totient)
    d    = ord_m(p)                     (each slot is GF(p^d))
    ell  = phi / d = |Z_m^* / <p>|      (number of slots)

The engine takes every odd m, and at odd p also m = 2^k (Phi_m = X^(m/2) + 1; for
p = 1 mod m, d = 1 and the m/2 slots are F_p, the ring every F_p cipher runs on); it refuses
p not prime, p | m, and p = 2 with a power-of-two m (no slots).

The engine's runners/engine/algebra/zmstar.h is the one place these facts are computed,
with the hypercube of Z_m^*/<p> it runs on: generators g_0..g_{D-1} chosen greedily (g_i of
the largest order ord_i in Z_m^*/<p, g_0, ..., g_{i-1}>, preferring g_i^ord_i = 1, then
g_i^ord_i in <p>, ties to the smallest integer); dimension i is "good" when g_i^ord_i = 1
mod m, otherwise g_i^ord_i = p^f_i with twist f_i != 0 (a "bad" dimension). This module
asks the engine's batch command `build/bin/zmstar_info` (cbparams.batch; requests "m" at
p = 2, "m p=P" otherwise) and keeps the answers; Sage checks them independently
(cbparams.sagecheck, test_cyclotomic.py).

The ring of GHS's and HElib's AES (docs/references.md §1), with the engine built:

>>> r = ring_facts(53261)
>>> r.factors, r.phi, r.d, r.ell
(((13, 1), (17, 1), (241, 1)), 46080, 24, 1920)
>>> r.gens, r.ords, r.good
((3, 11), (240, 8), (True, False))
>>> r.twists               # 11^8 = 2^20 mod m: the second dimension is "bad"
(0, 20)
>>> r.ghs16, r.slots_ok
(True, True)

HElib's and IAIK's Pasta-3 ring, m = 2^16 at p = 65537 = 1 mod m: 32768 slots of F_p.

>>> r = ring_facts(65536, p=65537)
>>> r.p, r.phi, r.d, r.ell, r.gens, r.ords, r.twists
(65537, 32768, 1, 32768, (3, 32767), (16384, 2), (0, 0))
"""
from __future__ import annotations

from dataclasses import dataclass

from .batch import ZMSTAR
from .errors import RingError


def limits() -> dict:
    """What the engine accepts, from the engine: m_max (largest m), max_slot_degree
    (largest d whose slots it builds) and prime_bits (its full chain primes in this build)."""
    (ans,) = ZMSTAR.ask(["limits"])
    return ans


def __getattr__(name):
    # M_LIMIT and D_LIMIT are the engine's limits, asked when first used.
    if name == "M_LIMIT":
        return limits()["m_max"]
    if name == "D_LIMIT":
        return limits()["max_slot_degree"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------
# The record.

@dataclass(frozen=True)
class RingFacts:
    """Facts about the m-th cyclotomic ring with prime plaintext modulus p (the engine's)."""

    m: int                                #: cyclotomic index: odd, or 2^k at odd p
    factors: tuple[tuple[int, int], ...]  #: m = prod q^e, as ((q, e), ...)
    phi: int                              #: phi(m) = |Z_m^*|, the ring dimension
    d: int                                #: d = ord_m(p): slots are GF(p^d)
    ell: int                              #: ell = phi / d, the number of slots
    gens: tuple[int, ...]                 #: g_i, generators of Z_m^*/<p> (engine's greedy rule)
    ords: tuple[int, ...]                 #: ord_i, order of g_i in Z_m^*/<p, g_0..g_{i-1}>
    good: tuple[bool, ...]                #: g_i^ord_i == 1 mod m
    twists: tuple[int, ...]               #: f_i with g_i^ord_i = p^f_i mod m
    ghs16: bool                           #: p = 2 and some g has order 16 in Z_m^* and in Z_m^*/<2>
    slots_ok: bool = True                 #: d <= the engine's largest slot degree: it runs this ring
    p: int = 2                            #: the plaintext modulus, prime

    @property
    def slots(self) -> int:
        """Number of plaintext slots (= ell)."""
        return self.ell

    def blocks(self, state: int) -> int:
        """Cipher blocks per ciphertext for a cipher whose state has `state` field elements
        (16 for AES bytes or Vision over GF(2^8); 8, 4, 2 for Vision over GF(2^16/32/64)).
        """
        return self.ell // state


def _as_int(m) -> int:
    how = "give the cyclotomic index as an odd integer >= 3 (or 2^k >= 4 at an odd p)"
    try:
        mi = int(m)
    except (TypeError, ValueError):
        raise RingError(f"m={m!r} is not an integer: {how}") from None
    if mi != m and not (isinstance(m, str) and str(mi) == m.strip()):
        raise RingError(f"m={m!r} is not an integer: {how}")
    return mi


def check_p(p) -> int:
    """p as an int, or RingError when it is no integer. Range and primality are the engine's
    to judge (its refusal names p and the constraint), asked with the ring.

    >>> check_p("65537"), check_p(3)
    (65537, 3)
    >>> check_p(2.5)
    Traceback (most recent call last):
    ...
    cbparams.errors.RingError: p=2.5 is not an integer: give the plaintext modulus as a prime 2 <= p < 2^61
    """
    try:
        pi = int(p)
    except (TypeError, ValueError):
        pi = None
    if pi is None or isinstance(p, bool) or (pi != p and not (isinstance(p, str) and str(pi) == p.strip())):
        raise RingError(f"p={p!r} is not an integer: give the plaintext modulus as a prime 2 <= p < 2^61")
    return pi


def _request(m: int, basic: bool, p: int) -> str:
    """The zmstar_info request: "m" / "m basic" at p = 2 (as before p existed), with " p=P"
    at any other p."""
    req = f"{m} basic" if basic else str(m)
    return req if p == 2 else f"{req} p={p}"


def _answers(ms, basic: bool, ask=None, p=2) -> list[dict]:
    ms = [_as_int(m) for m in ms]
    p = check_p(p)
    out = (ask or ZMSTAR.ask)([_request(m, basic, p) for m in ms])
    for m, a in zip(ms, out):
        if "error" in a and ("phi" not in a or basic):
            raise RingError(a["error"])
    return out


def _factors(a: dict) -> tuple[tuple[int, int], ...]:
    return tuple((int(p), int(e)) for p, e in a["factors"])


def check_m(m, p=2) -> int:
    """Returns m as an int, or raises RingError with the engine's reason for refusing it
    (or p: not prime, dividing m, ...).

    >>> check_m(53262)
    Traceback (most recent call last):
    ...
    cbparams.errors.RingError: m=53262 is even: the ring needs odd m
    >>> check_m(9, p=3)
    Traceback (most recent call last):
    ...
    cbparams.errors.RingError: p=3 divides m=9: the plaintext modulus must be coprime to m
    """
    mi = _as_int(m)
    _answers([mi], basic=True, p=p)
    return mi


def basic_facts_many(ms, p=2) -> list[tuple[tuple[tuple[int, int], ...], int, int]]:
    """(factors, phi, d = ord_m(p)) of many m at once, without the hypercube (one engine batch)."""
    return [(_factors(a), int(a["phi"]), int(a["d"])) for a in _answers(list(ms), basic=True, p=p)]


def basic_facts(m: int, p=2) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """(factors, phi, d = ord_m(p)) of m without the quotient structure (cheap, for filtering)."""
    return basic_facts_many([m], p)[0]


def _record(a: dict) -> RingFacts:
    if "error" in a:
        raise RingError(a["error"])
    return RingFacts(m=int(a["m"]), factors=_factors(a), phi=int(a["phi"]), d=int(a["d"]), ell=int(a["ell"]),
                     gens=tuple(a["gens"]), ords=tuple(a["ords"]), good=tuple(bool(g) for g in a["good"]),
                     twists=tuple(a["twists"]), ghs16=bool(a["ghs16"]), slots_ok=bool(a["slots_ok"]),
                     p=int(a.get("p", 2)))


def ring_facts_many(ms, refused: str = "raise", ask=None, p=2) -> list[RingFacts | None]:
    """The facts of many rings at plaintext modulus p at once (one engine batch; `ask`:
    another Batch's ask, to run batches side by side). A ring whose hypercube the engine
    cannot build raises RingError with the engine's message, or gives None with
    refused="none"; a ring or p the engine refuses outright always raises."""
    out = []
    for a in _answers(list(ms), basic=False, ask=ask, p=p):
        if "error" in a and refused == "none":
            out.append(None)
        else:
            out.append(_record(a))
    return out


def ring_facts(m: int, p=2) -> RingFacts:
    """All facts for one m at plaintext modulus p (see the module doc). Raises RingError for
    a ring the engine refuses."""
    return ring_facts_many([m], p=p)[0]


def zmstar_structure(m: int, d: int | None = None, p=2):
    """(gens, ords, twists, ghs16) of Z_m^*/<p>, the engine's hypercube.

    >>> zmstar_structure(4369)   # HElib's small AES ring: 256 slots, two bad dimensions
    ((3, 317), (128, 2), (8, 1), True)
    >>> zmstar_structure(64, p=17)   # 17^4 = 1 mod 64: 8 slots of GF(17^4), 3^4 = 17 (twist 1)
    ((3, 31), (4, 2), (1, 0), False)
    """
    r = ring_facts(m, p)
    if d is not None and d != r.d:
        raise RingError(f"m={m}: d={d} given, but ord_m({r.p}) = {r.d}")
    return r.gens, r.ords, r.twists, r.ghs16


def main(argv=None) -> int:
    """`python -m cbparams.cyclotomic M [M ...]`: the facts of single rings."""
    import argparse
    import sys

    from .errors import ParamError

    ap = argparse.ArgumentParser(prog="python -m cbparams.cyclotomic",
                                 description="Facts of cyclotomic rings at a prime plaintext modulus p (default 2).")
    ap.add_argument("m", nargs="+", help="cyclotomic indices: odd, or powers of two at odd p")
    ap.add_argument("--p", default="2", help="the plaintext modulus, a prime (default 2)")
    a = ap.parse_args(argv)
    try:
        for m in a.m:
            r = ring_facts(m, a.p)
            fac = "*".join(f"{q}^{e}" if e > 1 else str(q) for q, e in r.factors)
            dims = ", ".join(f"g={g} ord={o} {'good' if gd else f'bad (g^ord = {r.p}^{t})'}"
                             for g, o, gd, t in zip(r.gens, r.ords, r.good, r.twists))
            at = "" if r.p == 2 else f" p={r.p}"
            print(f"m={r.m}{at} = {fac}: phi={r.phi} d={r.d} slots={r.ell} dims: {dims or 'none'}; "
                  f"ghs16={r.ghs16}")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
