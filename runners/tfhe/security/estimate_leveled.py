"""Lattice-estimator figures for the LWE and GLWE instances of `tfhe_aes --method leveled`.

The noise of each instance is tfhe-rs's "minimal variance for 132 bits of security"
(tfhe-rs 1.8.2, core_crypto/commons/noise_formulas/secure_noise.rs, Gaussian), which the
runner uses (runners/tfhe/src/leveled/params.rs); this script checks that claim with the
lattice estimator (github.com/malb/lattice-estimator, the project's pinned clone) and
caches the result in leveled_estimates.json next to it. The secret is uniform binary, the
modulus 2^64, as in tfhe-rs. A GLWE of dimension k and size N is estimated as LWE of
dimension k*N (the usual practice, tfhe-rs's own).

  PYTHONPATH=third_party/lattice-estimator .venv/bin/python \
      runners/tfhe/security/estimate_leveled.py [--attacks rough,full] > /dev/null

Each (instance, attack) takes seconds (rough) to minutes (full).
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "leveled_estimates.json"
LOG2_Q = 64


def minimal_variance_132(dimension: int) -> float:
    """tfhe-rs's minimal_lwe_variance_for_132_bits_security_gaussian_impl (torus units)."""
    modulus = 2.0**LOG2_Q
    return 2 ** (4.0 - 2.88539008177793 * math.log(modulus)) + 2 ** (
        5.31469187675068 - 0.0497829131652661 * dimension
    )


# (name, LWE dimension): the small LWE key and the GLWE key of the leveled sets (k*N = 2048:
# k=4, N=512 for leveled-128, k=1, N=2048 for leveled-128-k1).
INSTANCES = [("lwe_n700", 700), ("glwe_kN2048", 2048)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attacks", default="rough,full")
    a = ap.parse_args()
    import importlib.util

    if importlib.util.find_spec("sage") is not None and importlib.util.find_spec("sage.all") is None:
        from cbparams.sageall import sage_all

        sage_all()
    from estimator import LWE, ND

    deny = ("arora-gb", "bkw", "bdd_hybrid", "bdd_mitm_hybrid")
    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name, n in INSTANCES:
        var = minimal_variance_132(n)
        sigma = math.sqrt(var) * 2.0**LOG2_Q  # integer units, modulus 2^64
        params = LWE.Parameters(n=n, q=2**LOG2_Q, Xs=ND.Uniform(0, 1, n), Xe=ND.DiscreteGaussian(sigma))
        entry = results.setdefault(name, {})
        entry.update({"n": n, "log2_q": LOG2_Q, "secret": "uniform binary",
                      "sigma_integer": sigma, "log2_sigma_torus": 0.5 * math.log2(var)})
        for attack in a.attacks.split(","):
            t = time.time()
            if attack == "rough":
                costs = LWE.estimate.rough(params)
            else:
                costs = LWE.estimate(params, deny_list=deny)
            detail = {k: math.log2(float(v["rop"])) for k, v in costs.items()
                      if "rop" in v and float(v["rop"]) > 0}
            best = min(detail, key=detail.get)
            entry[attack] = {"log2_rop": detail[best], "best_attack": best, "detail": detail,
                             "seconds": round(time.time() - t, 1)}
            OUT.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
            print(name, attack, detail[best], best, file=sys.stderr)


if __name__ == "__main__":
    main()
