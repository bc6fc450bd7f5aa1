#include "engine/bgv/encryptor.h"

#include "engine/errors.h"
#include "engine/util/vecmod.h"

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
  if (mu.coeffs().size() > e0.size())
    throw ParameterError(msg("encrypt: ", mu.coeffs().size(), " plaintext coefficients for phi=", phi));
  if (p == 2) {
    for (long i = 0; i < phi; ++i) e0[i] *= 2;
    for (size_t i = 0; i < mu.coeffs().size(); ++i) e0[i] += mu.coeffs()[i];
  }
  if (secret_key()) {
    DCRTPoly c0 = p == 2 ? DCRTPoly::from_coeffs(ctx_, ct, e0)
                         : DCRTPoly::from_scaled_coeffs(ctx_, ct, p, e0, mu.coeffs());  // p e0 + mu
    DCRTPoly a(ctx_, ct, DCRTPoly::Uninitialized{});
#pragma omp parallel for schedule(static) if(ctx_.parallel())
    for (long i = 0; i < a.num_limbs(); ++i)
      Sampler::uniform_limb(r.a_seed, uint64_t(ct[size_t(i)]), a.modulus(i), a.limb(i), phi);
    c0.add_product(a, minus_s_);
    return Ciphertext(std::move(c0), std::move(a), noise_.fresh(mu.roots()));
  }
  // Public key, limb by limb: c0_i = [p e0 + mu]_i + b_i u_i and c1_i = [p e1]_i + a_i u_i
  // while u's transform at q_i sits in a scratch limb (no third polynomial and its 2 MiB
  // of page faults at m=65536; each limb's words computed while in cache), the words of
  // from_coeffs / from_scaled_coeffs and add_product.
  std::vector<long> e1 = std::move(r.e1);
  if (p == 2)
    for (long i = 0; i < phi; ++i) e1[i] *= 2;
  DCRTPoly c0(ctx_, ct, DCRTPoly::Uninitialized{}), c1(ctx_, ct, DCRTPoly::Uninitialized{});
#pragma omp parallel if(ctx_.parallel())
  {
    std::vector<uint64_t> tmp(static_cast<size_t>(phi)), u(static_cast<size_t>(phi));
#pragma omp for schedule(static)
    for (long i = 0; i < c1.num_limbs(); ++i) {
      const int prime = ct[size_t(i)];
      const uint64_t q = c1.modulus(i);
      if (p == 2) {
        DCRTPoly::coeffs_limb(ctx_, prime, e0, tmp.data(), c0.limb(i));
        DCRTPoly::coeffs_limb(ctx_, prime, e1, tmp.data(), c1.limb(i));
      } else {
        DCRTPoly::scaled_coeffs_limb(ctx_, prime, p, e0, mu.coeffs(), tmp.data(), c0.limb(i));
        DCRTPoly::scaled_coeffs_limb(ctx_, prime, p, e1, {}, tmp.data(), c1.limb(i));
      }
      DCRTPoly::coeffs_limb(ctx_, prime, r.u, tmp.data(), u.data());
      util::mul_add_mod_array(c0.limb(i), pk_->b.limb_of(prime), u.data(), c0.limb(i), phi, q);
      util::mul_add_mod_array(c1.limb(i), pk_->a.limb_of(prime), u.data(), c1.limb(i), phi, q);
    }
  }
  return Ciphertext(std::move(c0), std::move(c1), noise_.fresh(mu.roots()));
}

}  // namespace cb::bgv
