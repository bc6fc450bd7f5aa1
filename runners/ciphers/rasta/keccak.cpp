#include "ciphers/rasta/keccak.h"

#include <array>

namespace cb {
namespace {

uint64_t rot(uint64_t v, unsigned r) { return r ? (v << r) | (v >> (64 - r)) : v; }

struct Tables {
  std::array<uint64_t, 24> rc{};  // iota's round constants
  std::array<unsigned, 25> rho{};  // rho's offset of lane x + 5 y
  Tables() {
    // rc(t) (FIPS 202 Algorithm 5): the LFSR x^8 + x^6 + x^5 + x^4 + 1 from 1, output bit 0;
    // RC[i] has bit 2^j - 1 = rc(j + 7 i), j < 7.
    unsigned lfsr = 1;
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 7; ++j) {
        if (lfsr & 1) rc[i] |= uint64_t(1) << ((1 << j) - 1);
        lfsr = (lfsr & 0x80) ? ((lfsr << 1) ^ 0x71) & 0xff : lfsr << 1;
      }
    // rho (Algorithm 2): (x, y) = (1, 0), then (y, 2x + 3y), offset (t + 1)(t + 2)/2 mod 64.
    unsigned x = 1, y = 0;
    for (unsigned t = 0; t < 24; ++t) {
      rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
      const unsigned nx = y, ny = (2 * x + 3 * y) % 5;
      x = nx;
      y = ny;
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

void keccak_f1600(uint64_t a[25]) {
  const Tables& T = tables();
  uint64_t b[25], c[5];
  for (int round = 0; round < 24; ++round) {
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ rot(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) a[x + y] ^= d;
    }
    // rho then pi: lane (x, y) of the result is lane (x + 3y, x) rotated by its offset.
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y) {
        const int src = (x + 3 * y) % 5 + 5 * x;
        b[x + 5 * y] = rot(a[src], T.rho[src]);
      }
    for (int y = 0; y < 25; y += 5)
      for (int x = 0; x < 5; ++x) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
    a[0] ^= T.rc[round];
  }
}

}  // namespace cb
