"""Converts IAIK's Rasta known-answer tests (ciphers/rasta_{5,6}/plain/testvectors.h of the
hybrid-HE framework) into kat_rasta5.json and kat_rasta6.json: the published bytes as data,
no code. Run once against a checkout (a bare git directory is enough):

    python rasta_kat_from_iaik.py /path/to/hybrid-HE-framework.git

Each testvectors.h holds one entry of kind DEC (key, plaintext, ciphertext); its USE_CASE
and PREP entries carry only {0x00} placeholders and are left out.
"""
import json
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = "https://github.com/IAIK/hybrid-HE-framework"
INSTANCES = {"rasta5": (525, 5, "ciphers/rasta_5/plain/testvectors.h"),
             "rasta6": (351, 6, "ciphers/rasta_6/plain/testvectors.h")}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def dec_entry(text):
    """The three byte arrays of the first entry (the DEC test)."""
    first = text.split("KNOWN_ANSWER_TESTS[] = {", 1)[1].split("Testcase::DEC", 1)[0]
    arrays = re.findall(r"\{([^{}]*)\}", first)
    return [bytes(int(b, 16) for b in re.findall(r"0x[0-9a-fA-F]{2}", a)) for a in arrays]


def convert(repo, ident):
    n, rounds, path = INSTANCES[ident]
    commit = git(repo, "rev-parse", "HEAD").strip()
    date = git(repo, "log", "-1", "--format=%cs", commit).strip()
    key, pt, ct = dec_entry(git(repo, "show", f"{commit}:{path}"))
    assert len(key) == len(pt) == len(ct) == (n + 7) // 8, (len(key), len(pt), len(ct))
    return {
        "cipher": f"Rasta-{rounds}",
        "source": {
            "repository": REPOSITORY,
            "path": path,
            "commit": commit,
            "commit_date": date,
            "entries": "the KnownAnswerTest<RASTA_128> entry of kind DEC (the USE_CASE and PREP entries carry no vectors)",
        },
        "reading": (
            "IAIK's DEC test decrypts `ciphertext` with `key` as one block at nonce 0, block counter 1 "
            f"(RASTA_128::decrypt in rasta_{rounds}_plain.cpp) and expects `plaintext`: ciphertext = plaintext "
            "XOR KS(key, 0, 1). Bytes as published: bit k of a block is bit 7 - k mod 8 of byte k / 8 (MSB first), "
            f"the last {8 * len(key) - n} bit(s) of the last byte are padding (zero). key, plaintext and ciphertext "
            "are the published values; keystream is derived here as ciphertext XOR plaintext, not published."),
        "n": n,
        "rounds": rounds,
        "nonce": 0,
        "counter": 1,
        "vectors": [{
            "name": "iaik_dec",
            "key": key.hex(),
            "plaintext": pt.hex(),
            "ciphertext": ct.hex(),
            "keystream": bytes(a ^ b for a, b in zip(pt, ct)).hex(),
        }],
    }


def main(argv):
    repo = argv[0]
    for ident in INSTANCES:
        out = HERE / f"kat_{ident}.json"
        out.write_text(json.dumps(convert(repo, ident), indent=1) + "\n")
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
