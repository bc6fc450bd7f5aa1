"""The lattice estimator (github.com/malb/lattice-estimator), when the user has it.

The estimator is on no package registry. `make estimator` puts the pinned commit
(scripts/get-estimator.sh) into third_party/lattice-estimator (git-ignored), where
locate() finds it with no configuration; params.estimator.path (or PYTHONPATH) points
elsewhere. It needs Sage (the passagemath pieces of requirements.txt are enough). Each
estimate runs in its own subprocess (python -m cbparams.estimator_worker) so a time limit
can stop it, and its result is
cached on disk as one JSON file per parameter set and attack, so a pipeline rerun never
repeats an estimate.

What is estimated: LWE with n = phi(m), q = 2^log2_q, error sigma = 3.2 (discrete
Gaussian), secret sparse ternary of weight hwt (hwt/2 entries +1, the rest of the weight
-1) or uniform ternary for a dense key (hwt = 0). log2_q counts the ciphertext AND the
special primes (the key-switching keys live modulo Q_L P, so that is the modulus an
attacker sees); docs/references.md §3 used the ciphertext primes only (q = 2^bits), which
reads about 20-30% more secure. The column est_log2_q says which q was used.

Attacks (cbparams.estimator_worker; FUNCTIONS says what each calls): "usvp"
(LWE.primal_usvp) and "dual" (LWE.dual), seconds each, the fast default; "hybrid"
(LWE.primal_hybrid with mitm=False, babai=False, the estimator's "bdd_hybrid"; minutes,
and the one that shows what a sparse key loses: 2^167.5 against uSVP's 2^196.6 at
m=53261, q=2^820, weight 120, docs/references.md §3); "full" (LWE.estimate without
Arora-GB, BKW and the primal hybrids: usvp, bdd, dual, dual_hybrid, the cheapest; about a
minute at n=46080);
"rough" (LWE.estimate.rough: usvp and dual_hybrid under core-SVP, the model of
cbparams.security.coresvp_bits). A configuration's estimator figure is the cheapest of the
attacks it ran (est_best, est_best_attack).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import EstimatorMissing
from .estimator_worker import ATTACKS, FULL_DENY

#: What each attack calls in the estimator (the worker's code; describe() names them).
FUNCTIONS = {"usvp": "LWE.primal_usvp", "dual": "LWE.dual",
             "hybrid": "LWE.primal_hybrid(mitm=False, babai=False)",
             "full": f"LWE.estimate(deny_list={FULL_DENY!r}) (cheapest attack)",
             "rough": "LWE.estimate.rough (core-SVP, cheapest attack)"}
HERE = Path(__file__).resolve().parent.parent   # sage/, so the worker finds cbparams

#: Where `make estimator` puts the pinned clone (scripts/get-estimator.sh).
DEFAULT_DIR = HERE.parent / "third_party" / "lattice-estimator"

INSTALL_HINT = ("run `make estimator` (the pinned clone of https://github.com/malb/lattice-estimator "
                "into third_party/), or set params.estimator.path to a clone (or put it on PYTHONPATH)")


@dataclass(frozen=True)
class Located:
    """Where the estimator is (path to prepend to PYTHONPATH, '' when importable as is)."""

    available: bool
    path: str
    note: str


def locate(path: str = "") -> Located:
    """Finds the estimator: the configured path (an error when it does not hold it), else
    `make estimator`'s third_party/lattice-estimator, else the Python path.

    >>> locate("/nonexistent/lattice-estimator")
    Traceback (most recent call last):
    ...
    cbparams.errors.EstimatorMissing: params.estimator.path='/nonexistent/lattice-estimator' does not contain estimator/__init__.py: run `make estimator` (the pinned clone of https://github.com/malb/lattice-estimator into third_party/), or set params.estimator.path to a clone (or put it on PYTHONPATH), or set it to "" and params.estimator.mode to off
    """
    if path:
        p = Path(path)
        if not (p / "estimator" / "__init__.py").exists():
            raise EstimatorMissing(f"params.estimator.path={path!r} does not contain estimator/__init__.py: "
                                   f"{INSTALL_HINT}, or set it to \"\" and params.estimator.mode to off")
        return Located(True, str(p.resolve()), f"estimator at {p}")
    if (DEFAULT_DIR / "estimator" / "__init__.py").exists():
        return Located(True, str(DEFAULT_DIR), f"estimator at {DEFAULT_DIR} (make estimator)")
    if importlib.util.find_spec("estimator") is not None:
        return Located(True, "", "estimator importable from the Python path")
    return Located(False, "", f"lattice estimator not found (params.estimator.path is empty and "
                              f"'import estimator' fails): {INSTALL_HINT}")


def describe(where: Located, commit: str, attacks) -> str:
    """What an est_* figure is: which clone, which functions, which q.

    >>> describe(Located(True, "/x", "estimator at /x"), "27a581b", ["usvp", "dual"])
    'lattice-estimator 27a581b (estimator at /x): usvp = LWE.primal_usvp, dual = LWE.dual; cost model: MATZOV (the estimator default), core-SVP for rough; q = Q (ciphertext + special primes)'
    """
    parts = ", ".join(f"{a} = {FUNCTIONS[a]}" for a in attacks)
    return (f"lattice-estimator {commit or 'unknown commit'} ({where.note}): {parts}; cost model: MATZOV "
            f"(the estimator default), core-SVP for rough; q = Q (ciphertext + special primes)")


def _commit(path: str) -> str:
    """The estimator clone's git commit, for the cache key ('' if unknown)."""
    try:
        root = Path(path) if path else Path(importlib.util.find_spec("estimator").origin).parent.parent
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip()
    except Exception:  # noqa: BLE001 - best effort; the key then just lacks the commit
        return ""


def commit_of(where: Located) -> str:
    """The located estimator's commit ('' when unknown): what its cached estimates are keyed
    by, and the commit column of cbparams.estimator_table."""
    return _commit(where.path) if where.available else ""


def cache_key(n: int, log2_q: float, hwt: int, attack: str, sigma: float, commit: str) -> str:
    """The cache file's name: the parameters, the clone's commit and what the attack calls
    (FUNCTIONS), so a changed call is estimated again.

    >>> cache_key(46080, 820.0, 120, "usvp", 3.2, "27a581b")[:22]
    'n46080-q820-h120-usvp-'
    >>> cache_key(46080, 820.0, 120, "usvp", 3.2, "27a581b") == cache_key(46080, 820.0, 120, "usvp", 3.2, "0000000")
    False
    """
    spec = {"n": n, "log2_q": round(log2_q, 3), "hwt": hwt, "attack": attack,
            "sigma": sigma, "commit": commit, "calls": FUNCTIONS[attack]}
    h = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
    return f"n{n}-q{round(log2_q)}-h{hwt}-{attack}-{h}"


def estimate(n: int, log2_q: float, hwt: int, attack: str, where: Located,
             timeout_s: float = 900, cache_dir: str | Path = ".cache/estimator",
             sigma: float = 3.2) -> dict:
    """One estimate, from the cache or a subprocess. Returns a dict with `status`
    (ok / timeout / error / skipped), `log2_rop` (None unless ok), `beta`, `seconds`, `note`.
    """
    if attack not in ATTACKS:
        raise ValueError(f"attack={attack!r}: use one of {ATTACKS}")
    if not where.available:
        return {"status": "skipped", "log2_rop": None, "note": where.note}
    commit = _commit(where.path)
    key = cache_key(n, log2_q, hwt, attack, sigma, commit)
    cache = Path(cache_dir) / f"{key}.json"
    if cache.exists():
        rec = json.loads(cache.read_text())
        # A timeout is retried only with a longer limit.
        if rec["status"] != "timeout" or rec.get("timeout_s", 0) >= timeout_s:
            rec["cached"] = True
            return rec
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(x for x in [where.path, str(HERE), env.get("PYTHONPATH", "")] if x)
    cmd = [sys.executable, "-m", "cbparams.estimator_worker", "--n", str(n), "--log2-q", repr(log2_q),
           "--hwt", str(hwt), "--attack", attack, "--sigma", repr(sigma)]
    t0 = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env)
        secs = time.time() - t0
        if out.returncode == 0:
            rec = json.loads(out.stdout.strip().splitlines()[-1])
            rec.update(status="ok", seconds=round(secs, 1), note=f"{attack} in {secs:.0f} s")
        else:
            err = (out.stderr.strip().splitlines() or ["no output"])[-1]
            rec = {"status": "error", "log2_rop": None, "seconds": round(secs, 1),
                   "note": f"{attack} failed: {err[:200]}"}
    except subprocess.TimeoutExpired:
        rec = {"status": "timeout", "log2_rop": None, "seconds": timeout_s,
               "note": f"{attack} timed out after {timeout_s:.0f} s (raise params.estimator.timeout_s)"}
    rec.update(n=n, log2_q=log2_q, hwt=hwt, attack=attack, sigma=sigma, commit=commit, timeout_s=timeout_s)
    if rec["status"] in ("ok", "timeout"):
        # whole or not at all: two pipeline rules may ask for the same estimate at once
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(rec, indent=1) + "\n")
        os.replace(tmp, cache)
    return rec


def attacks_for(mode: str, hybrid: bool, hwt: int) -> list[str]:
    """Which attacks a configuration gets: fast = usvp, dual; full = the full estimate;
    plus the primal hybrid for sparse keys when asked.

    >>> attacks_for("fast", True, 120), attacks_for("full", False, 0), attacks_for("off", True, 120)
    (['usvp', 'dual', 'hybrid'], ['full'], [])
    """
    if mode == "off":
        return []
    out = ["usvp", "dual"] if mode == "fast" else ["full"]
    if hybrid and hwt > 0:
        out.append("hybrid")
    return out
