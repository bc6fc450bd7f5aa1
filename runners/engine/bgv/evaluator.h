// evaluator.h: homomorphic operations with GHS's dynamic noise management.
//
// add:        (a0 + b0, a1 + b1), noise adds.
// mul:        tensor (a0 b0, a0 b1 + a1 b0, a1 b1), then the s^2 part is key-switched
//             back to s (relinearization); noise multiplies, plus key-switching noise.
// mul_plain:  (mu a0, mu a1); noise times |mu|_can.
// automorph:  X -> X^k on both parts (a permutation of evaluation positions), then the
//             c1 part is key-switched from s(X^k) to s; noise is unchanged by the
//             permutation (the canonical norm is invariant) plus key-switching noise.
// Modulus switching divides by dropped primes (rns_rounding.h) or multiplies by added
// ones. A product runs where levels.h says (small primes allowed), and its degree-2
// result is switched to ciphertext primes only before relinearization (keys have no small
// primes, chain.h); where each operation runs, and the noise bound each leaves, come from
// levels.h (GHS's dynamic noise management, fine-grained as HElib's), which the chain
// planner shares.
//
// The plaintext factor at p > 2 (ciphertext.h). Dropping primes of product T leaves
// f T^-1 mu (rns_rounding.h), adding primes A leaves f A mu; a product's factor is f_a f_b;
// automorphisms, key switching (keys.h) and constant products keep f; decryption divides it
// out. Sums need equal factors: a + b with f_a != f_b becomes x a + y b for the small
// integers x f_a = y f_b (mod p) minimizing |x| |a| + |y| |b| among the remainders and
// cofactors of Euclid on (p, f_a / f_b) (one of those pairs has both |x|, |y| <= sqrt(p);
// the first is x = 1, the last y = 1, taken when the other operand's noise dominates),
// bounds multiplied by |x| and |y|;
// add_plain likewise adds y mu to x a with x f = y. At p = 2 every factor is 1: nothing
// of this runs, and the words are those of before.
// Why tracking, not chain primes q_i = 1 (mod p) (which keep f = 1 throughout): the chain's
// primes are already q = 1 (mod m N) (chain.h), so q = 1 (mod p) too asks for q = 1 (mod
// m N p), log2 p more bits for the smallest prime and 2^-log2 p as many primes of each
// size. With the 50-bit IFMA primes: at p = 65537, m=53261 (m N = 2^32.7) would need 52-bit
// primes, none; m=4369 (m N = 2^26.1) has about two such primes per bit size near 50 bits,
// not a chain; IAIK's 33-bit p fits no ring at 50-bit primes, its 60-bit p none at all. The ladder
// of small primes (levels.h) would lose its small rungs too. Tracking costs a word per
// ciphertext and a few products mod p per switch, beside the switch's transforms of m
// words per prime; its only price in noise is the alignment of sums whose factors differ
// (at most about log2 sqrt(p) + 1 bits, nothing when they agree, as at p = 2). The chain
// planner's backend (backend/plan_backend.h) tracks the same factors beside its bounds and
// aligns its sums with the same x and y (plaintext_factor.h, shared by both), so a plan at
// p counts the alignments the run makes.
#pragma once

#include <atomic>
#include <map>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/levels.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/op_profile.h"
#include "engine/bgv/plaintext.h"

namespace cb::bgv {

class Evaluator {
 public:
  Evaluator(const Context& ctx, const NoiseModel& noise, const KeySwitchKey& relin,
            const std::map<long, KeySwitchKey>& automorphism_keys)
      : ctx_(ctx), levels_(ctx.chain(), noise), relin_(relin), autos_(automorphism_keys) {
    levels_.set_profile(&profile_);
  }
  Evaluator(const Evaluator&) = delete;  // levels_ points at profile_
  Evaluator& operator=(const Evaluator&) = delete;

  const Levels& levels() const { return levels_; }

  void add(Ciphertext& a, const Ciphertext& b) const;
  void add_plain(Ciphertext& a, const Plaintext& mu) const;
  void mul_plain(Ciphertext& a, const Plaintext& mu) const;
  void mul(Ciphertext& a, const Ciphertext& b) const;
  void square(Ciphertext& a) const;
  // X -> X^k; needs the key for k mod m (KeyError otherwise). k = 1 is the identity.
  void automorph(Ciphertext& a, long k) const;
  // X -> X^k for every k of ks, on the same input, with the key-switching digits of the
  // input computed once ("hoisting", Halevi-Shoup 2018): the digits commute with the
  // automorphism (sigma_k(d_j) is d_j's evaluations permuted), so each further k costs
  // the key product and the division by P only, about 40% of a key switch.
  std::vector<Ciphertext> automorph_many(const Ciphertext& a, const std::vector<long>& ks) const;

  // Divide by the primes of a.primes() not in `keep` (keep: a non-empty subset).
  void mod_switch_to(Ciphertext& a, const std::vector<int>& keep) const;
  // Keeps only the first `level` primes of a's set (1 <= level <= a.level()).
  void mod_switch_to(Ciphertext& a, long level) const;
  // The operands of a layer of sums switched once to a set they all reach (Levels::
  // common_set; none there: left as they are), so the sums need no decisions.
  void align(const std::vector<Ciphertext*>& cs) const;
  // Switch to the smallest modulus that costs the coming key switch at most
  // Levels::kKeySwitchLossBits of capacity (levels.h).
  void reduce_level(Ciphertext& a) const;
  // log2(Q_T / 2) - log2 max_t of the noise bound: bits of modulus left.
  double capacity_bits(const Ciphertext& a) const;

  struct Counters {
    long mul = 0, mul_plain = 0, add = 0, automorph = 0, key_switch = 0, mod_switch = 0;
  };
  Counters counters() const;
  // Each step's own time, under the planner's names (op_profile.h); reset it before the
  // part of a run it should cover.
  const OpProfile& profile() const { return profile_; }
  void reset_profile() const { profile_.reset(); }

 private:
  // The key-switching digits of c (over the first l ciphertext primes): d_j, the
  // centered lift of c modulo the surviving primes of digit j, over those primes and P's.
  struct Digits {
    std::vector<int> targets;    // ciphertext primes 0..l-1, then the special primes
    std::vector<DCRTPoly> d;     // over targets
    std::vector<long> which;     // digit index j of each d
    std::vector<double> log2_d;  // log2 of each digit's modulus
  };
  Digits decompose(const DCRTPoly& c) const;
  // (e0, e1) over the ciphertext's primes with e0 + e1 s = sigma(c) s' + small noise,
  // sigma the permutation perm (nullptr: none) of the digits' evaluations (the noise it
  // adds is Levels::key_switch).
  void apply_key(const Digits& dg, const KeySwitchKey& key, const std::vector<int>* perm,
                 DCRTPoly& e0, DCRTPoly& e1) const;
  const KeySwitchKey& automorphism_key(long k) const;
  // mu's double-CRT form at `primes`, its first encoding timed as the step "encode".
  std::shared_ptr<const DCRTPoly> constant(const Plaintext& mu, const std::vector<int>& primes) const;
  // Switches the polynomials (all over `have`) to the prime set `target`.
  void switch_polys(const std::vector<DCRTPoly*>& polys, const std::vector<int>& have,
                    const std::vector<int>& target) const;
  // out = (d0, d1) + the s^2 part d2 switched to s, the tensor (d0, d1, d2) computed at its
  // primes from operands of noise bounds a and b; first moved to Levels::relin_set.
  // a = a * (b0, b1) (both at a's primes; bn the second operand's bound), relinearized.
  void tensor_relinearize(Ciphertext& a, const DCRTPoly& b0, const DCRTPoly& b1, const RootBound& bn,
                          uint64_t fb) const;
  // The factor by which switching from `have` to `target` multiplies the plaintext: the
  // added primes' product over the dropped ones', mod p (1 at p = 2; plaintext_factor.h).
  uint64_t switch_factor(const std::vector<int>& have, const std::vector<int>& target) const;
  // Small integers (x, y) with x fa = y fb (mod p) minimizing |x| 2^log2_a + |y| 2^log2_b
  // (plaintext_factor.h).
  std::pair<long, long> align_factors(uint64_t fa, double log2_a, uint64_t fb, double log2_b) const;
  // a *= x (an integer): parts, bound (times |x|) and factor (times x mod p).
  void scale_by(Ciphertext& a, long x) const;
  void relinearize(Ciphertext& out, DCRTPoly d0, DCRTPoly d1, DCRTPoly d2, const RootBound& a,
                   const RootBound& b) const;
  const Context& ctx_;
  Levels levels_;
  const KeySwitchKey& relin_;
  const std::map<long, KeySwitchKey>& autos_;
  mutable OpProfile profile_;
  mutable std::atomic<long> n_mul_{0}, n_mul_plain_{0}, n_add_{0}, n_auto_{0}, n_ks_{0}, n_ms_{0};
};

}  // namespace cb::bgv
