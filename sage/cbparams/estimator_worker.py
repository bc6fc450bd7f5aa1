"""Runs one lattice-estimator attack and prints its cost as one JSON line.

Called by cbparams.estimator in a subprocess (so a time limit can kill it); needs the
lattice estimator on PYTHONPATH. Not meant to be run by hand, but it can be:
PYTHONPATH=third_party/lattice-estimator:sage python -m cbparams.estimator_worker --n 46080 --log2-q 820 --hwt 120 --attack usvp

Attacks (what each calls is cbparams.estimator.FUNCTIONS):
usvp    LWE.primal_usvp                            default cost model (MATZOV), GSA
dual    LWE.dual                                   default cost model
hybrid  LWE.primal_hybrid(mitm=False, babai=False) the estimator's "bdd_hybrid"
full    LWE.estimate without the primal hybrids (they are `hybrid`, asked for apart), Arora-GB
        and coded BKW: usvp, bdd, dual, dual_hybrid; the cheapest. Arora-GB needs bounded
        noise (ours is Gaussian) and BKW is not competitive here (the estimator's rough mode
        assumes both); with them, the estimate at n=46080 grew past 4 GB of memory.
rough   LWE.estimate.rough: usvp and dual_hybrid under core-SVP (ADPS16) and the GSA; the cheapest
For full and rough, `detail` has each attack's log2 cost and `best_attack` the cheapest.
"""
import argparse
import json
import math

ATTACKS = ("usvp", "dual", "hybrid", "full", "rough")

#: What `full` leaves out: the primal hybrids (minutes each; `hybrid` runs bdd_hybrid),
#: Arora-GB and coded BKW (see the module doc).
FULL_DENY = ("arora-gb", "bkw", "bdd_hybrid", "bdd_mitm_hybrid")


def q_of(log2_q: float) -> int:
    """q = 2^log2_q as an integer: 53 bits of mantissa, the rest zeros.

    >>> q_of(30) == 2**30, q_of(820) == 2**820, abs(math.log2(q_of(1119.163)) - 1119.163) < 1e-9
    (True, True, True)
    """
    whole = int(math.floor(log2_q))
    if whole < 53:
        return int(round(2 ** log2_q))
    return int(round(2 ** (log2_q - whole) * 2**53)) << (whole - 53)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--log2-q", type=float, required=True)
    ap.add_argument("--hwt", type=int, required=True)
    ap.add_argument("--attack", required=True, choices=ATTACKS)
    ap.add_argument("--sigma", type=float, default=3.2)
    a = ap.parse_args()

    import importlib.util

    if importlib.util.find_spec("sage") is not None and importlib.util.find_spec("sage.all") is None:
        from cbparams.sageall import sage_all

        sage_all()  # the smaller passagemath set: sage.all assembled from its pieces
    from estimator import LWE, ND  # the clone, on PYTHONPATH

    q = q_of(a.log2_q)
    if a.hwt > 0:
        xs = ND.SparseTernary(a.hwt // 2, a.hwt - a.hwt // 2, a.n)
    else:
        xs = ND.Uniform(-1, 1, a.n)
    params = LWE.Parameters(n=a.n, q=q, Xs=xs, Xe=ND.DiscreteGaussian(a.sigma))

    def lg(cost):
        return float(math.log2(float(cost["rop"])))

    detail = {}
    if a.attack == "usvp":
        c = LWE.primal_usvp(params)
    elif a.attack == "dual":
        c = LWE.dual(params)
    elif a.attack == "hybrid":
        c = LWE.primal_hybrid(params, mitm=False, babai=False)
    else:
        if a.attack == "rough":
            res = LWE.estimate.rough(params, quiet=True)
        else:
            res = LWE.estimate(params, deny_list=FULL_DENY, quiet=True)
        detail = {k: lg(v) for k, v in res.items() if float(v["rop"]) < float("inf")}
        if not detail:
            raise SystemExit(f"{a.attack}: no attack of the estimate has a finite cost ({sorted(res)})")
        best = min(detail, key=detail.get)
        c = res[best]
        detail["best_attack"] = best
    if not float(c["rop"]) < float("inf"):
        raise SystemExit(f"{a.attack}: the estimator returned an infinite cost ({c!r})")
    beta = c.get("beta")
    print(json.dumps({"log2_rop": lg(c), "beta": int(beta) if beta is not None else None,
                      "detail": detail, "log2_q_used": math.log2(q)}))


if __name__ == "__main__":
    main()
