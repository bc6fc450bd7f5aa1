// RootBound (root_bound.h): values against plain arithmetic, copies that share values and
// stay independent, operations on a bound with itself, and the same bits at one and two
// threads on vectors long enough to be split (split_roots); root_permutation against the
// canonical embedding's values of sigma_k(a), on odd and power-of-two m.
#include <gtest/gtest.h>

#include <omp.h>

#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "engine/bgv/root_bound.h"
#include "engine/errors.h"
#include "engine/util/canonical.h"

namespace cb::bgv {
namespace {

std::vector<double> draws(long n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 3.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(g);
  return v;
}

// log2 B_t of every root.
std::vector<double> logs(const RootBound& b) {
  std::vector<double> out(b.size());
  for (long t = 0; t < b.size(); ++t) out[t] = b.log2_at(t);
  return out;
}

void expect_logs_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t t = 0; t < got.size(); ++t) EXPECT_NEAR(got[t], want[t], 1e-12) << "root " << t;
}

TEST(RootBound, SumProductPermutationAndScaleAgainstPlainArithmetic) {
  const long n = 1000;
  const auto x = draws(n, 1), y = draws(n, 2);
  RootBound a = RootBound::from_values(x), b = RootBound::from_values(y);
  a.scale(40);  // B = 2^40 x
  std::vector<int> perm(n);
  for (long t = 0; t < n; ++t) perm[t] = int((7 * t + 3) % n);
  std::vector<double> sum(n), prod(n), moved(n);
  for (long t = 0; t < n; ++t) {
    sum[t] = std::log2(std::exp2(40.0) * x[t] + y[t]);
    prod[t] = 40 + std::log2(x[t] * y[t]);
    moved[t] = 40 + std::log2(x[perm[t]]);
  }
  RootBound s = a;
  s += b;
  expect_logs_near(logs(s), sum);
  RootBound p = a;
  p *= b;
  expect_logs_near(logs(p), prod);
  expect_logs_near(logs(a.permuted(perm)), moved);
  double mx = 0;
  for (double v : s.normalized()) mx = std::max(mx, v);
  EXPECT_EQ(mx, 1.0);  // normalized: max_t v_t = 1
}

TEST(RootBound, PermutationIsTheAutomorphismOnTheEmbedding) {
  // |sigma_k(a)(zeta^(j_t))| = |a(zeta^(j_t k))| = |a| at root perm[t]: for m = 2^k the roots
  // are the odd j (Z_m^* = <-1> x <5>), for odd m the units.
  for (long m : {64L, 1024L, 257L, 105L}) {
    std::mt19937_64 g{uint64_t(m)};
    std::vector<long> a(m);
    for (long& c : a) c = long(g() % 7) - 3;
    const auto emb = util::canonical_embedding(m);
    const auto mag = emb->magnitudes(a);
    for (long k : {m - 1, 3L, 5L, 7L}) {
      if (std::gcd(k, m) != 1) continue;
      std::vector<long> s(m, 0);  // sigma_k(a) = sum a_i X^(ik mod m), congruent mod X^m - 1
      for (long i = 0; i < m; ++i) s[(i * k) % m] += a[i];
      const auto want = emb->magnitudes(s);
      const auto perm = root_permutation(m, k);
      ASSERT_EQ(perm.size(), mag.size());
      for (size_t t = 0; t < perm.size(); ++t)
        ASSERT_NEAR(want[t], mag[perm[t]], 1e-9 * (1 + mag[perm[t]])) << "m=" << m << " k=" << k << " t=" << t;
    }
  }
  EXPECT_THROW(root_permutation(64, 2), ParameterError);  // not a unit
}

TEST(RootBound, CopiesShareValuesButNotChanges) {
  const auto x = draws(500, 3), y = draws(500, 4);
  const RootBound a = RootBound::from_values(x), b = RootBound::from_values(y);
  const std::vector<double> a_before = logs(a);
  RootBound c = a;
  EXPECT_EQ(c.normalized().data(), a.normalized().data());  // a copy shares the values
  c += b;
  c *= b;
  c.scale(-3);
  expect_logs_near(logs(a), a_before);  // and the original never sees the copy's changes
  EXPECT_NE(c.normalized().data(), a.normalized().data());
  RootBound d = a;
  d.scale(5);  // a scale moves the exponent only
  EXPECT_EQ(d.normalized().data(), a.normalized().data());
  EXPECT_DOUBLE_EQ(d.log2_max(), a.log2_max() + 5);
}

TEST(RootBound, WithItselfAndWithZero) {
  const auto x = draws(300, 5);
  RootBound a = RootBound::from_values(x);
  const auto one = logs(a);
  a += a;  // 2 B
  for (long t = 0; t < a.size(); ++t) EXPECT_NEAR(a.log2_at(t), one[t] + 1, 1e-12);
  RootBound b = RootBound::from_values(x);
  b *= b;  // B^2
  for (long t = 0; t < b.size(); ++t) EXPECT_NEAR(b.log2_at(t), 2 * one[t], 1e-12);
  RootBound z;
  z += b;  // zero + b = b, sharing b's values
  EXPECT_EQ(z.normalized().data(), b.normalized().data());
  b *= RootBound();
  EXPECT_TRUE(b.is_zero());
  EXPECT_FALSE(z.is_zero());
  EXPECT_TRUE(RootBound::from_values(std::vector<double>(10, 0.0)).is_zero());
  EXPECT_TRUE(RootBound::flat(0, 3.0).is_zero());
  EXPECT_THROW(RootBound::from_values({1.0, -1.0}), ParameterError);
  RootBound shorter = RootBound::from_values(draws(299, 6));
  EXPECT_THROW(shorter += z, ParameterError);
}

// Past kParallelRoots the passes are split among the threads: one and two threads give
// the same bits (a level decision compares these numbers, so plans must not depend on the
// thread count).
TEST(RootBound, SameBitsAtOneAndTwoThreads) {
  const long n = long(kParallelRoots) * 3 + 17;
  std::vector<int> perm(n);
  for (long t = 0; t < n; ++t) perm[t] = int((5 * t + 11) % n);
  auto run = [&](int threads) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    RootBound a = RootBound::from_values(draws(n, 7)), b = RootBound::from_values(draws(n, 8));
    a.scale(17.25);
    RootBound c = a;
    c += b;
    c *= a;
    c = c.permuted(perm);
    c += c;
    omp_set_num_threads(before);
    return std::make_pair(c.exponent(), c.normalized());
  };
  const auto one = run(1), two = run(2);
  EXPECT_EQ(one.first, two.first);
  EXPECT_EQ(one.second, two.second);
}

// A product by a flat bound is a change of exponent (root_bound.h): the same bits as the
// product at every root, either way round; the shared ones are never written.
TEST(RootBound, ProductByAFlatBoundIsTheProductAtEveryRoot) {
  std::vector<double> v{3.0, 0.5, 7.25, 1e-3, 2.0};
  const RootBound f = RootBound::flat(5, 2.5), ones = RootBound::from_values(std::vector<double>(5, std::exp2(2.5)));
  ASSERT_TRUE(f.is_flat());
  EXPECT_FALSE(ones.is_flat());
  RootBound a = RootBound::from_values(v), b = a;
  a *= f;
  b *= ones;
  EXPECT_FALSE(a.is_flat());
  EXPECT_EQ(a.exponent(), b.exponent());
  for (long t = 0; t < 5; ++t) EXPECT_EQ(a.normalized()[t], b.normalized()[t]) << t;
  RootBound c = RootBound::flat(5, 2.5);
  c *= RootBound::from_values(v);
  EXPECT_EQ(c.exponent(), b.exponent());
  for (long t = 0; t < 5; ++t) EXPECT_EQ(c.normalized()[t], b.normalized()[t]) << t;
  c += RootBound::flat(5, 1.0);  // a sum writes new values, never the shared ones
  EXPECT_EQ(RootBound::flat(5, 0.0).normalized()[1], 1.0);
}

}  // namespace
}  // namespace cb::bgv
