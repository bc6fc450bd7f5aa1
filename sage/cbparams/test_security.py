"""HElib's formula (the engine's answer, security_info) against HElib's own figures and the
sparse table of docs/references.md §2, and core-SVP."""
import subprocess
import sys
from pathlib import Path

import pytest

from cbparams import security as S
from cbparams.errors import SecurityError
from cbparams.runner import build_dir

needs_engine = pytest.mark.skipif(not (build_dir() / "bin" / "security_info").exists(),
                                  reason="engine not built (make build): HElib's formula is the engine's")

# docs/references.md §2: HElib 2.3.0, buildModChain(bits, c=3), dense key.
# (m, phi, log2 Q or None, log2AlphaInv, security)
HELIB_FIGURES = [
    (53261, 46080, 1119.16, 1109.632, 137.804),
    (163455, 81920, None, 2085.967, 129.233),
    (148733, 129024, None, 2745.143, 158.603),
    (164737, 163840, None, 3104.155, 180.567),
    (164737, 163840, None, 4242.755, 126.742),
]


@needs_engine
@pytest.mark.parametrize("m, phi, log2_q, lai, sec", HELIB_FIGURES)
def test_helib_figures(m, phi, log2_q, lai, sec):
    assert S.helib_security_level(phi, lai, 0) == pytest.approx(sec, abs=0.01)
    if log2_q is not None:
        assert S.helib_log2_alpha_inv(m, log2_q) == pytest.approx(lai, abs=0.001)
        assert S.helib_security(m, log2_q, 0) == pytest.approx(sec, abs=0.01)
        assert S.helib_security(m, log2_q, 0, phi=phi) == pytest.approx(sec, abs=0.01)


@needs_engine
def test_sigma():
    """sigma = 3.2 sqrt(m) for odd m, 3.2 for the power-of-two rings the engine runs at odd p
    (HElib's rule); an even m that is not a power of two is refused by name."""
    assert S.helib_sigma(4095) == pytest.approx(3.2 * 4095 ** 0.5)
    assert S.helib_sigma(4096) == pytest.approx(3.2)
    with pytest.raises(SecurityError, match="m=4098 is even but not a power of two"):
        S.helib_sigma(4098)


@needs_engine
@pytest.mark.parametrize("hwt, a, b", [
    (120, 2.4, 19), (150, 2.67, 13), (135, 2.535, 16), (420, 3.5, -10), (449, 3.5483333, -11.9333333),
    (450, 3.55, -12), (1000, 3.55, -12),
])
def test_sparse_table(hwt, a, b):
    x = 40.0
    assert S.helib_security_level(x * 100, 100, hwt) == pytest.approx(a * x + b, abs=1e-4)


@needs_engine
@pytest.mark.parametrize("hwt", [1, 60, 119, -5])
def test_light_keys_give_zero(hwt):
    assert S.helib_security_level(46080, 1109.632, hwt) == 0.0


@needs_engine
def test_floor_at_zero():
    assert S.helib_security_level(100, 1000, 0) == 0.0


@needs_engine
def test_bad_alpha():
    with pytest.raises(SecurityError, match="log2_alpha_inv=-1"):
        S.helib_security_level(100, -1, 0)


# docs/references.md §3: the estimator's rough (ADPS16 core-SVP) uSVP, key weight 120,
# q = 2^bits. Our closed form reproduces them to 0.1 bit.
@pytest.mark.parametrize("n, bits, rough", [
    (46080, 820, 166.4), (81920, 1550, 153.0), (129024, 2000, 201.5),
    (163840, 2300, 230.7), (163840, 3150, 150.1),
])
def test_coresvp_matches_estimator_rough(n, bits, rough):
    assert S.coresvp_bits(n, bits, hwt=120) == pytest.approx(rough, abs=0.11)


def test_coresvp_monotonic():
    a = [S.coresvp_bits(46080, q, 120) for q in (700, 820, 1000, 1200)]
    assert a == sorted(a, reverse=True)
    b = [S.coresvp_bits(n, 820, 120) for n in (32768, 46080, 65536)]
    assert b == sorted(b)


def test_coresvp_errors():
    with pytest.raises(SecurityError, match="hwt=50000"):
        S.coresvp_bits(46080, 820, hwt=50000)
    with pytest.raises(SecurityError, match="cost model 'nope'"):
        S.coresvp_bits(46080, 820, model="nope")
    with pytest.raises(SecurityError, match="log2_q=1"):
        S.coresvp_bits(46080, 1)


def test_importable_without_sage_or_numpy():
    code = ("import sys; sys.modules['sage'] = None; sys.modules['numpy'] = None; "
            "import cbparams.security as s; print(round(s.helib_security(53261, 1119.16, 0, phi=46080), 3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=True)
    assert out.stdout.strip() == "137.804"
