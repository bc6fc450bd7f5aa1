"""MiMC over GF(2^n) and F_p in Sage's own field arithmetic: the independent check of mimc.cpp
and mimc_prime.cpp.

Written apart from the C++ reference: the field is Sage's GF(2^n) with the instance's
modulus, elements are Sage field elements (integer <-> element through the polynomial
basis), the round function is the paper's F_i(x) = (x + k + c_i)^3 in Sage's arithmetic, and
the round constants are recomputed here from their definition (SHAKE-256, see
mimc_constants.py's docstring), not imported from it.

Over F_p the field is Sage's GF(p) (p checked prime and 2 mod 3 here), elements are
integers 0 <= x < p, the rounds r = ceil(log_3 p) are computed as the least r with
3^r >= p, and the constants are recomputed from their definition: the first 16 bytes of
SHAKE-256("cipherbench MiMC F_<p> c_<i>") big-endian, mod p.

    python mimc_sage.py --write      writes vectors_gf2_63.json, vectors_gf2_31.json,
                                     vectors_fp_65537.json and vectors_fp_8088322049.json
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

from cbparams.sageall import sage_all  # the explorer's Sage entry point (installed: make venv)

HERE = Path(__file__).resolve().parent

S = sage_all()
MODULI = {63: "x^63 + x + 1", 31: "x^31 + x^3 + 1"}
#: The prime-field instances' p (IAIK's hybrid-HE framework's 65537 and 33-bit 8088322049).
PRIMES = (65537, 8088322049)
SOURCE_P = ("MiMC over F_p (Albrecht, Grassi, Rechberger, Roy, Tiessen, ASIACRYPT 2016): E_k(x) = F_(r-1) o ... o "
            "F_0(x) + k, F_i(x) = (x + k + c_i)^3 mod p, c_0 = 0, r = ceil(log_3 p); constants: SHAKE-256 as in "
            "runners/ciphers/mimc/mimc_constants.py; computed by runners/ciphers/mimc/mimc_sage.py (Sage GF(p))")
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


def prime_field(p):
    assert S.ZZ(p).is_prime() and p % 3 == 2, p
    return S.GF(p)


def rc_prime(p, i):
    if i == 0:
        return 0
    return int.from_bytes(hashlib.shake_256(f"cipherbench MiMC F_{p} c_{i}".encode()).digest(16), "big") % p


def rounds_prime(p):
    """ceil(log_3 p) with Sage's exact integer logarithm: 3^r >= p > 3^(r-1)."""
    r = S.ZZ(p).exact_log(3)  # floor(log_3 p)
    return int(r if 3 ** r == p else r + 1)


def encrypt_prime(K, p, key, x, rounds):
    k, y = K(key), K(x)
    states = []
    for i in range(rounds):
        y = (y + k + K(rc_prime(p, i))) ** 3
        states.append(int(y))
    return int(y + k), states


def vectors_prime(p):
    K = prime_field(p)
    r = rounds_prime(p)
    rng = random.Random(f"mimcp{p}")
    cases = [("zero", 0, 0), ("top", p - 1, p - 1), ("pattern", 123456789 % p, (p - 1) // 2)]
    cases += [(f"random{j}", rng.randrange(p), rng.randrange(p)) for j in range(2)]
    out = []
    for name, key, pt in cases:
        ct, states = encrypt_prime(K, p, key, pt, r)
        out.append({"name": name, "key": [key], "plaintext": [pt], "ciphertext": [ct],
                    "key_text": str(key), "plaintext_text": str(pt), "ciphertext_text": str(ct),
                    "round_states": [[v] for v in states],
                    "subkeys": [[int(K(key) + K(rc_prime(p, i)))] for i in range(r)] + [[key]]})
    return {"cipher": "MiMC", "instance": f"F_{p}", "field": {"p": p}, "state_size_m": 1, "rounds": r,
            "constants": [rc_prime(p, i) for i in range(r)],
            "encoding": {"element": "the integer 0 <= x < p",
                         "text": "cipher_ref's and run_cipher's form: decimal elements, comma-separated"},
            "round_states": "the state after round i's cube, i = 1..r; the ciphertext is the last plus the key (mod p)",
            "source": SOURCE_P, "vectors": out}


def files():
    """{path: the JSON Sage computes for it}."""
    out = {HERE / f"vectors_gf2_{n}.json": vectors(n) for n in MODULI}
    out.update({HERE / f"vectors_fp_{p}.json": vectors_prime(p) for p in PRIMES})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    bad = 0
    for path, data in files().items():
        text = json.dumps(data, indent=1) + "\n"
        if a.write:
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            print(f"{path} differs from what Sage computes", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
