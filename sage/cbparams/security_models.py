"""The security models by name: the registry the explorer's selection and the engine's
target search both use (the lattice estimator's layout: one model a module, one registry).

A model turns a parameter set (ring m, phi, log2 Q of the ciphertext and special primes,
key weight hwt) into bits of security; a target is met when every model a config names
(params.target_models) reaches it. Three models, each with its citation and the key
distributions it assumes, all in the engine's registry (runners/engine/bgv/security_model.h),
listed here through ``security_info`` (cbparams.batch):

- ``helib`` (HElib's formula) and ``coresvp`` (primal uSVP under core-SVP [ADPS16]),
  computed in C++ only.
- ``estimator`` (the lattice estimator's cheapest attack, cbparams.estimator) answers from
  a table (runners/engine/bgv/estimator_table.h, written by cbparams.estimator_table from
  the estimator's cache): the figure at the smallest tabulated log2 Q >= the asked one for
  exactly that phi, hwt and sigma, a lower bound since security falls as log2 Q grows; no
  such point is no figure, and the search refuses naming the point and the command that
  fills it. The estimator itself runs in Sage, seconds to minutes a point, so the table is
  filled before the search: estimator_table.search_models() estimates the ring's ladder of log2 Q
  (estimator_table.ladder: the other named models' bound and a few points 3% apart under
  it; cached) and writes the table at estimator_table.table_path(params.estimator).

The engine's target search (``run_cipher --security-target T --security-models
helib,coresvp,estimator --estimator-table PATH``) meets the models named in one search: the
fewest digits c (then the shortest chain, then the lightest key) at which the lowest of
their figures reaches T; it asks the estimator's table only where the other models reach
T. The selection (select.plan_one) passes the config's models to that search through
estimator_table.search_models(), and the transciphering selection does the same for its rows
(transciphering.target_models; cbparams.transcipher.fill_estimator). Where the estimator is installed
(params.estimator.mode not off) and not named, the selection still checks its cached
verdict on the search's result (select.meets), as before.

>>> [m.name for m in models().values()]
['helib', 'coresvp', 'estimator']
>>> model("coresvp").where, model("estimator").where
('engine', 'engine')
>>> engine_names(["helib", "coresvp"]), engine_names(["helib", "estimator"])
(['helib', 'coresvp'], ['helib', 'estimator'])
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
    #: "engine": in the engine's registry and met by its target search (every model now)
    where: str


@lru_cache(maxsize=None)
def _engine_models() -> tuple[Model, ...]:
    (a,) = SECURITY.ask(["models"])
    if "error" in a:
        raise SecurityError(a["error"])
    return tuple(Model(name=d["name"], title=d["title"], citation=d["citation"], keys=d["keys"], where="engine")
                 for d in a["models"])


def models() -> dict[str, Model]:
    """Every model by name, in the engine's registry's order."""
    return {m.name: m for m in _engine_models()}


def model(name: str) -> Model:
    """The model called `name`; SecurityError naming the known ones."""
    known = models()
    if name not in known:
        raise SecurityError(f"security model {name!r} is unknown: use one of {', '.join(known)}")
    return known[name]


@lru_cache(maxsize=None)
def search_weights() -> tuple[int, ...]:
    """The key weights the engine's target search tries when none is given (lightest first;
    engine/bgv/security_model.h target_search_weights), asked of the engine."""
    (a,) = SECURITY.ask(["weights"])
    if "error" in a:
        raise SecurityError(a["error"])
    return tuple(int(w) for w in a["weights"])


def engine_names(names) -> list[str]:
    """The names among `names` the engine's target search meets (run_cipher
    --security-models), in order; SecurityError for an unknown name."""
    return [n for n in names if model(n).where == "engine"]


def bits(name: str, m: int, log2_q: float, hwt: int) -> float:
    """The model `name`'s figure for ring m, log2 Q (ciphertext and special primes) and key
    weight hwt (0: dense). The estimator's answer depends on its table: read it with
    cbparams.estimator_table.figure, not here (SecurityError says so)."""
    if model(name).name == "estimator":
        raise SecurityError("security model 'estimator' answers from its table: cbparams.estimator_table.figure "
                            "(the table's rows, phi, hwt, log2 Q)")
    (a,) = SECURITY.ask([f"model {name} {int(m)} {float(log2_q)!r} {int(hwt)}"])
    if "error" in a:
        raise SecurityError(a["error"])
    return float(a["bits"])
