"""The engine's batch commands, asked from Python: one request a line in, one JSON a line out.

The engine (runners/apps) answers the explorer's questions about rings and security, so a
fact is computed in one place, the C++ engine, and never mirrored here:

    zmstar_info     Z_m^*/<p>: phi, d, slots, the hypercube, and the engine's limits
                    (requests "m" and "m basic" at p = 2, "m p=P" and "m basic p=P" at a
                    prime P; cbparams.cyclotomic builds them)
    security_info   the security models: HElib's formula, core-SVP and the registry
                    (engine/bgv/security_model.h; cbparams.security, cbparams.security_models)
    chain_info      the modulus chains (asked by cbparams.chains)

A `Batch` keeps its command running and asks one request at a time when few are asked
(each answer is flushed when no request waits), or runs it once over all the requests of a
large batch (a sweep asks for 10^5 rings at once), and caches every answer for the life of
the process. The executables come from build/bin (or $CB_BUILD_DIR/bin, cbparams.runner).
"""
from __future__ import annotations

import json
import subprocess
import threading

from . import runner

#: Batches of at least this many new requests run the command once over all of them.
BULK = 64


class Batch:
    """One engine batch command (build/bin/<name>), its answers cached by request line."""

    def __init__(self, name: str):
        self.name = name
        self._cache: dict[str, dict] = {}
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def _exe(self) -> str:
        return str(runner.find_executable(self.name))

    def _ask_one(self, req: str) -> dict:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen([self._exe()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, bufsize=1)
        self._proc.stdin.write(req + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise runner.RunError(f"{self.name} stopped without answering {req!r}")
        return json.loads(line)

    def ask(self, requests) -> list[dict]:
        """The answers to `requests` (strings, one request each), in order."""
        reqs = [str(r) for r in requests]
        with self._lock:
            todo = list(dict.fromkeys(r for r in reqs if r not in self._cache))
            if len(todo) >= BULK:
                res = subprocess.run([self._exe()], input="".join(r + "\n" for r in todo), capture_output=True,
                                     text=True, timeout=3600)
                lines = res.stdout.splitlines()
                if res.returncode != 0 or len(lines) != len(todo):
                    raise runner.RunError(f"{self.name} answered {len(lines)} of {len(todo)} requests "
                                          f"(exit status {res.returncode}): {res.stderr.strip()[-300:]}")
                for r, line in zip(todo, lines):
                    self._cache[r] = json.loads(line)
            else:
                for r in todo:
                    self._cache[r] = self._ask_one(r)
            return [self._cache[r] for r in reqs]

    def close(self) -> None:
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.wait(timeout=10)
            self._proc = None


#: The engine's batch commands, one process each.
ZMSTAR = Batch("zmstar_info")
SECURITY = Batch("security_info")
