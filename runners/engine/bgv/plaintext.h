// plaintext.h: an encoded plaintext mu in R_2 = GF(2)[X]/Phi_m, ready to meet ciphertexts.
//
// Holds mu's coefficients (0/1, degree < phi), its exact canonical embedding's magnitudes
// |mu(zeta_t)| at every root (the factor by which multiplying by it scales the noise
// there, noise.h), and, filled on first use, its
// double-CRT form over the ciphertext primes so a constant reused every round is
// transformed once. The cache is shared by copies and bounded engine-wide
// (kPlaintextCacheBytes); past the bound plaintexts are transformed at each use.
#pragma once

#include <NTL/GF2X.h>

#include <memory>
#include <mutex>
#include <vector>

#include "engine/bgv/dcrt_poly.h"
#include "engine/bgv/root_bound.h"

namespace cb::bgv {

class Plaintext {
 public:
  static constexpr size_t kPlaintextCacheBytes = size_t(3) << 30;

  Plaintext() = default;
  Plaintext(const Context& ctx, const NTL::GF2X& mu);

  const Context& context() const { return *ctx_; }
  const NTL::GF2X& poly() const { return poly_; }
  const std::vector<long>& coeffs() const { return coeffs_; }
  double log2_norm() const { return roots_->log2_max(); }  // log2 |mu|_can, -inf for mu = 0
  const RootBound& roots() const { return *roots_; }     // |mu(zeta_t)|, zero for mu = 0
  bool is_zero() const { return coeffs_.empty(); }

  // |mu(zeta_t)| for the {0,1} lift of mu mod Phi_m: what the constructor computes,
  // for callers without a Context (the chain planner).
  static RootBound embedding_of(const SlotRing& slots, long m, const NTL::GF2X& mu);

  // mu in double-CRT form holding (at least) the given primes: read limbs with limb_of.
  std::shared_ptr<const DCRTPoly> dcrt(const std::vector<int>& primes) const;

 private:
  const Context* ctx_ = nullptr;
  NTL::GF2X poly_;
  std::vector<long> coeffs_;
  std::shared_ptr<const RootBound> roots_ = std::make_shared<const RootBound>();
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
