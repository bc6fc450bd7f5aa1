// ifma.h: Shoup products on 52-bit words with AVX-512 IFMA (internal to engine/util).
//
// AVX-512 IFMA multiplies the low 52 bits of two 64-bit lanes exactly and adds the low
// (vpmadd52luq) or high (vpmadd52huq) 52 bits of the 104-bit product to a 64-bit
// accumulator: one instruction per half, against ~15 for the 64-bit Shoup product that
// plain AVX-512 has to assemble from 32-bit pieces (ntt.cpp). Moduli q < 2^50 use it.
//
// 52-bit Shoup product. For a fixed w in [0, q) let w' = floor(w * 2^52 / q) < 2^52.
// For x < 2^52 put Q = floor(x * w' / 2^52) (vpmadd52huq). Since
//     x w / q - x w' / 2^52 = x (w 2^52 / q - w') / 2^52 < x / 2^52 < 1,
// Q >= floor(x w / q) - 1, so r = x w - Q q lies in [0, 2q). As r < 2^52 it equals
//     (lo52(x w) + lo52(Q (2^52 - q))) mod 2^52,
// two vpmadd52luq and an AND. The inputs are read modulo 2^52 by the hardware, so every
// multiplicand must be below 2^52: with q < 2^50, any value in [0, 4q) qualifies.
//
// Lazy ranges this gives the NTT (ntt.h): the forward butterfly takes x, y in [0, 4q),
// reduces x to [0, 2q), forms W y in [0, 2q) and returns x + W y, x - W y + 2q, both in
// [0, 4q); the inverse butterfly takes x, y in [0, 2q), returns x + y reduced to [0, 2q)
// and (x - y + 2q) W^-1 in [0, 2q). The largest multiplicand, 4q - 1, is < 2^52 exactly
// when q <= 2^50; we require q < 2^50 (so "50-bit primes").
//
// 52-bit Barrett product of two variable residues (vecmod.h: products of arrays, where no
// operand has a precomputed companion). Let q < 2^50 with 2^(L-1) < q <= 2^L (L is the
// bit length of q - 1, so 1 <= L <= 50) and mu = floor(2^(L+51) / q) < 2^52. For a, b, c
// in [0, q) put x = a b + c <= (q-1)^2 + (q-1) < q^2 <= 2^(2L). The hardware gives
// x = hi 2^52 + lo exactly with hi = madd52hi(0, a, b) and lo = madd52lo(c, a, b) < 2^53;
// as 2^(L-1) divides 2^52,
//     c1 = floor(x / 2^(L-1)) = (hi << (53 - L)) + (lo >> (L - 1)) < 2^(L+1) <= 2^51.
// Q = floor(c1 mu / 2^52) (vpmadd52huq; both factors < 2^52) satisfies, writing
// A = x / 2^(L-1) and B = 2^(L+51) / q (so c1 >= max(0, A - 1), mu > B - 1 > 0):
//     Q <= A B / 2^52 = x / q, and
//     c1 mu / 2^52 >= (A - 1)(B - 1) / 2^52 > x/q - x/2^(L+51) - 2^(L-1)/q
//                  > x/q - 2^(L-51) - 1 >= x/q - 3/2       (x < 2^(2L), q > 2^(L-1), L <= 50),
// so floor(x/q) - 2 <= Q <= floor(x/q) < q, and r = x - Q q lies in [0, 3q). As
// 3q < 2^52, r = (lo + lo52(Q (2^52 - q))) mod 2^52: one vpmadd52luq and an AND. Two
// conditional subtractions (of 2q, then q) finish. Four IFMA instructions per eight
// products, against seven for a Montgomery product followed by a Shoup correction.
#pragma once

#include <cstdint>

#include "engine/util/modarith.h"

#if defined(__AVX512IFMA__) && defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>
#define CB_UTIL_IFMA 1
// GCC 12 reports its own _mm512_undefined_* placeholders as maybe-uninitialized in the
// files that use these kernels (only engine/util's own sources include this header).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace cb::util {

// Moduli below this bound take the IFMA kernels when they are compiled in.
constexpr uint64_t kMaxIfmaModulus = uint64_t(1) << 50;

// True when this build contains the IFMA kernels.
#ifdef CB_UTIL_IFMA
constexpr bool kIfmaCompiled = true;
#else
constexpr bool kIfmaCompiled = false;
#endif

// w' = floor(w * 2^52 / q), the 52-bit Shoup companion of w in [0, q), q < 2^50.
inline uint64_t shoup52(uint64_t w, uint64_t q) { return uint64_t((u128(w) << 52) / q); }

// Scalar reference of the IFMA product: x * w mod q in [0, 2q) for x < 2^52.
inline uint64_t mul_shoup52_lazy(uint64_t x, uint64_t w, uint64_t wp, uint64_t q) {
  const uint64_t quot = uint64_t((u128(x) * wp) >> 52);
  return x * w - quot * q;
}

// x itself when x < 2^52, else x mod q: makes a caller-supplied word a valid multiplicand.
inline uint64_t fit52(uint64_t x, uint64_t q) { return x >> 52 ? x % q : x; }

#ifdef CB_UTIL_IFMA
// Broadcast constants of one modulus for the vector product.
struct Ifma52 {
  __m512i neg_q;  // 2^52 - q
  __m512i mask;   // 2^52 - 1
  explicit Ifma52(uint64_t q)
      : neg_q(_mm512_set1_epi64((uint64_t(1) << 52) - q)),
        mask(_mm512_set1_epi64((uint64_t(1) << 52) - 1)) {}

  // x * w mod q in [0, 2q), lanes with x < 2^52, wp = shoup52(w, q).
  __m512i mul_lazy(__m512i x, __m512i w, __m512i wp) const {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i quot = _mm512_madd52hi_epu64(zero, x, wp);
    const __m512i xw = _mm512_madd52lo_epu64(zero, x, w);
    return _mm512_and_si512(_mm512_madd52lo_epu64(xw, quot, neg_q), mask);
  }
};

// The hardware reads 52 bits per lane: lanes with x >= 2^52 are reduced by a division
// first (never residues, even lazy ones in [0, 4q); only caller-supplied words).
inline __m512i fit52(__m512i xv, uint64_t q) {
  const __m512i high12 = _mm512_set1_epi64(int64_t(~((uint64_t(1) << 52) - 1)));
  if (_mm512_test_epi64_mask(xv, high12)) {
    alignas(64) uint64_t lanes[8];
    _mm512_store_si512(lanes, xv);
    for (uint64_t& l : lanes) l %= q;
    xv = _mm512_load_si512(lanes);
  }
  return xv;
}

// u in [0, 2c) -> [0, c): if u >= c then u - c < u, else u - c wraps above u.
inline __m512i reduce_once52(__m512i u, __m512i c) { return _mm512_min_epu64(u, _mm512_sub_epi64(u, c)); }
#endif

// The constants of the 52-bit Barrett product for one modulus 2 <= q < 2^50 (see above).
struct Barrett52Params {
  int L;        // 2^(L-1) < q <= 2^L
  uint64_t mu;  // floor(2^(L+51) / q) < 2^52
  explicit Barrett52Params(uint64_t q) : L(bits_below(q)), mu(uint64_t((u128(1) << (L + 51)) / q)) {}

 private:
  static int bits_below(uint64_t q) {
    if (q < 2 || q >= kMaxIfmaModulus)
      throw ParameterError(msg("Barrett52Params: q=", q, " must satisfy 2 <= q < 2^50"));
    return 64 - __builtin_clzll(q - 1);
  }
};

// Scalar reference of the IFMA product: (a * b + c) mod q in [0, 3q) for a, b, c in [0, q).
inline uint64_t mul_add_barrett52_lazy(uint64_t a, uint64_t b, uint64_t c, uint64_t q,
                                       const Barrett52Params& p) {
  const u128 x = u128(a) * b + c;
  const uint64_t c1 = uint64_t(x >> (p.L - 1));
  const uint64_t quot = uint64_t((u128(c1) * p.mu) >> 52);
  return uint64_t(x) - quot * q;
}

#ifdef CB_UTIL_IFMA
// Broadcast constants of one modulus for the vector Barrett product.
struct IfmaBarrett52 {
  __m512i neg_q, mask, mu, q, two_q;
  __m128i shl, shr;  // 53 - L and L - 1, the shift counts forming c1
  explicit IfmaBarrett52(uint64_t q_)
      : IfmaBarrett52(q_, Barrett52Params(q_)) {}
  IfmaBarrett52(uint64_t q_, const Barrett52Params& p)
      : neg_q(_mm512_set1_epi64((uint64_t(1) << 52) - q_)),
        mask(_mm512_set1_epi64((uint64_t(1) << 52) - 1)),
        mu(_mm512_set1_epi64(p.mu)),
        q(_mm512_set1_epi64(q_)),
        two_q(_mm512_set1_epi64(2 * q_)),
        shl(_mm_set_epi64x(0, 53 - p.L)),
        shr(_mm_set_epi64x(0, p.L - 1)) {}

  // (a * b + c) mod q in [0, q), lanes with a, b, c in [0, q).
  __m512i mul_add(__m512i a, __m512i b, __m512i c) const {
    const __m512i hi = _mm512_madd52hi_epu64(_mm512_setzero_si512(), a, b);
    const __m512i lo = _mm512_madd52lo_epu64(c, a, b);
    const __m512i c1 = _mm512_add_epi64(_mm512_sll_epi64(hi, shl), _mm512_srl_epi64(lo, shr));
    const __m512i quot = _mm512_madd52hi_epu64(_mm512_setzero_si512(), c1, mu);
    const __m512i r = _mm512_and_si512(_mm512_madd52lo_epu64(lo, quot, neg_q), mask);
    return reduce_once52(reduce_once52(r, two_q), q);  // [0, 3q) -> [0, q)
  }
};
#endif

}  // namespace cb::util
