// ciphertext.h: a BGV ciphertext (c0, c1) at level l with its noise estimate.
//
// c0 + c1 s = mu + 2e (mod Q_l), Q_l the first l ciphertext primes; both parts are in
// double-CRT form over those primes. log2_noise bounds log2 |mu + 2e|_can (noise.h);
// the capacity log2(Q_l/2) - log2_noise says how much multiplicative depth is left.
#pragma once

#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {

class Ciphertext {
 public:
  Ciphertext() = default;
  Ciphertext(DCRTPoly c0_, DCRTPoly c1_, double log2_noise_)
      : c0(std::move(c0_)), c1(std::move(c1_)), log2_noise(log2_noise_) {}

  long level() const { return c0.num_limbs(); }
  const Context& context() const { return c0.context(); }

  DCRTPoly c0, c1;
  double log2_noise = 0;
};

}  // namespace cb::bgv
