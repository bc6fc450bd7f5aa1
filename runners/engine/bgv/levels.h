// levels.h: GHS's dynamic noise management: at which prime set each operation runs, and
// the noise bound (noise.h) every step leaves.
//
// A ciphertext lives modulo Q_T, T a subset of the chain's ciphertext primes (chain.h).
// Switching to a target T' (the big primes a prefix of T's, any small primes) multiplies
// the noise by Q_T'/Q_T and, when a prime is dropped, adds the rounding noise R_t:
//     B'_t = B_t Q_T'/Q_T (+ R_t).
// Before a product both operands move to the set that leaves the product the most
// capacity; with x = log2 Q_T' that capacity is
//     C(x) = x - log2 max_t (2^(x - a) A_t + R_t)(2^(x - b) B_t + R_t),
// and x -> log2 max_t(...) is convex (a maximum of log-sum-exps of linear functions of x),
// so C is concave in x: among the targets that drop primes of both operands, sorted by
// x, the best is found by bisection on the sign of C's increments; the few targets that
// only add primes to an operand (no rounding for it) are evaluated one by one. Ties
// within 1/4 bit go to the smaller modulus (fewer limbs, cheaper): C rises up to its
// peak, so the least x within the tie is found by bisection too. A sum moves to the
// common set maximizing x - log2 max_t(2^(x-a) A_t + 2^(x-b) B_t (+ R_t)), also concave;
// at a fixed count of rounded operands that capacity rises with x (it is constant where
// neither is rounded), so the targets keeping an operand's primes are searched by
// bisection as well. A plan makes millions of these decisions (levels_test.cpp checks
// them against evaluating every target); each finds the few roots where its maxima can
// fall (dominant_roots.h: two passes over the phi roots) and evaluates its candidates there.
// Keys have no small primes (chain.h), so every key switch runs modulo ciphertext primes
// only, a prefix Q_j = q_S ... q_(S+j-1) of them. After a product at a set with small
// primes, the degree-2 result (c0, c1, c2) is switched to the prefix that leaves the most
// capacity after relinearization, its rounding bounded by R2 (noise.h), big primes
// added back when that is best (a mod-up is exact), as HElib's dropSmallAndSpecialPrimes.
// Before any other key switch an operand moves to the smallest prefix whose capacity after
// the switch is within kKeySwitchLossBits of the best prefix: cheaper switches. Over the
// prefixes j, that capacity rises while rounding dominates and then falls slowly as the
// digits grow: the best is found by bisection on its increments.
// With whole ~50-bit primes only, every product would start with up to 2^50 R of noise;
// the small primes' ladder brings it within a few bits of the optimum.
// The engine's evaluator and the chain planner (backend/plan_backend.h) both take every
// decision and every bound from here, so a plan is the run's own arithmetic.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "engine/bgv/chain.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/op_profile.h"

namespace cb::bgv {

using PrimeSet = std::vector<int>;  // increasing prime indices

class Levels {
 public:
  static constexpr double kKeySwitchLossBits = 0.1;
  // Targets within this many bits of the best capacity are equal: the smallest modulus
  // (the cheapest) wins. (Preferring fewer small primes present, to keep the ladder open,
  // was tried with ties of 1 and 2 bits: AES at m=53261 planned 937 and 964 bits, not 905.)
  static constexpr double kLadderTieBits = 0.25;

  Levels(const Chain& chain, const NoiseModel& noise) : chain_(chain), noise_(noise) {}

  const Chain& chain() const { return chain_; }
  const NoiseModel& noise() const { return noise_; }
  // Where the arrangement of an operand pair's switch targets (built once per pair of
  // prime sets, then kept) is timed, as the step "targets" (op_profile.h); none: untimed.
  void set_profile(const OpProfile* p) { profile_ = p; }

  // The subsets a ciphertext over `primes` may switch to: big primes dropped from the
  // top, any small ones (present or added back); from the most primes to the fewest.
  std::vector<PrimeSet> switch_targets(const PrimeSet& primes) const;
  // A set each of `sets` may switch to (switch_targets): the one of least modulus among
  // them when every other reaches it, else empty. A layer of sums over many operands
  // aligned there once (Evaluator::align) makes one switch per operand, where sum_set's
  // decisions, pair by pair, would make one per sum.
  PrimeSet common_set(const std::vector<PrimeSet>& sets) const;
  // The bound after switching from `have` to `target`.
  RootBound switched(const PrimeSet& have, const RootBound& a, const PrimeSet& target) const;
  double capacity(const PrimeSet& primes, const RootBound& a) const;  // log2(Q_T/2) - log2 max B

  // Where operations run.
  PrimeSet product_set(const PrimeSet& ta, const RootBound& a, const PrimeSet& tb, const RootBound& b) const;
  PrimeSet sum_set(const PrimeSet& ta, const RootBound& a, const PrimeSet& tb, const RootBound& b) const;
  PrimeSet key_switch_set(const PrimeSet& ta, const RootBound& a) const;
  // Where a product computed at tp, of noise bound n = a b, is relinearized: tp itself
  // when it has no small primes, else the best prefix of ciphertext primes.
  PrimeSet relin_set(const PrimeSet& tp, const RootBound& n) const;

  // The noise each step leaves (operands already at the set `at`).
  const RootBound& key_switch(const PrimeSet& at) const;  // added by one key switch at `at`
  // a b at tp, switched to tr (relin_set), + relinearization at tr.
  RootBound product(const RootBound& a, const RootBound& b, const PrimeSet& tp, const PrimeSet& tr) const;
  RootBound automorphism(const RootBound& a, const std::vector<int>& perm, const PrimeSet& at) const;
  RootBound fresh(const RootBound& mu) const { return noise_.fresh(mu); }

 private:
  // The targets of an operation on operands at ta and tb (switch_targets of their common
  // primes with every small prime), arranged for best_target: each by its modulus x =
  // log2 Q_T and whether it drops primes of each operand; those dropping primes of both
  // (the concave part) by x increasing, one per x. A function of (ta, tb) alone, built once
  // per pair and chain (a plan meets a few hundred pairs, millions of times).
  struct Targets {
    struct Target {
      double x;
      uint32_t small_mask;  // the small primes i with bit i set
      int32_t keep_big;     // and the first keep_big of `big`
      bool out_a, out_b;    // not a superset of ta / of tb (drops primes of it)
    };
    PrimeSet big;  // the common big primes
    std::vector<Target> concave, others;  // others by (out_a, out_b), then x increasing
    PrimeSet set(const Target& t) const;
  };
  const Targets& targets(const PrimeSet& ta, const PrimeSet& tb) const;
  // Among the targets, the one maximizing cap(x, out_a, out_b), ties within 1/4 bit to the
  // smaller modulus. others_rise: cap rises with x among the others of equal (out_a,
  // out_b) (a sum's), so each such run is searched by bisection, not one by one.
  template <class Cap>
  PrimeSet best_target(const Targets& ts, Cap cap, bool others_rise) const;
  PrimeSet common_with_small(const PrimeSet& ta, const PrimeSet& tb) const;
  // The prefix of ciphertext primes for a key switch of a ciphertext at ta with bound a,
  // rounded with R when primes are dropped; within `tolerance` bits of the best capacity,
  // the smallest.
  PrimeSet prefix_for_key_switch(const PrimeSet& ta, const RootBound& a, const RootBound& R,
                                 double tolerance) const;
  const Chain& chain_;
  const NoiseModel& noise_;
  const OpProfile* profile_ = nullptr;
  mutable std::mutex targets_mu_;
  // Keyed by (ta, tb), looked up by reference (a lookup copies no prime set).
  struct PairLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const { return std::tie(a.first, a.second) < std::tie(b.first, b.second); }
  };
  mutable std::map<std::pair<PrimeSet, PrimeSet>, std::unique_ptr<const Targets>, PairLess> targets_;
  mutable std::mutex key_switch_mu_;
  mutable std::map<std::vector<double>, RootBound> key_switch_;  // by the digits' log2 sizes at a set
};

}  // namespace cb::bgv
