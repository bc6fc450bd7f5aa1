// subfield.h: a cipher's field GF(2^n) inside the slot field K = GF(2^d), for n | d.
//
// A cipher fixes GF(2^n) = GF(2)[x]/f(x) by an irreducible f of degree n (0x11b for
// AES). When n divides d, f has n roots in K; we fix one, theta, deterministically (the
// smallest when K's elements are read as integers, bit i = coefficient of Y^i), and
// embed
//     GF(2^n) -> K,   sum_i a_i x^i  |->  sum_i a_i theta^i.
// The image is the unique subfield of K of order 2^n and is stable under Frobenius, so
// slot-wise squaring and X -> X^(2^j) act on embedded values exactly as squaring in
// GF(2^n). Every GF(2)-linear map of GF(2^n) is a linearized polynomial
// sum_{j<n} gamma_j x^(2^j) with gamma_j in GF(2^n), evaluated through Frobenius maps
// and constants embedded here.
//
// GF(2^n) elements travel as uint64_t, bit i = coefficient of x^i (n <= 64), the
// encoding of the test vectors.
#pragma once

#include <NTL/GF2X.h>

#include <cstdint>

#include "engine/algebra/slot_ring.h"

namespace cb {

class Subfield {
 public:
  // Throws ParameterError when n is not in [1, 64], n does not divide d, or f
  // (bit i = coefficient of x^i, degree n; for n = 64 the x^64 term is implicit and
  // f_low holds the lower 64 bits) is not irreducible of degree n.
  Subfield(const SlotRing& ring, long n, uint64_t f_low);

  long n() const { return n_; }
  uint64_t modulus_low() const { return f_low_; }  // f without its x^n term
  const NTL::GF2X& theta() const { return theta_; }

  NTL::GF2X embed(uint64_t a) const;           // GF(2^n) -> K
  // K -> GF(2^n); throws ParameterError when b is not in the image of embed.
  uint64_t project(const NTL::GF2X& b) const;

 private:
  const SlotRing& ring_;
  long n_;
  uint64_t f_low_;
  NTL::GF2X theta_;
  struct Impl;                       // e.g. theta^i table and the inverse linear map
  std::shared_ptr<const Impl> impl_;
};

// Arithmetic in GF(2^n) on the uint64_t encoding (plaintext side; used by references,
// the clear backend, and to compute constants).
class GF2n {
 public:
  GF2n(long n, uint64_t f_low);  // throws ParameterError as Subfield does
  long n() const { return n_; }
  uint64_t mul(uint64_t a, uint64_t b) const;
  uint64_t sqr(uint64_t a) const { return mul(a, a); }
  uint64_t pow(uint64_t a, uint64_t e) const;       // e is a plain integer exponent
  uint64_t frob(uint64_t a, long j) const;          // a^(2^j), j may be >= n or negative
  uint64_t inv(uint64_t a) const;                   // a^(2^n - 2): 0 -> 0
 private:
  long n_;
  uint64_t f_low_;
  uint64_t mu_low_;  // floor(x^(2n) / f) - x^n, for Barrett reduction
  uint64_t mask_;    // 2^n - 1
};

}  // namespace cb
