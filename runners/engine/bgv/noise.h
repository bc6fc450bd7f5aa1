// noise.h: the noise estimates behind capacity, dynamic modulus switching and the
// refusal to decrypt a ciphertext whose noise may have wrapped.
//
// We bound nu = c0 + c1 s (mod Q) in the canonical embedding, |nu|_can = max over the
// primitive m-th roots zeta of |nu(zeta)|. That norm is sub-multiplicative and invariant
// under automorphisms, so products and X -> X^k are exact rules:
//     |a b|_can <= |a|_can |b|_can,   |a + b|_can <= |a|_can + |b|_can.
// Random terms use the high-probability factor hp = sqrt(ln(phi) + 40 ln 2): for a
// polynomial with independent centered coefficients of variance V (n of them), nu(zeta)
// has E|nu(zeta)|^2 = n V, and |nu(zeta)| > hp sqrt(n V) at some of the phi roots with
// probability below 2^-40 (a Gaussian tail with a union bound). The secret key, the
// public-key error and the key-switching errors are known at key generation, so their
// canonical norms are computed exactly (util/canonical.h) instead of estimated.
//
// - fresh:     |mu| + 2(|e_pk| hp sqrt(phi/2) + hp sigma sqrt(phi) (1 + |s|))
//              (u ternary of variance 1/2, e0 and e1 Gaussian)
// - rounding:  R = hp sqrt(m/3) (1 + |s|): dividing by T with delta = x mod T, even,
//              |delta| <= T (rns_rounding.h) adds (delta0 + delta1 s)/T, whose m
//              coefficients have variance <= 1/3
// - key switch: sum_j 2 hp sqrt(m/12) D_j |e_j| / P + R (digits uniform modulo D_j)
// Capacity = log2(Q_l / 2) - log2(bound). Decryption also measures the actual size of
// nu (decryptor.h), so a wrong estimate can never turn into a wrong plaintext.
#pragma once

#include <algorithm>
#include <cmath>

namespace cb::bgv {

// log2(2^a + 2^b)
inline double log2_add(double a, double b) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log2(1.0 + std::exp2(lo - hi));
}

struct NoiseModel {
  long m = 0, phi = 0;
  double sigma = 3.2;
  double hp = 0;           // high-probability factor
  double log2_s = 0;       // log2 |s|_can, exact
  double log2_round = 0;   // log2 R

  NoiseModel() = default;
  NoiseModel(long m_, long phi_, double s_norm) : m(m_), phi(phi_) {
    hp = std::sqrt(std::log(double(phi)) + 40 * std::log(2.0));
    log2_s = std::log2(s_norm);
    log2_round = std::log2(hp * std::sqrt(m / 3.0) * (1 + s_norm));
  }

  // Fresh encryption of a plaintext with log2 |mu|_can = log2_mu (may be -inf for 0).
  double fresh(double log2_mu, double log2_e_pk) const {
    const double u = log2_e_pk + std::log2(hp * std::sqrt(phi / 2.0));
    const double e = std::log2(hp * sigma * std::sqrt(double(phi))) + std::log2(1 + std::exp2(log2_s));
    return log2_add(log2_mu, 1 + log2_add(u, e));
  }

  // Key-switching noise added after division by P: digits of log2 sizes log2_digits.
  template <class Vec>
  double key_switch(const Vec& log2_digits, double log2_e_max, double log2_P) const {
    double acc = -INFINITY;
    for (double ld : log2_digits) acc = log2_add(acc, ld);
    const double ks = 1 + std::log2(hp * std::sqrt(m / 12.0)) + acc + log2_e_max - log2_P;
    return log2_add(ks, log2_round);
  }
};

}  // namespace cb::bgv
