// decryptor.h: BGV decryption, with a measured check that the noise has not wrapped.
//
// mu = [c0 + c1 s]_{Q_l} mod 2, the centered representative computed limb by limb:
// per prime, the inverse transform and a reduction modulo Phi_m (phi_reduction.h: two
// NTT products) give the coefficients
// x_i = nu mod q_i; with y_i = [x_i (Q/q_i)^-1]_{q_i}, f = sum_i y_i / q_i and
// v = round(f), nu = sum_i y_i Q/q_i - v Q, so nu mod 2 = (sum_i y_i + v) mod 2 and
// nu / Q = f - v. (At p > 2 the same nu is read mod p, nu = sum_i y_i [Q/q_i]_p - v [Q]_p,
// and multiplied by the inverse of the ciphertext's plaintext factor, ciphertext.h:
// Result::coeffs.) The last gives the size of the noise for free: when some
// coefficient has |f - v| > 0.4 the noise is within a whisker of Q/2 (or past it, where
// f - v looks uniform), and decryption throws CapacityError instead of returning a
// plaintext that may be wrong.
//
// Decrypting needs nu, not all of c0 + c1 s: when the noise bound (with 4 bits to spare)
// is below the product Q_S of a subset S of the ciphertext's primes, [c0 + c1 s]_{Q_S} is
// nu itself, read from the limbs of S alone (the largest primes first, the fewest that
// hold it): |S| inverse transforms and reductions modulo Phi_m, no rounding, where
// switching down to one prime first took l - 1 inverse transforms, a forward and an
// inverse one. A fresh ciphertext's noise fits one prime (m=65536, p=65537: 1 transform
// where HElib's SecKey::Decrypt takes one per prime and a big-integer CRT). The measured
// check runs at Q_S: a noise that had wrapped modulo Q looks uniform modulo Q_S too.
#pragma once

#include <NTL/GF2X.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/phi_reduction.h"

namespace cb::bgv {

class Decryptor {
 public:
  // log2_round: the rounding noise R of modulus switching (noise.h), kept for the callers'
  // sake (decryption no longer switches); pass +infinity to always decrypt at the
  // ciphertext's own level (all its primes).
  Decryptor(const Context& ctx, const SecretKey& sk, double log2_round = INFINITY);
  ~Decryptor();

  struct Result {
    NTL::GF2X mu;                 // p = 2: the plaintext (empty at p > 2)
    std::vector<uint64_t> coeffs;  // p > 2: the plaintext's phi coefficients mod p (empty at p = 2)
    double log2_noise = 0;  // log2 max |nu_i| measured modulo the primes decrypted at
                            // (exact at one prime; otherwise resolved to about 2^-60 of
                            // their product)
    long level = 0;         // how many primes decrypted
  };
  Result decrypt(const Ciphertext& c) const;
  // Decrypts at c's own level (no switch), e.g. to measure its noise.
  Result decrypt_at_level(const Ciphertext& c) const;
  // The noise nu = [c0 + c1 s]_Q itself, exactly (CRT in big integers), at every root of
  // the canonical embedding: what the bound c.noise must dominate (tests, reports).
  RootBound noise_embedding(const Ciphertext& c) const;

 private:
  const Context& ctx_;
  const SecretKey& sk_;
  double log2_round_;
  mutable std::vector<std::unique_ptr<PhiReduction>> phi_mod_;  // per prime, built on first use
  mutable std::mutex mu_;
  mutable std::vector<long> phi_coeffs_;  // Phi_m over Z
  const PhiReduction& phi_modulus(long i) const;
  // y[i][k] = [x_ik (Q/q_i)^-1]_{q_i}, x_i the coefficients of c0 + c1 s mod (q_i, Phi_m),
  // over the limbs at positions `limbs` of c (Q their primes' product).
  std::vector<std::vector<uint64_t>> crt_components(const Ciphertext& c, const std::vector<long>& limbs) const;
  // Decryption modulo the product of the primes of the limbs at positions `limbs`.
  Result decrypt_limbs(const Ciphertext& c, const std::vector<long>& limbs) const;
};

// Coefficients of the integer cyclotomic polynomial Phi_m, degree phi(m).
std::vector<long> cyclotomic_coeffs(long m);

}  // namespace cb::bgv
