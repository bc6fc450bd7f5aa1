"""MiMC over GF(2^n) in Sage's own field arithmetic: the independent check of mimc.cpp.

Written apart from the C++ reference: the field is Sage's GF(2^n) with the instance's
modulus, elements are Sage field elements (integer <-> element through the polynomial
basis), the round function is the paper's F_i(x) = (x + k + c_i)^3 in Sage's arithmetic, and
the round constants are recomputed here from their definition (SHAKE-256, see
mimc_constants.py's docstring), not imported from it.

    python mimc_sage.py --write      writes vectors_gf2_63.json and vectors_gf2_31.json
    python mimc_sage.py --check      exits 1 unless the committed files are what Sage computes
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "sage"))
from cbparams.sageall import sage_all  # noqa: E402

S = sage_all()
MODULI = {63: "x^63 + x + 1", 31: "x^31 + x^3 + 1"}
SOURCE = ("MiMC (Albrecht, Grassi, Rechberger, Roy, Tiessen, ASIACRYPT 2016): E_k(x) = F_(r-1) o ... o F_0(x) + k, "
          "F_i(x) = (x + k + c_i)^3, c_0 = 0, r = ceil(n / log2 3); constants: SHAKE-256 as in "
          "runners/ciphers/mimc/mimc_constants.py; computed by runners/ciphers/mimc/mimc_sage.py (Sage GF(2^n))")


def field(n):
    R = S.PolynomialRing(S.GF(2), "x")
    f = R(MODULI[n])
    assert f.is_irreducible(), f
    return S.GF(2 ** n, "a", modulus=f)


def to_elem(K, v):
    return K.from_integer(v)


def to_int(e):
    return e.to_integer()


def rc(n, i):
    if i == 0:
        return 0
    b = (n + 7) // 8
    return int.from_bytes(hashlib.shake_256(f"cipherbench MiMC GF(2^{n}) c_{i}".encode()).digest(b), "big") >> (8 * b - n)


def encrypt(K, n, key, x, rounds):
    k, y = to_elem(K, key), to_elem(K, x)
    states = []
    for i in range(rounds):
        y = (y + k + to_elem(K, rc(n, i))) ** 3
        states.append(to_int(y))
    return to_int(y + k), states


def vectors(n):
    K = field(n)
    r = math.ceil(n / math.log2(3))
    hexd = (n + 3) // 4
    nb = (n + 7) // 8
    rng = random.Random(f"mimc{n}")
    cases = [("zero", 0, 0), ("pattern", int("0123456789abcdef"[: hexd], 16) & (2 ** n - 1), 2 ** n - 2)]
    cases += [(f"random{j}", rng.getrandbits(n), rng.getrandbits(n)) for j in range(2)]
    out = []
    for name, key, pt in cases:
        ct, states = encrypt(K, n, key, pt, r)
        h = lambda v: f"0x{v:0{hexd}x}"  # noqa: E731
        bts = lambda v: v.to_bytes(nb, "big").hex()  # noqa: E731
        out.append({"name": name, "key": [h(key)], "plaintext": [h(pt)], "ciphertext": [h(ct)],
                    "key_bytes": bts(key), "plaintext_bytes": bts(pt), "ciphertext_bytes": bts(ct),
                    "round_states": [[h(s)] for s in states],
                    "subkeys": [[h(key ^ rc(n, i))] for i in range(r)] + [[h(key)]]})
    return {"cipher": "MiMC", "instance": f"GF(2^{n})", "field": {"degree": n, "modulus": MODULI[n]},
            "state_size_m": 1, "rounds": r,
            "encoding": {"element": f"hex of the integer whose bit i is the coefficient of x^i, {hexd} digits",
                         "bytes": f"the element as {nb} bytes big-endian (top bits zero)"},
            "round_states": "the state after round i's cube, i = 1..r; the ciphertext is the last plus the key",
            "source": SOURCE, "vectors": out}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    bad = 0
    for n in MODULI:
        path = HERE / f"vectors_gf2_{n}.json"
        text = json.dumps(vectors(n), indent=1) + "\n"
        if a.write:
            path.write_text(text)
        elif path.read_text() != text:
            print(f"{path} differs from what Sage computes", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
