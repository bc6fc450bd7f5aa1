// sampler.h: the randomness of key generation and encryption.
//
// Bytes come from one stream (prg.h: AES-256 in counter mode) keyed by 32 bytes: from
// std::random_device, or derived from a user seed for reproducible benchmarks (a seeded
// run is NOT secure: the seed determines the keys). Distributions, as in HElib:
// uniform residues (sampled directly in evaluation form, which is uniform in R_q),
// ternary {-1,0,1} with probabilities 1/4, 1/2, 1/4, secret keys of exact Hamming weight h
// with random signs, and a rounded Gaussian of deviation sigma = 3.2 (Box-Muller; not
// constant time, like HElib's sampler).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/bgv/dcrt_poly.h"
#include "engine/bgv/prg.h"

namespace cb::bgv {

class Sampler {
 public:
  explicit Sampler(uint64_t seed = 0);  // 0 = fresh randomness from std::random_device

  uint64_t next_u64();
  double next_unit();  // uniform in (0, 1)

  DCRTPoly uniform(const Context& ctx, const std::vector<int>& primes);
  // n uniform residues modulo q from the stream keyed by (seed, tag): the same arguments
  // always give the same values, so a uniform polynomial can be stored as its seed.
  static void uniform_limb(uint64_t seed, uint64_t tag, uint64_t q, uint64_t* out, long n);
  std::vector<long> ternary(long n);               // n coefficients
  std::vector<long> hamming(long n, long h);       // exactly h non-zero, +-1
  std::vector<long> gaussian(long n, double sigma = 3.2);

 private:
  Prg stream_;
};

}  // namespace cb::bgv
