#include "engine/util/negacyclic.h"

#include <algorithm>
#include <cmath>

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"
#include "engine/util/vecmod.h"

namespace cb::util {

namespace {

int log2_of(long n) {  // n a power of two
  int k = 0;
  while ((long(1) << k) < n) ++k;
  return k;
}

// The negacyclic Ntt of length phi = m/2 with psi = zeta, (m, q) validated first.
Ntt checked_ntt(long m, uint64_t q) {
  NegacyclicTransform::check(m, q);
  return Ntt::negacyclic(log2_of(m / 2), q, primitive_root_of_unity(uint64_t(m), q));
}

// [0, 8q) -> [0, q).
inline uint64_t reduce_lazy(uint64_t x, uint64_t q) {
  x = x >= 4 * q ? x - 4 * q : x;
  x = x >= 2 * q ? x - 2 * q : x;
  return x >= q ? x - q : x;
}

// Any word -> [0, q): one comparison for residues and lazy ones below 2q.
inline uint64_t reduce_any(uint64_t x, uint64_t q) { return x < q ? x : x < 2 * q ? x - q : x % q; }

}  // namespace

void NegacyclicTransform::check(long m, uint64_t q) {
  if (!applies(m) || m > (long(1) << 24))
    throw ParameterError(msg("NegacyclicTransform: m=", m, " must be a power of two with 4 <= m <= 2^24"));
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("NegacyclicTransform: q=", q, " must be a prime below 2^61"));
  if ((q - 1) % uint64_t(m) != 0)
    throw ParameterError(msg("NegacyclicTransform: q=", q, " is not 1 mod m=", m,
                             " (the roots of Phi_m = X^", m / 2, " + 1 are primitive m-th roots of unity)"));
}

NegacyclicTransform::NegacyclicTransform(long m, uint64_t q)
    : m_(m), q_(q), ntt_(checked_ntt(m, q)) {
  const long phi = m / 2;
  const int bits = ntt_.log_n();
  bitrev_.resize(phi);
  for (long t = 0; t < phi; ++t) {
    uint32_t r = 0;
    for (int i = 0; i < bits; ++i) r |= uint32_t((t >> i) & 1) << (bits - 1 - i);
    bitrev_[t] = r;
  }
  zmstar_.resize(phi);
  for (long t = 0; t < phi; ++t) zmstar_[t] = 2 * t + 1;
  phi_inv_ = ShoupMul(inv_mod(uint64_t(phi) % q, q), q);
}

double NegacyclicTransform::cost(long m) {
  const double phi = double(m / 2);
  return phi / 2 * std::log2(phi) + 2 * phi;
}

size_t NegacyclicTransform::bytes() const {
  return ntt_.bytes() + bitrev_.capacity() * sizeof(uint32_t) + zmstar_.capacity() * sizeof(long);
}

size_t NegacyclicTransform::table_bytes(long m) {
  const size_t phi = size_t(m / 2);
  return Ntt::table_bytes(long(phi)) + phi * sizeof(uint32_t) + phi * sizeof(long);
}

void NegacyclicTransform::forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
  if (ncoeffs < 0 || ncoeffs > m_)
    throw ParameterError(msg("NegacyclicTransform::forward: ncoeffs=", ncoeffs, " is outside [0, m=", m_, "]"));
  const uint64_t q = q_;
  const long phi = m_ / 2;
  // a mod X^phi + 1 into values, in [0, F q) as the forward levels take it.
  const uint64_t bound = uint64_t(ntt_.forward_bound()) * q;
  const long folded = std::max<long>(ncoeffs - phi, 0), top = std::min(ncoeffs, phi);
  for (long i = 0; i < folded; ++i) values[i] = sub_mod(reduce_any(coeffs[i], q), reduce_any(coeffs[i + phi], q), q);
  for (long i = folded; i < top; ++i) {
    const uint64_t x = coeffs[i];
    values[i] = x < bound ? x : x % q;
  }
  std::fill(values + top, values + phi, 0);
  ntt_.forward_levels(values, 0);
  // values[i] = a(zeta^(2 bitrev(i) + 1)), lazy: the bit reversal (an involution, so swaps
  // in place) puts j = 2t + 1 at t, and reduces.
  const uint32_t* br = bitrev_.data();
  for (long t = 0; t < phi; ++t) {
    const long r = br[t];
    if (t < r) {
      const uint64_t x = values[t];
      values[t] = reduce_lazy(values[r], q);
      values[r] = reduce_lazy(x, q);
    } else if (t == r) {
      values[t] = reduce_lazy(values[t], q);
    }
  }
}

void NegacyclicTransform::inverse(const uint64_t* values, uint64_t* coeffs) const {
  const uint64_t q = q_;
  const long phi = m_ / 2;
  const uint64_t bound = uint64_t(ntt_.inverse_bound()) * q;  // the inverse levels' input range
  const uint32_t* br = bitrev_.data();
  for (long t = 0; t < phi; ++t) {
    const uint64_t x = values[t];
    coeffs[br[t]] = x < bound ? x : x % q;
  }
  ntt_.inverse_levels(coeffs, 0);  // phi b, in [0, I q)
  mul_scalar_array(coeffs, coeffs, phi_inv_, phi, q);
  std::fill(coeffs + phi, coeffs + m_, 0);
}

}  // namespace cb::util
