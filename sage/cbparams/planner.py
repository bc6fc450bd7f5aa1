"""The modulus chain a cipher needs on a ring, asked of the engine's planner.

`run_cipher --plan` (build/bin/run_cipher) runs the cipher's circuit on clear slots with
the engine's noise bounds and level decisions beside them and answers with the least
chain on which nothing wraps (runners/backend/chain_planner.h), the chosen key-switching
digits c when a security target is given (HElib's formula, the engine's), and the
operations the rounds run at that chain (plan.op_counts, what cbparams.cost_model prices).
The explorer keeps no model of its own: every chain it reports is a plan of the engine.

An instance is the explorer's name for a cipher and its field (INSTANCES): run_cipher's
flags, the slot-field degree n it needs (n | d) and the field elements per block.

>>> INSTANCES["vision16"].n, INSTANCES["vision16"].state, instance("aes128")
(16, 8, 'aes')
>>> plan_args("vision8", 4369, hwt=120, target=128)
['--cipher', 'vision', '--field-bits', 8, '--state-size', 16, '--m', 4369, '--hwt', 120, '--seed', 1, '--c', 3, '--security-target', 128]
"""
from __future__ import annotations

from dataclasses import dataclass

from . import runner
from .errors import ChainError


@dataclass(frozen=True)
class Instance:
    """A cipher instance: how run_cipher is asked for it and what its slots must hold."""

    flags: tuple   #: run_cipher's flags selecting the cipher and field
    n: int         #: slot-field degree: the ring needs n | d = ord_m(2)
    state: int     #: field elements per block (slots one block takes, packed)
    fields: dict   #: the pipeline's experiment fields (config/schema/config.schema.yaml)


INSTANCES = {
    "aes": Instance(("--cipher", "aes128"), 8, 16, {"cipher": "aes128", "packing": "packed"}),
    "vision8": Instance(("--cipher", "vision", "--field-bits", 8, "--state-size", 16), 8, 16,
                        {"cipher": "vision", "field_bits": 8, "state_size": 16, "packing": "packed"}),
    "vision16": Instance(("--cipher", "vision", "--field-bits", 16, "--state-size", 8), 16, 8,
                         {"cipher": "vision", "field_bits": 16, "state_size": 8, "packing": "packed"}),
    "vision32": Instance(("--cipher", "vision", "--field-bits", 32, "--state-size", 4), 32, 4,
                         {"cipher": "vision", "field_bits": 32, "state_size": 4, "packing": "packed"}),
    "vision64": Instance(("--cipher", "vision", "--field-bits", 64, "--state-size", 2), 64, 2,
                         {"cipher": "vision", "field_bits": 64, "state_size": 2, "packing": "packed"}),
}
ALIASES = {"aes128": "aes", "vision": "vision8"}


def instance(cipher: str) -> str:
    """Canonical instance name; ChainError for an unknown one."""
    name = ALIASES.get(cipher, cipher)
    if name not in INSTANCES:
        raise ChainError(f"cipher={cipher!r} is unknown: use one of {sorted(INSTANCES)}")
    return name


def plan_args(cipher: str, m: int, hwt: int = 120, c: int = 3, target: float | None = None,
              seed: int = 1, rounds: int | None = None) -> list:
    """run_cipher's arguments (without --plan/--json) for a plan of `cipher` on ring m."""
    args = [*INSTANCES[instance(cipher)].flags, "--m", m, "--hwt", hwt, "--seed", seed, "--c", c]
    if rounds is not None:
        if rounds < 1:
            raise ChainError(f"rounds={rounds}: plan at least one round")
        args += ["--rounds", rounds]
    if target:
        args += ["--security-target", target if target != int(target) else int(target)]
    return args


def plan(cipher: str, m: int, hwt: int = 120, c: int = 3, target: float | None = None,
         seed: int = 1, rounds: int | None = None, timeout: float = 1800) -> dict:
    """run_cipher --plan's JSON (params, rounds, plan{bits, op_counts, ...}); RunError when
    the engine refuses (e.g. no c reaches the target on this ring). The seed is the run's:
    the planner sees the run's own secret key, so the run accepts the planned chain."""
    return runner.run_json("run_cipher", [*plan_args(cipher, m, hwt, c, target, seed, rounds), "--plan"],
                           timeout=timeout)
