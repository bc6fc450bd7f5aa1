#include "engine/bgv/encryptor.h"

namespace cb::bgv {

Encryptor::Randomness Encryptor::draw(Sampler& rng) const {
  Randomness r;
  r.u = rng.ternary(ctx_.phi());
  r.e0 = rng.gaussian(ctx_.phi());
  r.e1 = rng.gaussian(ctx_.phi());
  return r;
}

Ciphertext Encryptor::encrypt(const Plaintext& mu, Randomness r) const {
  const auto ct = ctx_.ciphertext_primes();
  const long phi = ctx_.phi();
  const DCRTPoly u = DCRTPoly::from_coeffs(ctx_, ct, r.u);
  std::vector<long> e0 = std::move(r.e0), e1 = std::move(r.e1);
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
