"""The papers' published numbers, to set beside ours (never mixed with our results).

Source: Toprakhisar, Mahzoun, Ashur, "A Comparative Study of Vision and AES in FHE
Setting" (HElib, BGV, p = 2), Tables 1 and 2, as transcribed in the project's
docs/references.md §1. Measured on the authors' hardware, not ours.
"""

import pandas as pd

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


def table2():
    """Total time for all rounds on the papers' rings (HElib, c = 3)."""
    rows = [
        # instance,            state,          m,      chain bits, security, rounds, total_min
        ("AES-128", "GF(2^8)^16", 53261, 820, 136.256, 10, 1.93),
        ("Vision GF(2^8)^16", "GF(2^8)^16", 163455, 1550, 128.529, 10, 26.83),
        ("Vision GF(2^16)^8", "GF(2^16)^8", 148733, 2000, 158.132, 10, 37.07),
        ("Vision GF(2^32)^4", "GF(2^32)^4", 164737, 2300, 179.373, 10, 63.3),
        ("Vision GF(2^64)^2", "GF(2^64)^2", 164737, 3150, 126.0, 13, 76.9),
    ]
    return pd.DataFrame(rows, columns=["instance", "state", "m", "bits", "security", "rounds", "total_min"])
