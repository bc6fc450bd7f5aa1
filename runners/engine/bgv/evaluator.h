// evaluator.h: homomorphic operations with GHS's dynamic noise management.
//
// add:        (a0 + b0, a1 + b1), noise adds.
// mul:        tensor (a0 b0, a0 b1 + a1 b0, a1 b1), then the s^2 part is key-switched
//             back to s (relinearization); noise multiplies, plus key-switching noise.
// mul_plain:  (mu a0, mu a1); noise times |mu|_can.
// automorph:  X -> X^k on both parts (a permutation of evaluation positions), then the
//             c1 part is key-switched from s(X^k) to s; noise is unchanged by the
//             permutation (the canonical norm is invariant) plus key-switching noise.
// Modulus switching divides by the top primes (rns_rounding.h) and shrinks the noise by
// the same factor, adding R. Levels are dropped only when needed (GHS §3.2 "dynamic noise
// management"). Before a key switch an operand sheds top primes while its noise stays
// above R: capacity-neutral, and the switch gets cheaper. Before a multiplication the
// level is chosen to maximize the product's capacity
//     log2 Q_l - log2(N_a Q_l / Q_a + R) - log2(N_b Q_l / Q_b + R),
// over every level l up to the lower operand's: dropping a prime q pays even when it
// pushes the noise down to R, as long as the noise exceeds about R sqrt(q), because
// the product squares what it is given. (With whole ~60-bit primes as the only unit of
// switching, the capacity-neutral rule alone would let up to 2^60 R into every product.)
#pragma once

#include <atomic>
#include <map>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/plaintext.h"

namespace cb::bgv {

class Evaluator {
 public:
  Evaluator(const Context& ctx, const NoiseModel& noise, const KeySwitchKey& relin,
            const std::map<long, KeySwitchKey>& automorphism_keys)
      : ctx_(ctx), noise_(noise), relin_(relin), autos_(automorphism_keys) {}

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
  // Drop primes while the noise stays above the rounding noise R (capacity-neutral).
  void reduce_level(Ciphertext& a) const;
  // The subsets a ciphertext over `primes` may switch to: big primes dropped from the
  // top, any of the small ones; from the most primes to the fewest.
  std::vector<std::vector<int>> switch_targets(const std::vector<int>& primes) const;
  // The prime set, within both operands' sets, at which their product has the most
  // capacity left (ties within 1/4 bit: fewer primes, cheaper).
  std::vector<int> product_set(const Ciphertext& a, const Ciphertext& b) const;
  // log2 noise of a after switching to `target` (a subset of a.primes()).
  double noise_at(const Ciphertext& a, const std::vector<int>& target) const;
  // log2(Q_l / 2) - log2(noise bound): bits of modulus left.
  double capacity_bits(const Ciphertext& a) const;

  struct Counters {
    long mul = 0, mul_plain = 0, add = 0, automorph = 0, key_switch = 0, mod_switch = 0;
  };
  Counters counters() const;

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
  // (e0, e1) over the first l ciphertext primes with e0 + e1 s = sigma(c) s' + small noise,
  // sigma the permutation perm (nullptr: none) of the digits' evaluations; log2_added
  // receives the added noise.
  void apply_key(const Digits& dg, const KeySwitchKey& key, const std::vector<int>* perm,
                 DCRTPoly& e0, DCRTPoly& e1, double& log2_added) const;
  const KeySwitchKey& automorphism_key(long k) const;
  // out = (d0, d1) + the s^2 part d2 switched to s; the noise bound of the tensor given.
  void relinearize(Ciphertext& out, DCRTPoly d0, DCRTPoly d1, const DCRTPoly& d2,
                   double log2_product_noise) const;
  const Context& ctx_;
  const NoiseModel& noise_;
  const KeySwitchKey& relin_;
  const std::map<long, KeySwitchKey>& autos_;
  mutable std::atomic<long> n_mul_{0}, n_mul_plain_{0}, n_add_{0}, n_auto_{0}, n_ks_{0}, n_ms_{0};
};

}  // namespace cb::bgv
