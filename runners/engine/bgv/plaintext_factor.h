// plaintext_factor.h: the plaintext factor f of a ciphertext at p > 2, its arithmetic.
//
// A ciphertext holds c0 + c1 s = f mu + p e (ciphertext.h). Switching from the prime set
// `have` to `target` multiplies f by A / T mod p, A the added primes' product and T the
// dropped ones' (rns_rounding.h); a product multiplies the operands' factors. A sum of two
// ciphertexts (or of a ciphertext and a constant, f = 1) needs equal factors: x a + y b
// with x f_a = y f_b (mod p), x and y small (evaluator.h says which pair). The evaluator
// and the chain planner (backend/plan_backend.h, which tracks the same factors beside its
// bounds) both call these, so a plan aligns its sums with the run's own x and y.
// At p = 2 every factor is 1.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/bgv/chain.h"
#include "engine/bgv/noise.h"
#include "engine/util/modarith.h"

namespace cb::bgv {

// The factor by which switching from `have` to `target` (sorted prime indices of `chain`)
// multiplies the plaintext: the added primes' product over the dropped ones', mod p (1 at
// p = 2: every prime is odd).
inline uint64_t switch_factor(const Chain& chain, uint64_t p, const std::vector<int>& have,
                              const std::vector<int>& target) {
  if (p == 2) return 1;
  uint64_t up = 1, down = 1;
  for (int i : target)
    if (!std::binary_search(have.begin(), have.end(), i)) up = util::mul_mod(up, chain.q(i) % p, p);
  for (int i : have)
    if (!std::binary_search(target.begin(), target.end(), i)) down = util::mul_mod(down, chain.q(i) % p, p);
  return down == 1 ? up : util::mul_mod(up, util::inv_mod(down, p), p);
}

// Small integers (x, y) with x fa = y fb (mod p) minimizing |x| 2^log2_a + |y| 2^log2_b
// (fa, fb in [1, p)).
inline std::pair<long, long> align_factors(uint64_t p, uint64_t fa, double log2_a, uint64_t fb, double log2_b) {
  // x fa = y fb (mod p), i.e. y = x r with r = fa / fb: the remainders r_i and cofactors
  // t_i of Euclid on (p, r) satisfy r_i = t_i r (mod p), |r_i| falling from r to 1 while
  // |t_i| rises from 1 to at most p/2; the pair of least |t_i| 2^log2_a + r_i 2^log2_b wins.
  const uint64_t r = util::mul_mod(fa, util::inv_mod(fb, p), p);
  __int128 r0 = p, r1 = r, t0 = 0, t1 = 1;
  long bx = 1, by = long(r);
  double best = INFINITY;
  while (r1 != 0) {
    const double ax = std::fabs(double(t1)), ay = double(r1);
    const double cost = log2_add(std::log2(ax) + log2_a, std::log2(ay) + log2_b);
    if (cost < best) best = cost, bx = long(t1), by = long(r1);
    const __int128 qq = r0 / r1;
    const __int128 r2 = r0 - qq * r1, t2 = t0 - qq * t1;
    r0 = r1, r1 = r2, t0 = t1, t1 = t2;
  }
  return {bx, by};
}

}  // namespace cb::bgv
