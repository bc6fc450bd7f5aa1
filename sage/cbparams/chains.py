"""Modulus chains: the engine's chain for (m, bits, c), asked of the engine, and chain sizing.

The chain is built in one place, the engine (runners/engine/bgv/chain.h): six small
"ladder" primes of consecutive sizes from the smallest the ring allows (q = 1 mod m N),
big primes of the engine's full size in this build (a compile-time choice of the engine:
cbparams.cyclotomic.limits()["prime_bits"] asks it; chain_info's b_ct is the largest) with
the remainder shared by the top few, c digits balanced by bits, and special primes covering
the largest digit plus a margin. This module asks ``build/bin/chain_info`` (batch: one
request a line, one JSON answer a line) and caches the answers, so the explorer's log2 Q,
and so its security figures, are the engine's exactly; nothing is mirrored here.

For example (with the engine built), ``build_chain(53261, 905, 3)`` has S=6, L=20, K=7
and log2 Q_L = 909.9 in a build with 50-bit primes.

Chain sizing for a circuit: the engine's chain planner (``run_cipher --plan``) runs the
circuit with the engine's noise bounds and is the reference; the Profile below sizes
candidate rings in a sweep from per-round figures (config/depth_profiles.yaml).
"""
from __future__ import annotations

import glob
import json
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from .config import ROOT
from .errors import ChainError

#: log2(P / largest digit), the engine's default ks_margin_bits.
KS_MARGIN_BITS = 20
#: The engine's batch chain command.
CHAIN_INFO = ROOT / "build" / "bin" / "chain_info"

_cache: dict[tuple[int, int, int, int], dict] = {}


@dataclass(frozen=True)
class Chain:
    """A modulus chain as the engine builds it (chain_info's answer)."""

    m: int                   #: cyclotomic index
    bits: int                #: requested capacity, bits of the ciphertext modulus Q_L
    c: int                   #: number of key-switching digits
    L: int                   #: number of ciphertext primes, small ones included
    b_ct: int                #: bits of the largest ciphertext prime
    digits: tuple[int, ...]  #: primes per digit (c consecutive groups)
    K: int                   #: number of special primes
    b_sp: int                #: bits of the largest special prime
    log2_q_ct: float         #: log2 of the product of the ciphertext primes
    log2_q_sp: float         #: log2 P, the special primes' product
    log2_max_digit: float    #: log2 of the largest digit's product
    primes: tuple[int, ...] = ()  #: the L + K primes
    S: int = 0               #: small ladder primes (the first S of the L)
    description: str = ""    #: how the engine built it, in one line

    @property
    def log2_Q(self) -> float:
        """log2(Q_L P): what HElib's formula and the engine count for security."""
        return self.log2_q_ct + self.log2_q_sp


def build_chains(requests, ks_margin_bits: int = KS_MARGIN_BITS, refused: str = "raise") -> list:
    """The engine's chains for many (m, bits, c) at once (one chain_info call).

    A request the engine refuses raises ChainError with the engine's message, or with
    refused="none" gives None in its place. ChainError when the engine is not built."""
    reqs = [(int(m), int(bits), int(c), int(ks_margin_bits)) for m, bits, c in requests]
    todo = sorted({r for r in reqs if r not in _cache})
    if todo:
        if not CHAIN_INFO.exists():
            raise ChainError(f"{CHAIN_INFO} does not exist: the explorer asks the engine for its chains; "
                             f"build it first (make build)")
        text = "".join(f"{m} {bits} {c} {k}\n" for m, bits, c, k in todo)
        out = subprocess.run([str(CHAIN_INFO)], input=text, capture_output=True, text=True, check=True,
                             timeout=600).stdout.splitlines()
        for r, line in zip(todo, out):
            _cache[r] = json.loads(line)
    chains = []
    for r in reqs:
        j = _cache[r]
        if "error" in j:
            if refused == "none":
                chains.append(None)
                continue
            raise ChainError(f"m={r[0]} bits={r[1]} c={r[2]}: {j['error']}")
        chains.append(Chain(m=j["m"], bits=j["bits"], c=j["c"], L=j["L"], b_ct=j["b_ct"],
                            digits=tuple(j["digits"]), K=j["K"], b_sp=j["b_sp"], log2_q_ct=j["log2_q_ct"],
                            log2_q_sp=j["log2_p"], log2_max_digit=j["log2_max_digit"],
                            primes=tuple(j["primes"]), S=j["S"], description=j["chain"]))
    return chains


def build_chain(m: int, bits: int, c: int = 3, ks_margin_bits: int = KS_MARGIN_BITS) -> Chain:
    """The engine's chain for (m, bits, c) (see build_chains)."""
    return build_chains([(m, bits, c)], ks_margin_bits)[0]


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
