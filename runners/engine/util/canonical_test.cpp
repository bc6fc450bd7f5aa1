#include "engine/util/canonical.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>

#include "engine/errors.h"

namespace cb::util {
namespace {

// max over j in Z_m^* of |a(e^(2 pi i j/m))| by direct evaluation in long double, with the
// angle of each term reduced exactly: zeta^(ij) = e^(2 pi i (ij mod m)/m).
double naive_norm(const std::vector<long>& a, long m) {
  const long double two_pi = 2 * 3.14159265358979323846264338327950288L;
  long double best = 0;
  for (long j = 1; j < m; ++j) {
    if (std::gcd(j, m) != 1) continue;
    long double re = 0, im = 0;
    for (long i = 0; i < long(a.size()); ++i) {
      const long double ang = two_pi * ((i * j) % m) / m;
      re += a[i] * std::cos(ang);
      im += a[i] * std::sin(ang);
    }
    best = std::max(best, std::sqrt(re * re + im * im));
  }
  return double(best);
}

struct NormCase {
  long m;
  long len;    // number of coefficients
  long bound;  // coefficients uniform in [-bound, bound]
  friend std::ostream& operator<<(std::ostream& os, const NormCase& c) {
    return os << "m" << c.m << "_len" << c.len << "_bound" << c.bound;
  }
};

class CanonicalNormTest : public ::testing::TestWithParam<NormCase> {};

TEST_P(CanonicalNormTest, MatchesDirectEvaluation) {
  const NormCase c = GetParam();
  std::mt19937_64 rng(c.m * 31 + c.len);
  std::uniform_int_distribution<long> coef(-c.bound, c.bound);
  std::vector<long> a(c.len);
  for (auto& x : a) x = coef(rng);
  const double want = naive_norm(a, c.m);
  const double got = canonical_norm(a, c.m);
  EXPECT_NEAR(got, want, 1e-10 * want + 1e-9);
}

// Two real polynomials from one evaluation of a + i b give the magnitudes of two calls,
// root by root (b shorter than a, and of a different size, as lifts of any degree are).
TEST_P(CanonicalNormTest, PairMatchesTwoEvaluations) {
  const NormCase c = GetParam();
  std::mt19937_64 rng(c.m * 17 + c.len);
  std::uniform_int_distribution<long> coef(-c.bound, c.bound);
  std::vector<long> a(c.len), b((c.len + 1) / 2);
  for (auto& x : a) x = coef(rng);
  for (auto& x : b) x = 3 * coef(rng);
  const auto emb = canonical_embedding(c.m);
  const auto [pa, pb] = emb->magnitudes(a, b);
  const auto sa = emb->magnitudes(a), sb = emb->magnitudes(b);
  ASSERT_EQ(pa.size(), sa.size());
  ASSERT_EQ(pb.size(), sb.size());
  const double scale = double(c.len) * double(3 * c.bound);  // sum |a_i| + |b_i| at most
  for (size_t t = 0; t < sa.size(); ++t) {
    EXPECT_NEAR(pa[t], sa[t], 1e-12 * scale) << "root " << t;
    EXPECT_NEAR(pb[t], sb[t], 1e-12 * scale) << "root " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Rings, CanonicalNormTest,
                         ::testing::Values(NormCase{3, 3, 5}, NormCase{257, 257, 1},
                                           NormCase{257, 256, 1000000}, NormCase{243, 162, 7},
                                           NormCase{771, 771, 1}, NormCase{1155, 480, 1L << 30},
                                           NormCase{343, 1, 9},
                                           // m = 2^k: degree < m (folded mod X^phi + 1), < phi, short
                                           NormCase{4, 4, 5}, NormCase{8, 8, 3}, NormCase{64, 64, 1000},
                                           NormCase{1024, 512, 1}, NormCase{1024, 1024, 1L << 20},
                                           NormCase{4096, 700, 7}, NormCase{16, 1, 9}),
                         ::testing::PrintToStringParamName());

TEST(CanonicalNorm, ClosedForms) {
  // Constants and monomials have norm |c|; 1 + X has norm max_j |1 + zeta^j| = 2 cos(pi/m).
  for (long m : {3L, 255L, 257L, 4369L}) {
    EXPECT_NEAR(canonical_norm({-5}, m), 5.0, 1e-12);
    EXPECT_NEAR(canonical_norm({0, 0, 3}, m), 3.0, 1e-12);
    EXPECT_NEAR(canonical_norm({1, 1}, m), 2 * std::cos(M_PI / m), 1e-12);
    EXPECT_EQ(canonical_norm({}, m), 0.0);
  }
  for (long m : {4L, 256L, 65536L}) {  // m = 2^k: the roots are zeta^j, odd j
    EXPECT_NEAR(canonical_norm({-5}, m), 5.0, 1e-12);
    EXPECT_NEAR(canonical_norm({0, 0, 3}, m), 3.0, 1e-12);
    EXPECT_NEAR(canonical_norm({1, 1}, m), 2 * std::cos(M_PI / m), 1e-12);
    EXPECT_EQ(canonical_norm({}, m), 0.0);
    std::vector<long> phi_m(m / 2 + 1, 0);  // X^(m/2) + 1 = Phi_m
    phi_m.front() = phi_m.back() = 1;
    EXPECT_NEAR(canonical_norm(phi_m, m), 0.0, 1e-12);
    std::vector<long> top(m, 0);  // X^(m/2 + 1) = -X mod Phi_m
    top[m / 2 + 1] = 4;
    EXPECT_NEAR(canonical_norm(top, m), 4.0, 1e-12);
  }
  // Phi_m vanishes at every primitive root: 1 + X + X^2 for m = 3.
  EXPECT_NEAR(canonical_norm({1, 1, 1}, 3), 0.0, 1e-12);
  // Sum_{i<m} X^i vanishes at all non-trivial m-th roots.
  EXPECT_NEAR(canonical_norm(std::vector<long>(257, 1), 257), 0.0, 1e-9);
}

TEST(CanonicalNorm, LargeRingIsFastAndReusable) {
  const long m = 131071;  // 2^17 - 1, N = 2^18
  std::mt19937_64 rng(5);
  std::vector<long> a(m);
  for (auto& x : a) x = long(rng() % 3) - 1;
  const auto t0 = std::chrono::steady_clock::now();
  const CanonicalNorm norm(m);
  const double v = norm(a);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // Ternary coefficients: the norm is about sqrt(2m/3 * log phi) and at most the l1 norm.
  EXPECT_GT(v, std::sqrt(2.0 * m / 3));
  EXPECT_LT(v, double(m));
  EXPECT_EQ(norm(a), v);
  // Generous wall-clock bound (shared machine, possibly sanitizers): tens of ms expected.
  EXPECT_LT(ms, 2000.0);
  // Spot-check one evaluation point directly: |a(zeta)| <= norm.
  long double re = 0, im = 0;
  for (long i = 0; i < m; ++i) {
    const long double ang = 2 * 3.14159265358979323846264338327950288L * i / m;
    re += a[i] * std::cos(ang);
    im += a[i] * std::sin(ang);
  }
  EXPECT_LE(double(std::sqrt(re * re + im * im)), v * (1 + 1e-9));
}

TEST(CanonicalNorm, RejectsBadInput) {
  try {
    canonical_norm({1}, 258);  // even, not a power of two (m = 2^k is taken: ClosedForms)
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "CanonicalNorm: m=258 must be odd with 3 <= m <= 2^24 or a power of two with 4 <= m <= 2^24");
  }
  EXPECT_THROW(canonical_norm({1}, 2), ParameterError);
  try {
    canonical_norm(std::vector<long>(8, 1), 7);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "CanonicalNorm: 8 coefficients exceed m=7");
  }
}

}  // namespace
}  // namespace cb::util
