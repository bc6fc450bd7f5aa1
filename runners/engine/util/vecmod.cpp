#include "engine/util/vecmod.h"

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

void mul_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, const Barrett& br) {
  for (long i = 0; i < n; ++i) out[i] = br.mul(a[i], b[i]);
}

void crt_combine_array(uint64_t* out, const uint64_t* const* x, const uint64_t* w, long kx,
                       uint64_t x_bound, const int64_t* v, uint64_t c, long n, uint64_t q) {
  long i = 0;
#ifdef CB_UTIL_IFMA
  if (q < kMaxIfmaModulus && x_bound <= (uint64_t(1) << 52)) {
    const Ifma52 f(q);
    const __m512i qv = _mm512_set1_epi64(q), two_q = _mm512_set1_epi64(2 * q);
    std::vector<__m512i> wv(kx), wpv(kx);
    for (long k = 0; k < kx; ++k) {
      wv[k] = _mm512_set1_epi64(w[k]);
      wpv[k] = _mm512_set1_epi64(shoup52(w[k], q));
    }
    const __m512i cv = _mm512_set1_epi64(c), cpv = _mm512_set1_epi64(shoup52(c, q));
    for (; i + 8 <= n; i += 8) {
      __m512i acc = _mm512_setzero_si512();  // in [0, 2q)
      for (long k = 0; k < kx; ++k)
        acc = reduce_once52(_mm512_add_epi64(acc, f.mul_lazy(_mm512_loadu_si512(x[k] + i), wv[k], wpv[k])), two_q);
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
