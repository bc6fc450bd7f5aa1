"""Sage's cross-checks of the rings a user runs (not the whole sweep).

The engine (runners/engine/algebra) computes the slot structure once, with its own
modular arithmetic; the explorer asks it (cbparams.cyclotomic, build/bin/zmstar_info).
Here Sage, an independent implementation, checks what the engine claims, for one ring at
a time, at the plaintext modulus p (2 unless asked; the names below say 2 for p):

* **factorization**: Phi_m mod 2 is the product of the minimal polynomials of zeta^t over
  the hypercube's slot representatives t, each of degree d = ord_m(2) and all distinct
  (so Phi_m has ell = phi/d irreducible factors of degree d, and the hypercube indexes
  them); for phi up to `factor_limit` also Sage's own factorization of Phi_m over GF(2)
  (54 s at m = 53261, docs/references.md §6: kept for small rings);
* **hypercube**: Z_m^* from Sage (IntegerModRing.unit_gens, generalised_log) as
  Z^k / relations, the quotient by <2> as a finitely generated Z-module (Sage's FGP
  modules): |Z_m^*/<2>| = ell, each ord_i is the order of g_i in Z_m^*/<2, g_0..g_{i-1}>
  and the largest order there (the greedy rule of the engine and HElib), their product is
  ell (so the exponent box is a complete set of coset representatives), "good" holds
  exactly when Sage's multiplicative order of g_i is ord_i, and g_i^ord_i = 2^twist_i;
  at p != 2 also, element by element (Sage's Mod arithmetic), that the cosets t * <p> of the
  box's representatives cover Z_m^* exactly once (`cover`);
* **slot field**: the engine's K = GF(2)[Y]/G (G irreducible of degree d) and its zeta
  (multiplicative order m), used for the factorization check above;
* **embedding**: theta, the engine's image of the cipher field's generator, is a root in K
  of the field polynomial f (x^n + f_low), the smallest one read as an integer, and lies
  in the subfield of order 2^n (theta^(2^n) = theta); f is irreducible and is the Vision
  spec's modulus for that n.

The hypercube, G, zeta and theta are those of the engine's ring as bench_ops builds it
(build/bin/bench_ops --info-only), compared with the engine's batch answer the explorer
uses (zmstar_info); with engine=False, the batch answer's hypercube with Sage's own slot
field. At p != 2 the batch answer's hypercube is checked with Sage's own slot field GF(p^d)
(bench_ops --info-only reports the p = 2 ring), and the GF(2^n) embedding is not checked. `check_vision_constants` re-derives the Vision constants with Sage's
finite fields and matrices and compares them with the reference's test vectors.

Needs Sage (the passagemath wheels); importing this module does not.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import asdict, dataclass

from . import runner
from .config import ROOT
from .cyclotomic import ring_facts
from .errors import ParamError
from .sageall import sage_all

#: The Vision test vectors (runners/ciphers/vision/vectors), one file per instance.
VISION_VECTORS = ROOT / "runners" / "ciphers" / "vision" / "vectors"
#: The report's key for the Vision constants' checks (sagechecks.json).
VISION_KEY = VISION_VECTORS.parent.name
#: The instances (n, m) whose vectors the Vision entry ships.
VISION_INSTANCES = tuple(sorted((int(p.stem.split("_")[2]), int(p.stem.split("_m")[1]))
                                for p in VISION_VECTORS.glob("vision_gf2_*_m*.json")))


class SageMissing(ParamError):
    """Sage (passagemath) is not importable."""


@dataclass
class Check:
    """One cross-check: what was compared, whether it held, and the figures."""

    name: str
    ok: bool
    detail: str


def sage():
    """The Sage names used here (import on first use: about 4 s)."""
    try:
        S = sage_all()  # noqa: N806
    except ImportError as e:
        raise SageMissing(f"Sage is not importable ({e}): install the passagemath wheels "
                          f"(`make venv`, requirements.txt)") from None
    return S


def _poly(R, value: int):
    """The GF(2) polynomial whose coefficient i is bit i of value."""
    return R([int(b) for b in bin(value)[2:][::-1]])


def _elt(K, value: int):
    return K.from_integer(value) if hasattr(K, "from_integer") else K(_poly(K.polynomial_ring(), value))


def _int(x) -> int:
    """A GF(2^k) element as an integer (bit i = coefficient of the generator's i-th power)."""
    return int(sum(int(c) << i for i, c in enumerate(x.polynomial().list())))


# --------------------------------------------------------------------------- hypercube

def check_hypercube(m: int, d: int, ell: int, gens, ords, good, twists, p: int = 2) -> list[Check]:
    """The hypercube (g_i, ord_i, good_i, twist_i) of Z_m^*/<p> against Sage's groups."""
    S = sage()
    Zm = S.Zmod(m)
    ug = Zm.unit_gens()
    uo = [int(u.multiplicative_order()) for u in ug]
    k = len(ug)
    V = S.ZZ ** k
    log = lambda x: S.vector(S.ZZ, Zm(x).generalised_log()) if k else V(0)  # noqa: E731
    rel = [o * V.gen(i) for i, o in enumerate(uo)] + [log(p)]
    out = []
    Q = V / V.span(rel)
    card = int(Q.cardinality())
    phi = math.prod(uo)
    ordp = int(S.Mod(p, m).multiplicative_order())
    out.append(Check(f"|Z_m^*/<{p}>|", card == ell and ordp == d and phi == int(S.euler_phi(m)),
                     f"Sage: phi={phi}, ord_m({p})={ordp}, "
                     f"|Z_m^*/<{p}>|={card} (invariants {list(Q.invariants())}); claimed d={d}, ell={ell}"))
    steps, ok = [], True
    for g, o, gd, tw in zip(gens, ords, good, twists):
        Qi = V / V.span(rel)
        order = int(Qi(log(g)).additive_order())
        expo = max([int(x) for x in Qi.invariants()] or [1])
        mo = int(S.Mod(g, m).multiplicative_order())
        gpow = S.Mod(g, m) ** o
        if tw >= 0:
            tw_ok = 0 <= tw < d and gpow == S.Mod(p, m) ** tw
        else:
            tw_ok = all(gpow != S.Mod(p, m) ** j for j in range(d))
        this = order == o and expo == o and (mo == o) == bool(gd) and tw_ok
        ok &= this
        steps.append(f"g={g}: order {order} in the quotient (claimed {o}, largest {expo}), "
                     f"order {mo} in Z_m^* ({'good' if mo == o else 'bad'}), g^ord = {p}^{tw}: "
                     f"{'yes' if tw_ok else 'NO'}")
        rel.append(log(g))
    rest = int((V / V.span(rel)).cardinality())
    ok &= rest == 1 and math.prod(ords) == ell
    out.append(Check("hypercube", ok, "; ".join(steps) + f"; prod ord_i = {math.prod(ords)}, "
                     f"quotient left {rest}" if steps else f"no dimensions, quotient left {rest}"))
    if p != 2:
        out.append(check_cover(m, d, gens, ords, p))
    return out


def check_cover(m: int, d: int, gens, ords, p: int) -> Check:
    """The cosets t * <p> of the box's representatives t cover Z_m^* exactly once, element by
    element in Sage's Z/mZ (no group theory: a direct count)."""
    S = sage()
    P = S.Mod(p, m)
    H = [P ** f for f in range(d)]
    hits: dict = {}
    for t in slot_reps(m, gens, ords):
        for h in H:
            x = S.Mod(t, m) * h
            hits[x] = hits.get(x, 0) + 1
    units = [x for x in S.Zmod(m) if x.is_unit()]
    once = all(hits.get(x, 0) == 1 for x in units) and len(hits) == len(units)
    return Check("cover", once,
                 f"{len(slot_reps(m, gens, ords))} cosets of <{p}> (order {len(set(H))}) reach {len(hits)} "
                 f"residues, {sum(1 for x in units if hits.get(x, 0) == 1)} of the {len(units)} units once")


# --------------------------------------------------------------------------- slots

def slot_reps(m: int, gens, ords) -> list[int]:
    """t(e) = prod g_i^e_i mod m over the exponent box, row-major (the engine's slot order)."""
    reps = [1]
    for g, o in zip(gens, ords):
        reps = [r * pow(g, e, m) % m for r in reps for e in range(o)]
    return reps


def check_slots(m: int, d: int, ell: int, gens, ords, G: int | None = None, zeta: int | None = None,
                factor_limit: int = 20000, p: int = 2) -> list[Check]:
    """Phi_m = prod_t minpoly(zeta^t) over the slot representatives (the CRT the slots
    rest on), in the engine's slot field when G and zeta are given (p = 2), else in Sage's
    GF(p^d)."""
    S = sage()
    R = S.PolynomialRing(S.GF(p), "X")
    Phi = R(S.cyclotomic_polynomial(m))
    out = []
    if G is not None:
        Gp = _poly(R, G)
        K = S.GF(2 ** d, "Y", modulus=Gp)
        z = _elt(K, zeta)
        oz = int(z.multiplicative_order())
        out.append(Check("slot field", Gp.is_irreducible() and Gp.degree() == d and oz == m,
                         f"engine's G (degree {Gp.degree()}) irreducible: {Gp.is_irreducible()}; "
                         f"zeta has order {oz} (m={m})"))
    else:
        K = S.GF(p ** d, "Y")
        z = K.multiplicative_generator() ** ((p ** d - 1) // m)
    reps = slot_reps(m, gens, ords)
    mins = [R((z ** t).minpoly()) for t in reps]
    degs = {p.degree() for p in mins}
    distinct = len(set(mins))
    prod = S.prod(mins)
    out.append(Check("Phi_m = prod of slot minimal polynomials",
                     prod == Phi and degs == {d} and distinct == ell == len(reps),
                     f"{len(reps)} slots, {distinct} distinct minimal polynomials of degree "
                     f"{sorted(degs)}, product {'=' if prod == Phi else '!='} Phi_m (degree {Phi.degree()})"))
    if Phi.degree() <= factor_limit:
        t0 = time.time()
        fac = Phi.factor()
        facs = {p for p, _ in fac}
        out.append(Check(f"Phi_m factored over GF({p})",
                         {p.degree() for p in facs} == {d} and len(facs) == ell and facs == set(mins),
                         f"Sage's factor(): {len(facs)} factors of degree {sorted({p.degree() for p in facs})}, "
                         f"{'the' if facs == set(mins) else 'NOT the'} slots' minimal polynomials "
                         f"({time.time() - t0:.2f} s)"))
    else:
        out.append(Check(f"Phi_m factored over GF({p})", True,
                         f"skipped: phi={Phi.degree()} > factor_limit={factor_limit} (the product "
                         f"identity above already gives the factorization)"))
    return out


def check_embedding(n: int, f_low: int, theta: int, G: int, d: int) -> Check:
    """theta = the engine's image of x in K: a root of f = x^n + f_low, the smallest, in the
    subfield of order 2^n."""
    S = sage()
    R = S.PolynomialRing(S.GF(2), "x")
    f = R.gen() ** n + _poly(R, f_low)
    K = S.GF(2 ** d, "Y", modulus=_poly(S.PolynomialRing(S.GF(2), "Y"), G))
    th = _elt(K, theta)
    roots = sorted(_int(r) for r, _ in f.change_ring(K).roots())
    ok = (f.is_irreducible() and f(th) == 0 and roots and roots[0] == theta
          and th ** (2 ** n) == th and R(th.minpoly()) == f and len(roots) == n)
    return Check(f"GF(2^{n}) in the slots", bool(ok),
                 f"f = {f} irreducible: {f.is_irreducible()}; f has {len(roots)} roots in GF(2^{d}); "
                 f"engine's theta={hex(theta)} is {'the smallest' if roots and roots[0] == theta else 'NOT the smallest'}"
                 f" root; theta^(2^{n}) = theta: {th ** (2 ** n) == th}")


# --------------------------------------------------------------------------- one ring

def check_ring(m: int, field_bits=None, factor_limit: int = 20000, engine: bool = True, p=2) -> dict:
    """Every check above for ring m at plaintext modulus p. Returns {m, phi, d, slots, ok,
    seconds, hypercube_source, checks: [{name, ok, detail}]} (and p when p != 2).
    engine=True compares with build/bin/bench_ops when it is built (a note says when it is
    not); at p != 2 the batch answer is checked against Sage alone (see the module doc)."""
    t0 = time.time()
    r = ring_facts(m, p)
    p = r.p
    checks: list[Check] = []
    info = None
    if engine and p != 2:
        checks.append(Check("engine", True, f"not compared: bench_ops --info-only reports the p = 2 ring; "
                            f"the hypercube at p={p} is zmstar_info's"))
    elif engine:
        try:
            runner.find_executable("bench_ops")
        except runner.RunError as e:
            checks.append(Check("engine", True, f"not compared: {e}"))
        else:
            try:
                info = runner.ring_info(m, field_bits=field_bits[0] if field_bits else None)
            except runner.RunError as e:
                checks.append(Check("engine", False, f"bench_ops --info-only failed: {e}"))
    if info is not None and "dims" in info:
        dims = info["dims"]
        eng = ([x["gen"] for x in dims], [x["ord"] for x in dims], [bool(x["good"]) for x in dims],
               [x["twist"] for x in dims])
        same = (eng == (list(r.gens), list(r.ords), list(r.good), list(r.twists))
                and (info["phi"], info["d"], info["slots"]) == (r.phi, r.d, r.ell))
        checks.append(Check("bench_ops = zmstar_info", same,
                            f"bench_ops: phi={info['phi']} d={info['d']} slots={info['slots']} dims={eng}; "
                            f"zmstar_info: dims={(list(r.gens), list(r.ords), list(r.good), list(r.twists))}"))
        gens, ords, good, twists = eng
        G = zeta = None
        if "slot_field" in info:
            G, zeta = int(info["slot_field"]["G"], 16), int(info["slot_field"]["zeta"], 16)
        else:   # the engine cannot build this ring's slots (e.g. d > 1024): it cannot run it
            checks.append(Check("engine's slots", False, info.get("slot_field_error", "not reported")))
        source = "engine (bench_ops --info-only)"
    else:
        if info is not None:
            checks.append(Check("engine", True, "not compared: this bench_ops does not print the "
                                "hypercube with --info-only"))
        gens, ords, good, twists = list(r.gens), list(r.ords), list(r.good), list(r.twists)
        G = zeta = None
        source = "engine's batch answer (zmstar_info)"
    checks += check_hypercube(m, r.d, r.ell, gens, ords, good, twists, p)
    checks += check_slots(m, r.d, r.ell, gens, ords, G, zeta, factor_limit, p)
    if G is not None:
        want = [n for n in (field_bits or (8, 16, 32, 64)) if r.d % n == 0]
        for n in want:
            fi = info.get("field") if info.get("field", {}).get("n") == n else None
            if fi is None:
                fi = runner.ring_info(m, field_bits=n).get("field")
            checks.append(check_embedding(n, int(fi["f_low"], 16), int(fi["theta"], 16), G, r.d))
            vec = VISION_VECTORS / f"vision_gf2_{n}_m{128 // n}.json"
            if vec.exists():
                spec = int(json.loads(vec.read_text())["field"]["modulus_int"], 16)
                f = (1 << n) | int(fi["f_low"], 16)
                checks.append(Check(f"GF(2^{n}) modulus = the ciphers'", f == spec,
                                    f"engine {hex(f)}, Vision vectors {hex(spec)}"))
    return {"m": m, **({"p": p} if p != 2 else {}), "phi": r.phi, "d": r.d, "slots": r.ell, "hypercube_source": source,
            "ok": all(c.ok for c in checks), "seconds": round(time.time() - t0, 3),
            "checks": [asdict(c) for c in checks]}


# --------------------------------------------------------------------------- Vision

def _bytes_to_element(chunk: bytes, n: int) -> int:
    """docs/vision.md §4: v little-endian; x^i takes bit (L-1-i) of v, L = bitlen(v)."""
    v = int.from_bytes(chunk, "little")
    L = v.bit_length()
    return sum(1 << i for i in range(min(n, L)) if (v >> (L - 1 - i)) & 1)


def derive_vision(n: int, m: int) -> dict:
    """The Vision constants of GF(2^n)^m from docs/vision.md, in Sage: the modulus (first
    irreducible x^n + P_i, i odd), z = primitive_element(), B and the round constants from
    SHAKE256("winteriscoming") with Sage's subfield and rank tests, B^-1 from the inverse
    Dickson matrix, MDS = V_L^-1 V_R. Field elements as ints."""
    S = sage()
    R = S.PolynomialRing(S.GF(2), "x")
    i = 1
    while not (R.gen() ** n + _poly(R, i)).is_irreducible():
        i += 2
    f = R.gen() ** n + _poly(R, i)
    F = S.GF(2 ** n, "x", modulus=f)
    E = lambda v: _elt(F, v)  # noqa: E731
    z = F.primitive_element()
    chunk = math.ceil(n / 8)
    total = 4 + 2 * m + m * m
    stream = hashlib.shake_256(b"winteriscoming").digest(chunk * 8 * total)
    consts, pos = [], 0

    def dickson(a):
        a = list(a) + [F(0)] * (n - len(a))
        return S.matrix(F, n, n, lambda r, c: a[(c - r) % n] ** (2 ** r))

    while len(consts) < total:
        c = E(_bytes_to_element(stream[pos:pos + chunk], n))
        pos += chunk
        if c.minpoly().degree() < n:          # in a proper subfield: skipped (spec 4.4)
            continue
        consts.append(c)
        if len(consts) == 4 and not dickson(consts[1:4]).is_invertible():
            consts = consts[:1]
        elif len(consts) == 4 + m * m and not S.matrix(F, m, m, consts[4:]).is_invertible():
            consts = consts[:4]
    B = consts[:4]
    Linv = dickson(B[1:4]).inverse().row(0)
    c0 = sum(Linv[k] * B[0] ** (2 ** k) for k in range(n))
    V = S.matrix(F, m, 2 * m, lambda r, c: z ** (r * c))
    MDS = V[:, :m].inverse() * V[:, m:]
    return {"modulus": int((1 << n) | i), "z": _int(z), "B": [_int(x) for x in B],
            "B_inv": [_int(c0)] + [_int(x) for x in Linv],
            "initial_constant": [_int(x) for x in consts[4:4 + m]],
            "constants_matrix": [[_int(x) for x in consts[4 + m + r * m:4 + m + (r + 1) * m]] for r in range(m)],
            "constants_constant": [_int(x) for x in consts[4 + m + m * m:]],
            "MDS": [[_int(x) for x in row] for row in MDS.rows()]}


def check_vision_constants(instances=VISION_INSTANCES) -> list[Check]:
    """Sage's derivation (derive_vision) against the reference's test vectors."""
    out = []
    for n, m in instances:
        doc = json.loads((VISION_VECTORS / f"vision_gf2_{n}_m{m}.json").read_text())
        par = doc["parameters"]
        h = lambda x: [h(y) for y in x] if isinstance(x, list) else int(x, 16)  # noqa: E731
        got = derive_vision(n, m)
        want = {"modulus": int(doc["field"]["modulus_int"], 16), "z": h(par["primitive_element_z"]),
                **{k: h(par[k]) for k in ("B", "B_inv", "initial_constant", "constants_matrix",
                                          "constants_constant", "MDS")}}
        bad = [k for k in want if got[k] != want[k]]
        out.append(Check(f"Vision GF(2^{n})^{m} constants", not bad,
                         "Sage re-derives " + ", ".join(want) + (f"; DIFFERENT: {bad}" if bad else ": all equal")))
    return out


# --------------------------------------------------------------------------- pipeline step

def main(argv=None) -> int:
    """`python -m cbparams.sagecheck --selected selected.csv --out sagechecks.json`: the
    checks for every selected ring (the pipeline's params_sagechecks rule), with each ring's
    time; exit status 1 when a check fails. `--m M ...` checks given rings instead (at
    `--p P`); a `p` column in selected.csv checks each row's ring at its p."""
    import argparse
    import csv
    import sys
    from pathlib import Path

    ap = argparse.ArgumentParser(prog="python -m cbparams.sagecheck", description=main.__doc__)
    ap.add_argument("--selected", help="selected.csv of the params stage")
    ap.add_argument("--m", type=int, nargs="*", default=[], help="rings to check (instead of --selected)")
    ap.add_argument("--p", type=int, default=2, help="the plaintext modulus of the --m rings (default 2)")
    ap.add_argument("--factor-limit", type=int, default=20000)
    ap.add_argument("--vision", action="store_true", help="also re-derive the Vision constants")
    ap.add_argument("--out", required=True, help="JSON report")
    a = ap.parse_args(argv)
    rings: dict[tuple[int, int], set] = {(m, a.p): set() for m in a.m}
    if a.selected:
        with open(a.selected, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("status", "ok") == "ok" and row.get("m"):
                    key = (int(row["m"]), int(row.get("p") or 2))
                    rings.setdefault(key, set()).add(int(row["n"]))
    t0 = time.time()
    reports = []
    try:
        sage()
        t_import = time.time() - t0
        for (m, p), ns in sorted(rings.items()):
            rep = check_ring(m, field_bits=(sorted(ns) or None) if p == 2 else None, factor_limit=a.factor_limit,
                             p=p)
            reports.append(rep)
            at = f" p={p}" if p != 2 else ""
            print(f"m={m}{at}: {'ok' if rep['ok'] else 'FAILED'} in {rep['seconds']:.1f} s", file=sys.stderr)
            for c in rep["checks"]:
                print(f"  [{'ok' if c['ok'] else 'FAIL'}] {c['name']}: {c['detail']}", file=sys.stderr)
        vision = [asdict(c) for c in check_vision_constants()] if a.vision else []
    except ParamError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    ok = all(r["ok"] for r in reports) and all(c["ok"] for c in vision)
    doc = {"ok": ok, "seconds": round(time.time() - t0, 2), "sage_import_seconds": round(t_import, 2),
           "rings": reports, VISION_KEY: vision,
           "note": "" if rings else "no selected ring (every cipher/target unreachable)"}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{a.out}: {len(reports)} rings, {'all checks passed' if ok else 'CHECKS FAILED'}, "
          f"{doc['seconds']:.1f} s", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
