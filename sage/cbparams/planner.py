"""The modulus chain a cipher needs on a ring: who plans it, and what it gives.

Two planners, and the answer says which one spoke (`Plan.source`):

* the engine's own planner, `run_cipher --plan` (build/bin/run_cipher), when the build has
  it: the chain the engine will accept, from its noise model. Its JSON is kept whole in
  `Plan.engine`;
* otherwise the explorer's sizing (cbparams.chains): bits = base + rounds x
  bits_per_round(phi) + margin from config/depth_profiles.yaml (model "engine": the
  engine's noise guard as fitted there), and the chain built exactly as the engine builds
  it for those bits.

Either way the chain's primes and its security (HElib's formula, core-SVP) come from
cbparams.chains and cbparams.security for the planned bits.

>>> p = plan("aes", 4369, rounds=2, engine=False)
>>> p.source, p.cipher, p.phi, p.bits > 100, p.chain.L >= 3
('explorer: cbparams.chains sizing (config/depth_profiles.yaml, engine model)', 'aes', 4096, True, True)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import runner
from .chains import Chain, build_chain, load_profiles
from .config import ROOT
from .cyclotomic import basic_facts
from .errors import ChainError
from .security import coresvp_bits, helib_security

#: Cipher instance (config/depth_profiles.yaml) -> run_cipher's flags.
RUN_CIPHER_FLAGS = {
    "aes": ["--cipher", "aes128"],
    "vision8": ["--cipher", "vision", "--field-bits", 8, "--state-size", 16],
    "vision16": ["--cipher", "vision", "--field-bits", 16, "--state-size", 8],
    "vision32": ["--cipher", "vision", "--field-bits", 32, "--state-size", 4],
    "vision64": ["--cipher", "vision", "--field-bits", 64, "--state-size", 2],
}
ALIASES = {"aes128": "aes", "vision": "vision8"}

ENGINE_SOURCE = "engine: run_cipher --plan"


@dataclass(frozen=True)
class Plan:
    """A planned chain for one cipher instance on one ring."""

    cipher: str            #: instance name (aes, vision8, vision16, vision32, vision64)
    m: int                 #: cyclotomic index
    phi: int               #: phi(m)
    rounds: int            #: rounds planned for
    bits: int              #: capacity of the ciphertext modulus, bits (what --bits takes)
    c: int                 #: key-switching digits
    hwt: int               #: secret-key Hamming weight (0: dense)
    chain: Chain           #: the engine's chain for `bits` (exact primes)
    helib_bits: float      #: HElib's formula on log2 Q (ciphertext + special primes)
    coresvp_bits: float    #: primal uSVP, core-SVP model
    source: str            #: which planner answered
    detail: str            #: how the bits were obtained
    engine: dict = field(default_factory=dict)   #: run_cipher --plan's JSON, when it answered
    base_bits: float | None = None       #: explorer: bits spent before round 1 (fresh noise, decryption)
    bits_per_round: float | None = None  #: explorer: bits each round consumes at this phi

    def predicted_capacity(self, r: int) -> float | None:
        """Explorer's cost model: capacity left after round r (bits - base - r x per round)."""
        if self.bits_per_round is None:
            return None
        return self.bits - self.base_bits - r * self.bits_per_round

    def as_dict(self) -> dict:
        ch = self.chain
        return {"cipher": self.cipher, "m": self.m, "phi": self.phi, "rounds": self.rounds,
                "bits": self.bits, "c": self.c, "hwt": self.hwt, "L": ch.L, "b_ct": ch.b_ct,
                "K": ch.K, "b_sp": ch.b_sp, "log2_q_ct": round(ch.log2_q_ct, 3),
                "log2_q": round(ch.log2_Q, 3), "helib_bits": round(self.helib_bits, 3),
                "coresvp_bits": round(self.coresvp_bits, 1), "source": self.source,
                "detail": self.detail, "base_bits": self.base_bits, "bits_per_round": self.bits_per_round,
                **({"engine": self.engine} if self.engine else {})}


def instance(cipher: str) -> str:
    """Canonical instance name; ChainError for an unknown one."""
    name = ALIASES.get(cipher, cipher)
    if name not in RUN_CIPHER_FLAGS:
        raise ChainError(f"cipher={cipher!r} is unknown: use one of {sorted(RUN_CIPHER_FLAGS)}")
    return name


def engine_has_planner() -> bool:
    """True when build/bin/run_cipher lists --plan."""
    return runner.supports("run_cipher", "--plan")


def _engine_bits(doc: dict) -> int | None:
    """The planned capacity in an engine plan's JSON (whichever key the planner uses)."""
    for key in ("bits", "chain_bits", "planned_bits"):
        v = doc.get(key)
        if isinstance(v, (int, float)) and v > 0:
            return int(v)
    for sub in ("plan", "chain"):
        if isinstance(doc.get(sub), dict):
            b = _engine_bits(doc[sub])
            if b:
                return b
    return None


def plan(cipher: str, m: int, rounds: int | None = None, c: int = 3, hwt: int = 120,
         margin: int = 60, model: str = "engine", engine: bool | None = None) -> Plan:
    """The chain for `cipher` on ring m (see the module doc).

    engine=None: ask run_cipher --plan when the build supports it, else the explorer;
    engine=True: the engine's planner or RunError; engine=False: the explorer only.
    """
    name = instance(cipher)
    _, phi, d = basic_facts(m)
    prof = load_profiles(ROOT / "config" / "depth_profiles.yaml", hwt, model)[name]
    if d % prof.n:
        raise ChainError(f"m={m} has slots GF(2^{d}) (d = ord_m(2)), which do not contain "
                         f"GF(2^{prof.n}): {name} needs {prof.n} | d")
    r = prof.rounds if rounds is None else int(rounds)
    if r < 1:
        raise ChainError(f"rounds={r}: plan at least one round")
    use_engine = engine_has_planner() if engine is None else engine
    if use_engine:
        args = [*RUN_CIPHER_FLAGS[name], "--m", m, "--rounds", r, "--c", c, "--hwt", hwt, "--plan"]
        doc = runner.run_json("run_cipher", args, timeout=600)
        bits = _engine_bits(doc)
        if bits is None:
            raise runner.RunError(f"run_cipher --plan gave no chain bits (keys: {sorted(doc)})")
        source, detail = ENGINE_SOURCE, "the engine's noise model"
        base = per_round = None
    else:
        doc = {}
        bits = prof.bits_needed(margin, r, phi)
        source = f"explorer: cbparams.chains sizing (config/depth_profiles.yaml, {model} model)"
        detail = (f"{prof.base:g} + {r} rounds x {prof.per_round(phi):.1f} bits + {margin} margin "
                  f"({prof.source})")
        base, per_round = prof.base, round(prof.per_round(phi), 3)
    ch = build_chain(m, bits, c)
    return Plan(cipher=name, m=m, phi=phi, rounds=r, bits=bits, c=c, hwt=hwt, chain=ch,
                helib_bits=helib_security(m, ch.log2_Q, hwt, phi),
                coresvp_bits=coresvp_bits(phi, ch.log2_Q, hwt), source=source, detail=detail,
                engine=doc, base_bits=base, bits_per_round=per_round)
