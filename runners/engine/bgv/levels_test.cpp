// Levels' decisions against brute force: where a sum or a product runs is the target (a
// prefix of the common big primes, any small primes) of the most capacity, ties within
// kLadderTieBits to the smallest modulus. Levels finds it by bisection on the concave part
// and, for sums, on each run of targets that keep the same operands' primes (their
// capacity rises with the modulus); here every target is evaluated from the bounds'
// definitions (Levels::switched, RootBound arithmetic) on random operands.
#include "engine/bgv/levels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>

namespace cb::bgv {
namespace {

constexpr long kM = 4369;  // phi 4096

long phi_of(long m) {
  long phi = 0;
  for (long j = 1; j < m; ++j) phi += std::gcd(j, m) == 1;
  return phi;
}

struct Fixture {
  Chain chain{ChainParams{kM, 600, 3}};
  NoiseModel noise;
  Fixture() {
    std::mt19937_64 gen(7);
    std::vector<long> s(phi_of(kM), 0);
    for (int i = 0; i < 120; ++i) s[gen() % s.size()] = (gen() & 1) ? 1 : -1;
    noise = NoiseModel(kM, s);
  }
};

// A random bound: values spread over a few bits, and a random exponent.
RootBound random_bound(std::mt19937_64& gen, long phi, double log2_max) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  std::vector<double> v(phi);
  for (double& x : v) x = u(gen) * u(gen);
  RootBound r = RootBound::from_values(std::move(v));
  r.scale(log2_max);
  return r;
}

// A random prime set: a prefix of the big primes and some small ones (none: big_only).
PrimeSet random_set(std::mt19937_64& gen, const Chain& chain, bool big_only) {
  const auto big = chain.ciphertext_primes();
  PrimeSet t;
  for (long i = 0; i < chain.S() && !big_only; ++i)
    if (gen() % 3 == 0) t.push_back(int(i));
  const long keep = 1 + long(gen() % big.size());
  t.insert(t.end(), big.begin(), big.begin() + keep);
  return t;
}

// The brute force: every target of (ta, tb), its capacity from the switched bounds.
template <class Bound>
PrimeSet brute_force(const Levels& lv, const PrimeSet& ta, const PrimeSet& tb, Bound bound) {
  const Chain& chain = lv.chain();
  PrimeSet common;
  std::set_intersection(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(common));
  for (long i = 0; i < chain.S(); ++i)
    if (!std::binary_search(common.begin(), common.end(), int(i))) common.insert(common.begin() + i, int(i));
  std::vector<std::pair<double, PrimeSet>> caps;
  double best = -INFINITY;
  for (const PrimeSet& t : lv.switch_targets(common)) {
    const double c = lv.capacity(t, bound(t));
    caps.emplace_back(c, t);
    best = std::max(best, c);
  }
  PrimeSet out;
  double out_x = INFINITY;
  for (const auto& [c, t] : caps)
    if (c >= best - Levels::kLadderTieBits && chain.log2_Q(t) < out_x) out_x = chain.log2_Q(t), out = t;
  return out;
}

TEST(Levels, SumAndProductSetsAreTheBruteForceBest) {
  Fixture f;
  const Levels lv(f.chain, f.noise);
  std::mt19937_64 gen(11);
  const long phi = phi_of(kM);
  int differing_sets = 0;
  for (int trial = 0; trial < 150; ++trial) {
    // a third of the pairs at one set (a state's ciphertexts), a third without small primes
    const PrimeSet ta = random_set(gen, f.chain, trial % 3 == 2);
    const PrimeSet tb = trial % 3 == 0 ? ta : random_set(gen, f.chain, trial % 3 == 2);
    differing_sets += ta != tb;
    // exponents from far below the rounding noise to near the modulus of each operand
    auto exponent = [&](const PrimeSet& t) { return 10 + double(gen() % 1000) / 1000 * (f.chain.log2_Q(t) - 12); };
    const double ea = exponent(ta), eb = exponent(tb);
    const RootBound a = random_bound(gen, phi, ea), b = random_bound(gen, phi, eb);
    const PrimeSet sum = lv.sum_set(ta, a, tb, b);
    const PrimeSet sum_ref = brute_force(lv, ta, tb, [&](const PrimeSet& t) {
      RootBound r = lv.switched(ta, a, t);
      r += lv.switched(tb, b, t);
      return r;
    });
    EXPECT_EQ(sum, sum_ref) << "sum, trial " << trial;
    const PrimeSet prod = lv.product_set(ta, a, tb, b);
    const PrimeSet prod_ref = brute_force(lv, ta, tb, [&](const PrimeSet& t) {
      RootBound r = lv.switched(ta, a, t);
      r *= lv.switched(tb, b, t);
      return r;
    });
    EXPECT_EQ(prod, prod_ref) << "product, trial " << trial;
  }
  EXPECT_GT(differing_sets, 60);  // operands at different levels: the runs of "others" are met
}

TEST(Levels, KeySwitchBoundIsKeptPerDigitSizes) {
  Fixture f;
  const Levels lv(f.chain, f.noise);
  const auto big = f.chain.ciphertext_primes();
  const PrimeSet all(big.begin(), big.end()), half(big.begin(), big.begin() + long(big.size()) / 2);
  const RootBound& k1 = lv.key_switch(all);
  const RootBound& k2 = lv.key_switch(half);
  EXPECT_EQ(&k1, &lv.key_switch(all));  // the same bound, not recomputed
  EXPECT_GT(k1.log2_max(), k2.log2_max());  // larger digits, more noise
}

}  // namespace
}  // namespace cb::bgv
