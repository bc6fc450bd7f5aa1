"""MiMC's committed constants and vectors are what their generators compute: the constants
from SHAKE-256 (mimc_constants.py) and the vectors from Sage's own GF(2^n) arithmetic
(mimc_sage.py), independent of the C++ reference that mimc_test checks against them."""
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import mimc_constants  # noqa: E402


def test_constants_file_is_current():
    assert mimc_constants.main(["--check", str(HERE / "mimc_params.inc")]) == 0


def test_stale_constants_are_caught(tmp_path):
    stale = tmp_path / "mimc_params.inc"
    stale.write_text((HERE / "mimc_params.inc").read_text().replace("0x1e4a87d3d730fa05", "0x1e4a87d3d730fa04"))
    assert mimc_constants.main(["--check", str(stale)]) == 1


def test_rounds():
    assert mimc_constants.rounds(63) == 40 and mimc_constants.rounds(31) == 20


def test_vectors_are_what_sage_computes():
    pytest.importorskip("sage.all__sagemath_pari", reason="passagemath is not installed")
    import mimc_sage
    assert mimc_sage.main(["--check"]) == 0
