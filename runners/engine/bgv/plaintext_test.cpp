// Tests of the plaintext encoding's lift (plaintext.h): congruent to mu mod 2, its embedding
// the one computed, the same for the planner (embedding_of), and smaller than the {0,1} lift
// on dense constants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/bgv/context.h"
#include "engine/bgv/plaintext.h"
#include "engine/util/canonical.h"

namespace cb::bgv {
namespace {

// A dense slot constant at m=4369 (256 slots of GF(2^16)): random slot values.
NTL::GF2X dense_constant(const Context& ctx, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<NTL::GF2X> v(ctx.zmstar().ell());
  for (auto& x : v)
    for (long i = 0; i < ctx.zmstar().d(); ++i)
      if (g() & 1) NTL::SetCoeff(x, i);
  return ctx.slots().encode(v);
}

TEST(PlaintextLift, CongruentToMuWithItsOwnEmbeddingAndTheSameForThePlanner) {
  const Context ctx(ContextParams{4369, 100, 2, 120});
  for (uint64_t seed : {1, 2, 3}) {
    const NTL::GF2X mu = dense_constant(ctx, seed);
    const Plaintext p(ctx, mu);
    NTL::GF2X back;
    for (size_t i = 0; i < p.coeffs().size(); ++i) {
      ASSERT_LE(std::abs(p.coeffs()[i]), 1);
      if (p.coeffs()[i] & 1) NTL::SetCoeff(back, long(i));
    }
    NTL::GF2X r;
    NTL::rem(r, mu, ctx.slots().Phi());
    EXPECT_EQ(back, r);  // the lift is mu mod 2
    const auto direct = util::canonical_embedding(ctx.m())->magnitudes(p.coeffs());
    const RootBound planned = Plaintext::embedding_of(ctx.slots(), ctx.m(), mu);
    ASSERT_EQ(planned.size(), long(direct.size()));
    for (long t = 0; t < planned.size(); ++t) {
      EXPECT_NEAR(p.roots().log2_at(t), std::log2(direct[t]), 1e-9);
      EXPECT_NEAR(planned.log2_at(t), p.roots().log2_at(t), 1e-12);
    }
  }
}

// Lifts are remembered engine-wide by (m, mu): the planner's bound and every plaintext of
// the same mu share one embedding, computed once; another mu is another entry.
TEST(PlaintextLift, RememberedByRingAndPlaintext) {
  const Context ctx(ContextParams{4369, 100, 2, 120});
  const NTL::GF2X mu = dense_constant(ctx, 11), nu = dense_constant(ctx, 12);
  const Plaintext a(ctx, mu), b(ctx, mu), c(ctx, nu);
  EXPECT_EQ(&a.roots(), &b.roots());
  EXPECT_EQ(a.coeffs(), b.coeffs());
  EXPECT_EQ(Plaintext::embedding_ptr(ctx.slots(), ctx.m(), mu).get(), &a.roots());
  EXPECT_NE(&a.roots(), &c.roots());
  EXPECT_NE(a.coeffs(), c.coeffs());
  const auto [lift, bound] = Plaintext::small_lift(ctx.m(), std::vector<long>(a.coeffs().size(), 0));
  EXPECT_TRUE(bound.is_zero());  // the zero polynomial, not a neighbour's entry
}

TEST(PlaintextLift, SignedLiftIsSmallerThanTheZeroOneLiftOnDenseConstants) {
  // Measured when written: the {0,1} lift of such constants reaches 2^7.3-2^9.2 at m=4369,
  // the signed one 2^6.8-2^7.2 (2^11.8 against 2^8.9 at m=53261).
  const Context ctx(ContextParams{4369, 100, 2, 120});
  for (uint64_t seed : {4, 5, 6}) {
    const NTL::GF2X mu = dense_constant(ctx, seed);
    const Plaintext p(ctx, mu);
    std::vector<long> zero_one(p.coeffs().size());
    for (size_t i = 0; i < zero_one.size(); ++i) zero_one[i] = p.coeffs()[i] != 0;
    const auto e01 = util::canonical_embedding(ctx.m())->magnitudes(zero_one);
    const double log2_01 = std::log2(*std::max_element(e01.begin(), e01.end()));
    EXPECT_LT(p.log2_norm(), log2_01 - 0.3) << "seed " << seed;
  }
}

// At p > 2 a plaintext's bound is flat at the largest |mu(zeta_t)| (plaintext.h: why), the
// same whether computed or remembered; at p = 2 it stays the profile at every root.
TEST(PlaintextLift, FlatAtItsLargestRootAtOddPAndRemembered) {
  ContextParams params{256, 100, 2, 120};
  params.p = 65537;
  const Context ctx(params);
  std::mt19937_64 g(5);
  std::vector<long> coeffs(size_t(ctx.phi()));
  for (auto& c : coeffs) c = long(g() % 65537);
  const Plaintext a = Plaintext::from_coeffs(ctx, coeffs), b = Plaintext::from_coeffs(ctx, coeffs);
  const std::vector<double> mags = util::canonical_embedding(256)->magnitudes(a.coeffs());
  const double mx = *std::max_element(mags.begin(), mags.end());
  ASSERT_TRUE(a.roots().is_flat());
  EXPECT_EQ(a.roots().size(), ctx.phi());
  EXPECT_DOUBLE_EQ(a.log2_norm(), std::log2(mx));
  for (long t = 0; t < ctx.phi(); ++t) EXPECT_GE(a.roots().log2_at(t), std::log2(mags[size_t(t)]) - 1e-12) << t;
  EXPECT_EQ(b.log2_norm(), a.log2_norm());  // the second from the memo: the same bits
  const Context ctx2(ContextParams{4369, 100, 2, 120});
  const Plaintext d(ctx2, dense_constant(ctx2, 1));
  EXPECT_FALSE(d.roots().is_flat());
}

}  // namespace
}  // namespace cb::bgv
