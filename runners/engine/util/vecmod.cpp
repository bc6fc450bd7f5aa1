#include "engine/util/vecmod.h"

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
