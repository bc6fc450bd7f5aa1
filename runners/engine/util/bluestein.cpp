#include "engine/util/bluestein.h"

#include <algorithm>
#include <numeric>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/primes.h"
#include "engine/util/vecmod.h"

namespace cb::util {

namespace {

int log2_exact(long n) {
  int k = 0;
  while ((long(1) << k) < n) ++k;
  return k;
}

}  // namespace

// Validates (m, q) before any member is built from them; returns log2(N).
int BluesteinTransform::check(long m, uint64_t q) {
  if (m < 3 || m % 2 == 0)
    throw ParameterError(msg("BluesteinTransform: m=", m, " must be odd and >= 3"));
  if (m > (long(1) << 24))
    throw ParameterError(msg("BluesteinTransform: m=", m, " exceeds 2^24"));
  const long n = bluestein_length(m);
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("BluesteinTransform: q=", q, " must be a prime below 2^61"));
  if ((q - 1) % (uint64_t(m) * uint64_t(n)) != 0)
    throw ParameterError(msg("BluesteinTransform: q=", q, " is not 1 mod m*N=", m, "*", n, "=",
                             uint64_t(m) * uint64_t(n), " (m=", m, ", N=", n, ")"));
  return log2_exact(n);
}

BluesteinTransform::BluesteinTransform(long m, uint64_t q)
    : m_(m), phi_(0), q_(q), zeta_(0), ntt_(check(m, q), q) {
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) zmstar_.push_back(j);
  zmstar_.shrink_to_fit();
  phi_ = long(zmstar_.size());
  unit_.assign((m + 7) / 8, 0);
  for (long j : zmstar_) unit_[j / 8] |= uint8_t(1u << (j % 8));
  zeta_ = primitive_root_of_unity(uint64_t(m), q);

  const long n = ntt_.n();
  // hp[e] = h^e, e < m, with h = zeta^((m+1)/2); h^(k^2) = hp[k^2 mod m] and
  // h^(-k^2) = hp[(m - k^2 mod m) mod m] since h^m = 1.
  const uint64_t h = pow_mod(zeta_, uint64_t(m + 1) / 2, q);
  std::vector<uint64_t> hp(m);
  hp[0] = 1;
  for (long e = 1; e < m; ++e) hp[e] = mul_mod(hp[e - 1], h, q);
  auto chirp = [&](long k) { return hp[(k * k) % m]; };                  // h^(k^2)
  auto chirp_inv = [&](long k) { return hp[(m - (k * k) % m) % m]; };    // h^(-k^2)

  const uint64_t n_inv = inv_mod(uint64_t(n) % q, q);
  const uint64_t mn_inv = mul_mod(n_inv, inv_mod(uint64_t(m) % q, q), q);
  pre_.resize(m), pre_p_.resize(m), post_.resize(m), post_p_.resize(m);
  ipost_.resize(m), ipost_p_.resize(m);
  for (long j = 0; j < m; ++j) {
    pre_[j] = chirp(j);
    post_[j] = mul_mod(pre_[j], n_inv, q);
    ipost_[j] = mul_mod(pre_[j], mn_inv, q);
    pre_p_[j] = ntt_.companion(pre_[j]);
    post_p_[j] = ntt_.companion(post_[j]);
    ipost_p_[j] = ntt_.companion(ipost_[j]);
  }

  // c_k = h^(-k^2) at k and N - k for 0 <= k < m (no overlap since N >= 2m).
  kernel_.assign(n, 0);
  for (long k = 0; k < m; ++k) {
    const uint64_t c = chirp_inv(k);
    kernel_[k] = c;
    if (k > 0) kernel_[n - k] = c;
  }
  ntt_.forward(kernel_.data());
  kernel_p_.resize(n);
  for (long i = 0; i < n; ++i) kernel_p_[i] = ntt_.companion(kernel_[i]);
}

size_t BluesteinTransform::bytes() const {
  size_t w = kernel_.capacity() + kernel_p_.capacity() + pre_.capacity() + pre_p_.capacity() + post_.capacity() +
             post_p_.capacity() + ipost_.capacity() + ipost_p_.capacity();
  return ntt_.bytes() + w * sizeof(uint64_t) + zmstar_.capacity() * sizeof(long) + unit_.capacity();
}

size_t BluesteinTransform::table_bytes(long m, long phi, long n) {
  return Ntt::table_bytes(n) + (2 * size_t(n) + 6 * size_t(m)) * sizeof(uint64_t) + size_t(phi) * sizeof(long) +
         size_t(m + 7) / 8;
}

namespace {

// Per-thread scratch of at least n words (const methods stay thread-safe).
uint64_t* scratch(long n) {
  thread_local std::vector<uint64_t> buf;
  if (long(buf.size()) < n) buf.resize(n);
  return buf.data();
}

#ifdef CB_UTIL_IFMA
// ---- Fast moduli (q < 2^50, IFMA): the chirp products as 52-bit Shoup products, fused
// with the copies around the convolution so the length-N scratch is streamed fewer times.
// unit[c] has bit l set iff j = 8c + l lies in Z_m^* (j < m).

// Forward pre-chirp: x[i] = x[i + half] = coeffs[i] pre[i] mod q in [0, 2q) for
// i < ncoeffs, zeros up to half in both halves (level 0 of the forward NTT on (lo, 0)).
void pre_forward52(uint64_t* x, long half, const uint64_t* coeffs, long ncoeffs,
                   const uint64_t* w, const uint64_t* wp, uint64_t q) {
  const Ifma52 ar(q);
  long i = 0;
  for (; i + 8 <= ncoeffs; i += 8) {
    const __m512i xv = fit52(_mm512_loadu_si512(coeffs + i), q);
    const __m512i r = ar.mul_lazy(xv, _mm512_loadu_si512(w + i), _mm512_loadu_si512(wp + i));
    _mm512_storeu_si512(x + i, r);
    _mm512_storeu_si512(x + i + half, r);
  }
  for (; i < ncoeffs; ++i) x[i] = x[i + half] = mul_shoup52_lazy(fit52(coeffs[i], q), w[i], wp[i], q);
  std::fill(x + ncoeffs, x + half, 0);
  std::fill(x + half + ncoeffs, x + 2 * half, 0);
}

// Inverse pre-chirp: x[j] = x[j + half] = v_j pre[j] mod q in [0, 2q) where v_j =
// values[t] for j = zmstar[t] and 0 for the other j < half. The values are spread over
// Z_m^* with masked expand loads.
void pre_inverse52(uint64_t* x, long half, const uint64_t* values, const uint8_t* unit, long m,
                   const uint64_t* w, const uint64_t* wp, uint64_t q) {
  const Ifma52 ar(q);
  long j = 0, t = 0;
  for (; j + 8 <= m; j += 8) {
    const __mmask8 k = unit[j / 8];
    const __m512i xv = fit52(_mm512_maskz_expandloadu_epi64(k, values + t), q);
    t += __builtin_popcount(k);
    const __m512i r = ar.mul_lazy(xv, _mm512_loadu_si512(w + j), _mm512_loadu_si512(wp + j));
    _mm512_storeu_si512(x + j, r);
    _mm512_storeu_si512(x + j + half, r);
  }
  for (; j < m; ++j) {
    const uint64_t v = (unit[j / 8] >> (j % 8)) & 1 ? values[t++] : 0;
    x[j] = x[j + half] = mul_shoup52_lazy(fit52(v, q), w[j], wp[j], q);
  }
  std::fill(x + m, x + half, 0);
  std::fill(x + half + m, x + 2 * half, 0);
}

// y_j = (x[j] + x[j + half]) w[j] mod q in [0, q), with x[.] in [0, 2q) (the sum is
// < 4q < 2^52): level 0 of the inverse NTT and the post-chirp, 8 lanes from j.
inline __m512i post52(const uint64_t* x, long half, const uint64_t* w, const uint64_t* wp,
                      long j, const Ifma52& ar, __m512i qv) {
  const __m512i s = _mm512_add_epi64(_mm512_loadu_si512(x + j), _mm512_loadu_si512(x + j + half));
  return reduce_once52(ar.mul_lazy(s, _mm512_loadu_si512(w + j), _mm512_loadu_si512(wp + j)), qv);
}
inline uint64_t post52(const uint64_t* x, long half, const uint64_t* w, const uint64_t* wp,
                       long j, uint64_t q) {
  const uint64_t r = mul_shoup52_lazy(x[j] + x[j + half], w[j], wp[j], q);
  return r >= q ? r - q : r;
}

// Forward post-chirp: values = (y_j for j in Z_m^*), compressed out of the lanes.
void post_forward52(uint64_t* values, long phi, const uint64_t* x, long half,
                    const uint8_t* unit, long m, const uint64_t* w, const uint64_t* wp,
                    uint64_t q) {
  const Ifma52 ar(q);
  const __m512i qv = _mm512_set1_epi64(q);
  long j = 0, t = 0;
  for (; j + 8 <= m; j += 8) {
    const __mmask8 k = unit[j / 8];
    const __m512i y = _mm512_maskz_compress_epi64(k, post52(x, half, w, wp, j, ar, qv));
    if (t + 8 <= phi) {
      _mm512_storeu_si512(values + t, y);  // lanes past the popcount are overwritten later
    } else {
      _mm512_mask_storeu_epi64(values + t, __mmask8((1u << __builtin_popcount(k)) - 1), y);
    }
    t += __builtin_popcount(k);
  }
  for (; j < m; ++j)
    if ((unit[j / 8] >> (j % 8)) & 1) values[t++] = post52(x, half, w, wp, j, q);
}

// Inverse post-chirp: coeffs[0] = y_0, coeffs[i] = y_(m-i), reversing 8 lanes at a time.
void post_inverse52(uint64_t* coeffs, const uint64_t* x, long half, long m, const uint64_t* w,
                    const uint64_t* wp, uint64_t q) {
  const Ifma52 ar(q);
  const __m512i qv = _mm512_set1_epi64(q);
  const __m512i rev = _mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  coeffs[0] = post52(x, half, w, wp, 0, q);
  long i = 1;
  for (; i + 8 <= m; i += 8)  // coeffs[i..i+8) = y at j = m-i-7 .. m-i, reversed
    _mm512_storeu_si512(coeffs + i,
                        _mm512_permutexvar_epi64(rev, post52(x, half, w, wp, m - i - 7, ar, qv)));
  for (; i < m; ++i) coeffs[i] = post52(x, half, w, wp, m - i, q);
}
#endif

}  // namespace

void BluesteinTransform::forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
  if (ncoeffs < 0 || ncoeffs > m_)
    throw ParameterError(msg("BluesteinTransform::forward: ncoeffs=", ncoeffs,
                             " is outside [0, m=", m_, "]"));
  const uint64_t q = q_;
  const long n = ntt_.n(), half = n / 2;
  uint64_t* x = scratch(n);
#ifdef CB_UTIL_IFMA
  if (ntt_.fast()) {  // the same steps with 52-bit products; lazy [0, 2q) between them
    pre_forward52(x, half, coeffs, ncoeffs, pre_.data(), pre_p_.data(), q);
    ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
    post_forward52(values, phi_, x, half, unit_.data(), m_, post_.data(), post_p_.data(), q);
    return;
  }
#endif
  // x = (a_i h^(i^2)) padded to N; level 0 of the NTT maps (lo, 0) to (lo, lo).
  mul_shoup_array(x, coeffs, pre_.data(), pre_p_.data(), ncoeffs, q);
  std::fill(x + ncoeffs, x + half, 0);
  std::copy(x, x + half, x + half);
  ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
  // N y_j = x[j] + x[j + N/2] (level 0 of the inverse); A_j = h^(j^2) y_j.
  for (long j = 0; j < m_; ++j) x[j] += x[j + half];
  mul_shoup_array(x, x, post_.data(), post_p_.data(), m_, q);
  const long* js = zmstar_.data();
  for (long t = 0; t < phi_; ++t) values[t] = x[js[t]];
}

void BluesteinTransform::inverse(const uint64_t* values, uint64_t* coeffs) const {
  const uint64_t q = q_;
  const long n = ntt_.n(), half = n / 2;
  uint64_t* x = scratch(n);
#ifdef CB_UTIL_IFMA
  if (ntt_.fast()) {
    pre_inverse52(x, half, values, unit_.data(), m_, pre_.data(), pre_p_.data(), q);
    ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
    post_inverse52(coeffs, x, half, m_, ipost_.data(), ipost_p_.data(), q);
    return;
  }
#endif
  std::fill(x, x + half, 0);
  const long* js = zmstar_.data();
  for (long t = 0; t < phi_; ++t) x[js[t]] = values[t];
  mul_shoup_array(x, x, pre_.data(), pre_p_.data(), m_, q);
  std::copy(x, x + half, x + half);
  ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
  // b_i = (1/m) * (forward sum at index j = m - i) = h^(j^2) y_j / m, as h^(j^2) = h^(i^2).
  for (long j = 0; j < m_; ++j) x[j] += x[j + half];
  mul_shoup_array(x, x, ipost_.data(), ipost_p_.data(), m_, q);
  coeffs[0] = x[0];
  for (long i = 1; i < m_; ++i) coeffs[i] = x[m_ - i];
}

}  // namespace cb::util
