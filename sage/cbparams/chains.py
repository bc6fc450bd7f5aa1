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

How many bits a circuit needs is the engine's chain planner's answer (``run_cipher
--plan``, asked through cbparams.planner); nothing here sizes chains.
"""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass


from .errors import ChainError
from .paths import executable

#: log2(P / largest digit), the engine's default ks_margin_bits.
KS_MARGIN_BITS = 20


def chain_info():
    """The engine's batch chain command: <build dir>/bin/chain_info (CB_BUILD_DIR honoured,
    cbparams.paths)."""
    return executable("chain_info")


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
    transform_ops: float = 0.0  #: one limb's transform, operations (mean over the primes; the cost model's size)
    transform_ops_bluestein: float = 0.0  #: the part of transform_ops from primes using Bluestein's algorithm
    key_compact: bool = False    #: key-switching keys stored compact (a_j from a seed, b_j packed: keys.h)
    key_full_bytes: int = 0      #: one key-switching key in full, bytes
    keep_uniform_bytes: int = 0  #: the engine keeps a key's uniform half up to this many bytes, else compact
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
        tool = chain_info()
        if not tool.exists():
            raise ChainError(f"{tool} does not exist: the explorer asks the engine for its chains; "
                             f"build it first (make build, or set CB_BUILD_DIR to a build directory that has it)")
        text = "".join(f"{m} {bits} {c} {k}\n" for m, bits, c, k in todo)
        out = subprocess.run([str(tool)], input=text, capture_output=True, text=True, check=True,
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
                            primes=tuple(j["primes"]), S=j["S"], transform_ops=float(j["transform_ops"]),
                            transform_ops_bluestein=float(j["transform_ops_bluestein"]),
                            key_compact=bool(j["memory"]["key_compact"]), key_full_bytes=int(j["memory"]["key_full_bytes"]),
                            keep_uniform_bytes=int(j["keep_uniform_bytes"]), description=j["chain"]))
    return chains


def transform_ops(ms) -> dict:
    """{m: (one limb's transform in operations, the part of it by Bluestein's algorithm)}
    for many rings at once (chain_info's "m transform": the algorithm the engine takes for
    a chain's usual primes), without building chains."""
    ms = sorted({int(m) for m in ms})
    if not ms:
        return {}
    tool = chain_info()
    if not tool.exists():
        raise ChainError(f"{tool} does not exist: build it first (make build, or set CB_BUILD_DIR to a build "
                         f"directory that has it)")
    out = subprocess.run([str(tool)], input="".join(f"{m} transform\n" for m in ms), capture_output=True,
                         text=True, check=True, timeout=600).stdout.splitlines()
    res = {}
    for m, line in zip(ms, out):
        j = json.loads(line)
        if "error" in j:
            raise ChainError(f"m={m}: {j['error']}")
        res[m] = (float(j["transform_ops"]), float(j["transform_ops_bluestein"]))
    return res


def build_chain(m: int, bits: int, c: int = 3, ks_margin_bits: int = KS_MARGIN_BITS) -> Chain:
    """The engine's chain for (m, bits, c) (see build_chains)."""
    return build_chains([(m, bits, c)], ks_margin_bits)[0]


# ---------------------------------------------------------------------------------------

def main(argv=None) -> int:
    """`python -m cbparams.chains --m M --bits B [--c C] [--hwt H]`: the engine's chain and
    its security (for the bits a cipher needs: `cbparams plan`, the engine's planner)."""
    import argparse
    import sys

    from .cyclotomic import basic_facts
    from .errors import ParamError
    from .security import coresvp_bits, helib_security

    ap = argparse.ArgumentParser(prog="python -m cbparams.chains", description=main.__doc__)
    ap.add_argument("--m", type=int, required=True)
    ap.add_argument("--bits", type=int, required=True)
    ap.add_argument("--c", type=int, default=3)
    ap.add_argument("--hwt", type=int, default=120)
    ap.add_argument("--primes", action="store_true", help="list the primes")
    a = ap.parse_args(argv)
    try:
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
