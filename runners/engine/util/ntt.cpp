#include "engine/util/ntt.h"

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {

namespace {

long bitrev(long x, int bits) {
  long r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

}  // namespace

Ntt::Ntt(int log_n, uint64_t q, uint64_t omega) : n_(0), log_n_(log_n), q_(q), omega_(omega) {
  if (log_n < 1 || log_n > 30) throw ParameterError(msg("Ntt: log_n=", log_n, " is outside [1, 30]"));
  n_ = long(1) << log_n;
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("Ntt: q=", q, " must be a prime below 2^62"));
  if ((q - 1) % uint64_t(n_) != 0)
    throw ParameterError(msg("Ntt: q=", q, " is not 1 mod N=", n_));
  if (omega_ == 0) omega_ = primitive_root_of_unity(n_, q);
  if (omega_ >= q || pow_mod(omega_, n_ / 2, q) != q - 1)
    throw ParameterError(msg("Ntt: omega=", omega_, " is not a primitive ", n_, "-th root of unity mod q=", q));

  // Powers omega^e, e < N/2 suffice: exponents bitrev_l(b) * N/2^(l+1) < N/2.
  const long half = n_ / 2;
  std::vector<uint64_t> pw(half), ipw(half);
  const uint64_t omega_inv = inv_mod(omega_, q);
  pw[0] = ipw[0] = 1;
  for (long e = 1; e < half; ++e) {
    pw[e] = mul_mod(pw[e - 1], omega_, q);
    ipw[e] = mul_mod(ipw[e - 1], omega_inv, q);
  }
  tw_.assign(n_, 0), twp_.assign(n_, 0), itw_.assign(n_, 0), itwp_.assign(n_, 0);
  for (int l = 0; l < log_n; ++l) {
    const long blocks = long(1) << l;
    for (long b = 0; b < blocks; ++b) {
      const long e = bitrev(b, l) * (n_ >> (l + 1));
      tw_[blocks + b] = pw[e];
      twp_[blocks + b] = shoup(pw[e], q);
      itw_[blocks + b] = ipw[e];
      itwp_[blocks + b] = shoup(ipw[e], q);
    }
  }
  n_inv_ = inv_mod(uint64_t(n_) % q, q);
  n_inv_p_ = shoup(n_inv_, q);
}

void Ntt::forward_levels(uint64_t* a, int from_level) const {
  const uint64_t q = q_, two_q = 2 * q_;
  for (int l = from_level; l < log_n_; ++l) {
    const long blocks = long(1) << l;
    const long t = n_ >> (l + 1);
    const uint64_t* w = tw_.data() + blocks;
    const uint64_t* wp = twp_.data() + blocks;
    for (long b = 0; b < blocks; ++b) {
      uint64_t* x = a + 2 * b * t;
      uint64_t* y = x + t;
      const uint64_t W = w[b], Wp = wp[b];
      for (long i = 0; i < t; ++i) {
        uint64_t u = x[i];
        u = u >= two_q ? u - two_q : u;
        const uint64_t v = mul_shoup_lazy(y[i], W, Wp, q);
        x[i] = u + v;
        y[i] = u - v + two_q;
      }
    }
  }
}

void Ntt::inverse_levels(uint64_t* a, int to_level) const {
  const uint64_t q = q_, two_q = 2 * q_;
  for (int l = log_n_ - 1; l >= to_level; --l) {
    const long blocks = long(1) << l;
    const long t = n_ >> (l + 1);
    const uint64_t* w = itw_.data() + blocks;
    const uint64_t* wp = itwp_.data() + blocks;
    for (long b = 0; b < blocks; ++b) {
      uint64_t* x = a + 2 * b * t;
      uint64_t* y = x + t;
      const uint64_t W = w[b], Wp = wp[b];
      for (long i = 0; i < t; ++i) {
        const uint64_t u = x[i], v = y[i];
        uint64_t s = u + v;
        x[i] = s >= two_q ? s - two_q : s;
        y[i] = mul_shoup_lazy(u - v + two_q, W, Wp, q);
      }
    }
  }
}

void Ntt::forward(uint64_t* a) const {
  forward_levels(a, 0);
  const uint64_t q = q_, two_q = 2 * q_;
  for (long i = 0; i < n_; ++i) {
    uint64_t x = a[i];
    x = x >= two_q ? x - two_q : x;
    a[i] = x >= q ? x - q : x;
  }
}

void Ntt::inverse(uint64_t* a) const {
  inverse_levels(a, 0);
  for (long i = 0; i < n_; ++i) a[i] = mul_shoup(a[i], n_inv_, n_inv_p_, q_);
}

}  // namespace cb::util
