#include "engine/bgv/encryptor.h"

namespace cb::bgv {

Encryptor::Encryptor(const Context& ctx, const SecretKey& sk, const NoiseModel& noise)
    : ctx_(ctx), minus_s_(sk.s.restricted(ctx.ciphertext_primes())), noise_(noise) {
  minus_s_.negate();
}

Encryptor::Randomness Encryptor::draw(Sampler& rng) const {
  Randomness r;
  if (secret_key()) {
    r.e0 = rng.gaussian(ctx_.phi());
    r.a_seed = rng.next_u64();
    return r;
  }
  r.u = rng.ternary(ctx_.phi());
  r.e0 = rng.gaussian(ctx_.phi());
  r.e1 = rng.gaussian(ctx_.phi());
  return r;
}

Ciphertext Encryptor::encrypt(const Plaintext& mu, Randomness r) const {
  const auto ct = ctx_.ciphertext_primes();
  const long phi = ctx_.phi();
  const long p = ctx_.p();
  std::vector<long> e0 = std::move(r.e0);
  DCRTPoly c0;
  if (p == 2) {
    for (long i = 0; i < phi; ++i) e0[i] *= 2;
    for (size_t i = 0; i < mu.coeffs().size(); ++i) e0[i] += mu.coeffs()[i];
    c0 = DCRTPoly::from_coeffs(ctx_, ct, e0);
  } else {
    c0 = DCRTPoly::from_scaled_coeffs(ctx_, ct, p, e0, mu.coeffs());  // p e0 + mu
  }
  if (secret_key()) {
    DCRTPoly a(ctx_, ct, DCRTPoly::Uninitialized{});
#pragma omp parallel for schedule(static) if(ctx_.parallel())
    for (long i = 0; i < a.num_limbs(); ++i)
      Sampler::uniform_limb(r.a_seed, uint64_t(ct[size_t(i)]), a.modulus(i), a.limb(i), phi);
    c0.add_product(a, minus_s_);
    return Ciphertext(std::move(c0), std::move(a), noise_.fresh(mu.roots()));
  }
  const DCRTPoly u = DCRTPoly::from_coeffs(ctx_, ct, r.u);
  std::vector<long> e1 = std::move(r.e1);
  DCRTPoly c1;
  if (p == 2) {
    for (long i = 0; i < phi; ++i) e1[i] *= 2;
    c1 = DCRTPoly::from_coeffs(ctx_, ct, e1);
  } else {
    c1 = DCRTPoly::from_scaled_coeffs(ctx_, ct, p, e1, {});
  }
  c0.add_product(pk_->b, u);
  c1.add_product(pk_->a, u);
  return Ciphertext(std::move(c0), std::move(c1), noise_.fresh(mu.roots()));
}

}  // namespace cb::bgv
