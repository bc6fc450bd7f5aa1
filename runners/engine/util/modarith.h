// modarith.h: arithmetic modulo a word-size prime q (q < 2^61 for the NTT, 2^62 here).
//
// Every RNS prime of the engine fits in one 64-bit word, so residues are uint64_t and
// products are formed exactly as unsigned __int128.
//
// Shoup multiplication. For a fixed multiplier w in [0, q) precompute
//     w' = floor(w * 2^64 / q).
// For any x < 2^64 let Q = floor(x * w' / 2^64) (one high multiply). Then
//     r = x*w - Q*q  (computed mod 2^64)
// lies in [0, 2q): Q underestimates floor(x*w/q) by at most one. The NTT twiddles and the
// Bluestein chirps are fixed multipliers, so the hot loops use this form: two low and one
// high multiply, no division. Requires q < 2^63; the lazy butterflies of ntt.h keep values
// in [0, 8q) and so need q < 2^61, the engine-wide bound (RNS primes have <= 61 bits).
//
// Barrett reduction of a 128-bit value x (a product of residues, or an accumulated dot
// product) uses the 128-bit constant R = floor(2^128 / q): the estimate
// Q = floor(x * R / 2^128) satisfies floor(x/q) - 2 <= Q <= floor(x/q), so x - Q*q
// lies in [0, 3q) and two conditional subtractions finish. Only the low word of x - Q*q
// is needed.
//
// Array versions of these products, vectorized with AVX-512 where available, are in
// vecmod.h.
#pragma once

#include <cstdint>

#include "engine/errors.h"

namespace cb::util {

using u128 = unsigned __int128;

// Bound on the NTT moduli: the lazy butterflies need 8q to fit in a word.
constexpr uint64_t kMaxModulus = uint64_t(1) << 61;

inline uint64_t mulhi(uint64_t a, uint64_t b) { return uint64_t((u128(a) * b) >> 64); }

// a + b mod q for a, b in [0, q).
inline uint64_t add_mod(uint64_t a, uint64_t b, uint64_t q) {
  uint64_t s = a + b;
  return s >= q ? s - q : s;
}

// a - b mod q for a, b in [0, q).
inline uint64_t sub_mod(uint64_t a, uint64_t b, uint64_t q) { return a >= b ? a - b : a + q - b; }

// -a mod q for a in [0, q).
inline uint64_t neg_mod(uint64_t a, uint64_t q) { return a == 0 ? 0 : q - a; }

// a * b mod q for any a, b (uses a 128-by-64 division: for setup, not for hot loops).
inline uint64_t mul_mod(uint64_t a, uint64_t b, uint64_t q) { return uint64_t(u128(a) * b % q); }

// w' = floor(w * 2^64 / q), the Shoup companion of a fixed multiplier w in [0, q).
inline uint64_t shoup(uint64_t w, uint64_t q) { return uint64_t((u128(w) << 64) / q); }

// x * w mod q in [0, 2q) for any x < 2^64, given wp = shoup(w, q).
inline uint64_t mul_shoup_lazy(uint64_t x, uint64_t w, uint64_t wp, uint64_t q) {
  return x * w - mulhi(x, wp) * q;
}

// x * w mod q in [0, q) for any x < 2^64, given wp = shoup(w, q).
inline uint64_t mul_shoup(uint64_t x, uint64_t w, uint64_t wp, uint64_t q) {
  uint64_t r = mul_shoup_lazy(x, w, wp, q);
  return r >= q ? r - q : r;
}

// A fixed multiplier with its Shoup companion.
struct ShoupMul {
  uint64_t w = 0;   // w in [0, q)
  uint64_t wp = 0;  // w' = floor(w * 2^64 / q)
  ShoupMul() = default;
  ShoupMul(uint64_t w_, uint64_t q) : w(w_), wp(shoup(w_, q)) {}
};

// b^e mod q, e >= 0 (0^0 = 1).
inline uint64_t pow_mod(uint64_t b, uint64_t e, uint64_t q) {
  uint64_t r = 1 % q;
  b %= q;
  while (e) {
    if (e & 1) r = mul_mod(r, b, q);
    b = mul_mod(b, b, q);
    e >>= 1;
  }
  return r;
}

// a^-1 mod q by the extended Euclidean algorithm (q need not be prime).
// Throws ParameterError when gcd(a, q) != 1.
inline uint64_t inv_mod(uint64_t a, uint64_t q) {
  // Invariants: r0 = s0*a (mod q), r1 = s1*a (mod q), with signed Bezout coefficients.
  __int128 r0 = q, r1 = a % q, s0 = 0, s1 = 1;
  while (r1 != 0) {
    __int128 t = r0 / r1;
    __int128 r2 = r0 - t * r1, s2 = s0 - t * s1;
    r0 = r1, r1 = r2, s0 = s1, s1 = s2;
  }
  if (r0 != 1) throw ParameterError(msg("inv_mod: a=", a, " is not invertible modulo q=", q));
  if (s0 < 0) s0 += q;
  return uint64_t(s0);
}

// Barrett reduction of 128-bit values modulo a fixed q < 2^62.
class Barrett {
 public:
  Barrett() = default;
  explicit Barrett(uint64_t q) : q_(q) {
    if (q < 2 || q >= (uint64_t(1) << 62))
      throw ParameterError(msg("Barrett: q=", q, " must satisfy 2 <= q < 2^62"));
    // floor((2^128 - 1) / q) is R for q not a power of two and R - 1 otherwise; either
    // way the estimate below stays within 2 of floor(x/q).
    u128 r = ~u128(0) / q;
    r_hi_ = uint64_t(r >> 64);
    r_lo_ = uint64_t(r);
  }
  uint64_t q() const { return q_; }

  // a * b mod q in [0, q) for any words a, b (one 64x64 product, then reduce()).
  uint64_t mul(uint64_t a, uint64_t b) const { return reduce(u128(a) * b); }

  // x mod q in [0, q) for any x < 2^128.
  uint64_t reduce(u128 x) const {
    uint64_t x_lo = uint64_t(x), x_hi = uint64_t(x >> 64);
    // Q = floor(x * R / 2^128) exactly, from the four 64x64 partial products; only the
    // low word of Q is kept since x - Q*q < 3q fits in a word.
    u128 mid = (u128(x_lo) * r_lo_ >> 64) + u128(x_lo) * r_hi_;
    u128 mid2 = u128(x_hi) * r_lo_ + uint64_t(mid);
    uint64_t quot = x_hi * r_hi_ + uint64_t(mid >> 64) + uint64_t(mid2 >> 64);
    uint64_t r = x_lo - quot * q_;
    if (r >= q_) r -= q_;
    if (r >= q_) r -= q_;
    return r;
  }

 private:
  uint64_t q_ = 0;
  uint64_t r_hi_ = 0, r_lo_ = 0;  // R = floor(2^128 / q) = r_hi * 2^64 + r_lo
};

}  // namespace cb::util
