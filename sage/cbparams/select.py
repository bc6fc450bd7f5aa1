"""Chain sizing per ring, security per candidate, and the selection of experiments.

Three steps, each a CLI sub-command over tidy CSV files:

candidates  For every cipher instance (config/depth_profiles.yaml) and every ring of the
            sweep whose slot field holds it (n | d) and that the engine runs (d <= 1024), the chain the engine would build for
            the bits the depth model asks at that ring (+ margin), its log2 Q (ciphertext + special
            primes, b bits per prime: an upper bound), HElib's formula (configured key
            weight and dense) and core-SVP uSVP.  -> results/params/candidates.csv
select      For each cipher instance: the ring with the smallest phi(m) that holds at
            least min_blocks blocks and whose security reaches security_target by every
            model in target_models; ties go to more blocks, then smaller m. The chain is
            then rebuilt with the exact primes.  -> results/params/selected.csv and
            results/params/selected.yaml (experiment configurations for the pipeline).
security    The selected configurations and the paper's five (docs/references.md §1) with
            HElib's formula, core-SVP and, when the lattice estimator is there, its
            estimates (cached; the hybrid for sparse keys), flagged when the best attack
            falls below the target.  -> results/params/security.csv
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from functools import lru_cache
from pathlib import Path

import yaml

from . import chains, estimator, security
from .config import ROOT, paper_configs, params_from_args
from .cyclotomic import D_LIMIT
from .errors import ParamError, SecurityError

#: The paper's configurations (Toprakhisar, Mahzoun, Ashur, Table 2;
#: docs/references.md §1): cipher instance, m, chain bits, rounds, the security the paper reports.
#: Read from config/paper.yaml, the one place the paper's figures are kept as data.
PAPER_CONFIGS = paper_configs()

CANDIDATE_COLUMNS = ["cipher", "m", "phi", "d", "slots", "n", "state", "blocks", "rounds",
                     "bits_per_round", "bits", "c", "L", "b_ct", "K", "b_sp", "log2_q_ct",
                     "log2_q", "hwt", "helib_bits", "helib_dense_bits", "coresvp_bits"]


@lru_cache(maxsize=None)
def _coresvp(phi: int, log2_q: float, hwt: int) -> float:
    return security.coresvp_bits(phi, log2_q, hwt)


def read_csv(path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(rows, path, columns) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def profiles_for(p: dict, runs_glob: str | None = None) -> dict[str, chains.Profile]:
    """Depth profiles, with measured bits per round where runs exist and use_measured."""
    path = Path(p["depth_profiles"])
    if not path.is_absolute() and not path.exists():
        path = ROOT / path
    prof = chains.load_profiles(path, p["hwt"], p["depth_model"])
    if p["use_measured"]:
        prof = chains.apply_measured(prof, chains.measured_bits_per_round(
            runs_glob or str(ROOT / "results/runs/**/*.json"), p["measured_min_phi"]))
    missing = [c for c in p["ciphers"] if c not in prof]
    if missing:
        raise ParamError(f"params.ciphers names {missing[0]!r}, which {path} does not describe: "
                         f"use one of {sorted(prof)} or add it to the depth-profile file")
    return prof


def chain_columns(ch: chains.Chain, m: int, phi: int, bits: int, p: dict) -> dict:
    """Chain and security columns for ring m with the engine's chain ch."""
    lq = ch.log2_Q
    return {"bits": bits, "c": p["c"], "L": ch.L, "b_ct": ch.b_ct, "K": ch.K, "b_sp": ch.b_sp,
            "log2_q_ct": round(ch.log2_q_ct, 3), "log2_q": round(lq, 3), "hwt": p["hwt"],
            "helib_bits": round(security.helib_security(m, lq, p["hwt"], phi), 3),
            "helib_dense_bits": round(security.helib_security(m, lq, 0, phi), 3),
            "coresvp_bits": round(_coresvp(phi, round(lq, 3), p["hwt"]), 1)}


def chain_row(m: int, phi: int, bits: int, p: dict) -> dict:
    """Chain and security columns for ring m with `bits` of capacity (the engine's chain)."""
    return chain_columns(chains.build_chain(m, bits, p["c"], p["special_margin_bits"]), m, phi, bits, p)


def candidates(cyc_rows: list[dict], p: dict, runs_glob: str | None = None) -> list[dict]:
    """One row per (cipher instance, ring with its field degree); the engine's chains are
    asked for in one batch, and rings whose chain the engine refuses are no candidates."""
    prof = profiles_for(p, runs_glob)
    rows, reqs = [], []
    for name in p["ciphers"]:
        pr = prof[name]
        for r in cyc_rows:
            if int(r["n"]) != pr.n:
                continue
            m, phi, ell = int(r["m"]), int(r["phi"]), int(r["slots"])
            if int(r["d"]) > D_LIMIT:
                continue   # the engine cannot build slots GF(2^d) this large: not runnable
            bits = pr.bits_needed(p["chain_margin_bits"], phi=phi)
            rows.append({"cipher": name, "m": m, "phi": phi, "d": int(r["d"]), "slots": ell, "n": pr.n,
                         "state": pr.state, "blocks": ell // pr.state, "rounds": pr.rounds,
                         "bits_per_round": round(pr.per_round(phi), 1)})
            reqs.append((m, bits, p["c"]))
    out = []
    for row, req, ch in zip(rows, reqs, chains.build_chains(reqs, p["special_margin_bits"], refused="none")):
        if ch is None:
            continue   # e.g. m too large for the engine's primes; not a candidate
        try:
            row.update(chain_columns(ch, req[0], row["phi"], req[1], p))
        except ParamError:
            continue   # e.g. a key weight above phi on a toy ring; not a candidate
        out.append(row)
    return out


def targets(p: dict) -> list[float]:
    """params.security_target as a list (it may be one number or several)."""
    t = p["security_target"]
    return list(t) if isinstance(t, list) else [t]


def meets(row: dict, p: dict, target: float | None = None) -> bool:
    """Does a candidate reach the target by every model in params.target_models?"""
    t = targets(p)[0] if target is None else target
    ok = True
    if "helib" in p["target_models"]:
        ok &= float(row["helib_bits"]) >= t
    if "coresvp" in p["target_models"]:
        ok &= float(row["coresvp_bits"]) >= t
    return ok


def select(cand_rows: list[dict], p: dict, runs_glob: str | None = None, log=None) -> list[dict]:
    """Per cipher and target: the smallest-phi candidate that holds min_blocks and meets it.

    When none does, params.strict decides: raise the error, or (default) add a row with
    status "unreachable" and the error's message as note, and go on with the others.
    """
    prof = profiles_for(p, runs_glob)
    out = []
    for name, target in ((n, t) for n in p["ciphers"] for t in targets(p)):
        try:
            out.append(_select_one(name, target, cand_rows, p, prof))
        except ParamError as e:
            if p["strict"]:
                raise
            if log:
                log(f"warning: {e}")
            out.append({"cipher": name, "n": prof[name].n, "state": prof[name].state,
                        "rounds": prof[name].rounds, "security_target": target,
                        "status": "unreachable", "note": str(e)})
    return out


def _select_one(name, target, cand_rows, p, prof) -> dict:
    rows = [r for r in cand_rows if r["cipher"] == name]
    if not rows:
        raise ParamError(f"cipher {name}: no ring in the sweep has n={prof[name].n} dividing "
                         f"ord_m(2); raise params.m_max or add {prof[name].n} to params.field_degrees")
    big = [r for r in rows if int(r["blocks"]) >= p["min_blocks"]]
    if not big:
        most = max(rows, key=lambda r: int(r["blocks"]))
        raise ParamError(f"cipher {name}: params.min_blocks={p['min_blocks']} is more than any ring "
                         f"holds (at most {most['blocks']} at m={most['m']}); lower params.min_blocks "
                         f"or raise params.m_max")
    ok = [r for r in big if meets(r, p, target)]
    if not ok:
        best = max(big, key=lambda r: (min(float(r["helib_bits"]), float(r["coresvp_bits"])), int(r["phi"])))
        raise SecurityError(
            f"cipher {name}: params.security_target={target} is not reached by any ring "
            f"m <= {p['m_max']} with {p['min_blocks']}+ blocks (best: m={best['m']}, phi={best['phi']}, "
            f"{best['bits']} bits: HElib {float(best['helib_bits']):.1f}, "
            f"core-SVP {float(best['coresvp_bits']):.1f} bits); lower params.security_target, "
            f"raise params.m_max (at most 1048576), or drop a model from params.target_models")
    r = min(ok, key=lambda r: (int(r["phi"]), -int(r["blocks"]), int(r["m"])))
    m, phi = int(r["m"]), int(r["phi"])
    row = {k: r[k] for k in ("cipher", "m", "phi", "d", "slots", "n", "state", "blocks", "rounds",
                             "bits_per_round")}
    row.update(chain_row(m, phi, int(r["bits"]), p))
    row["bits_source"] = f"{p['depth_model']} model: {prof[name].source}"
    row["security_target"] = target
    row["status"] = "ok"
    row["note"] = ""
    return row


SELECTED_COLUMNS = ["cipher", "m", "phi", "d", "slots", "n", "state", "blocks", "rounds",
                    "bits_per_round", "bits", "c", "L", "b_ct", "K", "b_sp", "log2_q_ct", "log2_q",
                    "hwt", "helib_bits", "helib_dense_bits", "coresvp_bits", "security_target",
                    "status", "note", "bits_source"]


#: How each cipher instance of the depth profiles maps to the pipeline's experiment fields
#: (config/schema/config.schema.yaml).
EXPERIMENT_FIELDS = {
    "aes": {"cipher": "aes128", "packing": "packed"},
    "vision8": {"cipher": "vision", "field_bits": 8, "state_size": 16, "packing": "packed"},
    "vision16": {"cipher": "vision", "field_bits": 16, "state_size": 8, "packing": "packed"},
    "vision32": {"cipher": "vision", "field_bits": 32, "state_size": 4, "packing": "packed"},
    "vision64": {"cipher": "vision", "field_bits": 64, "state_size": 2, "packing": "packed"},
}


def selected_yaml(rows: list[dict], base_config: str | Path | None = None) -> str:
    """A pipeline config running the selected configurations: the keys of base_config
    (e.g. config/config.yaml) with `experiments` replaced and the params stage off; just
    the `experiments` list when there is no base config."""
    exps, notes = [], []
    for r in rows:
        fields = EXPERIMENT_FIELDS.get(r["cipher"])
        if r.get("status", "ok") != "ok":
            notes.append(f"#   {r['cipher']} at {r['security_target']} bits: none ({r['note']})")
            continue
        if fields is None:
            continue
        name = f"{r['cipher']}-sel{float(r['security_target']):g}".replace(".", "p")
        exp = {"name": name, **fields, "rounds": int(r["rounds"]), "c": int(r["c"]),
               "hwt": int(r["hwt"]),
               "rings": [{"m": int(r["m"]), "bits": int(r["bits"]), "blocks": int(r["blocks"])}]}
        exps.append(exp)
        notes.append(f"#   {name}: m={r['m']} phi={r['phi']} slots={r['slots']} log2 Q={r['log2_q']} "
                     f"HElib {r['helib_bits']} / core-SVP {r['coresvp_bits']} bits")
    doc = {}
    if base_config and Path(base_config).exists():
        with open(base_config) as f:
            doc = yaml.safe_load(f) or {}
        doc.setdefault("stages", {})["params"] = False
    doc["experiments"] = exps
    head = ("# Generated by `python -m cbparams.select select` (sage/cbparams/select.py): per cipher\n"
            "# instance the ring with the smallest phi(m) that reaches the security target and holds\n"
            "# a block, with the chain sized from config/depth_profiles.yaml. Run it with\n"
            "# `snakemake --configfile <this file>`.\n" + "\n".join(notes) + "\n")
    return head + yaml.safe_dump(doc, sort_keys=False)


SECURITY_COLUMNS = ["source", "cipher", "m", "phi", "bits", "c", "log2_q_ct", "log2_q", "log2_q_exact",
                    "hwt", "helib_bits", "helib_dense_bits", "paper_bits", "coresvp_bits",
                    "est_log2_q", "est_usvp", "est_dual", "est_hybrid", "est_full", "est_best",
                    "est_best_attack", "estimator_note", "estimator_source", "security_target",
                    "below_target", "below_target_models"]


def flag_row(row: dict, est: dict) -> dict:
    """below_target and below_target_models for a security.csv row.

    below_target_models lists every figure under the row's target (helib, coresvp, and
    est_<attack>). below_target is 1 when the lattice estimator's best attack is under the
    target, or, where the estimator did not run, when HElib's formula or core-SVP is.
    """
    t = float(row["security_target"])
    figs = {"helib": float(row["helib_bits"]), "coresvp": float(row["coresvp_bits"])}
    figs.update({f"est_{a}": v for a, v in est.items()})
    below = [k for k, v in figs.items() if v < t]
    flag = min(est.values()) < t if est else figs["helib"] < t or figs["coresvp"] < t
    return {"below_target": int(flag), "below_target_models": ";".join(below)}


def security_rows(configs: list[dict], p: dict, log=print) -> list[dict]:
    """security.csv rows for configurations (dicts with source, cipher, m, phi, bits,
    paper_bits, security_target): exact chains, HElib's formula, core-SVP and, when it is
    there, the lattice estimator (estimator_source says which clone and which attacks)."""
    est = p["estimator"]
    where = None
    if est["mode"] != "off" and configs:
        where = estimator.locate(est["path"])
        if not where.available:
            log(f"note: {where.note}; estimator columns left empty")
    out = []
    for cfg in configs:
        row = dict(cfg)
        row.update(chain_row(cfg["m"], cfg["phi"], cfg["bits"], p))
        row["log2_q_exact"] = 1
        notes = []
        results = {}
        if where is None:
            notes.append("estimator off (params.estimator.mode)")
        else:
            for attack in estimator.attacks_for(est["mode"], est["hybrid"], p["hwt"]):
                res = estimator.estimate(cfg["phi"], float(row["log2_q"]), p["hwt"], attack, where,
                                         est["timeout_s"], est["cache_dir"])
                results[attack] = res
                if res["status"] != "ok" or attack == "hybrid":   # failures, and the slow one
                    notes.append(res["note"])
                if res["status"] != "skipped":
                    log(f"{cfg['cipher']} m={cfg['m']} {attack}: {res.get('log2_rop')} ({res['note']})")
        for attack in ("usvp", "dual", "hybrid", "full"):
            v = results.get(attack, {}).get("log2_rop")
            row[f"est_{attack}"] = round(v, 1) if v is not None else ""
        vals = {a: r["log2_rop"] for a, r in results.items() if r.get("log2_rop") is not None}
        if vals:
            best = min(vals, key=vals.get)
            row["est_best"] = round(vals[best], 1)
            row["est_best_attack"] = (results[best].get("detail", {}).get("best_attack", best)
                                      if best == "full" else best)
            row["est_log2_q"] = row["log2_q"]
            commit = next((r.get("commit") for r in results.values() if r.get("commit")), "")
            row["estimator_source"] = estimator.describe(where, commit, sorted(vals))
        else:
            why = ("estimator off (params.estimator.mode)" if where is None else where.note
                   if not where.available else "no estimate finished (see estimator_note)")
            row["estimator_source"] = "none: " + why
        row["estimator_note"] = "; ".join(dict.fromkeys(notes))
        row.update(flag_row(row, vals))
        out.append(row)
    return out


def security_table(sel_rows: list[dict], p: dict, log=print, paper: bool = True,
                   cand_rows: list[dict] | None = None) -> list[dict]:
    """security.csv rows.

    First the selected configurations and (paper=True) the paper's five, with exact chains
    and the lattice estimator's figures when it is there; then every other row of the
    sweep (cand_rows, source "sweep") with HElib's formula and core-SVP on the upper-bound
    log2 Q (log2_q_exact = 0). A configuration both selected and in the paper appears once
    (source "selected+paper"). below_target: see flag_row.
    """
    from .cyclotomic import basic_facts

    configs: dict[tuple, dict] = {}
    for r in sel_rows:
        if r.get("status", "ok") != "ok":
            continue
        key = (r["cipher"], int(r["m"]), int(r["bits"]))
        configs[key] = {"source": "selected", "cipher": r["cipher"], "m": int(r["m"]),
                        "phi": int(r["phi"]), "bits": int(r["bits"]), "paper_bits": "",
                        "security_target": float(r.get("security_target", targets(p)[0]))}
    for name, m, bits, _, paper_bits in (PAPER_CONFIGS if paper else []):
        key = (name, m, bits)
        if key in configs:
            configs[key].update(source="selected+paper", paper_bits=paper_bits)
        else:
            configs[key] = {"source": "paper", "cipher": name, "m": m, "phi": basic_facts(m)[1],
                            "bits": bits, "paper_bits": paper_bits, "security_target": max(targets(p))}
    out = security_rows(list(configs.values()), p, log)
    target = max(targets(p))
    for r in cand_rows or []:
        if (r["cipher"], int(r["m"]), int(r["bits"])) in configs:
            continue
        row = {k: r[k] for k in ("cipher", "m", "phi", "bits", "c", "log2_q_ct", "log2_q", "hwt",
                                 "helib_bits", "helib_dense_bits", "coresvp_bits")}
        row.update(source="sweep", log2_q_exact=0, security_target=target,
                   estimator_note="sweep row: the estimator runs on selected and paper configurations only",
                   estimator_source="none: sweep row")
        row.update(flag_row(row, {}))
        out.append(row)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cbparams.select", description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=["candidates", "select", "security", "paper-security"])
    ap.add_argument("--config", help="pipeline config YAML (its params: section is used)")
    ap.add_argument("--params-json", help="the params: section as JSON (overrides --config)")
    ap.add_argument("--runs-glob", help="run JSONs with measured capacity per round "
                    "(default results/runs/**/*.json)")
    ap.add_argument("--cyclotomics", default="results/params/cyclotomics.csv")
    ap.add_argument("--candidates", default="results/params/candidates.csv")
    ap.add_argument("--selected", default="results/params/selected.csv")
    ap.add_argument("--selected-yaml", default="results/params/selected.yaml")
    ap.add_argument("--security", default="results/params/security.csv")
    ap.add_argument("--base-config", default=str(ROOT / "config" / "config.yaml"),
                    help="config whose keys selected.yaml copies (experiments replaced)")
    a = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    try:
        p = params_from_args(a.config, a.params_json)
        if a.step == "candidates":
            rows = candidates(read_csv(a.cyclotomics), p, a.runs_glob)
            write_csv(rows, a.candidates, CANDIDATE_COLUMNS)
            log(f"{a.candidates}: {len(rows)} rows")
        elif a.step == "select":
            rows = select(read_csv(a.candidates), p, a.runs_glob, log)
            write_csv(rows, a.selected, SELECTED_COLUMNS)
            Path(a.selected_yaml).write_text(selected_yaml(rows, a.base_config))
            for r in rows:
                if r["status"] == "ok":
                    log(f"{r['cipher']} (target {r['security_target']}): m={r['m']} phi={r['phi']} "
                        f"blocks={r['blocks']} bits={r['bits']} log2Q={r['log2_q']} "
                        f"HElib={r['helib_bits']} core-SVP={r['coresvp_bits']}")
        elif a.step == "paper-security":
            rows = security_table([], p, log)
            write_csv(rows, a.security, SECURITY_COLUMNS)
        else:
            rows = security_table(read_csv(a.selected), p, log, cand_rows=read_csv(a.candidates))
            write_csv(rows, a.security, SECURITY_COLUMNS)
            for r in rows:
                if r["below_target"] and r["source"] != "sweep":
                    log(f"below target: {r['source']} {r['cipher']} m={r['m']} bits={r['bits']}")
            log(f"{a.security}: {len(rows)} rows")
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
