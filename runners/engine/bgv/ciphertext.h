// ciphertext.h: a BGV ciphertext (c0, c1) modulo Q_T with its noise bound.
//
// c0 + c1 s = f mu + p e (mod Q_T), Q_T the product of a set T of ciphertext primes (all of
// them when fresh, others after modulus switching); both parts are in double-CRT form over
// T. `noise` bounds |f mu + p e| at every root of the canonical embedding (noise.h); the
// capacity log2(Q_T/2) - log2 max_t noise_t says how much multiplicative depth is left.
// `factor` is f in [1, p) (HElib's intFactor): 1 when fresh; dropping primes of product T
// multiplies it by T^-1 mod p, adding primes A by A mod p, a product multiplies the
// operands' factors (evaluator.h); decryption divides it out. At p = 2 it is always 1.
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
  uint64_t factor = 1;  // f: c0 + c1 s = f mu + p e
};

}  // namespace cb::bgv
