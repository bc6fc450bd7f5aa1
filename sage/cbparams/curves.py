"""Security of one ring against the length of its modulus chain.

For ring m and capacities bits_1 < bits_2 < ...: the chain the engine builds for each
(exact primes), log2 Q (ciphertext + special primes), and its security by HElib's formula
(configured key weight and dense), core-SVP primal uSVP, and the lattice estimator's
attacks when it is there (`estimator=True` requires it, `None` uses it when found).
Every figure is labelled by its column: helib_bits, helib_dense_bits, coresvp_bits,
est_<attack> (the estimator, with est_commit saying which clone).

>>> rows = security_curve(4369, [200, 400], hwt=120, estimator=False)
>>> [r["bits"] for r in rows], rows[0]["L"] < rows[1]["L"]   # L: 50-bit primes with IFMA, 60 without
([200, 400], True)
>>> rows[0]["helib_bits"] > rows[1]["helib_bits"] > 0
True
"""
from __future__ import annotations

from . import estimator as est
from .chains import build_chain
from .cyclotomic import basic_facts
from .errors import EstimatorMissing
from .security import coresvp_bits, helib_security


def security_curve(m: int, bits_list, hwt: int = 120, c: int = 3, estimator: bool | None = None,
                   attacks=("usvp",), estimator_path: str = "", timeout_s: float = 600,
                   cache_dir: str = ".cache/estimator") -> list[dict]:
    """One row per capacity in bits_list (see the module doc)."""
    _, phi, _ = basic_facts(m)
    where = None
    if estimator is not False:
        where = est.locate(estimator_path)
        if not where.available:
            if estimator:
                raise EstimatorMissing(where.note)
            where = None
    rows = []
    for bits in bits_list:
        ch = build_chain(m, int(bits), c)
        lq = ch.log2_Q
        row = {"m": m, "phi": phi, "bits": int(bits), "c": c, "L": ch.L, "K": ch.K,
               "log2_q_ct": round(ch.log2_q_ct, 3), "log2_q": round(lq, 3), "hwt": hwt,
               "helib_bits": round(helib_security(m, lq, hwt, phi), 3),
               "helib_dense_bits": round(helib_security(m, lq, 0, phi), 3),
               "coresvp_bits": round(coresvp_bits(phi, lq, hwt), 1)}
        if where is not None:
            for attack in attacks:
                res = est.estimate(phi, lq, hwt, attack, where, timeout_s, cache_dir)
                v = res.get("log2_rop")
                row[f"est_{attack}"] = round(v, 1) if v is not None else None
                row["est_commit"] = res.get("commit", "")
        rows.append(row)
    return rows
