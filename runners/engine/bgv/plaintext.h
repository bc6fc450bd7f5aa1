// plaintext.h: an encoded plaintext mu in R_p = Z_p[X]/Phi_m, ready to meet ciphertexts.
//
// Two ways in. At p = 2 (the circuits' case) from a GF2X, as below. At any p (the context's
// plaintext modulus) from integer coefficients, from_coeffs: reduced mod p and modulo
// Phi_m over Z_p (Phi_m is monic, so long division mod p), then lifted to the centered
// representatives in (-p/2, p/2] (at p = 2: {0, 1}); its embedding is computed exactly as
// below. The constructor from a GF2X refuses a context with p > 2 (its {-1, 0, 1} lift
// read mod p would be another plaintext).
//
// Holds a small integer lift of mu (coefficients in {-1, 0, 1}, degree < phi), its exact
// canonical embedding's magnitudes |mu(zeta_t)| at every root (the factor by which
// multiplying by it scales the noise there, noise.h), and, filled on first use, its
// double-CRT form over the ciphertext primes so a constant reused every round is
// transformed once. The cache is shared by copies and bounded engine-wide
// (kPlaintextCacheBytes); past the bound plaintexts are transformed at each use.
//
// Which lift. Any integer polynomial congruent to mu mod 2 encodes mu, and decryption
// reduces mod 2 whatever lift was used; the noise sees the lift's embedding. The {0,1}
// lift of a dense mu is biased: with about half of the phi powers present, its value at
// zeta^j contains the mean part (1/2) sum_(i<phi) zeta^(ij) = S_j / 2, which near j = 1
// is about m / (2 pi sin(...)) (|mu|_can = 2^11.8 for AES's constants at m=53261).
// Giving each nonzero coefficient a random sign removes the bias, leaving a random walk
// of about sqrt(#nonzero) at every root (2^8.9 at m=53261): 3 bits less noise per
// constant product. The signs come from a generator seeded by mu's coefficients, so the
// chain planner (embedding_of) computes the lift the run uses; of kLiftTrials draws
// (and the {0,1} lift itself, best for sparse mu) the one with the smallest maximum wins.
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
  // Bytes of constants kept in double-CRT form engine-wide (all of a process's
  // plaintexts): a constant's first use caches it at the chain's L primes (L phi words)
  // while the total stays within the limit; past it the constant is refused and
  // transformed at the ciphertext's primes at each use. The planner counts the same
  // refusals (PlanBackend, through cache_limit()); tests lower the limit.
  static constexpr size_t kPlaintextCacheBytes = size_t(3) << 30;
  static size_t cache_limit();
  static void set_cache_limit(size_t bytes);  // kPlaintextCacheBytes by default
  static constexpr int kLiftTrials = 4;

  Plaintext() = default;
  Plaintext(const Context& ctx, const NTL::GF2X& mu);  // p = 2 only (ParameterError otherwise)
  // mu = sum_i coeffs[i] X^i in R_p, any integers and any length (reduced mod p and Phi_m).
  static Plaintext from_coeffs(const Context& ctx, const std::vector<long>& coeffs);
  // The residues mod p of an integer polynomial modulo Phi_m (length phi), the reduction
  // from_coeffs makes: the clear arithmetic tests compare decryptions with.
  static std::vector<uint64_t> reduce(const Context& ctx, const std::vector<long>& coeffs);
  // The lift from_coeffs holds for residues r mod p of degree < phi (reduce's output, or
  // PrimeSlotRing::encode's): the centered representatives in (-p/2, p/2], trailing zeros
  // dropped (empty for 0), and the bound on its embedding: at p = 2 the magnitudes
  // |mu(zeta_t)| at every root; at p > 2 their maximum, at every root (a flat bound,
  // HElib's model of a constant). Why flat at p > 2: there a circuit's constants are
  // mostly a keystream's public matrices, 10^4 to 10^5 slot vectors each used once
  // (Pasta-3: 131072), and the chain planner meets each again on every chain it tries;
  // a flat bound is one number a constant to remember (PlanBackend's encodings) where a
  // profile is phi doubles, and a product by it is a change of exponent. It costs a
  // sum of products by such constants the gap between the largest root and the one where
  // the sum peaks (at most log2 of the largest over the typical |mu(zeta_t)|; measured
  // on HERA and Pasta plans in BENCHMARKS.md, "Transciphering"). A constant that is one
  // value in every slot (MiMC's round constants, a key element repeated per block) has
  // one magnitude at every root: flat either way.
  // For callers without a Context (the chain planner at p > 2, which must see the run's
  // own bounds).
  static std::pair<std::vector<long>, std::shared_ptr<const RootBound>> centered_lift(long m, uint64_t p,
                                                                                     const std::vector<uint64_t>& r);

  const Context& context() const { return *ctx_; }
  const NTL::GF2X& poly() const { return poly_; }  // mu mod 2 (p = 2; empty at p > 2)
  const std::vector<long>& coeffs() const { return coeffs_; }  // the lift (degree < phi; empty for 0)
  double log2_norm() const { return roots_->log2_max(); }  // log2 |mu|_can, -inf for mu = 0
  const RootBound& roots() const { return *roots_; }     // |mu(zeta_t)|, zero for mu = 0
  bool is_zero() const { return coeffs_.empty(); }

  // |mu(zeta_t)| for the lift of mu mod Phi_m the constructor chooses, for callers
  // without a Context (the chain planner).
  static RootBound embedding_of(const SlotRing& slots, long m, const NTL::GF2X& mu);
  // The same, shared with every plaintext of that lift: lifts are remembered engine-wide
  // by (m, mu) (the planner meets each plaintext at every chain it tries, the run again).
  static std::shared_ptr<const RootBound> embedding_ptr(const SlotRing& slots, long m, const NTL::GF2X& mu);
  // The lift (coefficients in {-1, 0, 1}) of mu01 (coefficients 0/1, degree < phi) and
  // its embedding's magnitudes.
  static std::pair<std::vector<long>, RootBound> small_lift(long m, std::vector<long> mu01);

  // mu in double-CRT form holding (at least) the given primes: read limbs with limb_of.
  // Within the cache (kPlaintextCacheBytes) the form is kept over the chain's L primes,
  // each limb transformed on the first use that asks for it: a constant used once (a
  // keystream's public matrix entry, at the 3-10 primes its product runs at) costs those
  // transforms, not L; one reused round after round (AES's) costs each prime once. Past
  // the bound the given primes are transformed at each use. transformed (if not null)
  // receives how many limbs this call transformed.
  std::shared_ptr<const DCRTPoly> dcrt(const std::vector<int>& primes, long* transformed = nullptr) const;
  // Whether dcrt(primes) answers from its cache, transforming nothing.
  bool dcrt_cached(const std::vector<int>& primes) const;

 private:
  const Context* ctx_ = nullptr;
  NTL::GF2X poly_;
  std::vector<long> coeffs_;
  std::shared_ptr<const RootBound> roots_ = std::make_shared<const RootBound>();
  struct Cache {
    std::mutex mu;
    std::shared_ptr<DCRTPoly> full;  // over the L small and ciphertext primes, limb i = prime i
    std::vector<char> have;          // have[i]: limb i transformed
    size_t bytes = 0;                      // counted against kPlaintextCacheBytes
    bool refused = false;
    ~Cache();
  };
  std::shared_ptr<Cache> cache_;
};

}  // namespace cb::bgv
