"""HERA-5 over F_p in plain Python: the second implementation the C++ reference (hera.h) is
checked against, written apart from it from the cipher's definition (Cho, Ha, Kim, Lee,
Lee, Lee, Moon, Yoon, "Transciphering Framework for Approximate Homomorphic Encryption",
ASIACRYPT 2021, ePrint 2020/1335) and IAIK's reading of it over F_p (README.md).

The state is 16 elements of F_p, read as a 4 x 4 matrix whose column j is the elements
4j .. 4j+3. A block's keystream is

    x = (1, 2, ..., 16);  x = ARK_0(x)
    for i = 1..4:  x = ARK_i(Cube(MixRows(MixColumns(x))))
    x = ARK_5(MixRows(MixColumns(Cube(MixRows(MixColumns(x))))))

with ARK_i(x) = x + k * rc_i (element-wise), rc_0 .. rc_5 drawn in that order from
SHAKE128(nonce || counter) (8 bytes big-endian each): an element is the next 8 output bytes
as a big-endian integer with all bits above p's bit length cleared, drawn again while it
is >= p. MixColumns multiplies each column by the circulant matrix circ(2, 3, 1, 1),
MixRows each row by the same matrix.

>>> ks = keystream(65537, list(range(16)), 0, 0)
>>> len(ks), all(0 <= v < 65537 for v in ks)
(16, True)
>>> mix_columns(65537, [1, 0, 0, 0] + [0] * 12)[:4]
[2, 1, 1, 3]
"""
import hashlib

N = 16
ROUNDS = 5
# circ(2, 3, 1, 1): row r is (2, 3, 1, 1) rotated right by r.
CIRC = [[(2, 3, 1, 1)[(c - r) % 4] for c in range(4)] for r in range(4)]


class RandomElements:
    """Elements of F_p drawn from SHAKE128(nonce || counter) by masked rejection."""

    def __init__(self, p, nonce, counter):
        if not (0 <= nonce < 2 ** 64 and 0 <= counter < 2 ** 64):
            raise ValueError(f"nonce {nonce} or counter {counter} is not a 64-bit unsigned integer")
        self.p = p
        self.mask = (1 << p.bit_length()) - 1
        self.seed = nonce.to_bytes(8, "big") + counter.to_bytes(8, "big")
        self.pos = 0
        self.buf = b""

    def _bytes(self, k):
        # A XOF's short output is a prefix of its long output: recompute a longer prefix.
        while self.pos + k > len(self.buf):
            self.buf = hashlib.shake_128(self.seed).digest(max(1024, 2 * len(self.buf)))
        out = self.buf[self.pos:self.pos + k]
        self.pos += k
        return out

    def element(self):
        while True:
            v = int.from_bytes(self._bytes(8), "big") & self.mask
            if v < self.p:
                return v

    def vector(self, k=N):
        return [self.element() for _ in range(k)]


def round_constants(p, nonce, counter):
    """rc_0 .. rc_5: six vectors of 16 elements, in the order the cipher uses them."""
    xof = RandomElements(p, nonce, counter)
    return [xof.vector() for _ in range(ROUNDS + 1)]


def mix_columns(p, x):
    y = [0] * N
    for j in range(4):
        col = x[4 * j:4 * j + 4]
        for r in range(4):
            y[4 * j + r] = sum(CIRC[r][c] * col[c] for c in range(4)) % p
    return y


def mix_rows(p, x):
    y = [0] * N
    for i in range(4):
        row = [x[i + 4 * c] for c in range(4)]
        for r in range(4):
            y[i + 4 * r] = sum(CIRC[r][c] * row[c] for c in range(4)) % p
    return y


def cube(p, x):
    return [pow(v, 3, p) for v in x]


def ark(p, x, key, rc):
    return [(v + k * c) % p for v, k, c in zip(x, key, rc)]


def keystream(p, key, nonce, counter):
    """The 16 keystream elements of block (nonce, counter) under key (16 elements < p)."""
    if len(key) != N or not all(0 <= k < p for k in key):
        raise ValueError(f"key must be {N} elements below p={p}: {key}")
    rc = round_constants(p, nonce, counter)
    x = ark(p, list(range(1, N + 1)), key, rc[0])
    for i in range(1, ROUNDS):
        x = ark(p, cube(p, mix_rows(p, mix_columns(p, x))), key, rc[i])
    x = cube(p, mix_rows(p, mix_columns(p, x)))
    return ark(p, mix_rows(p, mix_columns(p, x)), key, rc[ROUNDS])
