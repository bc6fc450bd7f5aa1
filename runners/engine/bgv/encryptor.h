// encryptor.h: public-key BGV encryption (GHS, HElib).
//
// With the public key (b, a) = (-a s + 2e, a), a ternary u and Gaussian e0, e1:
//     c0 = b u + 2 e0 + mu,   c1 = a u + 2 e1,
// so c0 + c1 s = mu + 2 (e u + e0 + e1 s): the fresh noise of noise.h.
#pragma once

#include <vector>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/plaintext.h"
#include "engine/bgv/sampler.h"

namespace cb::bgv {

class Encryptor {
 public:
  Encryptor(const Context& ctx, const PublicKey& pk, const NoiseModel& noise)
      : ctx_(ctx), pk_(pk), noise_(noise) {}

  // What one encryption draws from the sampler, in the order it draws it: u, then e0, e1.
  struct Randomness {
    std::vector<long> u, e0, e1;
  };
  Randomness draw(Sampler& rng) const;
  // A fresh ciphertext at the top level L from drawn randomness: no sampler, so encryptions
  // whose randomness was drawn in turn may run side by side and give the same words.
  Ciphertext encrypt(const Plaintext& mu, Randomness r) const;
  Ciphertext encrypt(const Plaintext& mu, Sampler& rng) const { return encrypt(mu, draw(rng)); }

 private:
  const Context& ctx_;
  const PublicKey& pk_;
  const NoiseModel& noise_;
};

}  // namespace cb::bgv
