// plaintext.h: an encoded plaintext mu in R_2 = GF(2)[X]/Phi_m, ready to meet ciphertexts.
//
// Holds mu's coefficients (0/1, degree < phi), its exact canonical norm (the factor by
// which multiplying by it can grow noise, noise.h), and, filled on first use, its
// double-CRT form over the ciphertext primes so a constant reused every round is
// transformed once. The cache is shared by copies and bounded engine-wide
// (kPlaintextCacheBytes); past the bound plaintexts are transformed at each use.
#pragma once

#include <NTL/GF2X.h>

#include <memory>
#include <mutex>
#include <vector>

#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {

class Plaintext {
 public:
  static constexpr size_t kPlaintextCacheBytes = size_t(3) << 30;

  Plaintext() = default;
  Plaintext(const Context& ctx, const NTL::GF2X& mu);

  const Context& context() const { return *ctx_; }
  const NTL::GF2X& poly() const { return poly_; }
  const std::vector<long>& coeffs() const { return coeffs_; }
  double log2_norm() const { return log2_norm_; }  // log2 |mu|_can, -inf for mu = 0
  bool is_zero() const { return coeffs_.empty(); }

  // mu in double-CRT form holding (at least) the given primes: read limbs with limb_of.
  std::shared_ptr<const DCRTPoly> dcrt(const std::vector<int>& primes) const;

 private:
  const Context* ctx_ = nullptr;
  NTL::GF2X poly_;
  std::vector<long> coeffs_;
  double log2_norm_ = 0;
  struct Cache {
    std::mutex mu;
    std::shared_ptr<const DCRTPoly> full;  // over all L ciphertext primes
    size_t bytes = 0;                      // counted against kPlaintextCacheBytes
    bool refused = false;
    ~Cache();
  };
  std::shared_ptr<Cache> cache_;
};

}  // namespace cb::bgv
