// Tests of the batched RNS routines (rns_rounding.h): several polynomials or digits in one
// parallel pass give word for word what one at a time gives, at one thread and at two, and
// the results are what the routines promise (a digit's lift equals x on the digit's primes;
// the scaled rounding of a multiple of 2 T is the quotient).
#include <gtest/gtest.h>
#include <omp.h>

#include <random>

#include "engine/bgv/context.h"
#include "engine/bgv/rns_rounding.h"
#include "engine/util/modarith.h"

namespace cb::bgv {
namespace {

DCRTPoly random_poly(const Context& ctx, const std::vector<int>& primes, std::mt19937_64& g) {
  DCRTPoly x(ctx, primes);
  for (long i = 0; i < x.num_limbs(); ++i)
    for (long t = 0; t < x.phi(); ++t) x.limb(i)[t] = g() % x.modulus(i);
  return x;
}

bool same(const DCRTPoly& a, const DCRTPoly& b) {
  if (a.primes() != b.primes()) return false;
  for (long i = 0; i < a.num_limbs(); ++i)
    if (!std::equal(a.limb(i), a.limb(i) + a.phi(), b.limb(i))) return false;
  return true;
}

// m = 4369 (phi 4096: the loops run on the threads), 300 bits, c = 3.
const Context& ctx() {
  static const Context c(ContextParams{4369, 300, 3, 120});
  return c;
}

std::vector<int> all_primes() {
  std::vector<int> p(ctx().num_primes());
  for (size_t i = 0; i < p.size(); ++i) p[i] = int(i);
  return p;
}

TEST(RnsRounding, BatchesEqualOneAtATimeAtAnyThreadCount) {
  const int saved = omp_get_max_threads();
  std::mt19937_64 g(5);
  const auto all = all_primes();
  const DCRTPoly x = random_poly(ctx(), all, g), y = random_poly(ctx(), all, g), z = random_poly(ctx(), all, g);
  const std::vector<int> keep(all.begin(), all.end() - ctx().K());
  const std::vector<int> drop(all.end() - ctx().K(), all.end());
  const int S = int(ctx().S());
  const std::vector<std::vector<int>> digits{{S, S + 1}, {S + 2}, {S + 3, S + 4}};
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    const auto many = divide_round(std::vector<const DCRTPoly*>{&x, &y, &z}, keep, drop);
    ASSERT_EQ(many.size(), 3u);
    EXPECT_TRUE(same(many[0], divide_round(x, keep, drop))) << threads << " threads";
    EXPECT_TRUE(same(many[1], divide_round(y, keep, drop))) << threads << " threads";
    EXPECT_TRUE(same(many[2], divide_round(z, keep, drop))) << threads << " threads";
    const auto lifts = lift_digits(x, digits, all);
    ASSERT_EQ(lifts.size(), digits.size());
    for (size_t j = 0; j < digits.size(); ++j)
      EXPECT_TRUE(same(lifts[j], lift_digit(x, digits[j], all))) << "digit " << j << ", " << threads << " threads";
  }
  omp_set_num_threads(saved);
}

TEST(RnsRounding, ResultsAreWhatTheyPromise) {
  std::mt19937_64 g(6);
  const auto all = all_primes();
  const DCRTPoly x = random_poly(ctx(), all, g);
  // A digit's lift equals x on its primes (it is x modulo the digit).
  const std::vector<int> digit{int(ctx().S()), int(ctx().S()) + 1};
  const DCRTPoly d = lift_digit(x, digit, all);
  for (int p : digit) EXPECT_TRUE(std::equal(d.limb_of(p), d.limb_of(p) + d.phi(), x.limb_of(p)));
  // The scaled rounding of 2 T X (X over the kept primes, 0 on the dropped ones: delta = 0,
  // even) is 2 X on every kept prime.
  const std::vector<int> keep(all.begin(), all.end() - ctx().K());
  const std::vector<int> drop(all.end() - ctx().K(), all.end());
  DCRTPoly xk = random_poly(ctx(), keep, g);
  DCRTPoly xt(ctx(), all);
  for (long i = 0; i < long(all.size()); ++i) {
    const uint64_t s = ctx().q(all[i]);
    uint64_t T = 2 % s;
    for (int t : drop) T = util::mul_mod(T, ctx().q(t) % s, s);
    for (long t = 0; t < xt.phi(); ++t)
      xt.limb(i)[t] = i < long(keep.size()) ? util::mul_mod(xk.limb(i)[t], T, s) : 0;
  }
  const DCRTPoly r = divide_round(xt, keep, drop);
  for (long i = 0; i < r.num_limbs(); ++i) {
    const uint64_t s = r.modulus(i);
    for (long t = 0; t < r.phi(); ++t) ASSERT_EQ(r.limb(i)[t], util::mul_mod(xk.limb(i)[t], 2 % s, s));
  }
}

}  // namespace
}  // namespace cb::bgv
