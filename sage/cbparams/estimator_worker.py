"""Runs one lattice-estimator attack and prints its cost as one JSON line.

Called by cbparams.estimator in a subprocess (so a time limit can kill it); needs the
lattice estimator on PYTHONPATH. Not meant to be run by hand, but it can be:
python -m cbparams.estimator_worker --n 46080 --log2-q 820 --hwt 120 --attack usvp
"""
import argparse
import json
import math


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--log2-q", type=float, required=True)
    ap.add_argument("--hwt", type=int, required=True)
    ap.add_argument("--attack", required=True, choices=["usvp", "dual", "hybrid", "full"])
    ap.add_argument("--sigma", type=float, default=3.2)
    a = ap.parse_args()

    import importlib.util

    if importlib.util.find_spec("sage") is not None and importlib.util.find_spec("sage.all") is None:
        from cbparams.sageall import sage_all

        sage_all()  # the smaller passagemath set: sage.all assembled from its pieces
    from estimator import LWE, ND  # the clone, on PYTHONPATH

    # q = 2^log2_q as an integer (53 bits of the mantissa, the rest zeros).
    whole = int(math.floor(a.log2_q))
    q = int(round(2 ** (a.log2_q - whole) * 2**53)) << (whole - 53) if whole >= 53 else int(round(2 ** a.log2_q))
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
        res = LWE.estimate(params, quiet=True)
        detail = {k: lg(v) for k, v in res.items() if float(v["rop"]) < float("inf")}
        best = min(detail, key=detail.get)
        c = res[best]
        detail["best_attack"] = best
    beta = c.get("beta")
    print(json.dumps({"log2_rop": lg(c), "beta": int(beta) if beta is not None else None,
                      "detail": detail, "log2_q_used": math.log2(q)}))


if __name__ == "__main__":
    main()
