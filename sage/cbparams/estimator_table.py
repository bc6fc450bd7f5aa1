"""The lattice estimator's figures as a table the engine's target search reads.

The estimator (cbparams.estimator) runs in Sage, seconds to minutes a parameter set, so
the engine cannot run it inside its search. This module turns the estimator's on-disk
cache (one JSON file per parameter set and attack) into a CSV table, and the engine's
``estimator`` model (runners/engine/bgv/estimator_table.h, ``run_cipher --security-models
...,estimator --estimator-table PATH``) answers from it: at fixed phi, key weight hwt and
error sigma, security falls as log2 Q grows, so the figure at the smallest tabulated
log2 Q >= the asked one is a lower bound; no such point is no figure, and the search's
refusal names the point and the ``fill`` command below.

Columns (COLUMNS; the engine reads them by name): phi, hwt (0 = dense), sigma, log2_q
(of the ciphertext and special primes, what the attack sees), bits (log2 of the cheapest
attack's cost), attack (its name; for ``full`` and ``rough``, the estimate's own cheapest,
e.g. ``full:dual_hybrid``), attacks (those run at the point, ';'-separated) and commit
(the estimator's). A point is written only where every attack asked for finished (status
ok) at that commit: a point lacking one would read more secure than it is.

The ladder (ladder()): the selection fills, for each candidate ring and key weight, the
log2 Q the search can ask for. The search asks the estimator only where the other models
it names reach the target (lowest_bits_for), i.e. at log2 Q <= Q*, the largest log2 Q at
which every other named model reaches it; the ladder is Q* rounded up and four points
under it, 3% apart (LADDER_STEPS): a chain at log2 Q is rated by the point just above it,
at most 3% of log2 Q away, in the neighbourhood where a choice is made; below the lowest
point, the lowest point's figure (conservative). With no other model named, Q* is
core-SVP's.

Commands (``python -m cbparams.estimator_table``):

    write --table PATH [--cache-dir D] [--attacks usvp,dual] [--estimator-path P]
    fill  --phi N --hwt H [--sigma S] --log2-q Q [Q ...] --table PATH [same options]

``fill`` estimates the points missing from the cache (minutes each) and rewrites the table.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
from pathlib import Path

from . import estimator, security_models
from .errors import EstimatorMissing, SecurityError

#: The table's columns, in order (the engine's estimator_table.h reads them by name).
COLUMNS = ("phi", "hwt", "sigma", "log2_q", "bits", "attack", "attacks", "commit")

#: The ladder's points under Q*, as fractions of it (see the module doc).
LADDER_STEPS = (1.0, 0.97, 0.94, 0.91, 0.88)

#: The attacks a point gets by default: params.estimator.mode fast's.
DEFAULT_ATTACKS = ("usvp", "dual")

#: The table's file name in the estimator's cache directory (params.estimator.cache_dir,
#: default .cache/estimator): the one place the selection writes it and the engine is told.
TABLE_NAME = "table.csv"


def table_path(est_cfg: dict) -> Path:
    """Where the selection keeps the table: TABLE_NAME in params.estimator.cache_dir.

    >>> str(table_path({"cache_dir": ".cache/estimator"}))
    '.cache/estimator/table.csv'
    """
    return Path(est_cfg["cache_dir"]) / TABLE_NAME


def _attack_name(rec: dict) -> str:
    """The attack's name in the table: full and rough name the estimate's cheapest.

    >>> _attack_name({"attack": "usvp"}), _attack_name({"attack": "full", "detail": {"best_attack": "dual_hybrid"}})
    ('usvp', 'full:dual_hybrid')
    """
    best = (rec.get("detail") or {}).get("best_attack")
    return f"{rec['attack']}:{best}" if best else rec["attack"]


def rows_from_cache(cache_dir: str | Path, attacks=DEFAULT_ATTACKS, commit: str = "") -> list[dict]:
    """The table's rows from the estimator's cache: one a (phi, hwt, sigma, log2_q) point at
    which every attack of `attacks` finished at `commit`, its cheapest; sorted."""
    attacks = tuple(attacks)
    unknown = [a for a in attacks if a not in estimator.ATTACKS]
    if not attacks or unknown:
        raise SecurityError(f"attacks={list(attacks)}: name one or more of {', '.join(estimator.ATTACKS)}")
    found: dict[tuple, dict[str, dict]] = {}
    for f in sorted(Path(cache_dir).glob("*.json")):
        rec = json.loads(f.read_text())
        if rec.get("status") != "ok" or rec.get("attack") not in attacks or rec.get("commit", "") != commit:
            continue
        key = (int(rec["n"]), int(rec["hwt"]), float(rec["sigma"]), round(float(rec["log2_q"]), 3))
        found.setdefault(key, {})[rec["attack"]] = rec
    rows = []
    for (phi, hwt, sigma, log2_q), by in sorted(found.items()):
        if set(by) != set(attacks):
            continue
        best = min(by.values(), key=lambda r: float(r["log2_rop"]))
        rows.append({"phi": phi, "hwt": hwt, "sigma": sigma, "log2_q": log2_q,
                     "bits": round(float(best["log2_rop"]), 3), "attack": _attack_name(best),
                     "attacks": ";".join(attacks), "commit": commit})
    return rows


def write(path: str | Path, rows: list[dict]) -> Path:
    """The table as CSV at `path`, whole or not at all (a rule may read it meanwhile)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: r[k] for k in COLUMNS})
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(buf.getvalue())
    os.replace(tmp, path)
    return path


def read(path: str | Path) -> list[dict]:
    """The table's rows, numbers as numbers."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r.update(phi=int(r["phi"]), hwt=int(r["hwt"]), sigma=float(r["sigma"]), log2_q=float(r["log2_q"]),
                 bits=float(r["bits"]))
    return rows


def figure(rows: list[dict], phi: int, hwt: int, log2_q: float, sigma: float = 3.2) -> float | None:
    """The table's answer, as the engine reads it: the figure at the smallest tabulated
    log2 Q >= log2_q for exactly (phi, hwt, sigma); None when there is none. (For the
    explorer's columns; the engine's search computes its own, estimator_table.h.)

    >>> t = [{"phi": 8, "hwt": 0, "sigma": 3.2, "log2_q": q, "bits": b} for q, b in ((10, 90.0), (20, 80.0))]
    >>> figure(t, 8, 0, 5), figure(t, 8, 0, 10.5), figure(t, 8, 0, 21), figure(t, 8, 120, 5)
    (90.0, 80.0, None, None)
    """
    at = [r for r in rows if (r["phi"], r["hwt"], r["sigma"]) == (phi, hwt, sigma) and r["log2_q"] >= log2_q]
    return min(at, key=lambda r: r["log2_q"])["bits"] if at else None


def bound(m: int, hwt: int, target: float, models) -> float:
    """Q*: the largest log2 Q at which every engine model of `models` other than the
    estimator reaches `target` on ring m with key weight hwt (core-SVP's when none is
    named), to 0.01 bit; 0 when none does even at 20 bits."""
    names = [n for n in security_models.engine_names(models) if n != "estimator"] or ["coresvp"]

    def ok(log2_q):
        return min(security_models.bits(n, m, log2_q, hwt) for n in names) >= target

    lo, hi = 20.0, 40.0
    if not ok(lo):
        return 0.0
    while ok(hi):
        lo, hi = hi, 2 * hi
        if hi > 1e6:
            raise SecurityError(f"m={m}, hwt={hwt}: {' and '.join(names)} stay at or above {target:g} bits at every "
                                f"log2 Q (their floor), so the estimator's ladder has no top: name a higher target")
    while hi - lo > 0.01:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def ladder(m: int, hwt: int, target: float, models) -> list[int]:
    """The log2 Q the selection estimates for ring m and key weight hwt before its search:
    Q* (bound) rounded up, and LADDER_STEPS under it; [] when no log2 Q reaches the target
    by the other models (the search then never asks the estimator)."""
    q = bound(m, hwt, target, models)
    if q <= 0:
        return []
    return sorted({math.ceil(q * f) for f in LADDER_STEPS})


def fill(phi: int, hwt: int, log2_qs, table: str | Path, where, est_cfg: dict, attacks=DEFAULT_ATTACKS,
         sigma: float = 3.2, log=print) -> Path:
    """Estimates `attacks` at each log2 Q of log2_qs for (phi, hwt, sigma) (cached: only
    the missing ones run) and rewrites `table` from the cache at the estimator's commit.
    EstimatorMissing when the estimator is not there; SecurityError when an estimate
    failed (its note), since the table would lack that point."""
    if not where.available:
        raise EstimatorMissing(where.note)
    for q in log2_qs:
        for attack in attacks:
            res = estimator.estimate(phi, float(q), hwt, attack, where, est_cfg["timeout_s"], est_cfg["cache_dir"],
                                     sigma=sigma)
            if res["status"] != "ok":
                raise SecurityError(f"lattice estimator at phi={phi}, hwt={hwt}, sigma={sigma}, log2_q={q}: "
                                    f"{res['note']}")
            if not res.get("cached"):
                log(f"estimator: phi={phi} hwt={hwt} log2_q={q} {attack}: 2^{res['log2_rop']:.1f} "
                    f"({res.get('seconds', 0):.0f} s)")
    return rewrite(table, est_cfg["cache_dir"], attacks, estimator.commit_of(where))


def rewrite(table: str | Path, cache_dir: str | Path, attacks, commit: str) -> Path:
    """The table rewritten from the cache under a lock, so two fills at once cannot drop
    each other's points (each writes what the cache held when it took the lock)."""
    import fcntl

    table = Path(table)
    table.parent.mkdir(parents=True, exist_ok=True)
    with open(table.with_name(table.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return write(table, rows_from_cache(cache_dir, attacks, commit))


def search_models(names, m: int, hwt: int, target: float, est_cfg: dict, log=print) -> tuple[list[str], str | None]:
    """What the engine's one search is given for params.target_models `names` on ring m at
    key weight hwt and `target`: (run_cipher --security-models, --estimator-table or None).
    With "estimator" named, the ring's ladder of log2 Q is estimated first (cached: minutes
    a point the first time, nothing after) and the table rewritten from the cache (fill);
    EstimatorMissing when the estimator is not installed, SecurityError when
    params.estimator.mode is off or an estimate failed. (Here, not in security_models: the
    table needs the other models' bound, so security_models cannot ask for the table.)

    >>> search_models(["helib", "coresvp"], 257, 120, 20, {"mode": "off"})
    (['helib', 'coresvp'], None)
    """
    from . import cyclotomic

    names = security_models.engine_names(names)
    if "estimator" not in names:
        return names, None
    if est_cfg.get("mode") == "off":
        raise SecurityError("params.target_models names estimator but params.estimator.mode is off: "
                            "set the mode to fast or full, or drop estimator from target_models")
    where = estimator.locate(est_cfg.get("path", ""))
    attacks = estimator.attacks_for(est_cfg["mode"], False, hwt)
    phi = cyclotomic.basic_facts(m)[1]
    points = ladder(m, hwt, target, names)
    path = table_path(est_cfg)
    if points:
        fill(phi, hwt, points, path, where, est_cfg, attacks, log=log)
    elif not path.exists():
        write(path, [])
    return names, str(path.resolve())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.estimator_table", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("write", "fill"):
        p = sub.add_parser(name)
        p.add_argument("--table", required=True, help="the CSV table to (re)write")
        p.add_argument("--cache-dir", default=".cache/estimator", help="the estimator's cache (params.estimator.cache_dir)")
        p.add_argument("--attacks", default=",".join(DEFAULT_ATTACKS), help="attacks every point needs, comma-separated")
        p.add_argument("--estimator-path", default="", help="a lattice-estimator clone (default: make estimator's)")
        if name == "fill":
            p.add_argument("--phi", type=int, required=True)
            p.add_argument("--hwt", type=int, required=True)
            p.add_argument("--sigma", type=float, default=3.2)
            p.add_argument("--log2-q", type=float, nargs="+", required=True)
            p.add_argument("--timeout-s", type=float, default=900)
    a = ap.parse_args(argv)
    attacks = tuple(x for x in a.attacks.split(",") if x)
    try:
        where = estimator.locate(a.estimator_path)
        if a.cmd == "fill":
            out = fill(a.phi, a.hwt, a.log2_q, a.table, where, {"timeout_s": a.timeout_s, "cache_dir": a.cache_dir},
                       attacks, a.sigma, log=lambda s: print(s, file=sys.stderr))
        else:
            if not where.available:
                raise EstimatorMissing(where.note)
            out = rewrite(a.table, a.cache_dir, attacks, estimator.commit_of(where))
    except (SecurityError, EstimatorMissing) as e:
        print(f"estimator_table: {e}", file=sys.stderr)
        return 2
    print(f"estimator_table: {out} ({len(read(out))} points)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
