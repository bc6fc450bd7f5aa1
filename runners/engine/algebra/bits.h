// bits.h (internal to cb_algebra): GF(2) vectors as 64-bit words and their conversion to
// and from NTL::GF2X (bit i = coefficient of X^i), shared by slot_ring.cpp and
// subfield.cpp. Not part of the public API.
#pragma once

#include <NTL/GF2X.h>

#include <cstdint>
#include <vector>

namespace cb::bits {

// Words needed for nbits bits.
inline long words(long nbits) { return (nbits + 63) / 64; }

// Copies the low 64*w bits of a (coefficients of X^0 .. X^(64w-1)) into out[0..w).
inline void to_words(const NTL::GF2X& a, uint64_t* out, long w) {
  const long n = a.xrep.length();
  for (long i = 0; i < w; ++i) out[i] = i < n ? uint64_t(a.xrep[i]) : 0;
}

// The polynomial with coefficient words in[0..w).
inline NTL::GF2X from_words(const uint64_t* in, long w) {
  NTL::GF2X a;
  a.xrep.SetLength(w);
  for (long i = 0; i < w; ++i) a.xrep[i] = in[i];
  a.normalize();
  return a;
}

// A GF(2)-linear map GF(2)^cols -> GF(2)^rows stored by columns, each column w words.
struct BitMatrix {
  long rows = 0, cols = 0, w = 0;
  std::vector<uint64_t> col;  // column j at col[j*w .. j*w+w)

  BitMatrix() = default;
  BitMatrix(long r, long c) : rows(r), cols(c), w(words(r)), col(size_t(c * w), 0) {}
  uint64_t* column(long j) { return &col[size_t(j * w)]; }
  const uint64_t* column(long j) const { return &col[size_t(j * w)]; }

  // out[0..w) = M * x, x given as words(cols) words.
  void apply(const uint64_t* x, uint64_t* out) const {
    for (long i = 0; i < w; ++i) out[i] = 0;
    for (long j = 0; j < cols; ++j) {
      if (!((x[j >> 6] >> (j & 63)) & 1)) continue;
      const uint64_t* c = column(j);
      for (long i = 0; i < w; ++i) out[i] ^= c[i];
    }
  }
};

// Inverse of a square BitMatrix; returns false when it is singular.
bool invert(const BitMatrix& a, BitMatrix& inv);

}  // namespace cb::bits

namespace cb {
// Validates a GF(2^n) modulus (n in [1, 64], f irreducible of degree n, x^n implicit in
// f_low) and returns f; throws ParameterError naming the broken constraint.
NTL::GF2X gf2n_checked_modulus(long n, uint64_t f_low);
}  // namespace cb
