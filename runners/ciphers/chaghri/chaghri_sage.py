"""Chaghri in Sage's own field arithmetic: the independent check of chaghri.cpp.

Written apart from the C++ reference: Sage's GF(2^63) with modulus x^63 + x + 1, Sage
matrices for the MDS layer, the S-box as x^(2^32 + 1) and B(x) = c1 x^8 + c2 x^2 + c3 x + c4
in Sage's arithmetic. It reads the same constants (chaghri_params.inc, the authors' data)
and also checks the properties the reading rests on: B's linear part has rank 63 (and 62
in the Frobenius reading of the authors' HElib program), M is MDS, S is a permutation.

    python chaghri_sage.py --write     writes vectors.json
    python chaghri_sage.py --check     exits 1 unless vectors.json is what Sage computes
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from cbparams.sageall import sage_all  # the explorer's Sage entry point (installed: make venv)

HERE = Path(__file__).resolve().parent

S = sage_all()
R = S.PolynomialRing(S.GF(2), "x")
K = S.GF(2 ** 63, "a", modulus=R("x^63 + x + 1"))
E = K.from_integer


def constants():
    nums = [int(x, 16) for x in re.findall(r"0x([0-9a-f]+)ull", (HERE / "chaghri_params.inc").read_text())]
    rc0, rc, rc9, c, mds = nums[0:3], nums[3:51], nums[51:54], nums[54:58], nums[58:67]
    return ([E(v) for v in rc0], [[E(v) for v in rc[3 * s:3 * s + 3]] for s in range(16)], [E(v) for v in rc9],
            [E(v) for v in c], S.matrix(K, 3, 3, [E(v) for v in mds]))


RC0, RC, RC9, (C1, C2, C3, C4), M = constants()


def step(v):
    return M * S.vector(K, [C1 * (x ** (2 ** 32 + 1)) ** 8 + C2 * (x ** (2 ** 32 + 1)) ** 2 + C3 * x ** (2 ** 32 + 1) + C4
                            for x in v])


def encrypt(key, pt, rounds=8):
    k = S.vector(K, key) + S.vector(K, RC0)
    subkeys = [k]
    for s in range(2 * rounds):
        k = step(k) + S.vector(K, RC[s])
        subkeys.append(k)
    d = S.vector(K, pt) + subkeys[0]
    states = []
    for s in range(1, 2 * rounds + 1):
        d = step(d) + subkeys[s]
        if s % 2 == 0:
            states.append(d)
    return d, states, subkeys


def properties():
    def rank(f):
        cols = [[int(b) for b in S.ZZ(f(K.gen() ** i).to_integer()).digits(2, padto=63)] for i in range(63)]
        return S.matrix(S.GF(2), cols).rank()
    return {"affine_rank": rank(lambda x: C1 * x ** 8 + C2 * x ** 2 + C3 * x),
            "affine_rank_frobenius_reading": rank(lambda x: C1 * x ** (2 ** 8) + C2 * x ** (2 ** 2) + C3 * x),
            "mds_all_minors_nonzero": all(m != 0 for k in (1, 2, 3) for m in M.minors(k)),
            "sbox_gcd": int(S.gcd(2 ** 32 + 1, 2 ** 63 - 1))}


def vectors():
    h = lambda e: f"0x{e.to_integer():016x}"  # noqa: E731
    b = lambda v: "".join(e.to_integer().to_bytes(8, "big").hex() for e in v)  # noqa: E731
    rng = random.Random("chaghri")
    cases = [("zero", [0, 0, 0], [0, 0, 0]), ("pattern", [1, 2, 3], [2 ** 63 - 1, 0x0123456789abcdef, 2 ** 62])]
    cases += [(f"random{j}", [rng.getrandbits(63) for _ in range(3)], [rng.getrandbits(63) for _ in range(3)])
              for j in range(2)]
    out = []
    for name, key, pt in cases:
        ke, pe = [E(v) for v in key], [E(v) for v in pt]
        ct, states, subkeys = encrypt(ke, pe)
        out.append({"name": name, "key": [h(e) for e in ke], "plaintext": [h(e) for e in pe],
                    "ciphertext": [h(e) for e in ct], "key_bytes": b(ke), "plaintext_bytes": b(pe),
                    "ciphertext_bytes": b(ct), "round_states": [[h(e) for e in st] for st in states],
                    "subkeys": [[h(e) for e in k] for k in subkeys]})
    return {"cipher": "Chaghri", "instance": "GF(2^63)^3", "field": {"degree": 63, "modulus": "x^63 + x + 1"},
            "state_size_m": 3, "rounds": 8,
            "encoding": {"element": "hex of the integer whose bit i is the coefficient of x^i, 16 digits",
                         "bytes": "each element as 8 bytes big-endian (top bit zero), concatenated in index order"},
            "properties": properties(),
            "source": "computed by runners/ciphers/chaghri/chaghri_sage.py (Sage GF(2^63)) from the authors' "
                      "constants (chaghri_params.inc), with the reading of chaghri.h",
            "vectors": out}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    text = json.dumps(vectors(), indent=1) + "\n"
    path = HERE / "vectors.json"
    if a.write:
        path.write_text(text)
        return 0
    if path.read_text() != text:
        print(f"{path} differs from what Sage computes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
