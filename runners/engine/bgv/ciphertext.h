// ciphertext.h: a BGV ciphertext (c0, c1) modulo Q_T with its noise estimate.
//
// c0 + c1 s = mu + 2e (mod Q_T), Q_T the product of a set T of ciphertext primes (all of
// them when fresh, fewer after modulus switching); both parts are in double-CRT form over
// T. log2_noise bounds log2 |mu + 2e|_can (noise.h); the capacity log2(Q_T/2) -
// log2_noise says how much multiplicative depth is left.
#pragma once

#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {

class Ciphertext {
 public:
  Ciphertext() = default;
  Ciphertext(DCRTPoly c0_, DCRTPoly c1_, double log2_noise_)
      : c0(std::move(c0_)), c1(std::move(c1_)), log2_noise(log2_noise_) {}

  long level() const { return c0.num_limbs(); }             // |T|
  const std::vector<int>& primes() const { return c0.primes(); }  // T, increasing
  const Context& context() const { return c0.context(); }

  DCRTPoly c0, c1;
  double log2_noise = 0;
};

}  // namespace cb::bgv
