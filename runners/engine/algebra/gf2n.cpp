// gf2n.cpp: GF(2^n) = GF(2)[x]/f(x), n <= 64, on uint64_t words.
//
// A product is one carry-less multiplication (PCLMULQDQ when the compiler targets it, a
// 4-bit-window loop otherwise) giving a 2n-1 bit value hi*x^n + lo, then a Barrett
// reduction by f with mu = floor(x^(2n) / f) = x^n + mu_low:
//     q = hi + ((hi * mu_low) >> n),   result = (lo + q * f_low) mod x^n,
// two more carry-less products; it works for every f, including n = 64 with the x^64 term
// implicit.
#include <NTL/GF2XFactoring.h>

#if defined(__PCLMUL__)
#include <emmintrin.h>
#include <wmmintrin.h>
#endif

#include "engine/algebra/bits.h"
#include "engine/algebra/subfield.h"
#include "engine/errors.h"

namespace cb {

namespace {

struct U128 {
  uint64_t lo, hi;
};

// Carry-less product of two 64-bit words.
inline U128 clmul(uint64_t a, uint64_t b) {
#if defined(__PCLMUL__)
  const __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128(int64_t(a)), _mm_cvtsi64_si128(int64_t(b)), 0);
  return {uint64_t(_mm_cvtsi128_si64(p)), uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)))};
#else
  // 4-bit window: table of a * w for w < 16 (a*w has up to 67 bits: keep the top 3 apart).
  uint64_t tlo[16], thi[16];
  tlo[0] = 0, thi[0] = 0;
  for (int w = 1; w < 16; ++w) {
    const int t = 31 - __builtin_clz(unsigned(w));  // top bit of w
    const int r = w ^ (1 << t);
    tlo[w] = tlo[r] ^ (a << t);
    thi[w] = thi[r] ^ (t ? a >> (64 - t) : 0);
  }
  uint64_t lo = 0, hi = 0;
  for (int i = 60; i >= 0; i -= 4) {
    hi = (hi << 4) | (lo >> 60);
    lo <<= 4;
    const unsigned w = unsigned(b >> i) & 15;
    lo ^= tlo[w];
    hi ^= thi[w];
  }
  return {lo, hi};
#endif
}

// f as an NTL polynomial of degree n.
NTL::GF2X modulus_poly(long n, uint64_t f_low) {
  NTL::GF2X f;
  NTL::SetCoeff(f, n);
  for (long i = 0; i < 64 && i < n; ++i)
    if ((f_low >> i) & 1) NTL::SetCoeff(f, i);
  return f;
}

}  // namespace

// Shared with subfield.cpp: validates (n, f_low) and returns f.
NTL::GF2X gf2n_checked_modulus(long n, uint64_t f_low) {
  if (n < 1 || n > 64) throw ParameterError(msg("n=", n, " is outside [1, 64]: GF(2^n) elements travel as uint64_t"));
  if (n < 64 && (f_low >> n) != 0)
    throw ParameterError(msg("f_low=0x", std::hex, f_low, std::dec, " has terms of degree >= n=", n,
                             ": give f without its x^n term"));
  NTL::GF2X f = modulus_poly(n, f_low);
  if (!NTL::IterIrredTest(f))
    throw ParameterError(msg("f=x^", n, "+0x", std::hex, f_low, std::dec, " is reducible: GF(2^", n,
                             ") needs an irreducible modulus"));
  return f;
}

GF2n::GF2n(long n, uint64_t f_low) : n_(n), f_low_(f_low) {
  const NTL::GF2X f = gf2n_checked_modulus(n, f_low);
  // mu = floor(x^(2n) / f), degree n; keep its low n bits.
  NTL::GF2X x2n, mu;
  NTL::SetCoeff(x2n, 2 * n);
  NTL::div(mu, x2n, f);
  mu_low_ = 0;
  for (long i = 0; i < n; ++i)
    if (NTL::IsOne(NTL::coeff(mu, i))) mu_low_ |= uint64_t(1) << i;
  mask_ = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
}

uint64_t GF2n::mul(uint64_t a, uint64_t b) const {
  const U128 p = clmul(a, b);
  const long n = n_;
  // x = hi_n * x^n + lo_n with lo_n = low n bits.
  const uint64_t lo = p.lo & mask_;
  const uint64_t hi = n == 64 ? p.hi : (p.lo >> n) | (n ? p.hi << (64 - n) : 0);
  const U128 t = clmul(hi, mu_low_);
  const uint64_t q = hi ^ (n == 64 ? t.hi : (t.lo >> n) | (t.hi << (64 - n)));
  return (lo ^ clmul(q, f_low_).lo) & mask_;
}

uint64_t GF2n::pow(uint64_t a, uint64_t e) const {
  uint64_t r = 1, x = a;
  while (e) {
    if (e & 1) r = mul(r, x);
    e >>= 1;
    if (e) x = mul(x, x);
  }
  return r;
}

uint64_t GF2n::frob(uint64_t a, long j) const {
  j %= n_;
  if (j < 0) j += n_;
  for (long i = 0; i < j; ++i) a = mul(a, a);
  return a;
}

uint64_t GF2n::inv(uint64_t a) const {
  // 2^n - 2 (n = 64: wraps to 2^64 - 2 exactly).
  const uint64_t e = (n_ == 64 ? uint64_t(0) : (uint64_t(1) << n_)) - 2;
  return pow(a, e);
}

}  // namespace cb
