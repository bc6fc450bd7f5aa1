"""MiMC's committed constants and vectors are what their generators compute: the constants
from SHAKE-256 (mimc_constants.py) and the vectors from Sage's own GF(2^n) and GF(p)
arithmetic (mimc_sage.py), independent of the C++ reference that mimc_test checks against
them."""
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


def test_prime_constants_file_is_current():
    assert mimc_constants.main(["--prime-check", str(HERE / "mimc_prime_params.inc")]) == 0


def test_stale_prime_constants_are_caught(tmp_path):
    stale = tmp_path / "mimc_prime_params.inc"
    stale.write_text((HERE / "mimc_prime_params.inc").read_text().replace("48701ull", "48702ull"))
    assert mimc_constants.main(["--prime-check", str(stale)]) == 1


def test_prime_rounds_and_fields():
    # ceil(log_3 p): 3^10 = 59049 < 65537 <= 3^11; 3^20 < 8088322049 <= 3^21.
    assert mimc_constants.rounds_prime(65537) == 11 and mimc_constants.rounds_prime(8088322049) == 21
    assert mimc_constants.rounds_prime(3 ** 7) == 7 and mimc_constants.rounds_prime(3 ** 7 + 1) == 8
    for p in mimc_constants.PRIMES:
        assert p % 3 == 2  # 3 does not divide p - 1: x^3 permutes F_p
        assert all(0 <= c < p for c in mimc_constants.constants_prime(p))


def test_prime_vectors_are_what_sage_computes():
    pytest.importorskip("sage.all__sagemath_pari", reason="passagemath is not installed")
    import mimc_sage
    files = mimc_sage.files()
    for p in mimc_constants.PRIMES:
        data = files[HERE / f"vectors_fp_{p}.json"]
        # Sage's constants are the generator's (recomputed apart from mimc_constants.py).
        assert data["constants"] == mimc_constants.constants_prime(p)
        assert data["rounds"] == mimc_constants.rounds_prime(p)
    assert mimc_sage.main(["--check"]) == 0


def test_sage_check_catches_a_wrong_prime_vector(tmp_path, monkeypatch):
    pytest.importorskip("sage.all__sagemath_pari", reason="passagemath is not installed")
    import json
    import mimc_sage
    for f in HERE.glob("vectors_*.json"):
        (tmp_path / f.name).write_text(f.read_text())
    path = tmp_path / "vectors_fp_65537.json"
    d = json.loads(path.read_text())
    d["vectors"][1]["ciphertext"] = [(d["vectors"][1]["ciphertext"][0] + 1) % 65537]
    path.write_text(json.dumps(d, indent=1) + "\n")
    monkeypatch.setattr(mimc_sage, "HERE", tmp_path)
    assert mimc_sage.main(["--check"]) == 1
