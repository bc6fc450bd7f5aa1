"""Converts IAIK's Pasta known-answer tests (github.com/IAIK/hybrid-HE-framework,
ciphers/pasta_{3,4}/plain/testvectors.h) into kat_pasta3.json and kat_pasta4.json.

Only data is taken: each test of kind DEC is (key, plaintext, ciphertext, p), for which
IAIK's PASTA::decrypt(ciphertext) returns plaintext. Their plain implementation
(ciphers/pasta_{3,4}/plain/pasta_{3,4}_plain.cpp) encrypts with the fixed nonce 123456789
and block counters 0, 1, ...; a KAT's plaintext is one block of t elements, so block 0, and
its keystream is ciphertext - plaintext mod p (written to the JSON as "keystream",
derived here). The USE_CASE and PREP tests carry no expected output and are left out.

    python pasta_kat_from_iaik.py --repo /work/.mirror/IAIK+hybrid-HE-framework/repo [--check]

reads the files at the repository's HEAD with git (a bare clone is enough), writes the JSON
beside this script or, with --check, says whether the committed files are what it would write.
"""
import argparse
import ast
import json
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = "https://github.com/IAIK/hybrid-HE-framework"
NONCE = 123456789  # PASTA::encrypt / decrypt in pasta_{3,4}_plain.cpp
VARIANTS = {"pasta3": ("Pasta-3", 128, 3), "pasta4": ("Pasta-4", 32, 4)}


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def parse_tests(text):
    """The KNOWN_ANSWER_TESTS initializer as Python lists: [key, plain, cipher, p, kind, (N)]."""
    m = re.search(r"KNOWN_ANSWER_TESTS\[\]\s*=\s*(\{.*\});", text, re.S)
    if not m:
        raise ValueError("no KNOWN_ANSWER_TESTS initializer")
    body = re.sub(r"//[^\n]*", "", m.group(1))
    body = re.sub(r"KnownAnswerTestZp<\w+>::Testcase::(\w+)", r'"\1"', body)
    body = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)ULL\b", r"\1", body)
    return ast.literal_eval(body.replace("{", "[").replace("}", "]"))


def convert(repo, name):
    display, t, r = VARIANTS[name]
    folder = f"pasta_{name[-1]}"
    path = f"ciphers/{folder}/plain/testvectors.h"
    commit = git(repo, "rev-parse", "HEAD").strip()
    vectors = []
    for test in parse_tests(git(repo, "show", f"HEAD:{path}")):
        key, plain, cipher, p, kind = test[:5]
        if kind != "DEC":
            continue
        if len(key) != 2 * t or len(plain) != t or len(cipher) != t:
            raise ValueError(f"{path}: a DEC test at p={p} is not 2t/t/t = {2 * t}/{t}/{t} elements")
        vectors.append({
            "p": p,
            "key": key,
            "plaintext": plain,
            "ciphertext": cipher,
            "keystream": [(c - m) % p for c, m in zip(cipher, plain)],
        })
    return {
        "cipher": display,
        "t": t,
        "r": r,
        "source": {
            "repository": REPOSITORY,
            "path": path,
            "commit": commit,
            "nonce_from": f"ciphers/{folder}/plain/{folder}_plain.cpp (PASTA::encrypt, PASTA::decrypt)",
        },
        "reading": ("the file's DEC tests: IAIK's decrypt(ciphertext) == plaintext under key at p, one block "
                    "(counter 0) with the fixed nonce; keystream = ciphertext - plaintext mod p, derived by "
                    "pasta_kat_from_iaik.py"),
        "nonce": NONCE,
        "counter": 0,
        "vectors": vectors,
    }


def dump(data):
    return json.dumps(data, indent=1) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="a clone of IAIK/hybrid-HE-framework (bare is fine)")
    ap.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = ap.parse_args(argv)
    status = 0
    for name in VARIANTS:
        out = HERE / f"kat_{name}.json"
        text = dump(convert(args.repo, name))
        if args.check:
            if not out.exists() or out.read_text() != text:
                print(f"{out.name}: differs from what {args.repo} gives", file=sys.stderr)
                status = 1
        else:
            out.write_text(text)
            print(f"wrote {out.name}")
    return status


if __name__ == "__main__":
    sys.exit(main())
