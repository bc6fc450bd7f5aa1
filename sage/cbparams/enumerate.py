"""Sweep of cyclotomic rings: every odd m in [m_min, m_max] with n | ord_m(2); at a prime
p > 2, every odd m coprime to p and every power of two m = 2^k in the range, with n | ord_m(p).

One row per (m, n) for every configured field degree n with n | d, d = ord_m(p): the ring
facts of cbparams.cyclotomic plus how many cipher blocks one ciphertext holds. A cipher
state of `state` elements of GF(p^n) takes `state` slots (GF(p^n) is a subfield of every
slot GF(p^d) when n | d), so blocks = floor(ell / state), with `state` the smallest state
size among the catalog's instances over GF(2^n) (cbparams.catalog: 16 for GF(2^8), AES and
Vision; 8, 4, 2 for Vision over GF(2^16), GF(2^32), GF(2^64); 1 for MiMC over GF(2^63));
the selection counts each instance's own blocks. At p > 2 `state` is the smallest among
the catalog's instances over GF(p^n) at that p (1 for MiMC over F_65537), else a 128-bit
state, ceil(128 / (n log2 p)) elements; those rows carry a `p` column (the p = 2 columns
stay as they were).

The pipeline's sweep (`python -m cbparams.enumerate --params-json`, `cbparams sweep`
without --p: config_sweep) is one at each prime its instances need (sweep_primes: p = 2
for the GF(2^n) instances of params.ciphers, each F_p instance's p from the catalog), in
one file with a `p` column when any prime is not 2.

Every fact comes from the engine (cbparams.cyclotomic asks build/bin/zmstar_info): the
cheap part (factors, phi, d) for every odd m in one batch, the quotient structure only for
the m that some n accepts, in `workers` batches side by side. A ring whose hypercube the
engine cannot build is left out (counted in the meta file). The structures are cached on
disk (a pickle beside the output), saved as the sweep goes, so an interrupted or failed run
loses nothing and a rerun with a wider range computes only the new m.

>>> rows = sweep(3, 300, [8, 16], workers=1)
>>> [(r["m"], r["n"], r["slots"], r["blocks"]) for r in rows][:4]
[(17, 8, 2, 0), (51, 8, 4, 0), (85, 8, 8, 0), (97, 8, 2, 0)]

At p = 65537 with n = 1 (slots F_p): the powers of two have d = 1 (65537 = 1 mod 2^16).

>>> rows = sweep(3, 300, [1], workers=1, p=65537)
>>> [(r["m"], r["d"], r["slots"]) for r in rows if r["m"] & (r["m"] - 1) == 0]
[(4, 1, 2), (8, 1, 4), (16, 1, 8), (32, 1, 16), (64, 1, 32), (128, 1, 64), (256, 1, 128)]
>>> {(r["p"], r["state"]) for r in rows}     # MiMC over F_65537: one element a block
{(65537, 1)}
>>> state_size(1, 257), state_size(2, 65537)   # no instance there: a 128-bit state
(16, 4)
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import pickle
import sys
import time
from pathlib import Path

import math
from concurrent.futures import ThreadPoolExecutor

from . import batch, catalog
from .cyclotomic import RingFacts, basic_facts_many, check_p, limits, ring_facts_many
from .errors import ParamError, RingError

def state_size(n: int, p: int = 2) -> int:
    """Field elements per block for the `state` and `blocks` columns: the smallest state of
    the catalog's instances over GF(2^n), or a 128-bit state (128 / n) when none has n. At
    p > 2 the smallest state of its instances over GF(p^n) at that p (catalog.instances()),
    or a 128-bit state, ceil(128 / (n log2 p)) elements."""
    if p != 2:
        sizes = [i.s for i in catalog.instances().values() if i.n == n and i.p == p]
        return min(sizes) if sizes else max(1, math.ceil(128 / (n * math.log2(p))))
    sizes = [i.s for i in catalog.instances(prime=False).values() if i.n == n]
    return min(sizes) if sizes else max(1, 128 // n)

#: Bump when the cached structure changes: older caches are then ignored. 2: the engine's
#: answers (gens, ords, twists, ghs16, slots_ok), None for a ring it refuses.
CACHE_VERSION = 2
#: Rings per engine batch (the cache is saved after each).
CHUNK = 2000

COLUMNS = ["m", "factors", "phi", "d", "slots", "n", "state", "blocks",
           "dims", "gens", "ords", "good_dims", "twists", "ghs16"]


def columns(p: int = 2) -> list[str]:
    """The CSV columns of a sweep at p: COLUMNS at p = 2 (the pipeline's file as before),
    with `p` after `m` at any other p."""
    return COLUMNS if p == 2 else ["m", "p"] + COLUMNS[1:]


def format_factors(factors) -> str:
    """'13*17*241', with '^e' for repeated primes: format_factors(((3, 2), (5, 1))) -> '3^2*5'."""
    return "*".join(f"{p}^{e}" if e > 1 else str(p) for p, e in factors)


def rows_for(r: RingFacts, degrees) -> list[dict]:
    """CSV rows of ring r, one per n in degrees with n | d (with a `p` key at p != 2)."""
    out = []
    for n in degrees:
        if r.d % n:
            continue
        state = state_size(n, r.p)
        out.append({
            "m": r.m, **({"p": r.p} if r.p != 2 else {}), "factors": format_factors(r.factors), "phi": r.phi, "d": r.d,
            "slots": r.ell, "n": n, "state": state, "blocks": r.ell // state,
            "dims": len(r.gens),
            "gens": ";".join(map(str, r.gens)), "ords": ";".join(map(str, r.ords)),
            "good_dims": ";".join("1" if g else "0" for g in r.good),
            "twists": ";".join(map(str, r.twists)), "ghs16": int(r.ghs16),
        })
    return out


def _key(m: int, p: int):
    """The cache's key of ring m at p: m at p = 2 (caches from before p stay valid), (m, p)."""
    return m if p == 2 else (m, p)


def _structures(ms, p=2):
    """{key: (gens, ords, twists, ghs16, slots_ok) or None} from one engine batch of its own."""
    out, b = {}, batch.Batch("zmstar_info")
    try:
        for m, r in zip(ms, ring_facts_many(ms, refused="none", ask=b.ask, p=p)):
            out[_key(m, p)] = None if r is None else (r.gens, r.ords, r.twists, r.ghs16, r.slots_ok)
    finally:
        b.close()
    return out


def _check_degrees(degrees):
    for n in degrees:
        if not isinstance(n, int) or n < 1:
            raise RingError(f"field degree n={n!r} is not a positive integer: "
                            f"params.field_degrees takes slot-field degrees such as 8, 16, 32, 64")


def sweep_ms(m_min: int, m_max: int, p: int = 2) -> list[int]:
    """The m a sweep at p asks the engine about: every odd m >= 3 in [m_min, m_max] (coprime
    to p), and at odd p every power of two 2^k >= 4 in the range.

    >>> sweep_ms(1, 20, 3)
    [4, 5, 7, 8, 11, 13, 16, 17, 19]
    """
    ms = [m for m in range(max(3, m_min | 1), m_max + 1, 2) if m % p]
    if p != 2:
        k = 2
        while 2 ** k <= m_max:
            if 2 ** k >= m_min:
                ms.append(2 ** k)
            k += 1
    return sorted(ms)


def sweep(m_min: int, m_max: int, degrees, workers: int = 2, cache: Path | None = None,
          progress=None, stats: dict | None = None, p: int = 2) -> list[dict]:
    """Rows for every m of sweep_ms(m_min, m_max, p) and every n in degrees with n | ord_m(p).
    `stats`, when given, receives the number of structures computed and taken from the cache.
    A p the engine refuses (not prime, out of range) raises RingError with its message."""
    _check_degrees(degrees)
    p = check_p(p)
    if m_min > m_max:
        raise RingError(f"m_min={m_min} > m_max={m_max}: the range of m is empty")
    m_limit = limits()["m_max"]
    if m_max > m_limit:
        raise RingError(f"m_max={m_max} exceeds {m_limit} = 2^20, the largest m the engine accepts: "
                        f"lower params.m_max")
    cached = {}
    if cache is not None and Path(cache).exists():
        with open(cache, "rb") as f:
            doc = pickle.load(f)
        if isinstance(doc, dict) and doc.get("version") == CACHE_VERSION:
            cached = doc["structures"]
    ms = sweep_ms(m_min, m_max, p)
    basics = {m: b for m, b in zip(ms, basic_facts_many(ms, p)) if any(b[2] % n == 0 for n in degrees)}
    todo = sorted((m for m in basics if _key(m, p) not in cached), reverse=True)  # big m first

    def save():
        if cache is not None:
            Path(cache).parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(str(cache) + ".tmp")
            with open(tmp, "wb") as f:
                pickle.dump({"version": CACHE_VERSION, "structures": cached}, f)
            os.replace(tmp, cache)

    if stats is not None:
        stats.update(computed=len(todo), cached=len(basics) - len(todo))
    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for done, got in enumerate(pool.map(lambda ch: _structures(ch, p), chunks), 1):
            cached.update(got)
            save()
            if progress:
                progress(f"{min(done * CHUNK, len(todo))}/{len(todo)} rings")
    refused = [m for m in basics if cached[_key(m, p)] is None]
    if stats is not None:
        stats.update(refused=len(refused))
    rows = []
    for m in sorted(basics):
        f, phi, d = basics[m]
        if cached[_key(m, p)] is None:
            continue   # the engine cannot build this ring's hypercube: not a ring it runs
        gens, ords, twists, ghs16, slots_ok = cached[_key(m, p)]
        r = RingFacts(m=m, factors=f, phi=phi, d=d, ell=phi // d, gens=gens, ords=ords,
                      good=tuple(t == 0 for t in twists), twists=twists, ghs16=ghs16, slots_ok=slots_ok, p=p)
        rows.extend(rows_for(r, degrees))
    return rows


def sweep_primes(p: dict) -> dict:
    """{plaintext modulus: the field degrees to sweep at it} for a params section: p = 2 with
    params.field_degrees when some instance of params.ciphers is over GF(2^n) (or none is
    named), and each F_p instance's p (the catalog's: run_cipher --list-ciphers) with its
    degree n = 1. A config of GF(2^n) instances sweeps p = 2 alone, as before p existed.

    >>> sweep_primes({"ciphers": ["aes", "mimcp17"], "field_degrees": [8]})
    {2: [8], 65537: [1]}
    >>> sweep_primes({"ciphers": ["mimcp17"], "field_degrees": [8]})
    {65537: [1]}
    """
    out: dict = {}
    for name in p.get("ciphers") or []:
        inst = catalog.instances()[catalog.instance(name)]
        if inst.p == 2:
            out[2] = list(p["field_degrees"])
        else:
            out.setdefault(inst.p, [])
            if inst.n not in out[inst.p]:
                out[inst.p].append(inst.n)
    if not out:
        out[2] = list(p["field_degrees"])
    return dict(sorted(out.items()))


def config_sweep(p: dict, cache: Path | None = None, progress=None, stats: dict | None = None) -> tuple:
    """(rows, columns) of the pipeline's sweep (cyclotomics.csv) for a params section: a
    sweep at every prime of sweep_primes(p) over [m_min, m_max]; the columns of a sweep at
    p = 2 when that is the only prime (the file as before p existed), else with `p` after
    `m` on every row. `stats` gets the counts summed and, per prime, its field degrees and
    those no m of the range has ("primes": {p: {"field_degrees", "missing", "rows"}})."""
    primes = sweep_primes(p)
    rows, per = [], {}
    for pt, degrees in primes.items():
        st: dict = {}
        got = sweep(p["m_min"], p["m_max"], degrees, p["workers"], cache, progress=progress, stats=st, p=pt)
        if set(primes) != {2}:
            got = [{"m": r["m"], "p": pt, **{k: v for k, v in r.items() if k != "m"}} for r in got]
        rows += got
        per[pt] = {"field_degrees": degrees, "missing": unsupported_degrees(got, degrees), "rows": len(got)}
        if stats is not None:
            for k, v in st.items():
                stats[k] = stats.get(k, 0) + v
    if stats is not None:
        stats["primes"] = per
    return rows, (COLUMNS if set(primes) == {2} else columns(3))


def unsupported_degrees(rows, degrees) -> list[int]:
    """The n in degrees for which no row was found."""
    have = {r["n"] for r in rows}
    return [n for n in degrees if n not in have]


def write_csv(rows, path: Path, p: int = 2) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns(p))
        w.writeheader()
        w.writerows(rows)


def main(argv=None) -> int:
    from .config import params_from_args

    ap = argparse.ArgumentParser(prog="python -m cbparams.enumerate", description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="pipeline config YAML (its params: section is used)")
    ap.add_argument("--params-json", help="the params: section as JSON (overrides --config)")
    ap.add_argument("--m-max", type=int, help="override params.m_max")
    ap.add_argument("--workers", type=int, help="override params.workers")
    ap.add_argument("--p", help="the plaintext modulus, a prime: sweep at it alone with params.field_degrees "
                                "(default: the primes of params.ciphers' instances, the catalog's)")
    ap.add_argument("--out", default="results/params/cyclotomics.csv")
    ap.add_argument("--meta", help="JSON file for timing and counts (default: OUT with .meta.json)")
    a = ap.parse_args(argv)
    try:
        p = params_from_args(a.config, a.params_json)
        if a.m_max is not None:
            p["m_max"] = a.m_max
        if a.workers is not None:
            p["workers"] = a.workers
        out = Path(a.out)
        cache = out.parent / "cache" / "zmstar.pkl"
        t0 = time.time()
        stats = {}
        progress = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
        if a.p is not None:
            pt = check_p(a.p)
            rows = sweep(p["m_min"], p["m_max"], p["field_degrees"], p["workers"], cache, progress=progress,
                         stats=stats, p=pt)
            cols, primes = columns(pt), {pt: p["field_degrees"]}
            bad = [(pt, n) for n in unsupported_degrees(rows, p["field_degrees"])]
        else:
            rows, cols = config_sweep(p, cache, progress, stats)
            per = stats.pop("primes")
            primes = {k: v["field_degrees"] for k, v in per.items()}
            bad = [(k, n) for k, v in per.items() for n in v["missing"]]
        secs = time.time() - t0
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(rows)
        only2 = set(primes) == {2}
        degrees = sorted({n for ds in primes.values() for n in ds})
        meta = {**({"p": next(iter(primes))} if len(primes) == 1 and not only2 else {}),
                **({"primes": {str(k): v for k, v in primes.items()}} if len(primes) > 1 else {}),
                "m_min": p["m_min"], "m_max": p["m_max"],
                "field_degrees": p["field_degrees"] if only2 else degrees,
                "workers": p["workers"], "rows": len(rows),
                "rings": len({(r["m"], r.get("p", 2)) for r in rows}), "seconds": round(secs, 2),
                "structures_computed": stats.get("computed"), "structures_cached": stats.get("cached"),
                "refused_by_engine": stats.get("refused"),
                "per_degree": {str(n): sum(1 for r in rows if r["n"] == n)
                               for n in (p["field_degrees"] if only2 else degrees)}}
        Path(a.meta or str(out.with_suffix("")) + ".meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{out}: {len(rows)} rows, {meta['rings']} rings ({stats.get('computed')} computed, "
              f"{stats.get('cached')} from {cache}), {secs:.1f} s with {p['workers']} workers", file=sys.stderr)
        if bad:
            pt, n = bad[0]
            raise RingError(
                f"field degree n={n}: no {'odd ' if pt == 2 else ''}m in [{p['m_min']}, {p['m_max']}] "
                f"has n | ord_m({pt}); "
                f"raise params.m_max or drop {n} from params.field_degrees"
                + (f" (or the instances over F_{pt} from params.ciphers)" if pt != 2 else "")
                + f" (the rings found are kept in {cache})")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
