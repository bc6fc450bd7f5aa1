// encryptor.h: public-key BGV encryption (GHS, HElib).
//
// With the public key (b, a) = (-a s + 2e, a), a ternary u and Gaussian e0, e1:
//     c0 = b u + 2 e0 + mu,   c1 = a u + 2 e1,
// so c0 + c1 s = mu + 2 (e u + e0 + e1 s): the fresh noise of noise.h.
#pragma once

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

  // A fresh ciphertext at the top level L.
  Ciphertext encrypt(const Plaintext& mu, Sampler& rng) const;

 private:
  const Context& ctx_;
  const PublicKey& pk_;
  const NoiseModel& noise_;
};

}  // namespace cb::bgv
