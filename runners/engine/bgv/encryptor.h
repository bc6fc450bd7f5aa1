// encryptor.h: BGV encryption, with the public key (GHS, HElib) or the secret key.
//
// With the public key (b, a) = (-a s + p e, a), p the plaintext modulus (context.h), a
// ternary u and Gaussian e0, e1:
//     c0 = b u + p e0 + mu,   c1 = a u + p e1,
// so c0 + c1 s = mu + p (e u + e0 + e1 s): the fresh noise of noise.h, factor f = 1.
// (At p = 2 the integers 2 e0 + mu are formed and transformed, as always; at p > 2, p e0
// may pass 2^63, so p e0 + mu is formed modulo each prime: DCRTPoly::from_scaled_coeffs.)
//
// With the secret key (the data owner's encryption, HElib's SecKey::Encrypt), a uniform
// a and a Gaussian e0:
//     c0 = -a s + p e0 + mu,   c1 = a,
// so c0 + c1 s = mu + p e0: one of the public-key noise's three terms. a is uniform in
// R_q, so it is drawn directly in evaluation form, one limb per prime from the stream
// keyed by its seed (Sampler::uniform_limb, as the keys' a_j): one transform per prime
// (e0 + mu) and one product, where the public key takes three transforms and two
// products. Both give the bound noise.h derives for the public key (NoiseModel::fresh),
// which holds the smaller secret-key noise too: a ciphertext's bound, and so every plan,
// is the same whichever key encrypted it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/plaintext.h"
#include "engine/bgv/sampler.h"

namespace cb::bgv {

class Encryptor {
 public:
  // Public-key encryption.
  Encryptor(const Context& ctx, const PublicKey& pk, const NoiseModel& noise)
      : ctx_(ctx), pk_(&pk), noise_(noise) {}
  // Secret-key encryption.
  Encryptor(const Context& ctx, const SecretKey& sk, const NoiseModel& noise);

  bool secret_key() const { return pk_ == nullptr; }

  // What one encryption draws from the sampler, in the order it draws it: with the public
  // key u, then e0, e1; with the secret key e0, then a's seed.
  struct Randomness {
    std::vector<long> u, e0, e1;
    uint64_t a_seed = 0;
  };
  Randomness draw(Sampler& rng) const;
  // A fresh ciphertext at the top level L from drawn randomness: no sampler, so encryptions
  // whose randomness was drawn in turn may run side by side and give the same words.
  Ciphertext encrypt(const Plaintext& mu, Randomness r) const;
  Ciphertext encrypt(const Plaintext& mu, Sampler& rng) const { return encrypt(mu, draw(rng)); }

 private:
  const Context& ctx_;
  const PublicKey* pk_ = nullptr;  // null: secret-key encryption with minus_s_
  DCRTPoly minus_s_;               // -s over the ciphertext primes
  const NoiseModel& noise_;
};

}  // namespace cb::bgv
