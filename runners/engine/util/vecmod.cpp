#include "engine/util/vecmod.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/util/ifma.h"

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>
// GCC 12 reports its own _mm512_undefined_* placeholders as maybe-uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#define CB_VECMOD_AVX512 1
#endif

namespace cb::util {

namespace {

#ifdef CB_VECMOD_AVX512
// x * w mod q in [0, q), lanes independent; wp_hi = wp >> 32. Quotient from three 32x32
// products (carries dropped, at most 3 short), so the raw remainder is in [0, 4q).
inline __m512i shoup_full(__m512i x, __m512i w, __m512i wp, __m512i wp_hi, __m512i q,
                          __m512i two_q) {
  const __m512i x_hi = _mm512_srli_epi64(x, 32);
  const __m512i quot = _mm512_add_epi64(
      _mm512_mul_epu32(x_hi, wp_hi),
      _mm512_add_epi64(_mm512_srli_epi64(_mm512_mul_epu32(x, wp_hi), 32),
                       _mm512_srli_epi64(_mm512_mul_epu32(x_hi, wp), 32)));
  __m512i r = _mm512_sub_epi64(_mm512_mullo_epi64(x, w), _mm512_mullo_epi64(quot, q));
  r = _mm512_min_epu64(r, _mm512_sub_epi64(r, two_q));
  return _mm512_min_epu64(r, _mm512_sub_epi64(r, q));
}
#endif

}  // namespace

void mul_shoup_array(uint64_t* out, const uint64_t* x, const uint64_t* w, const uint64_t* wp,
                     long n, uint64_t q) {
  long i = 0;
#ifdef CB_VECMOD_AVX512
  const __m512i qv = _mm512_set1_epi64(q), two_q = _mm512_set1_epi64(2 * q);
  for (; i + 8 <= n; i += 8) {
    const __m512i wpv = _mm512_loadu_si512(wp + i);
    _mm512_storeu_si512(out + i, shoup_full(_mm512_loadu_si512(x + i), _mm512_loadu_si512(w + i),
                                            wpv, _mm512_srli_epi64(wpv, 32), qv, two_q));
  }
#endif
  for (; i < n; ++i) out[i] = mul_shoup(x[i], w[i], wp[i], q);
}

void mul_scalar_array(uint64_t* out, const uint64_t* x, ShoupMul w, long n, uint64_t q) {
  long i = 0;
#ifdef CB_VECMOD_AVX512
  const __m512i qv = _mm512_set1_epi64(q), two_q = _mm512_set1_epi64(2 * q);
  const __m512i wv = _mm512_set1_epi64(w.w), wpv = _mm512_set1_epi64(w.wp);
  const __m512i wp_hi = _mm512_srli_epi64(wpv, 32);
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(out + i, shoup_full(_mm512_loadu_si512(x + i), wv, wpv, wp_hi, qv, two_q));
#endif
  for (; i < n; ++i) out[i] = mul_shoup(x[i], w.w, w.wp, q);
}

void mul_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q) {
#ifdef CB_UTIL_IFMA
  if (q < kMaxIfmaModulus) {
    const IfmaBarrett52 f(q);
    const __m512i zero = _mm512_setzero_si512();
    long i = 0;
    for (; i + 8 <= n; i += 8)
      _mm512_storeu_si512(out + i, f.mul_add(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i), zero));
    if (i < n) {
      const __mmask8 k = __mmask8((1u << (n - i)) - 1);
      _mm512_mask_storeu_epi64(out + i, k, f.mul_add(_mm512_maskz_loadu_epi64(k, a + i),
                                                     _mm512_maskz_loadu_epi64(k, b + i), zero));
    }
    return;
  }
#endif
  const Barrett br(q);
  for (long i = 0; i < n; ++i) out[i] = br.mul(a[i], b[i]);
}

void mul_add_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* c, long n,
                       uint64_t q) {
#ifdef CB_UTIL_IFMA
  if (q < kMaxIfmaModulus) {
    const IfmaBarrett52 f(q);
    long i = 0;
    for (; i + 8 <= n; i += 8)
      _mm512_storeu_si512(out + i, f.mul_add(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i),
                                             _mm512_loadu_si512(c + i)));
    if (i < n) {
      const __mmask8 k = __mmask8((1u << (n - i)) - 1);
      _mm512_mask_storeu_epi64(out + i, k, f.mul_add(_mm512_maskz_loadu_epi64(k, a + i),
                                                     _mm512_maskz_loadu_epi64(k, b + i),
                                                     _mm512_maskz_loadu_epi64(k, c + i)));
    }
    return;
  }
#endif
  const Barrett br(q);
  for (long i = 0; i < n; ++i) out[i] = br.reduce(u128(a[i]) * b[i] + c[i]);
}

void crt_combine_array(uint64_t* out, const uint64_t* const* x, const uint64_t* w, long kx,
                       uint64_t x_bound, const int64_t* v, uint64_t c, long n, uint64_t q) {
  long i = 0;
#ifdef CB_UTIL_IFMA
  if (q < kMaxIfmaModulus && x_bound <= (uint64_t(1) << 52)) {
    const Ifma52 f(q);
    const __m512i qv = _mm512_set1_epi64(q), two_q = _mm512_set1_epi64(2 * q);
    struct Broadcast {  // a vector in a struct: std::vector<__m512i> drops its alignment attribute
      __m512i v;
    };
    std::vector<Broadcast> wv(kx), wpv(kx);
    for (long k = 0; k < kx; ++k) {
      wv[k].v = _mm512_set1_epi64(w[k]);
      wpv[k].v = _mm512_set1_epi64(shoup52(w[k], q));
    }
    const __m512i cv = _mm512_set1_epi64(c), cpv = _mm512_set1_epi64(shoup52(c, q));
    // Blocks of B terms summed unreduced: the products' low and high 52-bit halves in two
    // accumulators (two IFMA instructions a term, against three and a reduction for a
    // Shoup product), exact while the high sum and the low sum's carries stay below 2^52:
    // each high half is at most H = (x_bound - 1)(q - 1) / 2^52, so B (H + 1) < 2^52.
    // Then hi 2^52 + lo = (hi + lo / 2^52) 2^52 + lo mod 2^52 is reduced by two Shoup
    // products (by 2^52 mod q and by 1) into [0, 2q). Worth it from 4 terms a block (the
    // lifts' words are residues below 2^50: B = 15 or 16).
    const uint64_t H = uint64_t((u128(x_bound - 1) * (q - 1)) >> 52);
    const long B = long(((uint64_t(1) << 52) - 1) / (H + 1));
    const uint64_t c52 = uint64_t((u128(1) << 52) % q);
    const __m512i c52v = _mm512_set1_epi64(c52), c52p = _mm512_set1_epi64(shoup52(c52, q));
    const __m512i onev = _mm512_set1_epi64(1), onep = _mm512_set1_epi64(shoup52(1, q));
    const __m512i zero = _mm512_setzero_si512();
    for (; i + 8 <= n; i += 8) {
      __m512i acc = zero;  // in [0, 2q)
      if (B >= 4) {
        for (long k0 = 0; k0 < kx; k0 += B) {
          __m512i lo = zero, hi = zero;
          for (long k = k0; k < std::min(kx, k0 + B); ++k) {
            const __m512i xv = _mm512_loadu_si512(x[k] + i);
            lo = _mm512_madd52lo_epu64(lo, xv, wv[k].v);
            hi = _mm512_madd52hi_epu64(hi, xv, wv[k].v);
          }
          hi = _mm512_add_epi64(hi, _mm512_srli_epi64(lo, 52));
          lo = _mm512_and_si512(lo, f.mask);
          const __m512i r = _mm512_add_epi64(f.mul_lazy(hi, c52v, c52p), f.mul_lazy(lo, onev, onep));  // [0, 4q)
          acc = reduce_once52(_mm512_add_epi64(acc, reduce_once52(r, two_q)), two_q);
        }
      } else {
        for (long k = 0; k < kx; ++k)
          acc = reduce_once52(_mm512_add_epi64(acc, f.mul_lazy(_mm512_loadu_si512(x[k] + i), wv[k].v, wpv[k].v)), two_q);
      }
      acc = reduce_once52(acc, qv);
      __m512i vi = _mm512_loadu_si512(v + i);
      vi = _mm512_mask_add_epi64(vi, _mm512_cmplt_epi64_mask(vi, _mm512_setzero_si512()), vi, qv);
      const __m512i vc = reduce_once52(f.mul_lazy(vi, cv, cpv), qv);
      const __m512i d = _mm512_sub_epi64(acc, vc);
      _mm512_storeu_si512(out + i, _mm512_min_epu64(d, _mm512_add_epi64(d, qv)));
    }
  }
#else
  (void)x_bound;
#endif
  if (i == n) return;
  const Barrett br(q);
  const uint64_t cn = c == 0 ? 0 : q - c;  // -c mod q
  for (; i < n; ++i) {
    u128 acc = 0;
    for (long k = 0; k < kx; ++k) acc += u128(x[k][i]) * w[k];
    const uint64_t vi = v[i] >= 0 ? uint64_t(v[i]) : q - uint64_t(-v[i]);
    acc += u128(vi) * cn;
    out[i] = br.reduce(acc);
  }
}

void dot2_array(uint64_t* out0, uint64_t* out1, const uint64_t* const* x, const uint64_t* const* y0,
                const uint64_t* const* y1, long k, const int* perm, long n, uint64_t q) {
  long t = 0;
#ifdef CB_UTIL_IFMA
  if (q < kMaxIfmaModulus && k < 16) {
    const Ifma52 f(q);
    const __m512i qv = _mm512_set1_epi64(q), two_q = _mm512_set1_epi64(2 * q);
    const uint64_t c52 = uint64_t((u128(1) << 52) % q);
    const __m512i c52v = _mm512_set1_epi64(c52), c52p = _mm512_set1_epi64(shoup52(c52, q));
    const __m512i onev = _mm512_set1_epi64(1), onep = _mm512_set1_epi64(shoup52(1, q));
    const __m512i zero = _mm512_setzero_si512();
    // (hi, lo) = sum of 104-bit products as 52-bit halves -> value mod q in [0, q).
    auto finish = [&](__m512i lo, __m512i hi) {
      hi = _mm512_add_epi64(hi, _mm512_srli_epi64(lo, 52));
      lo = _mm512_and_si512(lo, f.mask);
      __m512i r = _mm512_add_epi64(f.mul_lazy(hi, c52v, c52p), f.mul_lazy(lo, onev, onep));
      return reduce_once52(reduce_once52(r, two_q), qv);
    };
    for (; t + 8 <= n; t += 8) {
      __m512i lo0 = zero, hi0 = zero, lo1 = zero, hi1 = zero;
      const __m256i idx = perm ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(perm + t)) : _mm256_setzero_si256();
      for (long j = 0; j < k; ++j) {
        const __m512i xv = perm ? _mm512_i32gather_epi64(idx, reinterpret_cast<const long long*>(x[j]), 8)
                                : _mm512_loadu_si512(x[j] + t);
        const __m512i a = _mm512_loadu_si512(y0[j] + t), b = _mm512_loadu_si512(y1[j] + t);
        lo0 = _mm512_madd52lo_epu64(lo0, xv, a);
        hi0 = _mm512_madd52hi_epu64(hi0, xv, a);
        lo1 = _mm512_madd52lo_epu64(lo1, xv, b);
        hi1 = _mm512_madd52hi_epu64(hi1, xv, b);
      }
      _mm512_storeu_si512(out0 + t, finish(lo0, hi0));
      _mm512_storeu_si512(out1 + t, finish(lo1, hi1));
    }
  }
#endif
  if (t == n) return;
  const Barrett br(q);
  for (; t < n; ++t) {
    const long src = perm ? perm[t] : t;
    u128 s0 = 0, s1 = 0;
    for (long j = 0; j < k; ++j) {
      const uint64_t xv = x[j][src];
      s0 += u128(xv) * y0[j][t];
      s1 += u128(xv) * y1[j][t];
    }
    out0[t] = br.reduce(s0);
    out1[t] = br.reduce(s1);
  }
}

void crt_quotient_array(int64_t* v, const uint64_t* const* y, const double* inv_t, long ky, bool even_fix,
                        long n) {
  long i = 0;
#ifdef CB_VECMOD_AVX512
  const __m512i one = _mm512_set1_epi64(1);
  for (; i + 8 <= n; i += 8) {
    __m512d f = _mm512_setzero_pd();
    __m512i par = _mm512_setzero_si512();
    for (long k = 0; k < ky; ++k) {
      const __m512i yk = _mm512_loadu_si512(y[k] + i);
      f = _mm512_fmadd_pd(_mm512_cvtepu64_pd(yk), _mm512_set1_pd(inv_t[k]), f);
      par = _mm512_xor_si512(par, yk);
    }
    const __m512d fr = _mm512_roundscale_pd(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512i vi = _mm512_cvtpd_epi64(fr);
    if (even_fix) {
      const __mmask8 odd = _mm512_test_epi64_mask(_mm512_xor_si512(par, vi), one);
      const __mmask8 up = _mm512_cmp_pd_mask(f, fr, _CMP_GE_OQ);
      vi = _mm512_mask_add_epi64(vi, odd & up, vi, one);
      vi = _mm512_mask_sub_epi64(vi, odd & ~up, vi, one);
    }
    _mm512_storeu_si512(v + i, vi);
  }
#endif
  for (; i < n; ++i) {
    double f = 0;
    uint64_t parity = 0;
    for (long k = 0; k < ky; ++k) {
      f = std::fma(double(y[k][i]), inv_t[k], f);
      parity += y[k][i];
    }
    int64_t vi = int64_t(std::nearbyint(f));
    if (even_fix && ((parity + uint64_t(vi)) & 1)) vi += (f >= double(vi)) ? 1 : -1;
    v[i] = vi;
  }
}

void add_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q) {
  for (long i = 0; i < n; ++i) {
    const uint64_t s = a[i] + b[i];
    out[i] = s >= q ? s - q : s;
  }
}

void sub_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q) {
  for (long i = 0; i < n; ++i) {
    const uint64_t d = a[i] - b[i];
    out[i] = a[i] >= b[i] ? d : d + q;
  }
}

}  // namespace cb::util
