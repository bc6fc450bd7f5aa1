// plan_backend.h: the chain planner's backend: a circuit runs on clear slot values while
// the engine's noise bounds and level decisions run beside them, with no ciphertext.
//
// A Ctxt is ClearBackend's slot vector plus what the engine would know about the same
// ciphertext: its prime set T and its per-root noise bound (engine/bgv/levels.h). Every
// operation does what bgv::Evaluator does to those two, call for call: the same targets
// from Levels, the same bounds; constants and inputs are encoded into the ring exactly as
// BgvBackend encodes them, so their embeddings |mu(zeta_t)| are the run's own. The secret
// key is drawn as BgvBackend draws it from the same seed (its first draw), so for a
// seeded run the planner sees the run's |s(zeta_t)| and predicts the run's capacity per
// round exactly (seed 0, a fresh key, plans with another key of the same weight).
//
// set_bits() swaps the chain under the same encoded constants, so the planner
// (chain_planner.h) can try many chains for the price of the slot arithmetic.
//
// At an odd prime p (the second constructor, F_p in the slots): the ring's slots are
// PrimeSlotRing's, a value x of F_p the constant (x, 0, ..., 0) of GF(p^d), encoded as
// BgvBackend encodes it and lifted by Plaintext::centered_lift (what from_coeffs holds);
// the bounds are the NoiseModel at p; the chains are those Context accepts at p (a chain
// whose Q is not above p, or that has p among its primes, is refused like a too short one).
// Each Ctxt also carries the plaintext factor f the engine's ciphertext would have
// (ciphertext.h: T^-1 per dropped product T, A per added, f_a f_b per product), and sums
// of different factors, or of a constant to a ciphertext of f != 1, are aligned as the
// evaluator aligns them (x a + y b, plaintext_factor.h), their bounds scaled by |x| and |y|:
// so a seeded plan at p predicts the run's capacity per round exactly, as at p = 2.
#pragma once

#include <cstdint>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "backend/backend.h"
#include "backend/clear_backend.h"
#include "ciphers/reference/prime_field.h"
#include "engine/bgv/levels.h"

namespace cb {

// What the planner's backends at one ring and slot field share, whatever their chain, key
// or digits: the slot ring's CRT, the subfield's embedding, each slot vector's encoding
// |mu(zeta_t)| and each automorphism's permutation of the roots. Building them is most of
// a backend's construction (the slot ring's subproduct tree, the lifts' transforms: a
// third of an AES plan at m=53261), and --security-target plans at up to four key weights
// and again at the chosen digits. PlanRing::of gives the one alive at (m, n, f_low, p), or
// a new one; each backend holds its ring, and it is freed with its last holder (the
// encodings are up to thousands of phi-double vectors: not kept into the run). p: the
// plaintext modulus (2: GF(2^n) = GF(2)[x]/f in the slots; an odd prime: F_p, n = 1 and
// f_low = 0).
class PlanRing {
 public:
  static std::shared_ptr<PlanRing> of(long m, long n, uint64_t f_low, uint64_t p = 2);
  // While the returned token lives, a ring at (m, n, f_low, p), once made, outlives its
  // backends: --security-target's plans, one after another, share it. A token makes
  // nothing itself, so a run whose plans are all cached builds no ring.
  static std::shared_ptr<void> keep(long m, long n, uint64_t f_low, uint64_t p = 2);
  ~PlanRing();
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  explicit PlanRing(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct PlanParams {
  long m = 0;
  long bits = 0;
  long c = 3;
  long hwt = 120;
  uint64_t seed = 0;
};

class PlanBackend {
 public:
  // Lanes of a state may be planned at once (backend/lanes.h): counts, capacities and
  // caches are atomic or locked, and each operation is counted with its lane width.
  static constexpr bool kConcurrent = true;

  struct Ctxt {
    ClearBackend::Ctxt clear;
    bgv::PrimeSet primes;
    bgv::RootBound noise;
    uint64_t factor = 1;  // the engine's plaintext factor f (bgv::Ciphertext::factor; 1 at p = 2)
  };
  struct Ptxt {
    ClearBackend::Ptxt clear;
    std::shared_ptr<const bgv::RootBound> roots;  // |mu(zeta_t)|
    // The limbs the engine has transformed and kept in the current count generation
    // (Plaintext::dcrt keeps a constant over the L primes, each limb transformed on the
    // first use that asks for it): each use counts "encode" at the limbs it adds.
    struct Limbs {
      std::mutex mu;
      long generation = -1;
      std::vector<char> have;
    };
    std::shared_ptr<Limbs> limbs = std::make_shared<Limbs>();
    // The count generation in which its first use found the engine's plaintext cache full
    // (Plaintext::cache_limit): from then on each use counts "encode" at the ciphertext's
    // primes, as the engine transforms it at each use. In lanes the first uses may come in
    // another order than the run's, so which constants are refused may differ; how many
    // does not (a circuit's constants all take L limbs of the cache).
    std::shared_ptr<std::atomic<long>> refused_in = std::make_shared<std::atomic<long>>(-1);
  };

  PlanBackend(const PlanParams& p, long n, uint64_t f_low);
  // F_p in the slots (BgvBackend's second constructor): ParameterError as ZmStar(m, p)
  // refuses the ring.
  PlanBackend(const PlanParams& p, const PrimeField& F);
  ~PlanBackend();
  // A backend like this one (ring, slot field, key, digits, chain) for a circuit of its own,
  // sharing what no chain changes: the slot ring, the key's bounds and the encodings
  // (a slot vector's |mu(zeta_t)|, made by either, kept for both): the chain planner's
  // lanes (chain_planner.h). Its chains, bounds, counts and automorphisms are its own.
  std::shared_ptr<PlanBackend> lane() const;

  // A new chain of `bits` (same ring, digits, key); ciphertexts of the old one are void.
  void set_bits(long bits);
  const bgv::Chain& chain() const;
  const bgv::Levels& levels() const;
  BackendInfo info() const;
  // The least capacity of any ciphertext produced since the last reset (what must stay
  // above 0 for no noise to wrap anywhere).
  double min_capacity() const { return min_capacity_; }
  // The random terms the run's bounds met (noise.h: fresh noise, each rounding, each key
  // switch's two), counted since the last reset: each fails with probability at most
  // 2^-kappa, so no ciphertext's bound fails except with probability terms * 2^-kappa.
  long random_terms() const { return random_terms_; }
  void reset_min_capacity() { min_capacity_ = INFINITY, random_terms_ = 0; }

  // How many times each operation ran, and at how many primes, since the last reset
  // (set_bits resets too): what a cost model multiplies by its time per operation
  // (sage/cbparams/cost_model.py), and the engine times under the same names
  // (engine/bgv/op_profile.h). op is the engine's step: mul (square included: the level
  // decision and the tensor), relin (its relinearization's key switch, at the primes it
  // runs at), mul_plain, add, add_plain, encode (a constant's first use: the engine makes
  // and keeps its double-CRT form at all L primes; once its plaintext cache is full, each
  // use of a constant refused it, at the ciphertext's primes), automorph (one key switch),
  // automorph_hoisted (each k of automorph_many: digits shared), mod_switch (dropped =
  // primes dropped, 0 when it only adds ladder primes back), add_decide (an add of two
  // ciphertexts at different prime sets: its level decision, Levels::sum_set, over the
  // switch targets of the operands' primes; counted beside the add), targets (a level
  // decision's first meeting with a pair of prime sets: Levels arranges their switch
  // targets once). primes: the prime set's size where the step ran (a mod switch: the
  // target's; encode: L, or the ciphertext's primes past the cache; add_decide, targets:
  // the larger operand's). lanes: the width of
  // the lane group the step ran in (backend/lanes.h: a sliced state's element-wise steps
  // run on min(threads, lanes) threads at once; 1 elsewhere).
  struct OpCount {
    std::string op;
    long primes = 0;
    long dropped = 0;
    long count = 0;
    long lanes = 1;
  };
  std::vector<OpCount> op_counts() const;
  void reset_op_counts();

  uint64_t characteristic() const { return clear_.characteristic(); }  // 2 or p
  const ZmStar& zmstar() const { return clear_.zmstar(); }
  const GF2n& field() const { return clear_.field(); }                  // ParameterError at p > 2
  const PrimeField& prime_field() const { return clear_.prime_field(); }  // ParameterError at p = 2
  long slot_count() const { return clear_.slot_count(); }

  Ptxt encode(const std::vector<uint64_t>& v) const;
  Ctxt encrypt(const std::vector<uint64_t>& v) const;
  std::vector<uint64_t> decrypt(const Ctxt& c) const { return c.clear.slots; }
  void add(Ctxt& a, const Ctxt& b) const;
  void add_plain(Ctxt& a, const Ptxt& p) const;
  void mul(Ctxt& a, const Ctxt& b) const;
  void mul_plain(Ctxt& a, const Ptxt& p) const;
  void square(Ctxt& a) const;
  void automorph(Ctxt& a, long k) const;
  std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) const;
  void require_automorphisms(const std::vector<long>& ks) { clear_.require_automorphisms(ks); }
  double capacity_bits(const Ctxt& c) const;
  // As BgvBackend::align (Evaluator::align): one switch per operand to Levels::common_set.
  void align(const std::vector<Ctxt*>& cs) const;

 private:
  void switch_to(Ctxt& a, const bgv::PrimeSet& target) const;
  // p > 2: a *= x (an integer), as the evaluator's scale_by: bound times |x|, factor times x.
  void scale_by(Ctxt& a, long x) const;
  // After a product at a.primes (a.noise the first operand's bound, b the second's): the
  // switch to Levels::relin_set and the relinearization, as the evaluator does.
  void relinearize(Ctxt& a, const bgv::RootBound& b) const;
  void note(const Ctxt& a) const;
  void count(const char* op, size_t primes, long dropped = 0) const;
  // Counts "encode" for a use of p by a ciphertext over `primes`: at the limbs this use adds
  // to those kept (its first use in a count generation adds the bytes of L limbs to the
  // generation's cache while within Plaintext::cache_limit()), or at every prime of each
  // use once refused.
  void use_constant(const Ptxt& p, const bgv::PrimeSet& primes) const;
  const std::vector<int>& perm(long k) const;
  struct Impl;
  explicit PlanBackend(std::unique_ptr<Impl> impl);
  static ClearBackend make_clear(const Impl& impl);  // the slot arithmetic at impl's ring and field
  std::unique_ptr<Impl> impl_;
  ClearBackend clear_;
  mutable std::atomic<double> min_capacity_{INFINITY};
  mutable std::atomic<long> random_terms_{0};
  mutable std::mutex count_mu_;
  mutable std::map<std::tuple<std::string, long, long, long>, long> counts_;  // (op, primes, dropped, lanes)
  std::atomic<long> generation_{0};  // bumped by reset_op_counts
  mutable std::atomic<size_t> cached_bytes_{0};  // the engine's plaintext cache in this generation
};

}  // namespace cb
