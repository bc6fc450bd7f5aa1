"""The security models by name: the registry the explorer's selection and the engine's
target search both use (the lattice estimator's layout: one model a module, one registry).

A model turns a parameter set (ring m, phi, log2 Q of the ciphertext and special primes,
key weight hwt) into bits of security; a target is met when every model a config names
(params.target_models) reaches it. Three models, each with its citation and the key
distributions it assumes:

- ``helib`` (HElib's formula) and ``coresvp`` (primal uSVP under core-SVP [ADPS16]) are
  the engine's (runners/engine/bgv/security_model.h): computed in C++ only, listed and
  evaluated here through ``security_info`` (cbparams.batch). The engine's target search
  (``run_cipher --security-target T --security-models helib,coresvp``) meets them in one
  search: the fewest digits c (then the shortest chain, then the lightest key) at which the
  lowest of their figures reaches T. The selection passes the config's engine models to
  that search (select.plan_one) instead of re-planning.
- ``estimator`` (the lattice estimator's attacks, cbparams.estimator) runs in Sage, minutes
  a ring, so the engine cannot evaluate it inside its search. It takes part as a check on
  the search's result, not as a term of the search: where the estimator is installed
  (params.estimator.mode not off), the selection estimates each planned ring's chain (cached
  on disk, one file per parameter set and attack) and a ring whose cheapest attack falls
  under the target is not selected (select.meets); the search is not told to meet it.
  It therefore needs no name in target_models: it joins whenever it is installed.

>>> [m.name for m in models().values()]
['helib', 'coresvp', 'estimator']
>>> model("coresvp").where, model("estimator").where
('engine', 'explorer')
>>> engine_names(["helib", "coresvp"])
['helib', 'coresvp']
>>> round(bits("coresvp", 53261, 820, 120), 2), round(bits("helib", 53261, 1119.16, 0), 3)
(166.44, 137.804)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .batch import SECURITY
from .errors import SecurityError


@dataclass(frozen=True)
class Model:
    """One security model of the registry."""

    #: the registry's key, as params.target_models and run_cipher --security-models name it
    name: str
    #: how messages and tables name it ("HElib's formula", "core-SVP", ...)
    title: str
    #: where the model comes from
    citation: str
    #: the key distributions it assumes, and what it does outside them
    keys: str
    #: "engine": computed in C++ and met by the engine's target search; "explorer": Python
    #: (Sage), checked by the selection on the search's result
    where: str


#: The lattice estimator's model, this side only (cbparams.estimator runs it).
ESTIMATOR = Model(
    name="estimator", title="the lattice estimator",
    citation=("Albrecht, Player, Scott, 'On the concrete hardness of Learning with Errors', J. Math. Cryptol. "
              "2015; the lattice estimator (github.com/malb/lattice-estimator, the pinned commit of "
              "scripts/get-estimator.sh): LWE.primal_usvp, LWE.dual, the primal hybrid, LWE.estimate "
              "(cbparams.estimator.FUNCTIONS); the cheapest attack run counts"),
    keys=("sparse ternary of weight hwt (ND.SparseTernary: hwt/2 entries +1, the rest -1), uniform ternary "
          "for a dense key (hwt=0); error a discrete Gaussian of sigma 3.2; q = 2^log2_q with the special primes"),
    where="explorer")


@lru_cache(maxsize=None)
def _engine_models() -> tuple[Model, ...]:
    (a,) = SECURITY.ask(["models"])
    if "error" in a:
        raise SecurityError(a["error"])
    return tuple(Model(name=d["name"], title=d["title"], citation=d["citation"], keys=d["keys"], where="engine")
                 for d in a["models"])


def models() -> dict[str, Model]:
    """Every model by name: the engine's (in its registry's order), then the estimator."""
    return {m.name: m for m in (*_engine_models(), ESTIMATOR)}


def model(name: str) -> Model:
    """The model called `name`; SecurityError naming the known ones."""
    known = models()
    if name not in known:
        raise SecurityError(f"security model {name!r} is unknown: use one of {', '.join(known)}")
    return known[name]


def engine_names(names) -> list[str]:
    """The names among `names` the engine's target search meets (run_cipher
    --security-models), in order; SecurityError for an unknown name."""
    return [n for n in names if model(n).where == "engine"]


def bits(name: str, m: int, log2_q: float, hwt: int) -> float:
    """The engine model `name`'s figure for ring m, log2 Q (ciphertext and special primes)
    and key weight hwt (0: dense). The estimator's figures come from cbparams.estimator
    (cached attacks), not from here: SecurityError says so."""
    if model(name).where != "engine":
        raise SecurityError(f"security model {name!r} runs in Sage: its figures are cbparams.estimator.estimate's "
                            f"(cached per parameter set and attack)")
    (a,) = SECURITY.ask([f"model {name} {int(m)} {float(log2_q)!r} {int(hwt)}"])
    if "error" in a:
        raise SecurityError(a["error"])
    return float(a["bits"])
