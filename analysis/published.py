"""The papers' published numbers, to set beside ours (never mixed with our results).

Source: Toprakhisar, Mahzoun, Ashur, "A Comparative Study of Vision and AES in FHE
Setting" (HElib, BGV, p = 2), Tables 1 and 2, as transcribed in the project's
docs/references.md §1; Table 2 is read from config/paper.yaml, where each of the paper's
rings carries its figures (`paper:`). Measured on the authors' hardware, not ours.
"""

import os

import pandas as pd
import yaml

from analysis import ciphers  # noqa: E402

SOURCE = "Toprakhisar, Mahzoun, Ashur: A Comparative Study of Vision and AES in FHE Setting (HElib), Tables 1-2"

# Operation names as run_cipher reports them, in the order of a Vision round.
VISION_OPS = ["inversion", "affine1", "matmul", "keyadd", "affine2"]


def table1():
    """Seconds per operation in one Vision round (the paper's toy parameters)."""
    rows = [
        # instance,                field_bits, state_size, inversion, affine1, matmul, keyadd, affine2, one_round
        ("Vision GF(2^8)^16", 8, 16, 1.19, 0.6006, 2.008, 0.003, 0.19, 7.2),
        ("Vision GF(2^16)^8", 16, 8, 1.79, 1.18, 0.92, 0.003, 0.21, 6.81),
        ("Vision GF(2^32)^4", 32, 4, 2.3, 3.47, 0.393, 0.003, 0.182, 8.89),
        ("Vision GF(2^64)^2", 64, 2, 2.853, 7.106, 0.145, 0.003, 0.193, 12.93),
    ]
    return pd.DataFrame(rows, columns=["instance", "field_bits", "state_size", *VISION_OPS, "one_round"])


#: config/paper.yaml: the papers' rings, each with the paper's own figures under `paper:`
#: (the one copy of [TMA] Table 2 kept as data; docs/references.md §1 restates it with its source).
PAPER_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "paper.yaml")


def instance_label(experiment):
    """'AES-128' or 'Vision GF(2^16)^8' (as aggregate.instance_label: the catalog's name)."""
    return ciphers.display(experiment)


def paper_rows(experiments):
    """One row per ring of `experiments` (a config's list) that has a `paper:` entry: the
    experiment's name, instance, packing, linear, rounds, m, the paper's bits, security and minutes,
    and our chain for that ring (the config's bits, "plan" without) and security target (None without)."""
    rows = []
    for e in experiments:
        for ring in e["rings"]:
            p = ring.get("paper")
            if not p:
                continue
            ours = ring.get("bits", "plan")
            ours = ours if isinstance(ours, list) else [ours]
            rows.append({"name": e["name"], "instance": instance_label(e), "state": ciphers.label(e), "packing": e["packing"],
                         "linear": e.get("linear", "separate"), "rounds": e["rounds"], "m": ring["m"], "paper_bits": p["bits"],
                         "paper_security": p["security"], "paper_total_min": p["total_min"],
                         "config_bits": ours[-1], "security_target": ring.get("security_target")})
    return rows


def table2(path=PAPER_CONFIG):
    """Total time for all rounds on the papers' rings (HElib, c = 3), read from config/paper.yaml."""
    with open(path) as f:
        cfg = yaml.safe_load(f)
    rows = [(r["instance"], r["state"], r["m"], r["paper_bits"],
             r["paper_security"], r["rounds"], r["paper_total_min"]) for r in paper_rows(cfg["experiments"])]
    return pd.DataFrame(rows, columns=["instance", "state", "m", "bits", "security", "rounds", "total_min"])


# AES-128 under FHE in other schemes and libraries: published figures, for the figure
# "AES-128 across schemes" (analysis/figure_schemes.py). Each row is the authors' own
# measurement on their hardware, never ours. latency_s: one block from start to result;
# per_block_s: amortized time per block (latency / blocks when several run at once);
# None where the source gives no such figure. Transcribed from the project's reference
# notes (docs/references.md §5) and the sources named in each row.
AES_SOURCES = {
    "hippogryph": "Belaid, Bon, Boudguiga, Sirdey, Trama, Ye: Further Improvements in AES Execution "
                  "over TFHE (Hippogryph), IACR CiC 2(1) 2025, https://cic.iacr.org/p/2/1/39",
    "cb-eurocrypt24": "TFHE AES with circuit bootstrapping, EUROCRYPT 2024 (as cited in issue 14 / docs/references.md §5)",
    "leveled-poster": "leveled-TFHE AES poster (as cited in issue 14 / docs/references.md §5)",
    "fregata": "Fregata, ISC 2023 (as cited in docs/references.md §5)",
    "sap-tches24": "Schild, Abidin, Preneel, TCHES 2024(4), OpenFHE FHEW (as cited in docs/references.md §5)",
    "tfhe-rs-bounty": "tfhe-rs AES-128 (TFHE-rs bounty season 7 winner, https://www.zama.ai/post/implement-fhe-aes-128-tfhe-rs; "
                      "figures as cited in issue 14 / docs/references.md §5)",
    "tfhe-rs-pr3597": "tfhe-rs PR #3597 (the transciphering AES that tfhe 1.8 ships), "
                      "https://github.com/zama-ai/tfhe-rs/pull/3597: 16.5 -> 6.7 s per block, key expansion 13.5 -> 5.6 s",
    "helib-wiki": "HElib AES, HElib wiki 2014 (as cited in docs/references.md §5)",
}


def aes_across_schemes():
    """Published AES-128 figures under FHE (scheme, implementation, hardware, seconds)."""
    rows = [
        # scheme, implementation, hardware, latency_s, per_block_s, source key
        ("TFHE", "Hippogryph", "1 core", 32.0, 32.0, "hippogryph"),
        ("TFHE", "circuit bootstrapping", "1 core", 26.0, 26.0, "cb-eurocrypt24"),
        ("TFHE", "leveled TFHE", "1 core", 46.0, 46.0, "leveled-poster"),
        ("TFHE", "Fregata", "1 core", 86.0, 86.0, "fregata"),
        ("FHEW", "OpenFHE (Schild et al.)", "not stated here", 67.0, 67.0, "sap-tches24"),
        ("TFHE", "tfhe-rs (bounty)", "large CPU server", 16.4, 1.69, "tfhe-rs-bounty"),
        # "average per block": whether blocks ran one at a time is not stated, so no latency.
        ("TFHE", "tfhe-rs PR #3597", "not stated in the PR", None, 6.7, "tfhe-rs-pr3597"),
        ("BGV", "HElib (2014)", "not stated here", 240.0, 2.0, "helib-wiki"),
    ]
    df = pd.DataFrame(rows, columns=["scheme", "implementation", "hardware", "latency_s", "per_block_s", "source_key"])
    df["source"] = df["source_key"].map(AES_SOURCES)
    return df
