"""Ring facts for the m-th cyclotomic ring with p = 2, as the engine computes them.

For odd m, Phi_m(X) splits mod 2 into ell = phi(m)/d irreducible factors of degree
d = ord_m(2), and the plaintext slots are indexed by the cosets of <2> in Z_m^*:

    phi  = |Z_m^*|                      (Euler's totient)
    d    = ord_m(2)                     (each slot is GF(2^d))
    ell  = phi / d = |Z_m^* / <2>|      (number of slots)

The engine's runners/engine/algebra/zmstar.h is the one place these facts are computed,
with the hypercube of Z_m^*/<2> it runs on: generators g_0..g_{D-1} chosen greedily (g_i of
the largest order ord_i in Z_m^*/<2, g_0, ..., g_{i-1}>, preferring g_i^ord_i = 1, then
g_i^ord_i in <2>, ties to the smallest integer); dimension i is "good" when g_i^ord_i = 1
mod m, otherwise g_i^ord_i = 2^f_i with twist f_i != 0 (a "bad" dimension). This module
asks the engine's batch command `build/bin/zmstar_info` (cbparams.batch) and keeps the
answers; Sage checks them independently (cbparams.sagecheck, test_cyclotomic.py).

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
    """Facts about the m-th cyclotomic ring with plaintext modulus p = 2 (the engine's)."""

    m: int                                #: cyclotomic index, odd
    factors: tuple[tuple[int, int], ...]  #: m = prod p^e, as ((p, e), ...)
    phi: int                              #: phi(m) = |Z_m^*|, the ring dimension
    d: int                                #: d = ord_m(2): slots are GF(2^d)
    ell: int                              #: ell = phi / d, the number of slots
    gens: tuple[int, ...]                 #: g_i, generators of Z_m^*/<2> (engine's greedy rule)
    ords: tuple[int, ...]                 #: ord_i, order of g_i in Z_m^*/<2, g_0..g_{i-1}>
    good: tuple[bool, ...]                #: g_i^ord_i == 1 mod m
    twists: tuple[int, ...]               #: f_i with g_i^ord_i = 2^f_i mod m
    ghs16: bool                           #: some g has order 16 in Z_m^* and in Z_m^*/<2>
    slots_ok: bool = True                 #: d <= the engine's largest slot degree: it runs this ring

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
    try:
        mi = int(m)
    except (TypeError, ValueError):
        raise RingError(f"m={m!r} is not an integer: give the cyclotomic index as an odd integer >= 3") from None
    if mi != m and not (isinstance(m, str) and str(mi) == m.strip()):
        raise RingError(f"m={m!r} is not an integer: give the cyclotomic index as an odd integer >= 3")
    return mi


def _answers(ms, basic: bool, ask=None) -> list[dict]:
    ms = [_as_int(m) for m in ms]
    out = (ask or ZMSTAR.ask)([f"{m} basic" if basic else str(m) for m in ms])
    for m, a in zip(ms, out):
        if "error" in a and ("phi" not in a or basic):
            raise RingError(a["error"])
    return out


def _factors(a: dict) -> tuple[tuple[int, int], ...]:
    return tuple((int(p), int(e)) for p, e in a["factors"])


def check_m(m) -> int:
    """Returns m as an int, or raises RingError with the engine's reason for refusing it.

    >>> check_m(53262)
    Traceback (most recent call last):
    ...
    cbparams.errors.RingError: m=53262 is even: the ring needs odd m
    """
    mi = _as_int(m)
    _answers([mi], basic=True)
    return mi


def basic_facts_many(ms) -> list[tuple[tuple[tuple[int, int], ...], int, int]]:
    """(factors, phi, d) of many odd m at once, without the hypercube (one engine batch)."""
    return [(_factors(a), int(a["phi"]), int(a["d"])) for a in _answers(list(ms), basic=True)]


def basic_facts(m: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """(factors, phi, d) of odd m without the quotient structure (cheap, for filtering)."""
    return basic_facts_many([m])[0]


def _record(a: dict) -> RingFacts:
    if "error" in a:
        raise RingError(a["error"])
    return RingFacts(m=int(a["m"]), factors=_factors(a), phi=int(a["phi"]), d=int(a["d"]), ell=int(a["ell"]),
                     gens=tuple(a["gens"]), ords=tuple(a["ords"]), good=tuple(bool(g) for g in a["good"]),
                     twists=tuple(a["twists"]), ghs16=bool(a["ghs16"]), slots_ok=bool(a["slots_ok"]))


def ring_facts_many(ms, refused: str = "raise", ask=None) -> list[RingFacts | None]:
    """The facts of many rings at once (one engine batch; `ask`: another Batch's ask, to run
    batches side by side). A ring whose hypercube the engine cannot build raises RingError
    with the engine's message, or gives None with refused="none"."""
    out = []
    for a in _answers(list(ms), basic=False, ask=ask):
        if "error" in a and refused == "none":
            out.append(None)
        else:
            out.append(_record(a))
    return out


def ring_facts(m: int) -> RingFacts:
    """All facts for one m (see the module doc). Raises RingError for a ring the engine refuses."""
    return ring_facts_many([m])[0]


def zmstar_structure(m: int, d: int | None = None):
    """(gens, ords, twists, ghs16) of Z_m^*/<2>, the engine's hypercube.

    >>> zmstar_structure(4369)   # HElib's small AES ring: 256 slots, two bad dimensions
    ((3, 317), (128, 2), (8, 1), True)
    """
    r = ring_facts(m)
    if d is not None and d != r.d:
        raise RingError(f"m={m}: d={d} given, but ord_m(2) = {r.d}")
    return r.gens, r.ords, r.twists, r.ghs16


def main(argv=None) -> int:
    """`python -m cbparams.cyclotomic M [M ...]`: the facts of single rings."""
    import argparse
    import sys

    from .errors import ParamError

    ap = argparse.ArgumentParser(prog="python -m cbparams.cyclotomic", description="Facts of cyclotomic rings (p = 2).")
    ap.add_argument("m", nargs="+", help="odd cyclotomic indices")
    a = ap.parse_args(argv)
    try:
        for m in a.m:
            r = ring_facts(m)
            fac = "*".join(f"{p}^{e}" if e > 1 else str(p) for p, e in r.factors)
            dims = ", ".join(f"g={g} ord={o} {'good' if gd else f'bad (g^ord = 2^{t})'}"
                             for g, o, gd, t in zip(r.gens, r.ords, r.good, r.twists))
            print(f"m={r.m} = {fac}: phi={r.phi} d={r.d} slots={r.ell} dims: {dims or 'none'}; "
                  f"ghs16={r.ghs16}")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
