// noise.h: the noise bounds behind capacity, dynamic modulus switching, the chain planner
// and the refusal to decrypt a ciphertext whose noise may have wrapped.
//
// A ciphertext (c0, c1) over Q_T decrypts through nu = c0 + c1 s (mod Q_T), nu = f mu + p e
// (p the plaintext modulus, f the ciphertext's factor, ciphertext.h; f = 1 and p = 2 by
// default: every formula below reads as before with p = 2).
// We bound nu at every root of the canonical embedding (root_bound.h): B_t >= |nu(zeta_t)|
// for all t at once, and the capacity is log2(Q_T / 2) - log2 max_t B_t. The operations'
// deterministic parts are exact at each root: products multiply, sums add, constants
// multiply by their own embedding |mu(zeta_t)| (computed, not estimated), automorphisms
// permute the roots. The random parts are bounded with a stated failure probability.
//
// The probability argument. Each random term is X(zeta) = sum_i a_i zeta^(i j) with the
// a_i independent, centered and strictly sub-Gaussian with variance v_i (uniform on an
// interval, the ternary u, a rounded Gaussian: all are, the last with proxy
// (sigma + 1/2)^2), possibly times a known complex number. Its projection on a unit
// direction u is sub-Gaussian with proxy sigma_u^2 = sum_i v_i cos^2(theta_i - phi_u)
// <= v (n + |S_j|) / 2 for n iid coefficients, where S_j = sum_(i<n) zeta^(2ij): |S_j| =
// |sin(2 pi j n/m) / sin(2 pi j/m)| for n < m and S_j = 0 for n = m (m odd). For m = 2^k
// the roots are the odd j and zeta^(2j) is a primitive (m/2)-th root of unity, so S_j = 0
// for n = phi = m/2 (and for n = m): the sine formula gives that too (sin(pi j) = 0, the
// denominator never vanishes for m >= 4), and every bound below holds as written. With K = 16
// directions u_k = e^(2 pi i k/K), |X| <= max_k <X, u_k> / cos(pi/K), so
//     P(|X| > t) <= K exp(-t^2 cos^2(pi/K) / (2 sigma^2)),
// and over all phi roots the term stays below
//     tail(sigma^2) = sigma sqrt(2 (ln(K phi) + kappa ln 2)) / cos(pi/K)
// except with probability 2^-kappa. We take kappa = 52: a ciphertext whose bound has met
// up to 2^12 random terms is bounded everywhere except with probability 2^-40. The chain
// planner counts the terms of a whole run, keys included (`random_terms` and
// `log2_failure_probability` in run_cipher's plan): 635 for AES-128 at m=4369, 2553 for the
// 13 rounds of Vision GF(2^64)^2 at m=641, the largest circuit here.
// The independence of the a_i is the standard heuristic of GHS and HElib for the rounding
// terms (their coefficients are residues of pseudo-random values); everything else is exact.
//
// The random terms, per root t (|s_t| = |s(zeta_t)| exact, from the secret key):
// - fresh encryption (encryptor.h): nu = mu + p (e_pk u + e0 + e1 s), u ternary
//   (variance 1/2), e0, e1 rounded Gaussians, phi coefficients each, and e_pk bounded by
//   E_t = tail((sigma+1/2)^2 w_t) over key generation, w_t = (phi + |S_t|)/2:
//       F_t = |mu_t| + p tail(w_t (E_t^2 / 2 + (sigma+1/2)^2 (1 + |s_t|^2)))
//   with |mu_t| the exact embedding of the plaintext's lift (plaintext.h; at p > 2 the
//   centered lift, coefficients up to p/2).
// - rounding (modulus switching by T, and the division by P): (delta0 + delta1 s) / T
//   with delta = x (mod T), delta = 0 (mod p) (rns_rounding.h): delta / T is the centered
//   lift's L / T in [-1/2, 1/2] plus an integer k in [-(p-1)/2, (p-1)/2], taken as m
//   coefficients uniform in [-p/2, p/2], variance p^2/12 each (at p = 2: [-1, 1], 1/3):
//       R_t = tail(m (1 + |s_t|^2) / 6 * (p/2)^2)
//   (|delta/T| <= p/2 always; the uniformity is GHS's heuristic for rounding terms, and
//   at T < p, a small prime dropped at a 33- or 60-bit p, k takes only T of its p values;
//   prime_p_test measures the noise against R there, on random sequences through the
//   ladder's small primes.)
//   (for m = 2^k only phi = m/2 of those coefficients, and of the digits' below, are
//   nonzero: the inverse transform returns the reduced coefficients, util/negacyclic.h, and
//   a zero coefficient lifts and rounds to 0; counting m leaves a factor sqrt(2) of room)
// - the same rounding of a degree-2 ciphertext (c0, c1, c2), decrypted by c0 + c1 s + c2 s^2:
//   small primes are dropped between a product and its relinearization (levels.h):
//       R2_t = tail(m (1 + |s_t|^2 + |s_t|^4) / 6 * (p/2)^2)
// - key switching with digits D_j (lifts of m coefficients uniform in [-D_j/2, D_j/2])
//   and key errors p e_j, e_j bounded by E = max_t E_t: p tail(m E^2 sum_j D_j^2 / 24) / P,
//   added at every root, plus R_t.
// So the additive terms grow with p (fresh and key switching by p/2, rounding by p/2 too,
// as the square root of its variance), and products multiply bounds as before: a product
// of two fresh ciphertexts costs about log2 p more bits than at p = 2. The factor f
// changes no bound (nu is the same integer polynomial); where the evaluator multiplies a
// ciphertext by a small integer to align two factors (evaluator.h) the bound is multiplied
// by its absolute value.
// e_pk and the key-switching errors enter through their bound E, not their actual
// values: so the chain planner (which knows the secret key of a seeded run, but not the
// errors drawn after the chain was chosen) computes exactly the bounds the run will.
// Decryption also measures the actual noise (decryptor.h): a bound that failed would
// show as a refused decryption, never as a wrong plaintext.
#pragma once

#include <vector>

#include "engine/bgv/root_bound.h"

namespace cb::bgv {

// log2(2^a + 2^b)
inline double log2_add(double a, double b) {
  if (std::isinf(a) && a < 0) return b;
  if (std::isinf(b) && b < 0) return a;
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log2(1.0 + std::exp2(lo - hi));
}

class NoiseModel {
 public:
  static constexpr double kSigma = 3.2;  // the Gaussian errors' deviation (sampler.h)
  static constexpr int kKappa = 52;      // per-term failure probability 2^-kappa
  static constexpr int kDirections = 16; // K of the covering argument

  NoiseModel() = default;
  // m odd or m = 2^k, s the secret key's coefficients (degree < phi(m)), p the plaintext modulus.
  NoiseModel(long m, const std::vector<long>& s_coeffs, long p = 2);

  long m() const { return m_; }
  long p() const { return p_; }
  long phi() const { return phi_; }
  // tail(proxy): the bound over all roots of a term with directional proxy `proxy`.
  double tail(double proxy) const { return std::sqrt(proxy) * tail_factor_; }

  const RootBound& s() const { return s_; }          // |s(zeta_t)|
  const RootBound& rounding() const { return round_; }  // R_t
  const RootBound& rounding2() const { return round2_; }  // R2_t, degree-2 ciphertexts
  double log2_error_bound() const { return log2_e_; }   // log2 E, the key errors' bound

  // F_t for a plaintext with embedding magnitudes mu (|mu(zeta_t)|; zero for mu = 0).
  RootBound fresh(const RootBound& mu) const;
  // The key-switching term before rounding, for digits of log2 sizes log2_digits.
  double log2_key_switch(const std::vector<double>& log2_digits, double log2_P) const;
  // The whole noise a key switch adds: the term above at every root, plus R_t.
  RootBound key_switch(const std::vector<double>& log2_digits, double log2_P) const;

 private:
  long m_ = 0, phi_ = 0, p_ = 2;
  double tail_factor_ = 0;
  RootBound s_, round_, round2_;
  std::vector<double> w_;  // w_t = (phi + |S_t|) / 2
  double log2_e_ = 0;
};

}  // namespace cb::bgv
