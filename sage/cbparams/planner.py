"""The modulus chain a cipher needs on a ring, asked of the engine's planner.

`run_cipher --plan` (build/bin/run_cipher) runs the cipher's circuit on clear slots with
the engine's noise bounds and level decisions beside them and answers with the least
chain on which nothing wraps (runners/backend/chain_planner.h), the chosen key-switching
digits c when a security target is given (by the engine's security models the caller
names, HElib's formula by default: cbparams.security_models), and the
operations the rounds run at that chain (plan.op_counts, what cbparams.cost_model prices).
The explorer keeps no model of its own: every chain it reports is a plan of the engine.

An instance is the explorer's name for a cipher and its field: an instance id of the
engine's cipher catalog (cbparams.catalog: run_cipher --list-ciphers), with run_cipher's
flags, the slot-field degree n it needs (n | d) and the field elements per block.

>>> first = next(iter(catalog.instances().values()))
>>> plan_args(first.id, 4369, hwt=120, target=128)[-8:]
['--hwt', 120, '--seed', 1, '--c', 3, '--security-target', 128]
"""
from __future__ import annotations

from . import catalog, runner
from .errors import ChainError


def instance(cipher: str) -> str:
    """Canonical instance id (an id, or a cipher name for its first instance); ChainError for
    one the catalog does not have."""
    try:
        return catalog.instance(cipher)
    except catalog.CatalogError as e:
        raise ChainError(str(e)) from None


def packing_flag(cipher: str, packing: str = "packed") -> list:
    """run_cipher's --packing for the explorer's packing names: packed, sliced (the
    cipher's own name for it, e.g. AES's byte-sliced) or bit-sliced where the cipher offers
    it; ChainError for another."""
    names = catalog.instances()[instance(cipher)].packings
    if packing == "packed":
        return []
    if packing == "sliced" and len(names) >= 2:
        return ["--packing", names[1]]
    if packing == "bit-sliced" and packing in names:
        return ["--packing", packing]
    raise ChainError(f"packing={packing!r}: the explorer compares packed, sliced and bit-sliced ({cipher} has "
                     f"{', '.join(names)})")


def plan_args(cipher: str, m: int, hwt: int = 120, c: int = 3, target: float | None = None,
              seed: int = 1, rounds: int | None = None, packing: str = "packed", bits_hint: int | None = None,
              models=None, estimator_table: str | None = None) -> list:
    """run_cipher's arguments (without --plan/--json) for a plan of `cipher` on ring m;
    bits_hint: an earlier plan's chain on this ring at other digits c: the plan when it
    holds at these digits and one bit less does not (run_cipher --hint-is-plan), else
    where the engine's search starts; models: the engine's security models the target is
    met by (run_cipher --security-models; None or ["helib"]: HElib's formula, the default);
    estimator_table: the estimator model's table (run_cipher --estimator-table), with
    "estimator" among models (cbparams.estimator_table).

    >>> plan_args(catalog.instance("aes"), 4369, target=128, models=["helib", "coresvp"])[-2:]
    ['--security-models', 'helib,coresvp']
    """
    args = [*catalog.flags(instance(cipher)), *packing_flag(cipher, packing), "--m", m, "--hwt", hwt,
            "--seed", seed, "--c", c]
    if bits_hint:
        args += ["--bits-hint", int(bits_hint), "--hint-is-plan"]
    if rounds is not None:
        if rounds < 1:
            raise ChainError(f"rounds={rounds}: plan at least one round")
        args += ["--rounds", rounds]
    if target:
        args += ["--security-target", target if target != int(target) else int(target)]
        if models and list(models) != ["helib"]:
            args += ["--security-models", ",".join(models)]
        if estimator_table:
            args += ["--estimator-table", str(estimator_table)]
    elif models:
        raise ChainError(f"models={list(models)}: security models need a security target")
    return args


def plan(cipher: str, m: int, hwt: int = 120, c: int = 3, target: float | None = None,
         seed: int = 1, rounds: int | None = None, timeout: float = 1800, packing: str = "packed",
         bits_hint: int | None = None, models=None, estimator_table: str | None = None) -> dict:
    """run_cipher --plan's JSON (params, rounds, plan{bits, op_counts, ...}); RunError when
    the engine refuses (e.g. no c reaches the target on this ring). The seed is the run's:
    the planner sees the run's own secret key, so the run accepts the planned chain."""
    return runner.run_json("run_cipher", [*plan_args(cipher, m, hwt, c, target, seed, rounds, packing, bits_hint, models,
                                                    estimator_table),
                                          "--plan"],
                           timeout=timeout)
