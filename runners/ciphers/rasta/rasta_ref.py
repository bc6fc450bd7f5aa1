"""Rasta (Dobraunig, Eichlseder, Grassi, Lallemand, Leander, List, Mendel, Rechberger,
CRYPTO 2018) as IAIK's hybrid-HE framework instantiates it: a second implementation,
written apart from the C++ one (rasta.h), checked against IAIK's known-answer tests by
test_rasta_vectors.py.

The keystream of block (nonce, counter) on an n-bit state, r rounds:

    x_0 = k,   x_i = S(M_i x_(i-1) + c_i)  (i = 1..r),   KS = M_(r+1) x_r + c_(r+1) + k

with S the chi map on the n bits read as a cycle, S(x)_j = x_j + x_(j+2) + x_(j+1) x_(j+2)
(indices mod n), and M_1..M_(r+1) invertible n x n matrices over GF(2), c_1..c_(r+1) n-bit
constants, all drawn for the block from a Keccak sponge.

The sponge: Keccak-f[1600] with rate 1088 bits (SHAKE256's) started from a state laid out
by hand, bytes (lanes little-endian)
    0..7    r as a 32-bit little-endian word, twice
    8..15   n the same
    16..23  zero
    24..31  the nonce, 64-bit little-endian
    32      0x1F        (SHAKE's domain bits and the first padding bit)
    40..47  the counter, 64-bit little-endian
    135     0x80        (the last padding bit)
permuted once, then read 1088 bits per permutation, bit b of byte i as stream bit 8 i + b.
With counter 0 this is exactly SHAKE256 of the 32 bytes 0..31; with any other counter the
counter's bytes lie past the padding byte, so no standard XOF gives it and the permutation
is needed itself (keccak_f1600 below, checked against hashlib's SHAKE256 by the tests).
The stream fills, in order: M_1, ..., M_(r+1), each row by row (row i's bit j is stream bit
o + j: entry (i, j), the coefficient of input bit j in output bit i), a matrix drawn again
from the following bits until it is invertible; then c_1, ..., c_(r+1).

Bits as IAIK's codec prints them: bit k of a block is bit 7 - k mod 8 of byte k / 8.

Here an n-bit vector is a Python int (bit j = element j) and a matrix a list of rows.
"""
import hashlib

# ---- Keccak-f[1600], FIPS 202 section 3.2 ---------------------------------------------

_MASK64 = (1 << 64) - 1


def _round_constants():
    """RC[i_r] from the LFSR rc(t) of FIPS 202 Algorithm 5 (x^8 + x^6 + x^5 + x^4 + 1)."""
    def rc(t):
        if t % 255 == 0:
            return 1
        R = [1, 0, 0, 0, 0, 0, 0, 0]
        for _ in range(t % 255):
            R = [0] + R
            R[0] ^= R[8]
            R[4] ^= R[8]
            R[5] ^= R[8]
            R[6] ^= R[8]
            R = R[:8]
        return R[0]

    out = []
    for ir in range(24):
        lane = 0
        for j in range(7):
            lane |= rc(j + 7 * ir) << ((1 << j) - 1)
        out.append(lane)
    return out


def _rho_offsets():
    """Algorithm 2: (x, y) = (1, 0), offset (t + 1)(t + 2)/2, (x, y) <- (y, 2x + 3y)."""
    off = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        off[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return off


_RC = _round_constants()
_RHO = _rho_offsets()
# pi: A'[x][y] = A[(x + 3y) mod 5][x]; with rho folded in, lane (x, y) of the result is
# lane src = ((x + 3y) mod 5, x) rotated by that source lane's offset. Lanes at 5y + x.
_PI_RHO = [((x + 3 * y) % 5 + 5 * x, _RHO[(x + 3 * y) % 5][x]) for y in range(5) for x in range(5)]


def keccak_f1600_spec(A):
    """The permutation on 25 lanes (list of ints < 2^64, lane (x, y) at index 5 y + x),
    step by step as FIPS 202 writes it (the readable form; keccak_f1600 is the fast one)."""
    A = list(A)
    for ir in range(24):
        # theta
        C = [A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20] for x in range(5)]
        D = [C[(x - 1) % 5] ^ (((C[(x + 1) % 5] << 1) | (C[(x + 1) % 5] >> 63)) & _MASK64) for x in range(5)]
        A = [A[i] ^ D[i % 5] for i in range(25)]
        # rho and pi
        B = []
        for src, r in _PI_RHO:
            v = A[src]
            B.append(((v << r) | (v >> (64 - r))) & _MASK64 if r else v)
        # chi
        A = [B[i] ^ ((~B[5 * (i // 5) + (i + 1) % 5]) & B[5 * (i // 5) + (i + 2) % 5]) for i in range(25)]
        # iota
        A[0] ^= _RC[ir]
    return A


def _unrolled():
    """keccak_f1600_spec's round with its loops unrolled over the 25 lanes as locals (the
    same steps; CPython runs it about ten times faster). Generated once at import."""
    L = ["def keccak_f1600(A):",
         "    " + ", ".join(f"a{i}" for i in range(25)) + " = A",
         "    for rc in RC:"]
    for x in range(5):
        L.append(f"        c{x} = a{x} ^ a{x + 5} ^ a{x + 10} ^ a{x + 15} ^ a{x + 20}")
    for x in range(5):
        c1 = f"c{(x + 1) % 5}"
        L.append(f"        d{x} = c{(x - 1) % 5} ^ ((({c1} << 1) | ({c1} >> 63)) & M)")
    for i in range(25):
        L.append(f"        a{i} ^= d{i % 5}")
    for i, (src, r) in enumerate(_PI_RHO):
        L.append(f"        b{i} = ((a{src} << {r}) | (a{src} >> {64 - r})) & M" if r else f"        b{i} = a{src}")
    for i in range(25):
        y = 5 * (i // 5)
        L.append(f"        a{i} = b{i} ^ (~b{y + (i + 1) % 5} & b{y + (i + 2) % 5})")
    L.append("        a0 ^= rc")
    L.append("    return [" + ", ".join(f"a{i}" for i in range(25)) + "]")
    scope = {"RC": _RC, "M": _MASK64}
    exec("\n".join(L), scope)
    return scope["keccak_f1600"]


keccak_f1600 = _unrolled()


RATE_BYTES = 136  # 1088 bits


def initial_state(n, rounds, nonce, counter):
    """The 200 bytes IAIK's initrand lays out before the first permutation."""
    s = bytearray(200)
    s[0:8] = (rounds.to_bytes(4, "little")) * 2
    s[8:16] = (n.to_bytes(4, "little")) * 2
    s[24:32] = nonce.to_bytes(8, "little")
    s[32] = 0x1F
    s[40:48] = counter.to_bytes(8, "little")
    s[RATE_BYTES - 1] ^= 0x80
    return bytes(s)


class Sponge:
    """The block's stream, squeezed 136 bytes per permutation as it is read."""

    def __init__(self, n, rounds, nonce, counter):
        s = initial_state(n, rounds, nonce, counter)
        self.lanes = [int.from_bytes(s[8 * i:8 * i + 8], "little") for i in range(25)]
        self.out = bytearray()

    def extend(self, count):
        while len(self.out) < count:
            self.lanes = keccak_f1600(self.lanes)
            self.out += b"".join(lane.to_bytes(8, "little") for lane in self.lanes[:RATE_BYTES // 8])


def xof_bytes(n, rounds, nonce, counter, count):
    """The first `count` bytes of the block's stream."""
    sp = Sponge(n, rounds, nonce, counter)
    sp.extend(count)
    return bytes(sp.out[:count])


def shake256_stream(n, rounds, nonce, count):
    """The stream of counter 0 from hashlib: SHAKE256 of the state's first 32 bytes."""
    return hashlib.shake_256(initial_state(n, rounds, nonce, 0)[:32]).digest(count)


# ---- the instance --------------------------------------------------------------------


class BitStream:
    """Stream bits in order (bit 8 i + b = bit b of byte i), read `width` at a time as ints."""

    def __init__(self, n, rounds, nonce, counter):
        self.sponge = Sponge(n, rounds, nonce, counter)
        self.pos = 0

    def take(self, width):
        end = self.pos + width
        self.sponge.extend((end + 7) // 8)
        chunk = self.sponge.out[self.pos // 8:(end + 7) // 8]
        v = (int.from_bytes(chunk, "little") >> (self.pos % 8)) & ((1 << width) - 1)
        self.pos = end
        return v


def rank(rows, n):
    """Rank over GF(2) of rows (ints of n bits): reduction against pivots by top bit."""
    pivots = {}
    for v in rows:
        while v:
            top = v.bit_length() - 1
            p = pivots.get(top)
            if p is None:
                pivots[top] = v
                break
            v ^= p
    return len(pivots)


def instance(n, rounds, nonce, counter):
    """(matrices M_1..M_(r+1) as row lists, constants c_1..c_(r+1)) of block (nonce, counter)."""
    bits = BitStream(n, rounds, nonce, counter)
    mats = []
    for _ in range(rounds + 1):
        while True:
            M = [bits.take(n) for _ in range(n)]
            if rank(M, n) == n:
                break
        mats.append(M)
    consts = [bits.take(n) for _ in range(rounds + 1)]
    return mats, consts


def mat_vec(M, x):
    return sum(((row & x).bit_count() & 1) << i for i, row in enumerate(M))


def chi(x, n):
    mask = (1 << n) - 1
    x1 = (x >> 1) | ((x << (n - 1)) & mask)  # bit j = x_(j+1)
    x2 = (x >> 2) | ((x << (n - 2)) & mask)  # bit j = x_(j+2)
    return x ^ x2 ^ (x1 & x2)


def keystream(n, rounds, key, nonce, counter):
    """The block's n keystream bits as an int (bit j = keystream bit j)."""
    mats, consts = instance(n, rounds, nonce, counter)
    x = key
    for i in range(rounds):
        x = chi(mat_vec(mats[i], x) ^ consts[i], n)
    return mat_vec(mats[rounds], x) ^ consts[rounds] ^ key


# ---- IAIK's codec ---------------------------------------------------------------------


def from_hex(text, n):
    """Bit k is bit 7 - k mod 8 of byte k / 8; padding bits must be zero."""
    raw = bytes.fromhex(text)
    if len(raw) != (n + 7) // 8:
        raise ValueError(f"{text}: {len(raw)} bytes, an {n}-bit block takes {(n + 7) // 8}")
    v = 0
    for k in range(8 * len(raw)):
        if (raw[k // 8] >> (7 - k % 8)) & 1:
            if k >= n:
                raise ValueError(f"{text}: padding bit {k} is set")
            v |= 1 << k
    return v


def to_hex(v, n):
    raw = bytearray((n + 7) // 8)
    for k in range(n):
        if (v >> k) & 1:
            raw[k // 8] |= 1 << (7 - k % 8)
    return raw.hex()


# ---- vectors at other nonces and counters (vectors_python.json) ------------------------

INSTANCES = {"rasta5": (525, 5), "rasta6": (351, 6)}
# Nonces and counters whose bytes all differ (each byte's place is seen), and counter 0,
# where the stream is SHAKE256's.
CASES = [(0x0123456789ABCDEF, 0xF0E1D2C3B4A59687), (42, 0)]


def _key(n, i):
    """A fixed key per case: the stream of SHAKE256 over a label, cut to n bits."""
    raw = hashlib.shake_256(f"cipherbench rasta key {n} {i}".encode()).digest((n + 7) // 8)
    return int.from_bytes(raw, "little") & ((1 << n) - 1)


def vectors():
    out = {"source": "runners/ciphers/rasta/rasta_ref.py (python rasta_ref.py writes this file; --check compares)",
           "reading": "key and keystream as IAIK's bytes (bit k is bit 7 - k mod 8 of byte k/8)",
           "vectors": []}
    for ident, (n, rounds) in INSTANCES.items():
        for i, (nonce, counter) in enumerate(CASES):
            key = _key(n, i)
            out["vectors"].append({"instance": ident, "nonce": nonce, "counter": counter, "key": to_hex(key, n),
                                   "keystream": to_hex(keystream(n, rounds, key, nonce, counter), n)})
    return out


def main(argv):
    import json
    import pathlib
    path = pathlib.Path(__file__).resolve().parent / "vectors_python.json"
    text = json.dumps(vectors(), indent=1) + "\n"
    if argv and argv[0] == "--check":
        ok = path.read_text() == text
        print(f"{path}: {'current' if ok else 'STALE'}")
        return 0 if ok else 1
    path.write_text(text)
    print(path)
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
