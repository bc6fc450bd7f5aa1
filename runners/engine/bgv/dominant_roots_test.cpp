// DominantRoots (dominant_roots.h): the kept roots are the Pareto set (none dominates or
// equals another, each root is dominated or equalled by one kept), in 1 to 3 dimensions,
// with ties, repeated vectors and correlated values like a run's bounds; monotone
// combinations have the same maximum over the kept roots as over all, bit for bit; and a
// key switch's bound is ordered as the rounding bound it is built on (what levels.cpp's
// key-switch decision relies on to share one set among the prefixes).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "engine/bgv/dominant_roots.h"
#include "engine/bgv/noise.h"
#include "engine/errors.h"

namespace cb::bgv {
namespace {

// k vectors of n values: a common factor (like |s(zeta_u)|) times a little independent
// spread, rounded to a grid of `levels` values so that ties occur.
std::vector<std::vector<double>> points(size_t k, size_t n, double spread, int levels, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::vector<double>> xs(k, std::vector<double>(n));
  for (size_t t = 0; t < n; ++t) {
    const double common = u(g);
    for (size_t i = 0; i < k; ++i) xs[i][t] = std::round((common + spread * u(g)) * levels) / levels;
  }
  return xs;
}

bool at_least(const std::vector<std::vector<double>>& xs, size_t v, size_t u) {
  for (const auto& x : xs)
    if (x[v] < x[u]) return false;
  return true;
}

void expect_pareto(const std::vector<std::vector<double>>& xs, const DominantRoots& d) {
  const auto& kept = d.index();
  ASSERT_FALSE(kept.empty());
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  for (uint32_t v : kept)
    for (uint32_t w : kept)
      if (v != w) {
        EXPECT_FALSE(at_least(xs, w, v)) << "kept root " << v << " is dominated or equalled by kept " << w;
      }
  for (size_t u = 0; u < xs[0].size(); ++u) {
    bool covered = false;
    for (uint32_t v : kept) covered = covered || at_least(xs, v, u);
    EXPECT_TRUE(covered) << "root " << u << " is dominated by no kept root";
  }
}

TEST(DominantRoots, IsTheParetoSetInOneToThreeDimensions) {
  for (size_t k = 1; k <= 3; ++k)
    for (double spread : {0.0, 0.05, 1.0})
      for (int levels : {4, 1000, 1 << 30}) {
        SCOPED_TRACE(testing::Message() << "k=" << k << " spread=" << spread << " levels=" << levels);
        const auto xs = points(k, 3000, spread, levels, unsigned(100 * k + levels));
        std::vector<const double*> ps;
        for (const auto& x : xs) ps.push_back(x.data());
        const DominantRoots d(ps, xs[0].size());
        expect_pareto(xs, d);
        if (spread == 0.0) {
          EXPECT_EQ(d.size(), 1u);  // equal coordinates: one maximal point
        }
      }
}

TEST(DominantRoots, ARepeatedVectorCountsOnceAndValuesComeInIndexOrder) {
  const auto xs = points(2, 500, 0.3, 1000, 7);
  const DominantRoots once({xs[0].data(), xs[1].data()}, 500);
  const DominantRoots repeated({xs[0].data(), xs[1].data(), xs[0].data()}, 500);
  EXPECT_EQ(once.index(), repeated.index());
  const auto v = once.at(xs[1].data());
  ASSERT_EQ(v.size(), once.size());
  for (size_t j = 0; j < v.size(); ++j) EXPECT_EQ(v[j], xs[1][once.index()[j]]);
  EXPECT_THROW(DominantRoots({}, 10), Error);
}

// The decisions' combinations (levels.cpp) at random coefficients >= 0, spanning many
// binades as the candidates' do: the same maximum over the kept roots, bit for bit.
TEST(DominantRoots, MonotoneCombinationsPeakAtAKeptRoot) {
  const auto xs = points(3, 20000, 0.2, 1 << 30, 11);
  const auto &a = xs[0], &b = xs[1], &r = xs[2];
  const DominantRoots d({a.data(), b.data(), r.data()}, a.size());
  EXPECT_LT(d.size(), a.size() / 10);
  std::mt19937_64 g(12);
  std::uniform_real_distribution<double> e(-60.0, 0.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double fa = std::exp2(e(g)), fb = std::exp2(e(g)), gr = trial % 3 ? std::exp2(e(g)) : 0.0;
    auto sum = [&](size_t u) { return fa * a[u] + fb * b[u] + gr * r[u]; };
    auto product = [&](size_t u) { return (fa * a[u] + gr * r[u]) * (fb * b[u] + gr * r[u]); };
    double all_s = 0, all_p = 0, kept_s = 0, kept_p = 0;
    for (size_t u = 0; u < a.size(); ++u) all_s = std::max(all_s, sum(u)), all_p = std::max(all_p, product(u));
    for (uint32_t u : d.index()) kept_s = std::max(kept_s, sum(u)), kept_p = std::max(kept_p, product(u));
    EXPECT_EQ(kept_s, all_s) << "trial " << trial;
    EXPECT_EQ(kept_p, all_p) << "trial " << trial;
  }
}

TEST(DominantRoots, KeySwitchBoundIsOrderedAsTheRoundingBound) {
  std::mt19937_64 g(3);
  for (long m : {257L, 4369L}) {
    std::vector<long> s(size_t(m - 1 < 256 ? m - 1 : 256), 0);  // a sparse ternary key's first coefficients
    for (auto& x : s) x = long(g() % 3) - 1;
    const NoiseModel noise(m, s);
    const auto& r = noise.rounding().normalized();
    std::vector<size_t> order(r.size());
    for (size_t t = 0; t < order.size(); ++t) order[t] = t;
    std::sort(order.begin(), order.end(), [&](size_t u, size_t v) { return r[u] < r[v]; });
    for (const std::vector<double>& digits : {std::vector<double>{50, 100}, std::vector<double>{1, 2, 3}}) {
      for (double log2_P : {0.0, 60.0, 200.0}) {
        const RootBound bound = noise.key_switch(digits, log2_P);
        const auto& ks = bound.normalized();
        for (size_t j = 1; j < order.size(); ++j)
          ASSERT_LE(ks[order[j - 1]], ks[order[j]]) << "m=" << m << " roots " << order[j - 1] << ", " << order[j];
      }
    }
  }
}

}  // namespace
}  // namespace cb::bgv
