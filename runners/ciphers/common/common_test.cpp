// common_test: the circuit building blocks on the clear backend: the inversion chain
// (values, depth, cost), linearized maps (values, automorphism counts of the baby-step
// giant-step schedule), slot maps by automorphisms (values on rings with good and bad
// dimensions), block layouts.
#include <gtest/gtest.h>

#include <random>

#include "backend/clear_backend.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/inversion.h"
#include "ciphers/common/layout.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/linearized_eval.h"
#include "ciphers/common/slot_map.h"
#include "engine/errors.h"

namespace cb {
namespace {

// A ring for each field: n | d = ord_m(2).
struct FieldRing {
  long n;
  uint64_t f_low;
  long m;
};
void PrintTo(const FieldRing& f, std::ostream* os) { *os << "GF(2^" << f.n << ") in m=" << f.m; }

// The four Vision moduli (docs/vision.md §1); 257: d=16, 641: d=64.
const FieldRing kFields[] = {{8, 0x1b, 257}, {16, 0x2b, 257}, {32, 0x8d, 641}, {64, 0x1b, 641}};

std::vector<uint64_t> random_slots(std::mt19937_64& rng, long ell, long n) {
  std::vector<uint64_t> v(ell);
  const uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
  for (auto& x : v) x = rng() & mask;
  return v;
}

class FieldTest : public ::testing::TestWithParam<FieldRing> {};

TEST_P(FieldTest, InverseChainComputesInverseInOptimalDepth) {
  const auto [n, f, m] = GetParam();
  ClearBackend b(m, n, f);
  std::vector<long> ks;
  for (long j : inverse_frobenius_powers(n)) ks.push_back(b.zmstar().power(2, j));
  b.require_automorphisms(ks);
  Evaluator<ClearBackend> ev(b);
  std::mt19937_64 rng(n);
  auto v = random_slots(rng, b.slot_count(), n);
  v[0] = 0, v[1] = 1;
  const auto x = b.encrypt(v);
  const auto y = inverse(ev, x, n);
  const auto got = b.decrypt(y);
  for (long s = 0; s < b.slot_count(); ++s) EXPECT_EQ(got[s], b.field().inv(v[s])) << "slot " << s;
  long depth = 0;
  while ((1L << depth) < n - 1) ++depth;
  EXPECT_EQ(b.depth(y), depth);
  EXPECT_EQ(chain_cost(n - 1).depth, depth);
  EXPECT_EQ(ev.counts().mul, chain_cost(n - 1).mul);
  EXPECT_EQ(ev.counts().automorph, chain_cost(n - 1).automorph + 1);  // + the final square
}

TEST_P(FieldTest, LinearizedMapMatchesClearEvaluationWithFewAutomorphisms) {
  const auto [n, f, m] = GetParam();
  ClearBackend b(m, n, f);
  std::mt19937_64 rng(n + 1);
  Linearized full{rng() & ((n == 64) ? ~0ull : (1ull << n) - 1), random_slots(rng, n, n)};
  for (auto& g : full.gamma) g |= 1;  // all n terms present
  Linearized sparse{5, std::vector<uint64_t>(n, 0)};
  sparse.gamma[0] = 3, sparse.gamma[1] = 7, sparse.gamma[2] = 1;  // like Vision's B
  long k = 1;
  while (k * k < n) ++k;
  for (const auto& [L, autos] : {std::pair{full, (k - 1) + ((n + k - 1) / k - 1)}, std::pair{sparse, 2L}}) {
    LinearizedCircuit<ClearBackend> circ(b, L);
    b.require_automorphisms(circ.automorphisms());
    Evaluator<ClearBackend> ev(b);
    const auto v = random_slots(rng, b.slot_count(), n);
    auto c = b.encrypt(v);
    circ.apply(ev, c);
    const auto got = b.decrypt(c);
    for (long s = 0; s < b.slot_count(); ++s) ASSERT_EQ(got[s], evaluate(b.field(), L, v[s])) << "slot " << s;
    EXPECT_EQ(ev.counts().automorph, autos);
    EXPECT_EQ(b.depth(c), 0);
  }
}

TEST_P(FieldTest, FrobeniusFoldsIntoLinearizedMaps) {
  const auto [n, f, m] = GetParam();
  GF2n F(n, f);
  std::mt19937_64 rng(n + 2);
  Linearized L{rng() >> (64 - n), random_slots(rng, n, n)};
  for (int t = 0; t < 20; ++t) {
    const uint64_t x = rng() >> (64 - n);
    EXPECT_EQ(evaluate(F, precompose_frobenius(L, 1), x), evaluate(F, L, F.sqr(x)));
    EXPECT_EQ(evaluate(F, postcompose_frobenius(F, L, 1), x), F.sqr(evaluate(F, L, x)));
    EXPECT_EQ(evaluate(F, precompose_frobenius(L, 3), x), evaluate(F, L, F.frob(x, 3)));
  }
  EXPECT_TRUE(is_field(F, n, f));
  EXPECT_FALSE(is_field(F, n, f ^ 2));
}

INSTANTIATE_TEST_SUITE_P(Fields, FieldTest, ::testing::ValuesIn(kFields));

// Slot maps on rings with one bad dimension (257, 771), two dimensions (4369), mixed
// good and bad (595 = 5*7*17).
class SlotMapTest : public ::testing::TestWithParam<long> {};

TEST_P(SlotMapTest, RandomSparseMapEqualsDirectProduct) {
  const long m = GetParam();
  ClearBackend b(m, 8, 0x1b);
  const long ell = b.slot_count();
  std::mt19937_64 rng(m);
  std::vector<SlotTerm> terms;
  for (long p = 0; p < ell; ++p)
    for (int t = 0; t < 3; ++t) terms.push_back({p, long(rng() % ell), 1 + rng() % 255});
  const auto plan = plan_slot_map(b.zmstar(), b.field(), terms);
  SlotMapCircuit<ClearBackend> circ(b, plan);
  b.require_automorphisms(circ.automorphisms());
  Evaluator<ClearBackend> ev(b);
  const auto v = random_slots(rng, ell, 8);
  std::vector<uint64_t> want(ell, 0);
  for (auto& t : terms) want[t.out] ^= b.field().mul(t.coeff, v[t.in]);
  auto c = b.encrypt(v);
  circ.apply(ev, c);
  EXPECT_EQ(b.decrypt(c), want);
  EXPECT_EQ(ev.counts().automorph, plan.automorphisms());
  EXPECT_LE(plan.automorphisms(), long(terms.size()));
}

TEST_P(SlotMapTest, PermutationAlongTheLayoutRoundTrips) {
  const long m = GetParam();
  const ZmStar zm(m);
  BlockLayout L = choose_layout(zm, GF2n(8, 0x1b), 4, {}, {{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}}});
  EXPECT_EQ(L.blocks(), zm.ell() / 4);
  std::vector<std::vector<uint64_t>> blocks;
  for (long b = 0; b < L.blocks(); ++b) blocks.push_back({uint64_t(4 * b), uint64_t(4 * b + 1), uint64_t(4 * b + 2), 7});
  EXPECT_EQ(L.gather(L.scatter(zm.ell(), blocks)), blocks);
}

INSTANTIATE_TEST_SUITE_P(Rings, SlotMapTest, ::testing::Values(257, 595, 771, 4369));

TEST(Layout, RefusesRingWithTooFewSlots) {
  const ZmStar zm(641);  // 10 slots
  try {
    choose_layout(zm, GF2n(8, 0x1b), 16, {}, {});
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "m=641 has 10 slots: a block of 16 elements needs 16");
  }
}

}  // namespace
}  // namespace cb
