"""`cbparams`: the parameter explorer on the command line.

    cbparams ring M [M ...] [--p P]     ring facts: phi, d, slots, the hypercube of Z_m^*/<p>
                                        (p = 2 by default; at odd p also m = 2^k)
    cbparams check M [M ...] [--p P]    Sage's cross-checks of those rings against the engine
    cbparams sweep [--m-max N] [--p P]  every odd m with n | ord_m(2)      (cyclotomics.csv);
                                        at p > 2 odd m coprime to p and m = 2^k, n | ord_m(p);
                                        without --p at every prime of the config's instances
    cbparams select [--m-max N]         the rings per cipher and target the engine planned, ranked
                                        by predicted latency and time per block (ranked.csv)
    cbparams security [--m M --bits B [--p P]]  security of the selection and the paper's
                                        rings (security.csv), or of one chain (on ring m at
                                        plaintext modulus P: m = 2^k needs an odd prime P)
    cbparams curve --m M --bits B ...   security against chain length on one ring
    cbparams plan --cipher C --m M      the engine's planned chain for a cipher on a ring (and its
                                        predicted time when the cost model is there)

Settings come from a pipeline config's `params:` section (--config FILE, or --params-json
as the pipeline passes it; defaults: config/schema/params.schema.yaml), so the answers are
the pipeline's: `sweep`, `select` and `security` run the same functions as the rules in
workflow/rules/params.smk, and `--csv` prints the very CSV the pipeline writes. Output is
an aligned table, or `--json` / `--csv`.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from .errors import ParamError


# --------------------------------------------------------------------------- output

def _table(rows: list[dict], columns: list[str]) -> str:
    cols = [c for c in columns if any(c in r for r in rows)]
    cells = [[("" if r.get(c) is None else str(r.get(c, ""))) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(x[i]) for x in cells]) for i, c in enumerate(cols)]
    line = lambda xs: "  ".join(x.rjust(w) for x, w in zip(xs, widths)).rstrip()  # noqa: E731
    return "\n".join([line(cols), line(["-" * w for w in widths])] + [line(x) for x in cells])


def emit(rows: list[dict], columns: list[str], fmt: str, out=None) -> None:
    """Rows to stdout as a table, JSON (a list of objects) or CSV (the pipeline's format)."""
    out = out or sys.stdout
    if fmt == "json":
        json.dump(rows, out, indent=1, default=str)
        out.write("\n")
    elif fmt == "csv":
        w = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\r\n")
        w.writeheader()
        w.writerows(rows)
    else:
        out.write(_table(rows, columns) + "\n")


# --------------------------------------------------------------------------- commands

def _params(a) -> dict:
    from .config import params_from_args

    p = params_from_args(a.config, a.params_json)
    for key in ("m_min", "m_max", "workers"):
        v = getattr(a, key, None)
        if v is not None:
            p[key] = v
    if getattr(a, "degrees", None):
        p["field_degrees"] = [int(x) for x in a.degrees.split(",")]
    if p["m_min"] > p["m_max"]:
        raise ParamError(f"m_min={p['m_min']} exceeds m_max={p['m_max']}: give a non-empty range of m")
    return p


def _sweep_rows(p: dict, pt: int | None = None) -> tuple[list[dict], list[str]]:
    """(rows, columns) of the sweep at pt with params.field_degrees, or (None) the
    pipeline's: at each prime of the configured instances (cbparams.enumerate.config_sweep)."""
    from .enumerate import columns, config_sweep, sweep

    if pt is None:
        return config_sweep(p)
    return sweep(p["m_min"], p["m_max"], p["field_degrees"], p["workers"], cache=None, p=pt), columns(pt)


def _selection(a, p):
    """(ranked, selected) as the pipeline makes them; plans are cached in --plans-dir
    (a plan older than build/bin/run_cipher is made again)."""
    from . import cost_model, runner
    from . import select as sel

    log = lambda s: print(s, file=sys.stderr)  # noqa: E731
    model = cost_model.load_model(a.cost_model)
    cand = sel.candidates(_sweep_rows(p)[0], p, model, log, a.plans_dir)
    built = runner.find_executable("run_cipher").stat().st_mtime
    for r in cand:
        if r["plan"]:
            path = sel.plan_path(a.plans_dir, r["cipher"], r["m"], r["hwt"], r["security_target"], r["packing"])
            if not path.exists() or path.stat().st_mtime < built:
                sel.plan_one(r["cipher"], r["m"], r["hwt"], r["security_target"], p, path, r["packing"])
    ranked = sel.rank(cand, a.plans_dir, model, p, log, Path(a.plans_dir).parent / "measured")
    return ranked, sel.select(ranked, p, log)


def cmd_ring(a) -> int:
    from .cyclotomic import ring_facts
    from .enumerate import format_factors

    rows = []
    for m in a.m:
        r = ring_facts(int(m) if m.isdigit() else m, a.p)
        rows.append({"m": r.m, **({"p": r.p} if r.p != 2 else {}), "factors": format_factors(r.factors),
                     "phi": r.phi, "d": r.d,
                     "slots": r.ell, "gens": list(r.gens), "ords": list(r.ords),
                     "good": [int(g) for g in r.good], "twists": list(r.twists), "ghs16": int(r.ghs16),
                     "fields": [n for n in ((1,) if r.p != 2 else ()) + (8, 16, 32, 64) if r.d % n == 0]})
    if a.fmt == "table":
        rows = [{k: (";".join(map(str, v)) if isinstance(v, list) else v) for k, v in r.items()} for r in rows]
    cols = ["m", "factors", "phi", "d", "slots", "gens", "ords", "good", "twists", "ghs16", "fields"]
    emit(rows, cols if all("p" not in r for r in rows) else ["m", "p"] + cols[1:], a.fmt)
    return 0


def cmd_check(a) -> int:
    from .sagecheck import check_ring

    rows, bad = [], 0
    for m in a.m:
        rep = check_ring(int(m), field_bits=a.field_bits, factor_limit=a.factor_limit,
                         engine=not a.no_engine, p=a.p)
        bad += not rep["ok"]
        rows.append(rep)
    if a.fmt == "json":
        emit(rows, [], "json")
    else:
        for rep in rows:
            at = f" p={rep['p']}" if rep.get("p", 2) != 2 else ""
            print(f"m={rep['m']}{at}: {'ok' if rep['ok'] else 'FAILED'} in {rep['seconds']:.2f} s")
            for c in rep["checks"]:
                print(f"  [{'ok' if c['ok'] else 'FAIL'}] {c['name']}: {c['detail']}")
    return 1 if bad else 0


def cmd_sweep(a) -> int:
    from .cyclotomic import check_p

    rows, cols = _sweep_rows(_params(a), None if a.p is None else check_p(a.p))
    emit(rows, cols, a.fmt)
    return 0


def cmd_select(a) -> int:
    from .select import RANKED_COLUMNS

    p = _params(a)
    ranked, _ = _selection(a, p)
    cols = RANKED_COLUMNS if a.fmt != "table" else [
        "cipher", "security_target", "status", "m", "phi", "blocks", "bits", "c", "hwt", "helib_bits",
        "coresvp_bits", "est_best", "est_best_attack", "predicted_latency_s", "predicted_block_s",
        "rank_latency", "rank_block"]
    emit(ranked, cols, a.fmt)
    return 0


def cmd_security(a) -> int:
    from . import select as sel

    p = _params(a)
    log = lambda s: print(s, file=sys.stderr)  # noqa: E731
    if a.p is not None and a.m is None:
        raise ParamError(f"security --p {a.p} needs --m (one ring at that plaintext modulus)")
    if a.m is not None:
        if a.bits is None:
            raise ParamError("security --m needs --bits (the chain's capacity)")
        from .cyclotomic import basic_facts

        # The engine refuses a ring without slots at p by name (m = 2^k at p = 2: Phi_m is
        # (X + 1)^(m/2) mod 2), before any chain is built.
        phi = basic_facts(a.m, 2 if a.p is None else a.p)[1]
        cfg = {"source": "cli", "cipher": a.cipher or "", "m": a.m, "phi": phi, "bits": a.bits,
               "paper_bits": "", "security_target": sel.targets(p)[0]}
        rows = sel.security_rows([cfg], p, log)
    elif a.paper_only:
        rows = sel.security_table([], p, log)
    else:
        ranked, chosen = _selection(a, p)
        rows = sel.security_table(chosen, p, log, cand_rows=ranked)
        if a.fmt == "table" and not a.all:
            rows = [r for r in rows if r["source"] != "ranked"]
    cols = sel.SECURITY_COLUMNS if a.fmt != "table" else [
        "source", "cipher", "m", "phi", "bits", "log2_q", "hwt", "helib_bits", "helib_dense_bits",
        "paper_bits", "coresvp_bits", "est_usvp", "est_dual", "est_hybrid", "est_full", "est_best",
        "est_best_attack", "below_target"]
    emit(rows, cols, a.fmt)
    return 0


def cmd_curve(a) -> int:
    from .curves import security_curve

    rows = security_curve(a.m, a.bits, hwt=a.hwt, c=a.c,
                          estimator={"auto": None, "on": True, "off": False}[a.estimator])
    cols = ["m", "phi", "bits", "L", "K", "log2_q", "hwt", "helib_bits", "helib_dense_bits",
            "coresvp_bits", "est_usvp", "est_commit"]
    emit(rows, cols, a.fmt)
    return 0


def cmd_plan(a) -> int:
    from . import cost_model, planner

    doc = planner.plan(a.cipher, a.m, a.hwt, a.c, a.security_target, a.seed, a.rounds)
    pa, pl = doc["params"], doc["plan"]
    row = {"cipher": planner.instance(a.cipher), "m": pa["m"], "phi": pa["phi"], "rounds": doc["rounds"],
           "bits": pl["bits"], "c": pa["c"], "hwt": pa["hwt"], "log2_q": round(pa["log2_q"], 3),
           "security": round(pa["security"], 2), "bits_per_round": round(pl["bits_per_round"], 1),
           "plan_s": round(pl["seconds"], 1)}
    try:
        row["predicted_s"] = round(cost_model.predict_plan(cost_model.load_model(a.cost_model), doc)["seconds"], 2)
    except ParamError as e:
        print(f"note: no prediction ({e})", file=sys.stderr)
    if a.fmt == "json":
        emit(doc, [], "json")
    else:
        emit([row], list(row), a.fmt)
        if a.fmt == "table":
            print(f"planned by the engine (run_cipher --plan); {pl.get('choice') or ''}".rstrip("; "))
            print(f"run it: build/bin/run_cipher {' '.join(map(str, planner.plan_args(a.cipher, a.m, a.hwt, pa['c'], None, a.seed, a.rounds)))} "
                  f"--bits {pl['bits']} --json out.json")
    return 0


# --------------------------------------------------------------------------- parser

def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cbparams", description=__doc__.split("\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def fmt(p):
        g = p.add_mutually_exclusive_group()
        g.add_argument("--json", dest="fmt", action="store_const", const="json", help="JSON output")
        g.add_argument("--csv", dest="fmt", action="store_const", const="csv",
                       help="CSV output (the pipeline's columns)")
        p.set_defaults(fmt="table")

    def cfg(p, sweep=True):
        p.add_argument("--config", help="pipeline config YAML whose params: section to use")
        p.add_argument("--params-json", help="the params: section as JSON (overrides --config)")
        if sweep:
            p.add_argument("--m-min", type=int, help="override params.m_min")
            p.add_argument("--m-max", type=int, help="override params.m_max")
            p.add_argument("--degrees", help="override params.field_degrees, e.g. 8,16")
            p.add_argument("--workers", type=int, help="override params.workers")

    def prime(p):
        p.add_argument("--p", default="2", help="the plaintext modulus, a prime 2 <= p < 2^61 (default 2)")

    p = sub.add_parser("ring", help="facts of single rings")
    p.add_argument("m", nargs="+", help="cyclotomic indices: odd, or powers of two at odd p")
    prime(p)
    fmt(p)
    p.set_defaults(fn=cmd_ring)

    p = sub.add_parser("check", help="Sage's cross-checks of rings (needs passagemath)")
    p.add_argument("m", nargs="+", type=int, help="odd cyclotomic indices")
    p.add_argument("--field-bits", type=int, nargs="*", default=None,
                   help="cipher fields GF(2^n) to check the embedding of (default: every n in 8,16,32,64 dividing d)")
    p.add_argument("--factor-limit", type=int, default=20000,
                   help="factor Phi_m completely up to this phi; above it, Rabin's equal-degree test (default 20000)")
    p.add_argument("--no-engine", action="store_true", help="do not compare with build/bin/bench_ops")
    prime(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", dest="fmt", action="store_const", const="json")
    p.set_defaults(fmt="table", fn=cmd_check)

    p = sub.add_parser("sweep", help="every odd m with n | ord_m(2) (cyclotomics.csv); at --p P also m = 2^k")
    cfg(p)
    p.add_argument("--p", help="the plaintext modulus, a prime 2 <= p < 2^61, swept alone with the field degrees "
                               "(default: the pipeline's sweep, at the primes of params.ciphers' instances)")
    fmt(p)
    p.set_defaults(fn=cmd_sweep)

    for name, fn, hlp in (("select", cmd_select, "planned rings ranked by predicted latency and time per block"),
                          ("security", cmd_security, "security table (security.csv) or one chain")):
        p = sub.add_parser(name, help=hlp)
        cfg(p)
        p.add_argument("--cost-model", default="results/cost/model.json",
                       help="the cost model (python -m cbparams.cost_model calibrate; the pipeline's by default)")
        p.add_argument("--plans-dir", default="results/params/plans", help="where plans are cached")
        fmt(p)
        p.set_defaults(fn=fn)
        if name == "security":
            p.add_argument("--m", type=int, help="one ring (with --bits) instead of the selection")
            p.add_argument("--bits", type=int, help="the chain's capacity for --m")
            p.add_argument("--p", type=int, help="the plaintext modulus of --m, a prime 2 <= p < 2^61 (default 2; "
                                                 "a power-of-two m needs an odd p, e.g. 65537)")
            p.add_argument("--cipher", help="label for --m")
            p.add_argument("--paper-only", action="store_true", help="only the paper's five (security_paper.csv)")
            p.add_argument("--all", action="store_true", help="table: include the sweep rows")

    p = sub.add_parser("curve", help="security against chain length on one ring")
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--bits", type=int, nargs="+", required=True)
    p.add_argument("--hwt", type=int, default=120)
    p.add_argument("--c", type=int, default=3)
    p.add_argument("--estimator", choices=["auto", "on", "off"], default="auto",
                   help="lattice estimator's usvp: auto = when found (default)")
    fmt(p)
    p.set_defaults(fn=cmd_curve)

    p = sub.add_parser("plan", help="the engine's planned chain for a cipher on a ring")
    p.add_argument("--cipher", required=True, help="an instance id of the catalog (aes, vision8, ..., mimc63) or a cipher name")
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--rounds", type=int, help="default: the cipher's")
    p.add_argument("--c", type=int, default=3, help="key-switching digits (the least tried with --security-target)")
    p.add_argument("--hwt", type=int, default=120)
    p.add_argument("--seed", type=int, default=1, help="the run's seed (the planner sees its key)")
    p.add_argument("--security-target", type=float, help="let the engine pick c for this many bits")
    p.add_argument("--cost-model", default="results/cost/model.json", help="for the predicted time")
    fmt(p)
    p.set_defaults(fn=cmd_plan)
    return ap


def main(argv=None) -> int:
    a = parser().parse_args(argv)
    try:
        return a.fn(a)
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
