"""Security of a BGV parameter set: HElib's formula (asked of the engine) and core-SVP uSVP.

1. HElib's formula, exactly as HElib 2.3.0 computes the "security level"
   (Context::securityLevel / lweEstimateSecurity, stated in docs/references.md §2), is
   computed in one place, the engine (runners/engine/bgv/security.h, what run_cipher
   reports); the functions below ask the engine's batch command `build/bin/security_info`
   (cbparams.batch) and cache its answers. Q counts the ciphertext and the special primes.

   The five figures HElib 2.3.0 printed for the paper's rings (dense key, c = 3; for
   m = 53261 from log2 Q, for the others from the log2AlphaInv HElib reported):

   >>> round(helib_security(53261, 1119.16, 0), 3)
   137.804
   >>> round(helib_log2_alpha_inv(53261, 1119.16), 3)
   1109.632
   >>> [round(helib_security_level(phi, lai, 0), 3) for phi, lai in [(81920, 2085.967),
   ...      (129024, 2745.143), (163840, 3104.155), (163840, 4242.755)]]
   [129.233, 158.603, 180.567, 126.742]

2. Primal uSVP under the core-SVP model [ADPS16] (Alkim, Ducas, Poeppelmann, Schwabe,
   "Post-quantum key exchange - a new hope", USENIX Security 2016, section 6), also
   computed in the engine (runners/engine/bgv/coresvp.h states the model: Bai-Galbraith
   embedding, GSA root-Hermite factor [Chen13], 2^(0.292 beta) a call [BDGL16], the smallest
   beta over all sample counts, no hybrid or sparse-secret guessing: the lattice estimator's
   "rough" uSVP), because the engine's target search meets it (run_cipher
   --security-models); the functions below ask security_info for it. Every core-SVP
   figure of the project (security.csv, the tables) is this function of log2 Q, the same Q
   as HElib's formula (coresvp_of_chain). The models by name, with their citations and key
   assumptions: cbparams.security_models.

   At m = 53261 with q = 2^820 and key weight 120, docs/references.md §3 lists the
   estimator's rough (ADPS16) uSVP as 166.4:

   >>> round(coresvp_bits(46080, 820, hwt=120), 1)
   166.4
"""
from __future__ import annotations

from .batch import SECURITY
from .errors import SecurityError


def _checked(answers: list[dict]) -> list[dict]:
    for a in answers:
        if "error" in a:
            raise SecurityError(a["error"])
    return answers


def helib_security_level(phi: float, log2_alpha_inv: float, hwt: int) -> float:
    """HElib's security estimate from phi(m), log2(1/alpha) and the key's Hamming weight
    (the engine's helib_security_level).

    hwt = 0 means a dense key; 1 <= hwt < 120 (or hwt < 0) gives 0, as in HElib.

    >>> round(helib_security_level(46080, 1109.632, 0), 3)
    137.804
    >>> round(helib_security_level(46080, 1109.632, 120), 3)  # 2.4 X + 19
    118.665
    >>> helib_security_level(46080, 1109.632, 60)
    0.0
    """
    (a,) = _checked(SECURITY.ask([f"level {float(phi)!r} {float(log2_alpha_inv)!r} {int(hwt)}"]))
    return float(a["helib_bits"])


def helib_many(requests) -> list[dict]:
    """The engine's answers for many (m, log2_q, hwt) at once: dicts with phi, sigma,
    log2_alpha_inv and helib_bits (one batch; SecurityError for a modulus below the noise)."""
    return _checked(SECURITY.ask([f"{int(m)} {float(lq)!r} {int(h)}" for m, lq, h in requests]))


def helib_sigma(m: int) -> float:
    """HElib's sigma for the formula (the engine's): 3.2, times sqrt(m) when m is not a power of two."""
    return float(helib_many([(m, 1000.0, 0)])[0]["sigma"])


def helib_log2_alpha_inv(m: int, log2_q: float) -> float:
    """log2(1/alpha) = log2 Q - log2 sigma, the way HElib computes it (the engine's)."""
    return float(helib_many([(m, log2_q, 0)])[0]["log2_alpha_inv"])


def helib_security(m: int, log2_q: float, hwt: int, phi: int | None = None) -> float:
    """HElib's security level for ring m with log2 Q (ciphertext + special primes), the
    engine's figure. phi is accepted for older callers; the engine derives it from m.

    >>> round(helib_security(53261, 1119.16, 0), 3), round(helib_security(53261, 1119.16, 120), 3)
    (137.804, 118.666)
    """
    a = helib_many([(m, log2_q, hwt)])[0]
    if phi is not None and int(phi) != int(a["phi"]):
        raise SecurityError(f"m={m}: phi={phi} given, but phi(m) = {a['phi']}")
    return float(a["helib_bits"])


def coresvp_of_chain(phi: int, log2_q: float, hwt: int) -> float:
    """The project's core-SVP figure of a chain: coresvp_bits with q = Q, ciphertext and
    special primes (log2_q as run_cipher reports it and HElib's formula counts it), rounded
    to 0.1 bit as security.csv and the tables show it."""
    return round(coresvp_bits(int(phi), round(float(log2_q), 3), int(hwt)), 1)


# ---------------------------------------------------------------------------------------
# core-SVP (the engine's, engine/bgv/coresvp.h)

def _coresvp(n: int, log2_q: float, hwt: int, sigma: float | None, model: str) -> dict:
    req = f"coresvp {int(n)} {float(log2_q)!r} {int(hwt)}"
    if sigma is not None:
        req += f" sigma={float(sigma)!r}"
    (a,) = _checked(SECURITY.ask([req + f" cost_model={model}"]))
    return a


def usvp_beta(n: int, log2_q: float, hwt: int = 0, sigma: float | None = None) -> int:
    """Smallest BKZ block size beta for which primal uSVP succeeds (see module doc; sigma:
    the error's standard deviation, the engine's 3.2 when None).

    >>> usvp_beta(46080, 820, 120)
    570
    """
    return int(_coresvp(n, log2_q, hwt, sigma, "ADPS16")["beta"])


def coresvp_bits(n: int, log2_q: float, hwt: int = 0, sigma: float | None = None,
                 model: str = "ADPS16") -> float:
    """log2 cost of primal uSVP under the core-SVP model: cost model `model` (ADPS16:
    0.292 beta; ADPS16-quantum: 0.265 beta) of usvp_beta. SecurityError with the engine's
    message for an unknown model, a key weight outside [0, n], or q not above sigma.

    >>> round(coresvp_bits(46080, 820, hwt=0), 1)  # dense key: slightly harder
    167.3
    """
    return float(_coresvp(n, log2_q, hwt, sigma, model)["coresvp_bits"])
