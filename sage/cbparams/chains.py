"""Modulus chains: the primes the engine builds for (m, bits, c), and chain sizing.

How the engine builds its chain (runners/engine/bgv/context.cpp, mirrored here):

* step = m N with N = bluestein_length(m), the smallest power of two >= 2m - 1; every
  prime is 1 mod step, and no prime is smaller than min_bits = ceil(log2 step) + 2 bits;
* B = the engine's largest prime size: 50 bits where it is built with AVX-512 IFMA (its
  fast 52-bit transform path), else 60 (``engine_max_prime_bits()`` reads the CPU flags,
  as -march=native does);
* S = 2 small "adjusting" primes: the smallest primes q = 1 mod step, searching bit
  sizes upward from min_bits (they let modulus switching move in steps of a few bits);
* big ciphertext primes: L_big = ceil(big / B) primes of b_ct = max(ceil(big / L_big),
  min_bits) bits, big = bits - floor(log2 of the small primes), the first L_big primes
  q = 1 mod step below 2^b_ct searching downward; L = S + L_big;
* digits for key switching: the L primes (small ones first) in c consecutive groups,
  sizes as equal as possible, larger groups first (c must not exceed L);
* special primes: needed = ceil(log2 of the largest digit's product) + 20 bits of margin,
  K = ceil(needed / B) primes of b_sp = max(ceil(needed / K), min_bits) bits, found the
  same way and distinct from the ciphertext primes;
* log2 Q for security = log2(ciphertext primes) + log2(special primes) (HElib counts the
  same; the engine's Context::security()).

With ``exact=True`` the primes are computed like the engine does (deterministic
Miller-Rabin), so log2 Q is the engine's to the last digit; with ``exact=False`` each
b-bit prime counts as b bits, an upper bound (a prime found by the downward search lies
within a few step of 2^b, so the error is below 0.001 bit per 60-bit prime) that can only
understate security.

>>> ch = build_chain(53261, 820, 3, max_prime_bits=60)
>>> ch.S, ch.L, ch.b_ct, ch.digits, ch.K, ch.b_sp
(2, 15, 58, (5, 5, 5), 6, 52)
>>> round(ch.log2_Q, 2), round(ch.log2_q_ct, 2)
(1138.42, 826.42)

Chain sizing for a circuit (Profile): bits = base + rounds * bits_per_round(phi) + margin,
from config/depth_profiles.yaml (the engine's noise guard, or the papers' figures) or
from measured runs.
"""
from __future__ import annotations

import glob
import json
import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from .errors import ChainError

#: Small adjusting primes of the chain (ContextParams::small_primes).
SMALL_PRIMES = 2


def engine_max_prime_bits() -> int:
    """The engine's largest prime size (util::max_fast_prime_bits): 50 with AVX-512 IFMA."""
    try:
        with open("/proc/cpuinfo") as f:
            return 50 if "avx512ifma" in f.read() else 60
    except OSError:
        return 60


#: Largest prime size the engine uses on this machine (context.cpp kMaxPrimeBits).
MAX_PRIME_BITS = engine_max_prime_bits()
#: log2(P / largest digit), the engine's default ks_margin_bits.
KS_MARGIN_BITS = 20

_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def is_prime(n: int) -> bool:
    """Miller-Rabin with the first twelve prime bases: exact for n < 3.3e24.

    >>> [p for p in range(30) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def bluestein_length(m: int) -> int:
    """N = the smallest power of two >= 2m - 1."""
    n = 1
    while n < 2 * m - 1:
        n *= 2
    return n


def ntt_primes(count: int, bits: int, step: int, exclude=()) -> list[int]:
    """The first `count` primes q = 1 mod step with 2^(bits-1) < q < 2^bits, downward."""
    out = []
    q = (1 << bits) - 1
    q -= (q - 1) % step
    lo = 1 << (bits - 1)
    ex = set(exclude)
    while q > lo and len(out) < count:
        if q not in ex and is_prime(q):
            out.append(q)
        q -= step
    if len(out) < count:
        raise ChainError(f"only {len(out)} primes q = 1 mod {step} lie in (2^{bits - 1}, 2^{bits}), "
                         f"but {count} were requested: use more bits or a smaller m")
    return out


@dataclass(frozen=True)
class Chain:
    """A modulus chain as the engine builds it."""

    m: int                   #: cyclotomic index
    bits: int                #: requested capacity, bits of the ciphertext modulus Q_L
    c: int                   #: number of key-switching digits
    L: int                   #: number of ciphertext primes, small ones included
    b_ct: int                #: size in bits of each ciphertext prime
    digits: tuple[int, ...]  #: primes per digit (c groups, larger first)
    K: int                   #: number of special primes
    b_sp: int                #: size in bits of each special prime
    log2_q_ct: float         #: log2 of the product of the ciphertext primes
    log2_q_sp: float         #: log2 P, the special primes' product
    log2_max_digit: float    #: log2 of the largest digit's product
    exact: bool              #: True: from the actual primes; False: b bits per prime
    primes: tuple[int, ...] = ()  #: the L + K primes when exact
    S: int = 0               #: small adjusting primes (the first S of the L)

    @property
    def log2_Q(self) -> float:
        """log2(Q_L P): what HElib's formula and the engine count for security."""
        return self.log2_q_ct + self.log2_q_sp


def build_chain(m: int, bits: int, c: int = 3, ks_margin_bits: int = KS_MARGIN_BITS,
                exact: bool = True, max_prime_bits: int = MAX_PRIME_BITS) -> Chain:
    """The engine's chain for (m, bits, c); see the module doc.

    >>> build_chain(257, 100, 9, max_prime_bits=50)
    Traceback (most recent call last):
    ...
    cbparams.errors.ChainError: c=9 exceeds the 4 ciphertext primes of a 100-bit chain: use c <= 4 or more bits
    """
    if bits < 20:
        raise ChainError(f"bits={bits} is too small: the chain needs at least 20 bits")
    if c < 1:
        raise ChainError(f"c={c}: key switching needs at least 1 digit")
    step = m * bluestein_length(m)
    min_bits = math.ceil(math.log2(step)) + 2
    if min_bits > 62:
        raise ChainError(f"m={m} needs primes of at least {min_bits} bits (1 mod m*N = {step}), "
                         f"more than the 62 bits the engine's NTT allows: use a smaller m")
    small: list[int] = []
    small_bits = 0.0
    b = min_bits
    while len(small) < SMALL_PRIMES and b <= max_prime_bits:
        for want in range(SMALL_PRIMES - len(small), 0, -1):
            try:
                found = ntt_primes(want, b, step, exclude=small)
            except ChainError:
                continue
            add = sum(math.log2(q) for q in found)
            if small_bits + add > bits - 20:
                break
            small += found
            small_bits += add
            break
        if small_bits > bits - 20 - b:
            break
        b += 1
    S = len(small)
    big_bits = max(bits - int(small_bits), 20)
    L_big = -(-big_bits // max_prime_bits)
    L = S + L_big
    if c > L:
        raise ChainError(f"c={c} exceeds the {L} ciphertext primes of a {bits}-bit chain: "
                         f"use c <= {L} or more bits")
    b_ct = max(-(-big_bits // L_big), min_bits)
    digits = tuple(L // c + (1 if j < L % c else 0) for j in range(c))
    if exact:
        ct = small + ntt_primes(L_big, b_ct, step, exclude=small)
        logs = [math.log2(q) for q in ct]
    else:
        ct, logs = list(small), [math.log2(q) for q in small] + [float(b_ct)] * L_big
    max_digit, start = 0.0, 0
    for size in digits:
        max_digit = max(max_digit, sum(logs[start:start + size]))
        start += size
    needed = math.ceil(max_digit - 1e-9 if not exact else max_digit) + ks_margin_bits
    K = -(-needed // max_prime_bits)
    b_sp = max(-(-needed // K), min_bits)
    if exact:
        sp = ntt_primes(K, b_sp, step, exclude=ct)
        log_sp = sum(math.log2(q) for q in sp)
    else:
        sp, log_sp = [], float(K * b_sp)
    return Chain(m=m, bits=bits, c=c, L=L, b_ct=b_ct, digits=digits, K=K, b_sp=b_sp,
                 log2_q_ct=sum(logs), log2_q_sp=log_sp, log2_max_digit=max_digit,
                 exact=exact, primes=tuple(ct) + tuple(sp) if exact else (), S=S)


# ---------------------------------------------------------------------------------------
# Chain sizing from a depth profile.

@dataclass(frozen=True)
class Profile:
    """How much modulus one cipher instance consumes.

    bits(R rounds, ring phi) = base + R * per_round(phi), rounded up as the engine does,
    plus the configured margin, with
        per_round(phi) = bits_per_round + growth * levels * (log2 phi - log2_phi_ref)
    (noise grows with the ring: the engine's guard, runners/ciphers/common/noise_budget.cpp,
    uses growth 0.8 bits per level and per doubling of phi). With log2_phi_ref = None
    per_round is flat (the "paper" model: HElib's and the paper's figures at their rings).
    """

    cipher: str             #: instance name (aes, vision8, ...)
    n: int                  #: slot-field degree the state lives in
    state: int              #: field elements per block
    rounds: int             #: rounds evaluated
    bits_per_round: float   #: modulus bits consumed per round (at phi = 2^log2_phi_ref)
    source: str             #: where bits_per_round comes from
    levels: int = 0                       #: multiplicative levels per round
    log2_phi_ref: float | None = None     #: ring where bits_per_round was measured; None: flat
    growth: float = 0.0                   #: bits per level and per doubling of phi
    base: float = 0.0                     #: bits before the first round (fresh noise, decryption)

    def per_round(self, phi: int | None = None) -> float:
        if self.log2_phi_ref is None or phi is None:
            return self.bits_per_round
        return self.bits_per_round + self.growth * self.levels * (math.log2(phi) - self.log2_phi_ref)

    def bits_needed(self, margin: int, rounds: int | None = None, phi: int | None = None) -> int:
        """The chain's capacity in bits: base + rounds * per_round(phi), rounded up, + margin."""
        r = self.rounds if rounds is None else rounds
        return int(self.base + r * self.per_round(phi) + 0.999) + margin


#: The models a depth-profile file may give per cipher.
DEPTH_MODELS = ("engine", "paper")


def load_profiles(path: str | Path, hwt: int = 120, model: str = "paper") -> dict[str, Profile]:
    """Profiles from config/depth_profiles.yaml (see that file for the fields).

    model "paper": bits_per_round from `bits_per_round_dense` for a dense key when given,
    else `bits_per_round`, else levels_per_round * bits_per_level; flat in phi.
    model "engine": the cipher's `engine:` block (the engine's noise guard), scaled with phi.
    """
    path = Path(path)
    if model not in DEPTH_MODELS:
        raise ChainError(f"depth model {model!r} is unknown: use one of {DEPTH_MODELS}")
    if not path.exists():
        raise ChainError(f"depth profile file {path} does not exist: set params.depth_profiles "
                         f"to a YAML file like config/depth_profiles.yaml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    bpl_default = doc.get("bits_per_level")
    eng_default = doc.get("engine_model", {})
    out = {}
    for name, e in doc["ciphers"].items():
        rounds = int(e["rounds"])
        if rounds < 1:
            raise ChainError(f"{path}: cipher {name} has rounds={rounds}; need at least 1")
        if model == "engine":
            g = e.get("engine")
            if not g:
                raise ChainError(f"{path}: cipher {name} has no engine: block; use params.depth_model: paper "
                                 f"or add the engine's figures")
            out[name] = Profile(cipher=name, n=int(e["n"]), state=int(e["state"]), rounds=rounds,
                                bits_per_round=float(g["bits_per_round"]),
                                source=g.get("source", eng_default.get("source", "")),
                                levels=int(g["levels"]), log2_phi_ref=math.log2(g["at_phi"]),
                                growth=float(g.get("growth", eng_default.get("growth", 0.8))),
                                base=float(g.get("base", eng_default.get("base", 40))))
            continue
        bpr = None
        src = e.get("source", "")
        if hwt == 0 and e.get("bits_per_round_dense") is not None:
            bpr, src = e["bits_per_round_dense"], e.get("source_dense", src)
        elif e.get("bits_per_round") is not None:
            bpr = e["bits_per_round"]
        elif e.get("levels_per_round") is not None:
            bpl = e.get("bits_per_level", bpl_default)
            if bpl is None:
                raise ChainError(f"{path}: cipher {name} gives levels_per_round but no bits_per_level")
            bpr = e["levels_per_round"] * bpl
            src = f"{e['levels_per_round']} levels x {bpl} bits/level ({e.get('levels_source', src)})"
        if bpr is None or bpr <= 0:
            raise ChainError(f"{path}: cipher {name} has no positive bits_per_round or levels_per_round")
        out[name] = Profile(cipher=name, n=int(e["n"]), state=int(e["state"]), rounds=rounds,
                            bits_per_round=float(bpr), source=src,
                            levels=int(e.get("levels_per_round", 0)))
    return out


def instance_name(run: dict) -> str | None:
    """The depth-profile name of a run_cipher result: aes, or vision<n> from its instance
    "GF(2^n)^s"; None for anything else.

    >>> instance_name({"cipher": "aes128"}), instance_name({"cipher": "vision", "instance": "GF(2^16)^8"})
    ('aes', 'vision16')
    """
    import re

    c = run.get("cipher")
    if c in ("aes128", "aes"):
        return "aes"
    if c == "vision":
        mt = re.search(r"GF\(2\^(\d+)\)", str(run.get("instance", "")))
        return f"vision{mt.group(1)}" if mt else None
    if isinstance(c, str) and c.startswith("vision") and c[6:].isdigit():
        return c
    return None


def measured_bits_per_round(runs_glob: str = "results/runs/**/*.json",
                            min_phi: int = 0) -> dict[str, tuple[float, int]]:
    """Mean capacity drop per round from engine runs (run_cipher JSON), per cipher instance.

    Uses packed, correct runs only (the chains here are for the packed circuits), on rings
    with phi >= min_phi: noise grows with the ring dimension, so toy rings consume fewer
    bits per round than the rings a selection is about. The
    capacities are fresh_capacity_bits (after encryption, when reported) followed by
    per_round[].capacity_bits; the mean of the successive drops is the run's bits per
    round. Per instance the run on the largest ring (phi) counts, the largest mean among
    those: {name: (bits_per_round, phi)}. Files that do not parse or lack these keys are
    skipped.
    """
    best: dict[str, float] = {}
    for fn in glob.glob(runs_glob, recursive=True):
        try:
            with open(fn) as f:
                run = json.load(f)
            name = instance_name(run)
            if run.get("correct") is False or run.get("packing", "packed") != "packed":
                continue
            phi = int(run.get("params", {}).get("phi", 0))
            if min_phi and phi < min_phi:
                continue
            caps = [run.get("fresh_capacity_bits")]
            caps += [r["capacity_bits"] for r in sorted(run["per_round"], key=lambda r: r["round"])]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        caps = [c for c in caps if isinstance(c, (int, float))]
        if not name or len(caps) < 2:
            continue
        drops = [a - b for a, b in zip(caps, caps[1:])]
        mean = sum(drops) / len(drops)
        if mean > 0:
            best[name] = max(best.get(name, (0.0, 0)), (mean, phi), key=lambda t: (t[1], t[0]))
    return best


def apply_measured(profiles: dict[str, Profile], measured: dict[str, tuple[float, int]]) -> dict[str, Profile]:
    """Profiles with measured bits per round where runs exist: a flat (paper) profile takes
    the measured value; a phi-scaled (engine) profile is re-anchored at the run's ring."""
    from dataclasses import replace

    out = dict(profiles)
    for name, (bpr, phi) in measured.items():
        if name in out:
            p = out[name]
            src = f"measured: results/runs, mean capacity drop per round at phi={phi}"
            if p.log2_phi_ref is not None and phi > 0:
                out[name] = replace(p, bits_per_round=bpr, log2_phi_ref=math.log2(phi), source=src)
            else:
                out[name] = replace(p, bits_per_round=bpr, source=src)
    return out


def main(argv=None) -> int:
    """`python -m cbparams.chains --m M (--bits B | --cipher NAME) [--c C] [--hwt H]`: the
    engine's chain and its security; with --cipher the bits come from the depth profile
    (rounds * bits_per_round + --margin)."""
    import argparse
    import sys

    from .cyclotomic import basic_facts
    from .errors import ParamError
    from .security import coresvp_bits, helib_security

    ap = argparse.ArgumentParser(prog="python -m cbparams.chains", description=main.__doc__)
    ap.add_argument("--m", type=int, required=True)
    ap.add_argument("--bits", type=int)
    ap.add_argument("--cipher", help="size the chain for this instance of config/depth_profiles.yaml")
    ap.add_argument("--rounds", type=int, help="with --cipher: rounds (default: the profile's)")
    ap.add_argument("--margin", type=int, default=60, help="with --cipher: bits added (default 60)")
    ap.add_argument("--model", default="engine", choices=DEPTH_MODELS,
                    help="with --cipher: depth model (default engine)")
    ap.add_argument("--c", type=int, default=3)
    ap.add_argument("--hwt", type=int, default=120)
    ap.add_argument("--primes", action="store_true", help="list the primes")
    a = ap.parse_args(argv)
    try:
        if (a.bits is None) == (a.cipher is None):
            raise ChainError("give either --bits or --cipher")
        if a.cipher:
            from .config import ROOT
            prof = load_profiles(ROOT / "config" / "depth_profiles.yaml", a.hwt, a.model)
            if a.cipher not in prof:
                raise ChainError(f"--cipher {a.cipher!r} is not in config/depth_profiles.yaml: use one of {sorted(prof)}")
            _, phi, _ = basic_facts(a.m)
            pr = prof[a.cipher]
            a.bits = pr.bits_needed(a.margin, a.rounds, phi)
            print(f"{a.cipher}: {pr.base:g} + {a.rounds or pr.rounds} rounds x {pr.per_round(phi):.1f} "
                  f"bits + {a.margin} = {a.bits} bits ({a.model} model: {pr.source})")
        _, phi, _ = basic_facts(a.m)
        ch = build_chain(a.m, a.bits, a.c)
        print(f"m={a.m} phi={phi} bits={a.bits} c={a.c}: L={ch.L} x {ch.b_ct} bits, digits {ch.digits}, "
              f"K={ch.K} x {ch.b_sp} bits; log2 Q_L={ch.log2_q_ct:.3f} log2 P={ch.log2_q_sp:.3f} "
              f"log2 Q={ch.log2_Q:.3f}")
        print(f"HElib formula: hwt={a.hwt}: {helib_security(a.m, ch.log2_Q, a.hwt, phi):.3f}, "
              f"dense: {helib_security(a.m, ch.log2_Q, 0, phi):.3f}; core-SVP uSVP: "
              f"{coresvp_bits(phi, ch.log2_Q, a.hwt):.1f}")
        if a.primes:
            print(" ".join(map(str, ch.primes)))
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
