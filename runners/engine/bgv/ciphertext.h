// ciphertext.h: a BGV ciphertext (c0, c1) modulo Q_T with its noise bound.
//
// c0 + c1 s = mu + 2e (mod Q_T), Q_T the product of a set T of ciphertext primes (all of
// them when fresh, others after modulus switching); both parts are in double-CRT form over
// T. `noise` bounds |mu + 2e| at every root of the canonical embedding (noise.h); the
// capacity log2(Q_T/2) - log2 max_t noise_t says how much multiplicative depth is left.
#pragma once

#include "engine/bgv/dcrt_poly.h"
#include "engine/bgv/root_bound.h"

namespace cb::bgv {

class Ciphertext {
 public:
  Ciphertext() = default;
  Ciphertext(DCRTPoly c0_, DCRTPoly c1_, RootBound noise_)
      : c0(std::move(c0_)), c1(std::move(c1_)), noise(std::move(noise_)) {}

  long level() const { return c0.num_limbs(); }             // |T|
  const std::vector<int>& primes() const { return c0.primes(); }  // T, increasing
  const Context& context() const { return c0.context(); }
  double log2_noise() const { return noise.log2_max(); }     // log2 max_t of the bound

  DCRTPoly c0, c1;
  RootBound noise;
};

}  // namespace cb::bgv
