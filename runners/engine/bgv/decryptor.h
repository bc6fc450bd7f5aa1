// decryptor.h: BGV decryption, with a measured check that the noise has not wrapped.
//
// mu = [c0 + c1 s]_{Q_l} mod 2, the centered representative computed limb by limb:
// per prime, the inverse transform and a reduction modulo Phi_m give the coefficients
// x_i = nu mod q_i; with y_i = [x_i (Q/q_i)^-1]_{q_i}, f = sum_i y_i / q_i and
// v = round(f), nu = sum_i y_i Q/q_i - v Q, so nu mod 2 = (sum_i y_i + v) mod 2 and
// nu / Q = f - v. The last gives the size of the noise for free: when some coefficient
// has |f - v| > 0.4 the noise is within a whisker of Q/2 (or past it, where f - v looks
// uniform), and decryption throws CapacityError instead of returning a plaintext that
// may be wrong.
#pragma once

#include <NTL/GF2X.h>

#include <memory>
#include <mutex>
#include <vector>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"

namespace cb::bgv {

class Decryptor {
 public:
  Decryptor(const Context& ctx, const SecretKey& sk);
  ~Decryptor();

  struct Result {
    NTL::GF2X mu;
    double log2_noise = 0;  // log2 max |nu_i| measured (precise while < ~2^55 Q^-1... see .cpp)
  };
  Result decrypt(const Ciphertext& c) const;

 private:
  const Context& ctx_;
  const SecretKey& sk_;
  struct PhiModulus;
  mutable std::vector<std::unique_ptr<PhiModulus>> phi_mod_;  // per prime, built on first use
  mutable std::mutex mu_;
  mutable std::vector<long> phi_coeffs_;  // Phi_m over Z
  const PhiModulus& phi_modulus(long i) const;
};

// Coefficients of the integer cyclotomic polynomial Phi_m, degree phi(m).
std::vector<long> cyclotomic_coeffs(long m);

}  // namespace cb::bgv
