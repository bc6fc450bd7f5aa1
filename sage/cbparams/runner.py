"""The C++ executables seen from Python: where they are, what they support, one run.

`run_cipher` and `bench_ops` are built by `make build` into build/bin/ of the checkout
(override with the environment variable CB_BUILD_DIR). This module launches them and
reads their JSON back; it computes nothing itself, so a fact the engine reports is asked
of the engine (one source of truth).

>>> find_executable("no_such_tool")
Traceback (most recent call last):
...
cbparams.runner.RunError: .../bin/no_such_tool is not built: run `make build` (or set CB_BUILD_DIR to a build directory that has it)
"""
from __future__ import annotations

import json
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from .errors import ParamError
from .paths import build_dir, executable  # noqa: F401  (build_dir: the one place, asked as runner.build_dir too)


class RunError(ParamError):
    """An executable is missing or a run failed (the message carries its stderr)."""


def find_executable(name: str) -> Path:
    """build/bin/<name>, or RunError saying how to build it."""
    p = executable(name)
    if not p.exists():
        raise RunError(f"{p} is not built: run `make build` (or set CB_BUILD_DIR to a build "
                       f"directory that has it)")
    return p


@lru_cache(maxsize=None)
def _help_text(path: str, mtime: float) -> str:
    out = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=60)
    return out.stdout + out.stderr


def supports(name: str, flag: str) -> bool:
    """Does build/bin/<name> list `flag` in its --help? False when it is not built."""
    try:
        p = find_executable(name)
    except RunError:
        return False
    return flag in _help_text(str(p), p.stat().st_mtime).split()


def run_json(name: str, args: list, timeout: float = 3600, out: str | Path | None = None) -> dict:
    """Runs build/bin/<name> ARGS --json OUT and returns the JSON it wrote.

    A non-zero exit raises RunError with the tail of stderr (run_cipher exits with 2 when a
    block decrypts wrongly: such a run never returns a result here)."""
    exe = find_executable(name)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(out) if out is not None else Path(tmp) / "out.json"
        cmd = [str(exe), *map(str, args), "--json", str(path)]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RunError(f"{' '.join(cmd)} did not finish in {timeout:.0f} s") from None
        if res.returncode != 0:
            tail = "\n".join(res.stderr.strip().splitlines()[-5:])
            raise RunError(f"{' '.join(cmd)} exited with status {res.returncode}: {tail}")
        return json.loads(path.read_text())


def run_cipher(cipher: str = "aes128", m: int = 257, bits: int | None = None, *,
               rounds: int | None = None, field_bits: int | None = None,
               state_size: int | None = None, packing: str = "packed", backend: str = "bgv",
               blocks: int | None = None, c: int | None = None, hwt: int | None = None,
               seed: int = 1, threads: int | None = None, extra=(), timeout: float = 3600,
               out: str | Path | None = None) -> dict:
    """One run of build/bin/run_cipher; returns its JSON (every block checked against the
    plaintext reference by run_cipher itself; a mismatch raises RunError).

    bits is required for the bgv backend. `out` keeps the JSON file (else a temporary)."""
    if backend == "bgv" and bits is None:
        raise RunError("run_cipher with backend bgv needs bits (the chain's capacity): "
                       "size it with cbparams.plan(...)")
    args = ["--cipher", cipher, "--m", m, "--packing", packing, "--backend", backend, "--seed", seed]
    for flag, val in (("--bits", bits), ("--rounds", rounds), ("--field-bits", field_bits),
                      ("--state-size", state_size), ("--blocks", blocks), ("--c", c),
                      ("--hwt", hwt), ("--threads", threads)):
        if val is not None:
            args += [flag, val]
    return run_json("run_cipher", [*args, *extra], timeout=timeout, out=out)


def ring_info(m: int, bits: int = 300, c: int = 2, field_bits: int | None = None) -> dict:
    """The engine's facts for ring m: `bench_ops --info-only` (phi, d, slots, chain, and
    what that build reports of the hypercube and slot field)."""
    args = ["--m", m, "--bits", bits, "--c", c, "--info-only", "--quiet"]
    if field_bits is not None:
        args += ["--field-bits", field_bits]
    return run_json("bench_ops", args, timeout=600)
