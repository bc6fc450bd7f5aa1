"""Pasta-3 and Pasta-4 keystreams in plain Python: the second implementation, written apart
from the C++ reference (pasta.h) and computed differently where it can be.

Pasta (Dobraunig, Grassi, Helminger, Rechberger, Schofnegger, Walch, TCHES 2023(3), ePrint
2021/731) over F_p: the key is the state, 2t elements; each of the r + 1 affine layers takes
each half through its own matrix and constant vector and then mixes the halves
(2L + R, L + 2R); rounds 1..r-1 end with the Feistel S-box x_i + x_(i-1)^2 on each half,
round r with the cube; the keystream is the left half after the last layer. The public
values come from SHAKE128(nonce || counter), 8 bytes big-endian each.

Where the C++ reference builds the matrix row by row, this one never writes it down: the
matrix of a layer is C^t for the companion matrix C of its random row a (ones above the
diagonal, a as the last row), and C^t x is x pushed through C t times,
(C x)_i = x_(i+1) for i < t - 1 and (C x)_(t-1) = a . x.

>>> keystream(VARIANTS["pasta4"], 65537, [0] * 64, 0, 0) == [0] * 32
False
>>> len(keystream(VARIANTS["pasta4"], 65537, list(range(64)), 123456789, 0))
32
"""
import hashlib

# name: (t, r)
VARIANTS = {"pasta3": (128, 3), "pasta4": (32, 4)}


class Xof:
    """SHAKE128 of the 16-byte seed as one long byte string, read 8 bytes at a time."""

    def __init__(self, nonce, counter, p, length):
        seed = nonce.to_bytes(8, "big") + counter.to_bytes(8, "big")
        self.data = hashlib.shake_128(seed).digest(length)
        self.pos = 0
        self.p = p
        self.mask = (1 << p.bit_length()) - 1

    def field_element(self, allow_zero):
        while True:
            if self.pos + 8 > len(self.data):
                raise ValueError(f"the XOF ran past its {len(self.data)} bytes")
            v = int.from_bytes(self.data[self.pos:self.pos + 8], "big") & self.mask
            self.pos += 8
            if v < self.p and (allow_zero or v):
                return v

    def field_vector(self, n, allow_zero=True):
        return [self.field_element(allow_zero) for _ in range(n)]


def sequential_matrix_times(a, x, p):
    """C^t x, C the companion matrix of a (t = len(a))."""
    t = len(a)
    for _ in range(t):
        last = sum(ai * xi for ai, xi in zip(a, x)) % p
        x = x[1:] + [last]
    return x


def keystream(variant, p, key, nonce, counter):
    """The t keystream elements of block (nonce, counter) under key (2t elements below p)."""
    t, r = variant
    if len(key) != 2 * t or any(not 0 <= k < p for k in key):
        raise ValueError(f"a key is {2 * t} elements of F_{p}")
    # Enough bytes for every draw: 4t elements per layer, room for rejections (at p = 65537
    # about half the 17-bit draws are >= p).
    xof = Xof(nonce, counter, p, 8 * 4 * t * (r + 1) * 4)
    left, right = list(key[:t]), list(key[t:])
    for layer in range(r + 1):
        a_left = xof.field_vector(t, allow_zero=False)
        a_right = xof.field_vector(t, allow_zero=False)
        c_left = xof.field_vector(t)
        c_right = xof.field_vector(t)
        left = [(v + c) % p for v, c in zip(sequential_matrix_times(a_left, left, p), c_left)]
        right = [(v + c) % p for v, c in zip(sequential_matrix_times(a_right, right, p), c_right)]
        left, right = ([(2 * u + v) % p for u, v in zip(left, right)],
                       [(u + 2 * v) % p for u, v in zip(left, right)])
        if layer == r:
            break
        if layer < r - 1:
            left = [left[0]] + [(left[i] + left[i - 1] ** 2) % p for i in range(1, t)]
            right = [right[0]] + [(right[i] + right[i - 1] ** 2) % p for i in range(1, t)]
        else:
            left = [pow(v, 3, p) for v in left]
            right = [pow(v, 3, p) for v in right]
    return left
