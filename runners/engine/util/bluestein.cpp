#include "engine/util/bluestein.h"

#include <numeric>

#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::util {

namespace {

int log2_exact(long n) {
  int k = 0;
  while ((long(1) << k) < n) ++k;
  return k;
}

// Validates (m, q) before any member is built from them; returns log2(N).
int checked_log_n(long m, uint64_t q) {
  if (m < 3 || m % 2 == 0)
    throw ParameterError(msg("CyclotomicTransform: m=", m, " must be odd and >= 3"));
  if (m > (long(1) << 24))
    throw ParameterError(msg("CyclotomicTransform: m=", m, " exceeds 2^24"));
  const long n = bluestein_length(m);
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("CyclotomicTransform: q=", q, " must be a prime below 2^62"));
  if ((q - 1) % (uint64_t(m) * uint64_t(n)) != 0)
    throw ParameterError(msg("CyclotomicTransform: q=", q, " is not 1 mod m*N=", m, "*", n, "=",
                             uint64_t(m) * uint64_t(n), " (m=", m, ", N=", n, ")"));
  return log2_exact(n);
}

}  // namespace

CyclotomicTransform::CyclotomicTransform(long m, uint64_t q)
    : m_(m), phi_(0), q_(q), zeta_(0), ntt_(checked_log_n(m, q), q) {
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) zmstar_.push_back(j);
  phi_ = long(zmstar_.size());
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
  pre_.resize(m);
  ipost_.resize(m);
  for (long i = 0; i < m; ++i) {
    pre_[i] = ShoupMul(chirp(i), q);
    ipost_[i] = ShoupMul(mul_mod(chirp(i), mn_inv, q), q);
  }
  post_.resize(phi_);
  for (long t = 0; t < phi_; ++t) post_[t] = ShoupMul(mul_mod(chirp(zmstar_[t]), n_inv, q), q);

  // c_k = h^(-k^2) at k and N - k for 0 <= k < m (no overlap since N >= 2m).
  kernel_.assign(n, 0);
  for (long k = 0; k < m; ++k) {
    const uint64_t c = chirp_inv(k);
    kernel_[k] = c;
    if (k > 0) kernel_[n - k] = c;
  }
  ntt_.forward(kernel_.data());
  kernel_p_.resize(n);
  for (long i = 0; i < n; ++i) kernel_p_[i] = shoup(kernel_[i], q);
}

namespace {

// Per-thread scratch of at least n words (const methods stay thread-safe).
uint64_t* scratch(long n) {
  thread_local std::vector<uint64_t> buf;
  if (long(buf.size()) < n) buf.resize(n);
  return buf.data();
}

}  // namespace

void CyclotomicTransform::forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
  if (ncoeffs < 0 || ncoeffs > m_)
    throw ParameterError(msg("CyclotomicTransform::forward: ncoeffs=", ncoeffs,
                             " is outside [0, m=", m_, "]"));
  const uint64_t q = q_;
  const long n = ntt_.n(), half = n / 2;
  uint64_t* x = scratch(n);
  // x = (a_i h^(i^2)) padded to N; level 0 of the NTT maps (lo, 0) to (lo, lo).
  for (long i = 0; i < ncoeffs; ++i) x[i] = mul_shoup_lazy(coeffs[i], pre_[i].w, pre_[i].wp, q);
  for (long i = ncoeffs; i < half; ++i) x[i] = 0;
  for (long i = 0; i < half; ++i) x[half + i] = x[i];
  ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
  // N * y_j = x[j] + x[j + N/2]; A_j = h^(j^2) y_j.
  const long* js = zmstar_.data();
  for (long t = 0; t < phi_; ++t) {
    const long j = js[t];
    values[t] = mul_shoup(x[j] + x[j + half], post_[t].w, post_[t].wp, q);
  }
}

void CyclotomicTransform::inverse(const uint64_t* values, uint64_t* coeffs) const {
  const uint64_t q = q_;
  const long n = ntt_.n(), half = n / 2;
  uint64_t* x = scratch(n);
  for (long i = 0; i < half; ++i) x[i] = 0;
  const long* js = zmstar_.data();
  for (long t = 0; t < phi_; ++t) {
    const long j = js[t];
    x[j] = mul_shoup_lazy(values[t], pre_[j].w, pre_[j].wp, q);
  }
  for (long i = 0; i < half; ++i) x[half + i] = x[i];
  ntt_.convolve_levels(x, kernel_.data(), kernel_p_.data(), 1, 1);
  // b_i = (1/m) * (forward sum at index m - i) = h^(i^2) y_(m-i) / m.
  coeffs[0] = mul_shoup(x[0] + x[half], ipost_[0].w, ipost_[0].wp, q);
  for (long i = 1; i < m_; ++i) {
    const long j = m_ - i;
    coeffs[i] = mul_shoup(x[j] + x[j + half], ipost_[i].w, ipost_[i].wp, q);
  }
}

}  // namespace cb::util
