#include "engine/bgv/encryptor.h"

namespace cb::bgv {

Ciphertext Encryptor::encrypt(const Plaintext& mu, Sampler& rng) const {
  const auto ct = ctx_.ciphertext_primes();
  const long phi = ctx_.phi();
  const DCRTPoly u = DCRTPoly::from_coeffs(ctx_, ct, rng.ternary(phi));
  std::vector<long> e0 = rng.gaussian(phi), e1 = rng.gaussian(phi);
  for (long i = 0; i < phi; ++i) {
    e0[i] *= 2;
    e1[i] *= 2;
  }
  for (size_t i = 0; i < mu.coeffs().size(); ++i) e0[i] += mu.coeffs()[i];
  DCRTPoly c0 = DCRTPoly::from_coeffs(ctx_, ct, e0);
  DCRTPoly c1 = DCRTPoly::from_coeffs(ctx_, ct, e1);
  c0.add_product(pk_.b, u);
  c1.add_product(pk_.a, u);
  return Ciphertext(std::move(c0), std::move(c1), noise_.fresh(mu.roots()));
}

}  // namespace cb::bgv
