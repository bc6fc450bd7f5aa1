"""Chaghri's committed vectors are what Sage's own GF(2^63) arithmetic computes from the
authors' constants (chaghri_sage.py), independent of the C++ reference that chaghri_test
checks against them; and the reading's properties hold (B invertible where the Frobenius
reading of the authors' HElib program is not, M MDS, S a permutation)."""
import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def test_vectors_are_what_sage_computes():
    pytest.importorskip("sage.all__sagemath_pari", reason="passagemath is not installed")
    import chaghri_sage
    assert chaghri_sage.main(["--check"]) == 0


def test_properties_recorded():
    props = json.loads((HERE / "vectors.json").read_text())["properties"]
    assert props == {"affine_rank": 63, "affine_rank_frobenius_reading": 62, "mds_all_minors_nonzero": True,
                     "sbox_gcd": 1}
