"""The engine's chains as the explorer gets them (chain_info)."""
import pytest

from cbparams import chains as C
from cbparams.errors import ChainError


needs_engine = pytest.mark.skipif(not C.chain_info().exists(), reason="engine not built (make build)")


def _is_prime(n: int) -> bool:
    """Fermat to four bases: enough to catch a composite among the engine's primes."""
    return n > 7 and all(pow(a, n - 1, n) == 1 for a in (2, 3, 5, 7))


def _bluestein_length(m: int) -> int:
    n = 1
    while n < 2 * m - 1:
        n *= 2
    return n


@needs_engine
@pytest.mark.parametrize("m, bits, c", [(53261, 905, 3), (163455, 1550, 3), (164737, 3150, 3), (257, 300, 2),
                                        (53261, 820, 2)])
def test_engine_chain_shape(m, bits, c):
    """The engine's chain (asked through chain_info): primes q = 1 mod m N, eight ladder primes of
    increasing size first, log2 Q within a couple of bits of the request, digits covering the
    L - S ciphertext primes, P covering the largest digit plus the margin."""
    ch = C.build_chain(m, bits, c)
    step = m * _bluestein_length(m)
    assert len(ch.primes) == ch.L + ch.K == len(set(ch.primes))
    for q in ch.primes:
        assert q % step == 1 and _is_prime(q)
    assert ch.S == 8 and list(ch.primes[:8]) == sorted(ch.primes[:8])
    assert bits - 5 <= ch.log2_q_ct <= bits + 5
    assert sum(ch.digits) == ch.L - ch.S and len(ch.digits) == c  # the small primes are in no digit
    assert ch.log2_q_sp >= ch.log2_max_digit + 19
    assert "small ladder primes" in ch.description and "transient, not in Q" in ch.description
    # one batch answers several requests, in order
    a, b = C.build_chains([(m, bits, c), (257, 300, 2)])
    assert a == ch and b.m == 257


@needs_engine
def test_chain_errors():
    with pytest.raises(ChainError, match="c=9 exceeds the .* ciphertext primes of a 100-bit chain"):
        C.build_chain(257, 100, 9)
    with pytest.raises(ChainError, match="bits=10 is too small"):
        C.build_chain(53261, 10, 1)
    with pytest.raises(ChainError, match="c=0"):
        C.build_chain(53261, 820, 0)
    assert C.build_chains([(257, 100, 9), (257, 300, 2)], refused="none")[0] is None


@needs_engine
def test_cli(capsys):
    assert C.main(["--m", "53261", "--bits", "820"]) == 0
    expect = C.build_chain(53261, 820, 3).log2_Q
    assert f"log2 Q={expect:.3f}" in capsys.readouterr().out
    assert C.main(["--m", "257", "--bits", "100", "--c", "9"]) == 2
    assert "c=9 exceeds the" in capsys.readouterr().err
    with pytest.raises(SystemExit):   # chain sizing is the engine planner's (cbparams plan)
        C.main(["--m", "53261", "--cipher", "aes"])


@needs_engine
def test_power_of_two_chain_and_transform():
    """The F_p rings m = 2^k (the negacyclic transform of length phi = m/2): primes q = 1 mod
    m, no Bluestein part, the transform request answered as the chain's; the memory model at
    phi = m/2 (a key of 2 phi words a prime per part); an even m that is not 2^k refused."""
    ch = C.build_chain(65536, 795, 3)
    assert all(q % 65536 == 1 and _is_prime(q) for q in ch.primes)
    assert ch.transform_ops_bluestein == 0 and ch.transform_ops > 0
    assert C.transform_ops([65536]) == {65536: (ch.transform_ops, 0.0)}
    half = C.build_chain(32768, 795, 3)
    assert half.key_full_bytes == pytest.approx(ch.key_full_bytes / 2, rel=0.05)
    with pytest.raises(ChainError, match=r"m=96: chain_info: a transform request is \"m transform\" with odd m >= 3 "
                                         r"or m = 2\^k >= 4"):
        C.transform_ops([96])
    with pytest.raises(ChainError, match="m=96 is even but not a power of two"):
        C.build_chain(96, 300, 2)
