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
   "Post-quantum key exchange - a new hope", USENIX Security 2016, section 6): the attack
   succeeds with BKZ block size beta when the projected target is shorter than the
   Gram-Schmidt norm at index d - beta,
       sigma sqrt(beta) <= delta(beta)^(2 beta - d) Vol^(1/d),
   with the Bai-Galbraith embedding of LWE (n = phi, w samples, d = n + w + 1,
   Vol = q^w (sigma/sigma_s)^n after scaling the secret to the error's size) and the
   GSA root-Hermite factor delta(beta) = (beta/(2 pi e) (pi beta)^(1/beta))^(1/(2(beta-1)))
   [Chen13]. The cost of one SVP call in dimension beta is 2^(0.292 beta) [BDGL16 sieve,
   ADPS16's classical core-SVP]. We take the smallest beta over all w (samples are free:
   key-switching keys give many), and no hybrid or sparse-secret guessing: this is a
   lower-envelope sanity figure, the same model as the lattice estimator's "rough" uSVP.
   This model lives only here; every core-SVP figure of the project (security.csv, the
   tables) is this function of log2 Q, the same Q as HElib's formula (coresvp_of_chain).

   At m = 53261 with q = 2^820 and key weight 120, docs/references.md §3 lists the
   estimator's rough (ADPS16) uSVP as 166.4:

   >>> round(coresvp_bits(46080, 820, hwt=120), 1)
   166.4
"""
from __future__ import annotations

import math

from .batch import SECURITY
from .errors import SecurityError

#: Error standard deviation of HElib's and the engine's encryption, as the core-SVP model
#: takes it (the engine's sampler, engine/bgv/sampler.h; HElib's formula scales it by sqrt(m)
#: itself, in the engine).
SIGMA = 3.2

#: Cost models of one SVP call in dimension beta, by citation key: log2 of the cost.
COST_MODELS = {
    # Becker, Ducas, Gama, Laarhoven, SODA 2016: classical sieve 2^(0.292 beta);
    # used without lower-order terms as "core-SVP" by ADPS16.
    "ADPS16": lambda beta: 0.292 * beta,
    # ADPS16's quantum core-SVP (Laarhoven's quantum sieve, 2^(0.265 beta)).
    "ADPS16-quantum": lambda beta: 0.265 * beta,
}


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
# core-SVP

def delta_0(beta: float) -> float:
    """Root-Hermite factor of BKZ-beta under the GSA [Chen13]."""
    return (beta / (2 * math.pi * math.e) * (math.pi * beta) ** (1 / beta)) ** (1 / (2 * (beta - 1)))


def secret_stddev(n: int, hwt: int) -> float:
    """Standard deviation of a ternary secret coefficient: sqrt(h/n) for weight h, or
    sqrt(2/3) for a dense key (modelled as uniform on {-1, 0, 1})."""
    if hwt == 0:
        return math.sqrt(2 / 3)
    if hwt < 0 or hwt > n:
        raise SecurityError(f"hwt={hwt}: the key weight must lie in [0, phi={n}] (0 = dense key)")
    return math.sqrt(hwt / n)


def _usvp_ok(beta: int, n: int, log2_q: float, sigma: float, sigma_s: float) -> bool:
    """Is there a sample count w for which BKZ-beta solves the uSVP instance?"""
    ld = math.log2(delta_0(beta))
    lhs = math.log2(sigma) + 0.5 * math.log2(beta)
    lscale = math.log2(sigma / sigma_s)
    # RHS(w) = (2 beta - d) ld + (w log2_q + n lscale)/d, d = n + w + 1 > beta; concave
    # in w: ternary search over integer w in [max(0, beta - n), 4n].
    def rhs(w):
        d = n + w + 1
        if d <= beta:
            return -math.inf
        return (2 * beta - d) * ld + (w * log2_q + n * lscale) / d
    lo, hi = max(0, beta - n), 4 * n
    while hi - lo > 2:
        a = lo + (hi - lo) // 3
        b = hi - (hi - lo) // 3
        if rhs(a) < rhs(b):
            lo = a + 1
        else:
            hi = b - 1
    return lhs <= max(rhs(w) for w in range(lo, hi + 1))


def usvp_beta(n: int, log2_q: float, hwt: int = 0, sigma: float = SIGMA) -> int:
    """Smallest BKZ block size beta for which primal uSVP succeeds (see module doc)."""
    if n < 2:
        raise SecurityError(f"n={n}: the LWE dimension must be at least 2")
    if log2_q <= math.log2(sigma):
        raise SecurityError(f"log2_q={log2_q}: the modulus must exceed the error size sigma={sigma}")
    s = secret_stddev(n, hwt)
    lo, hi = 40, max(41, n)
    if _usvp_ok(lo, n, log2_q, sigma, s):
        return lo
    if not _usvp_ok(hi, n, log2_q, sigma, s):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _usvp_ok(mid, n, log2_q, sigma, s):
            hi = mid
        else:
            lo = mid
    return hi


def coresvp_bits(n: int, log2_q: float, hwt: int = 0, sigma: float = SIGMA,
                 model: str = "ADPS16") -> float:
    """log2 cost of primal uSVP under the core-SVP model: COST_MODELS[model](beta).

    >>> round(coresvp_bits(46080, 820, hwt=0), 1)  # dense key: slightly harder
    167.3
    """
    if model not in COST_MODELS:
        raise SecurityError(f"cost model {model!r} is unknown: use one of {sorted(COST_MODELS)}")
    return COST_MODELS[model](usvp_beta(n, log2_q, hwt, sigma))
