"""`cbparams`: the parameter explorer on the command line.

    cbparams ring M [M ...]             ring facts: phi, d, slots, the hypercube of Z_m^*/<2>
    cbparams check M [M ...]            Sage's cross-checks of those rings against the engine
    cbparams sweep [--m-max N]          every odd m with n | ord_m(2)      (cyclotomics.csv)
    cbparams select [--m-max N]         smallest ring per cipher and target (selected.csv)
    cbparams security [--m M --bits B]  security of the selection and the paper's rings
                                        (security.csv), or of one chain
    cbparams curve --m M --bits B ...   security against chain length on one ring
    cbparams plan --cipher C --m M      the chain for a cipher on a ring, and who planned it

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


def _sweep_rows(p: dict) -> list[dict]:
    from .enumerate import sweep

    return sweep(p["m_min"], p["m_max"], p["field_degrees"], p["workers"], cache=None)


def _selection(a, p):
    from . import select as sel

    cand = sel.candidates(_sweep_rows(p), p, a.runs_glob)
    return cand, sel.select(cand, p, a.runs_glob, log=lambda s: print(s, file=sys.stderr))


def cmd_ring(a) -> int:
    from .cyclotomic import ring_facts
    from .enumerate import format_factors

    rows = []
    for m in a.m:
        r = ring_facts(int(m) if m.isdigit() else m)
        rows.append({"m": r.m, "factors": format_factors(r.factors), "phi": r.phi, "d": r.d,
                     "slots": r.ell, "gens": list(r.gens), "ords": list(r.ords),
                     "good": [int(g) for g in r.good], "twists": list(r.twists), "ghs16": int(r.ghs16),
                     "fields": [n for n in (8, 16, 32, 64) if r.d % n == 0]})
    if a.fmt == "table":
        rows = [{k: (";".join(map(str, v)) if isinstance(v, list) else v) for k, v in r.items()} for r in rows]
    emit(rows, ["m", "factors", "phi", "d", "slots", "gens", "ords", "good", "twists", "ghs16", "fields"], a.fmt)
    return 0


def cmd_check(a) -> int:
    from .sagecheck import check_ring

    rows, bad = [], 0
    for m in a.m:
        rep = check_ring(int(m), field_bits=a.field_bits, factor_limit=a.factor_limit,
                         engine=not a.no_engine)
        bad += not rep["ok"]
        rows.append(rep)
    if a.fmt == "json":
        emit(rows, [], "json")
    else:
        for rep in rows:
            print(f"m={rep['m']}: {'ok' if rep['ok'] else 'FAILED'} in {rep['seconds']:.2f} s")
            for c in rep["checks"]:
                print(f"  [{'ok' if c['ok'] else 'FAIL'}] {c['name']}: {c['detail']}")
    return 1 if bad else 0


def cmd_sweep(a) -> int:
    from .enumerate import COLUMNS

    emit(_sweep_rows(_params(a)), COLUMNS, a.fmt)
    return 0


def cmd_select(a) -> int:
    from .select import SELECTED_COLUMNS

    p = _params(a)
    _, rows = _selection(a, p)
    cols = SELECTED_COLUMNS if a.fmt != "table" else [
        "cipher", "security_target", "status", "m", "phi", "slots", "blocks", "bits", "log2_q",
        "helib_bits", "coresvp_bits", "note"]
    emit(rows, cols, a.fmt)
    return 0


def cmd_security(a) -> int:
    from . import select as sel

    p = _params(a)
    log = lambda s: print(s, file=sys.stderr)  # noqa: E731
    if a.m is not None:
        if a.bits is None:
            raise ParamError("security --m needs --bits (the chain's capacity)")
        from .cyclotomic import basic_facts

        phi = basic_facts(a.m)[1]
        cfg = {"source": "cli", "cipher": a.cipher or "", "m": a.m, "phi": phi, "bits": a.bits,
               "paper_bits": "", "security_target": sel.targets(p)[0]}
        rows = sel.security_rows([cfg], p, log)
    elif a.paper_only:
        rows = sel.security_table([], p, log)
    else:
        cand, chosen = _selection(a, p)
        rows = sel.security_table(chosen, p, log, cand_rows=cand)
        if a.fmt == "table" and not a.all:
            rows = [r for r in rows if r["source"] != "sweep"]
    cols = sel.SECURITY_COLUMNS if a.fmt != "table" else [
        "source", "cipher", "m", "phi", "bits", "log2_q", "hwt", "helib_bits", "helib_dense_bits",
        "paper_bits", "coresvp_bits", "est_usvp", "est_dual", "est_hybrid", "est_best",
        "below_target"]
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
    from .planner import plan

    engine = {"auto": None, "engine": True, "explorer": False}[a.planner]
    p = plan(a.cipher, a.m, a.rounds, a.c, a.hwt, a.margin, a.model, engine=engine)
    d = p.as_dict()
    if a.fmt == "table":
        print(f"planned by {p.source}")
        d.pop("engine", None)
        emit([d], ["cipher", "m", "phi", "rounds", "bits", "c", "L", "b_ct", "K", "b_sp",
                   "log2_q", "hwt", "helib_bits", "coresvp_bits"], "table")
        print(f"bits: {p.detail}")
        print(f"run it: build/bin/run_cipher {' '.join(map(str, _run_flags(p)))} --json out.json")
    else:
        if a.fmt == "json":
            emit(d, [], "json")
        else:
            d.pop("engine", None)
            emit([d], list(d), "csv")
    return 0


def _run_flags(p) -> list:
    from .planner import RUN_CIPHER_FLAGS

    return [*RUN_CIPHER_FLAGS[p.cipher], "--rounds", p.rounds, "--m", p.m, "--bits", p.bits,
            "--c", p.c, "--hwt", p.hwt]


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

    p = sub.add_parser("ring", help="facts of single rings")
    p.add_argument("m", nargs="+", help="odd cyclotomic indices")
    fmt(p)
    p.set_defaults(fn=cmd_ring)

    p = sub.add_parser("check", help="Sage's cross-checks of rings (needs passagemath)")
    p.add_argument("m", nargs="+", type=int, help="odd cyclotomic indices")
    p.add_argument("--field-bits", type=int, nargs="*", default=None,
                   help="cipher fields GF(2^n) to check the embedding of (default: every n in 8,16,32,64 dividing d)")
    p.add_argument("--factor-limit", type=int, default=20000,
                   help="factor Phi_m completely up to this phi; above it, Rabin's equal-degree test (default 20000)")
    p.add_argument("--no-engine", action="store_true", help="do not compare with build/bin/bench_ops")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", dest="fmt", action="store_const", const="json")
    p.set_defaults(fmt="table", fn=cmd_check)

    p = sub.add_parser("sweep", help="every odd m with n | ord_m(2) (cyclotomics.csv)")
    cfg(p)
    fmt(p)
    p.set_defaults(fn=cmd_sweep)

    for name, fn, hlp in (("select", cmd_select, "smallest ring per cipher and target (selected.csv)"),
                          ("security", cmd_security, "security table (security.csv) or one chain")):
        p = sub.add_parser(name, help=hlp)
        cfg(p)
        p.add_argument("--runs-glob", help="run JSONs with measured capacity per round "
                       "(default results/runs/**/*.json, as the pipeline)")
        fmt(p)
        p.set_defaults(fn=fn)
        if name == "security":
            p.add_argument("--m", type=int, help="one ring (with --bits) instead of the selection")
            p.add_argument("--bits", type=int, help="the chain's capacity for --m")
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

    p = sub.add_parser("plan", help="the chain for a cipher on a ring")
    p.add_argument("--cipher", required=True, help="aes, vision8, vision16, vision32, vision64")
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--rounds", type=int, help="default: the cipher's")
    p.add_argument("--c", type=int, default=3)
    p.add_argument("--hwt", type=int, default=120)
    p.add_argument("--margin", type=int, default=60, help="explorer: bits added (default 60)")
    p.add_argument("--model", default="engine", choices=["engine", "paper"], help="explorer's depth model")
    p.add_argument("--planner", choices=["auto", "engine", "explorer"], default="auto",
                   help="auto: run_cipher --plan when the build has it, else the explorer")
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
