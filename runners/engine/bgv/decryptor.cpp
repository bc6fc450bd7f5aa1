#include "engine/bgv/decryptor.h"

#include <algorithm>
#include <cmath>

#include "engine/bgv/noise.h"
#include "engine/util/canonical.h"
#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {

std::vector<long> cyclotomic_coeffs(long m) {
  // Phi_m(X) = Phi_r(X^(m/r)), r the product of m's distinct primes, and
  // Phi_r = prod_{d | r} (X^(r/d) - 1)^mu(d): multiply first, then divide exactly.
  std::vector<long> primes;
  long r = 1, x = m;
  for (long p = 2; p * p <= x; ++p)
    if (x % p == 0) {
      primes.push_back(p);
      r *= p;
      while (x % p == 0) x /= p;
    }
  if (x > 1) {
    primes.push_back(x);
    r *= x;
  }
  std::vector<long> poly{1};
  const long subsets = 1L << primes.size();
  for (int pass = 0; pass < 2; ++pass) {
    for (long s = 0; s < subsets; ++s) {
      const bool even = __builtin_popcountl(s) % 2 == 0;
      if (even != (pass == 0)) continue;
      long d = 1;
      for (size_t i = 0; i < primes.size(); ++i)
        if (s >> i & 1) d *= primes[i];
      const long k = r / d;
      if (pass == 0) {  // poly *= X^k - 1
        std::vector<long> out(poly.size() + k, 0);
        for (size_t i = 0; i < poly.size(); ++i) {
          out[i + k] += poly[i];
          out[i] -= poly[i];
        }
        poly.swap(out);
      } else {  // poly /= X^k - 1, exactly
        std::vector<long> q(poly.size() - k, 0);
        for (size_t i = 0; i < q.size(); ++i) q[i] = -poly[i] + (long(i) >= k ? q[i - k] : 0);
        poly.swap(q);
      }
    }
  }
  const long stretch = m / r;
  std::vector<long> out((poly.size() - 1) * stretch + 1, 0);
  for (size_t i = 0; i < poly.size(); ++i) out[i * stretch] = poly[i];
  return out;
}

Decryptor::Decryptor(const Context& ctx, const SecretKey& sk, double log2_round)
    : ctx_(ctx), sk_(sk), log2_round_(log2_round), phi_mod_(ctx.L()) {}

Decryptor::~Decryptor() = default;

const PhiReduction& Decryptor::phi_modulus(long i) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!phi_mod_[i]) {
    if (phi_coeffs_.empty()) phi_coeffs_ = cyclotomic_coeffs(ctx_.m());
    phi_mod_[i] = std::make_unique<PhiReduction>(ctx_.m(), phi_coeffs_, ctx_.q(i));
  }
  return *phi_mod_[i];
}

Decryptor::Result Decryptor::decrypt(const Ciphertext& c) const {
  const auto& T = c.primes();
  std::vector<long> all(T.size());
  for (size_t i = 0; i < T.size(); ++i) all[i] = long(i);
  if (T.size() > 1 && std::isfinite(log2_round_)) {
    // The fewest primes, largest first, whose product holds the noise bound with 4 bits to
    // spare (decryptor.h); decrypted in the ciphertext's order.
    std::vector<long> by_size = all;
    std::stable_sort(by_size.begin(), by_size.end(),
                     [&](long i, long j) { return ctx_.log2_q(T[i]) > ctx_.log2_q(T[j]); });
    double bits = 0;
    for (size_t k = 0; k + 1 < by_size.size(); ++k) {
      bits += ctx_.log2_q(T[by_size[k]]);
      if (c.log2_noise() < bits - 4) {
        std::vector<long> limbs(by_size.begin(), by_size.begin() + long(k) + 1);
        std::sort(limbs.begin(), limbs.end());
        return decrypt_limbs(c, limbs);
      }
    }
  }
  return decrypt_limbs(c, all);
}

std::vector<std::vector<uint64_t>> Decryptor::crt_components(const Ciphertext& c,
                                                             const std::vector<long>& limbs) const {
  const long l = long(limbs.size()), phi = ctx_.phi(), m = ctx_.m();
  const auto& T = c.primes();
  std::vector<std::vector<uint64_t>> y(l, std::vector<uint64_t>(phi, 0));
  for (long i : limbs) phi_modulus(T[i]);  // build serially, use in parallel
#pragma omp parallel if(ctx_.parallel() && l > 1)
  {
    std::vector<uint64_t> w(phi), b(m);
#pragma omp for schedule(dynamic)
    for (long i = 0; i < l; ++i) {
      const long at = limbs[i];
      const int p = T[at];
      const uint64_t q = ctx_.q(p);
      util::mul_add_mod_array(w.data(), c.c1.limb(at), sk_.s.limb_of(p), c.c0.limb(at), phi, q);
      ctx_.ntt(p).inverse(w.data(), b.data());
      phi_mod_[p]->reduce(b.data(), b.data());  // the coefficients mod (q_i, Phi_m)
      uint64_t hat = 1;  // Q/q_i mod q_i
      for (long j = 0; j < l; ++j)
        if (j != i) hat = util::mul_mod(hat, ctx_.q(T[limbs[j]]) % q, q);
      util::mul_scalar_array(y[i].data(), b.data(), util::ShoupMul(util::inv_mod(hat, q), q), phi, q);
    }
  }
  return y;
}

RootBound Decryptor::noise_embedding(const Ciphertext& c) const {
  std::vector<long> all(c.primes().size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = long(i);
  const auto y = crt_components(c, all);
  const auto& T = c.primes();
  const long l = c.level(), phi = ctx_.phi();
  NTL::ZZ Q(1);
  std::vector<NTL::ZZ> hat(l);
  for (int p : T) Q *= NTL::ZZ(NTL::INIT_VAL, (unsigned long)ctx_.q(p));
  for (long i = 0; i < l; ++i) hat[i] = Q / NTL::ZZ(NTL::INIT_VAL, (unsigned long)ctx_.q(T[i]));
  const NTL::ZZ half = Q / 2;
  // nu_k = sum_i y_ik Q/q_i, centered modulo Q; as doubles scaled by 2^-shift, the shift
  // set by the largest |nu_k| (not by Q: a small noise under a modulus past 2^1024 must
  // keep its bits).
  std::vector<NTL::ZZ> centered(phi);
  long bits = 0;
  NTL::ZZ t;
  for (long k = 0; k < phi; ++k) {
    NTL::ZZ& acc = centered[k];
    for (long i = 0; i < l; ++i) {
      NTL::mul(t, hat[i], (unsigned long)y[i][k]);
      acc += t;
    }
    acc %= Q;
    if (acc > half) acc -= Q;
    bits = std::max(bits, NTL::NumBits(acc));
  }
  const long shift = std::max<long>(0, bits - 900);
  std::vector<double> nu(phi);
  for (long k = 0; k < phi; ++k) nu[k] = NTL::conv<double>(centered[k] >> shift);
  RootBound r = RootBound::from_values(util::canonical_embedding(ctx_.m())->magnitudes(nu));
  r.scale(double(shift));
  return r;
}

Decryptor::Result Decryptor::decrypt_at_level(const Ciphertext& c) const {
  std::vector<long> all(c.primes().size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = long(i);
  return decrypt_limbs(c, all);
}

Decryptor::Result Decryptor::decrypt_limbs(const Ciphertext& c, const std::vector<long>& limbs) const {
  const long l = long(limbs.size()), phi = ctx_.phi();
  std::vector<int> T(static_cast<size_t>(l));
  for (long i = 0; i < l; ++i) T[size_t(i)] = c.primes()[size_t(limbs[size_t(i)])];
  const auto y = crt_components(c, limbs);
  const auto& y0 = y[0];
  // v = round(f), f = sum_i y_i / q_i in [0, l): at one prime v = [y > q / 2] in integers,
  // with max_frac the general formula's value at the extreme y of each sign (pos: the
  // largest y <= q / 2, neg: the smallest y > q / 2); at several, floor(f + 1/2) (f >= 0;
  // it differs from the nearest integer only where |f - v| is about 1/2 > 0.4, refused below).
  const uint64_t q0 = ctx_.q(T[0]);
  uint64_t pos = 0, neg = q0;
  Result r;
  double max_frac = 0;
  if (ctx_.p() != 2) {
    // nu mod p = sum_i y_i [Q/q_i]_p - v [Q]_p, then / f.
    const uint64_t p = uint64_t(ctx_.p());
    std::vector<uint64_t> hat(l, 1);
    uint64_t Qp = 1;
    for (long i = 0; i < l; ++i) {
      Qp = util::mul_mod(Qp, ctx_.q(T[i]) % p, p);
      for (long j = 0; j < l; ++j)
        if (j != i) hat[i] = util::mul_mod(hat[i], ctx_.q(T[j]) % p, p);
    }
    // Shoup products (any operand below 2^64): no division per coefficient.
    std::vector<util::ShoupMul> w_hat;
    for (long i = 0; i < l; ++i) w_hat.emplace_back(hat[i], p);
    const util::ShoupMul w_Q(Qp, p), w_finv(util::inv_mod(c.factor % p, p), p);
    r.coeffs.assign(phi, 0);
    for (long k = 0; k < phi; ++k) {
      uint64_t acc, v;
      if (l == 1) {
        const uint64_t x = y0[k];
        v = x > q0 / 2;
        if (v) neg = std::min(neg, x);
        else pos = std::max(pos, x);
        acc = util::mul_shoup(x, w_hat[0].w, w_hat[0].wp, p);
      } else {
        long double f = 0;
        acc = 0;
        for (long i = 0; i < l; ++i) {
          f += (long double)y[i][k] / (long double)ctx_.q(T[i]);
          acc = util::add_mod(acc, util::mul_shoup(y[i][k], w_hat[i].w, w_hat[i].wp, p), p);
        }
        v = uint64_t(f + 0.5L);
        max_frac = std::max(max_frac, double(std::fabs(f - (long double)v)));
      }
      acc = util::sub_mod(acc, util::mul_shoup(v, w_Q.w, w_Q.wp, p), p);
      r.coeffs[k] = util::mul_shoup(acc, w_finv.w, w_finv.wp, p);
    }
  } else {
    r.mu.SetLength(phi);
    for (long k = 0; k < phi; ++k) {
      uint64_t parity, v;
      if (l == 1) {  // the centered lift is y, or y - q above q / 2
        const uint64_t x = y0[k];
        v = x > q0 / 2;
        if (v) neg = std::min(neg, x);
        else pos = std::max(pos, x);
        parity = x;
      } else {
        long double f = 0;
        parity = 0;
        for (long i = 0; i < l; ++i) {
          f += (long double)y[i][k] / (long double)ctx_.q(T[i]);
          parity += y[i][k];
        }
        v = uint64_t(f + 0.5L);
        max_frac = std::max(max_frac, double(std::fabs(f - (long double)v)));
      }
      if ((parity + v) & 1) NTL::SetCoeff(r.mu, k);
    }
    r.mu.normalize();
  }
  if (l == 1) {
    const long double lq = (long double)q0;
    max_frac = double(std::fabs((long double)pos / lq));
    if (neg < q0) max_frac = std::max(max_frac, double(std::fabs((long double)neg / lq - 1.0L)));
  }
  r.log2_noise = max_frac > 0 ? std::log2(max_frac) + ctx_.log2_Q(T) : -INFINITY;
  r.level = l;
  if (max_frac > 0.4)
    throw CapacityError(msg("decryption refused: the noise reaches ", max_frac,
                            " of the modulus Q (", l, " primes, log2 Q = ", ctx_.log2_Q(T),
                            "): the circuit exceeded the chain's capacity; use more bits"));
  return r;
}

}  // namespace cb::bgv
