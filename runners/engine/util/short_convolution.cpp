#include "engine/util/short_convolution.h"

#include <algorithm>
#include <cstring>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"

namespace cb::util {

namespace {

// Per-thread scratch of at least n words (apply() stays const and thread-safe).
uint64_t* scratch(long n) {
  thread_local std::vector<uint64_t> buf;
  if (long(buf.size()) < n) buf.resize(n);
  return buf.data();
}

// Any q < 2^61, values in [0, q): row by row, through a copy of the inputs.
void apply_scalar(uint64_t* rows, long r, long wp, const uint64_t* h, const uint64_t* hp, uint64_t q) {
  uint64_t* x = scratch(r * wp);
  std::memcpy(x, rows, sizeof(uint64_t) * r * wp);
  for (long s = 0; s < r; ++s) {
    uint64_t* y = rows + s * wp;
    std::fill(y, y + wp, 0);
    for (long i = 0; i < r; ++i) {
      const long t = s >= i ? s - i : s - i + r;
      const uint64_t* xi = x + i * wp;
      for (long c = 0; c < wp; ++c) y[c] = add_mod(y[c], mul_shoup(xi[c], h[t], hp[t], q), q);
    }
  }
}

#ifdef CB_UTIL_IFMA
struct Consts52 {
  Ifma52 ar;
  __m512i q, two_q, mask, c52, c52p, one, one_p;
  Consts52(uint64_t q_, uint64_t c52_, uint64_t c52p_, uint64_t one_p_)
      : ar(q_),
        q(_mm512_set1_epi64(q_)),
        two_q(_mm512_set1_epi64(2 * q_)),
        mask(_mm512_set1_epi64((uint64_t(1) << 52) - 1)),
        c52(_mm512_set1_epi64(c52_)),
        c52p(_mm512_set1_epi64(c52p_)),
        one(_mm512_set1_epi64(1)),
        one_p(_mm512_set1_epi64(one_p_)) {}
};

// One output of the columns whose inputs are x[0..r) (each < 4q), in [0, 2q).
template <int R>
inline __m512i output52(const __m512i* x, long r, long s, const uint64_t* h, const uint64_t* hp, uint64_t q,
                        const Consts52& k) {
  const long n = R > 0 ? R : r;
  if (n <= 3) {  // per-term Shoup products: sum < 2 n q <= 6q
    __m512i acc = _mm512_setzero_si512();
    for (long i = 0; i < n; ++i) {
      const long t = s >= i ? s - i : s - i + n;
      acc = _mm512_add_epi64(acc, k.ar.mul_lazy(x[i], _mm512_set1_epi64(h[t]), _mm512_set1_epi64(hp[t])));
    }
    acc = reduce_once52(acc, _mm512_set1_epi64(4 * q));
    return reduce_once52(acc, k.two_q);
  }
  // Exact sum of the 104-bit products as hi 2^52 + lo (x < 2^52, h < 2^50).
  __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
  for (long i = 0; i < n; ++i) {
    const long t = s >= i ? s - i : s - i + n;
    const __m512i w = _mm512_set1_epi64(h[t]);
    lo = _mm512_madd52lo_epu64(lo, x[i], w);
    hi = _mm512_madd52hi_epu64(hi, x[i], w);
  }
  // hi < n q (each term < 4q * q / 2^52 < q), plus lo >> 52 < n: below (n + 1) q; down to
  // [0, 4q), a valid multiplicand.
  hi = _mm512_add_epi64(hi, _mm512_srli_epi64(lo, 52));
  lo = _mm512_and_si512(lo, k.mask);
  long c = 4;
  while (c < n + 1) c *= 2;
  for (c /= 2; c >= 4; c /= 2) hi = reduce_once52(hi, _mm512_set1_epi64(uint64_t(c) * q));
  const __m512i y = _mm512_add_epi64(k.ar.mul_lazy(hi, k.c52, k.c52p), k.ar.mul_lazy(lo, k.one, k.one_p));
  return reduce_once52(y, k.two_q);
}

// R > 0: the r = R inputs of 8 columns held in registers; R = 0: any r, from a copy.
template <int R>
void apply52(uint64_t* rows, long r, long wp, const uint64_t* h, const uint64_t* hp, uint64_t q,
             const Consts52& k) {
  if constexpr (R > 0) {
    for (long c = 0; c < wp; c += 8) {
      __m512i x[R];
      for (int i = 0; i < R; ++i) x[i] = _mm512_loadu_si512(rows + i * wp + c);
      for (int s = 0; s < R; ++s) _mm512_storeu_si512(rows + s * wp + c, output52<R>(x, R, s, h, hp, q, k));
    }
  } else {
    __m512i* x = reinterpret_cast<__m512i*>(scratch(8 * r + 8));
    x = reinterpret_cast<__m512i*>((reinterpret_cast<uintptr_t>(x) + 63) & ~uintptr_t(63));
    for (long c = 0; c < wp; c += 8) {
      for (long i = 0; i < r; ++i) x[i] = _mm512_loadu_si512(rows + i * wp + c);
      for (long s = 0; s < r; ++s) _mm512_storeu_si512(rows + s * wp + c, output52<0>(x, r, s, h, hp, q, k));
    }
  }
}
#endif

}  // namespace

ShortConvolution::ShortConvolution(long r, uint64_t q) : r_(r), q_(q), fast_(false) {
  if (r < 1) throw ParameterError(msg("ShortConvolution: r=", r, " must be >= 1"));
  if (q < 2 || q >= kMaxModulus) throw ParameterError(msg("ShortConvolution: q=", q, " must be in [2, 2^61)"));
  fast_ = kIfmaCompiled && q < kMaxIfmaModulus;
  if (fast_) {
    c52_ = uint64_t((u128(1) << 52) % q);
    c52p_ = shoup52(c52_, q);
    one_p_ = shoup52(1 % q, q);
  }
}

void ShortConvolution::prepare(const uint64_t* k, uint64_t* h, uint64_t* hp) const {
  for (long t = 0; t < r_; ++t) {
    h[t] = k[t] % q_;
    hp[t] = fast_ ? shoup52(h[t], q_) : shoup(h[t], q_);
  }
}

void ShortConvolution::apply(uint64_t* rows, long wp, const uint64_t* h, const uint64_t* hp) const {
#ifdef CB_UTIL_IFMA
  if (fast_) {
    const Consts52 k(q_, c52_, c52p_, one_p_);
    switch (r_) {
      case 1: return apply52<1>(rows, 1, wp, h, hp, q_, k);
      case 3: return apply52<3>(rows, 3, wp, h, hp, q_, k);
      case 5: return apply52<5>(rows, 5, wp, h, hp, q_, k);
      case 7: return apply52<7>(rows, 7, wp, h, hp, q_, k);
      case 9: return apply52<9>(rows, 9, wp, h, hp, q_, k);
      case 11: return apply52<11>(rows, 11, wp, h, hp, q_, k);
      case 13: return apply52<13>(rows, 13, wp, h, hp, q_, k);
      case 15: return apply52<15>(rows, 15, wp, h, hp, q_, k);
      default: return apply52<0>(rows, r_, wp, h, hp, q_, k);
    }
  }
#endif
  apply_scalar(rows, r_, wp, h, hp, q_);
}

}  // namespace cb::util
