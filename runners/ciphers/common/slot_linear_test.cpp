// Composed slot maps: the composition equals applying the two maps one after the other,
// in the clear and on the clear backend's ciphertexts, with one layer of constant
// products; the sliced representation's fused step equals its two steps.
#include "ciphers/common/slot_linear.h"

#include <gtest/gtest.h>

#include <random>

#include "backend/clear_backend.h"
#include "ciphers/common/linearized_eval.h"
#include "ciphers/common/packing.h"
#include "ciphers/common/slot_map.h"

namespace cb {
namespace {

struct Case {
  long n;
  uint64_t f_low;
  long m;
};
void PrintTo(const Case& c, std::ostream* os) { *os << "GF(2^" << c.n << ") in m=" << c.m; }

// GF(2^8) in d=16 slots with a bad dimension (257), two dimensions (4369), mixed good and
// bad (595); GF(2^16) with n = d (257); GF(2^32), GF(2^64) in d=64 (641).
const Case kCases[] = {{8, 0x1b, 257}, {8, 0x1b, 595}, {8, 0x1b, 4369}, {16, 0x2b, 257}, {32, 0x8d, 641}, {64, 0x1b, 641}};

uint64_t mask(long n) { return n == 64 ? ~0ull : (1ull << n) - 1; }

std::vector<uint64_t> random_slots(std::mt19937_64& rng, long ell, long n) {
  std::vector<uint64_t> v(ell);
  for (auto& x : v) x = rng() & mask(n);
  return v;
}

Linearized random_affine(std::mt19937_64& rng, long n) {
  Linearized L{rng() & mask(n), random_slots(rng, n, n)};
  L.gamma[n / 2] = 0;  // a missing term
  return L;
}

// A random sparse slot map: three sources per output, slots 0..ell-2 active.
std::vector<SlotTerm> random_terms(std::mt19937_64& rng, long ell, long n) {
  std::vector<SlotTerm> terms;
  for (long p = 0; p + 1 < ell; ++p)
    for (int t = 0; t < 3; ++t) terms.push_back({p, long(rng() % (ell - 1)), 1 + (rng() & mask(n)) % mask(n)});
  return terms;
}

class SlotLinearTest : public ::testing::TestWithParam<Case> {};

TEST_P(SlotLinearTest, CompositionEqualsTheMapsInTurn) {
  const auto [n, f, m] = GetParam();
  ClearBackend b(m, n, f);
  const ZmStar& zm = b.zmstar();
  const GF2n& F = b.field();
  const long ell = b.slot_count();
  std::mt19937_64 rng(m * 100 + n);
  std::vector<bool> active(ell, true);
  active[ell - 1] = false;
  const auto terms = random_terms(rng, ell, n);
  const SlotMapPlan plan = plan_slot_map(zm, F, terms);
  const SlotLinear M = slot_linear(plan);
  const Linearized L = random_affine(rng, n);
  const SlotLinear after = compose_after(zm, F, M, L, active);   // M(L(x))
  const SlotLinear before = compose_before(zm, F, L, M, active); // L(M(x))

  auto L_clear = [&](std::vector<uint64_t> v) {
    for (long s = 0; s < ell; ++s) v[s] = active[s] ? evaluate(F, L, v[s]) : 0;
    return v;
  };
  auto M_clear = [&](const std::vector<uint64_t>& v) {
    std::vector<uint64_t> w(ell, 0);
    for (auto& t : terms) w[t.out] ^= F.mul(t.coeff, v[t.in]);
    return w;
  };
  for (int trial = 0; trial < 3; ++trial) {
    const auto v = random_slots(rng, ell, n);
    EXPECT_EQ(apply(zm, F, M, v), M_clear(v));
    for (long t : {1L, 3L, n}) EXPECT_EQ(apply(zm, F, slot_linear(zm, F, L, active, t), v), L_clear(v)) << "t=" << t;
    EXPECT_EQ(apply(zm, F, after, v), M_clear(L_clear(v)));
    EXPECT_EQ(apply(zm, F, before, v), L_clear(M_clear(v)));
  }

  // On ciphertexts: one layer of constant products (depth of the clear backend counts
  // products only, so compare the automorphisms and the result).
  for (const SlotLinear* A : {&after, &before}) {
    SlotLinearCircuit<ClearBackend> circ(b, *A);
    b.require_automorphisms(circ.automorphisms());
    Evaluator<ClearBackend> ev(b);
    const auto v = random_slots(rng, ell, n);
    auto c = b.encrypt(v);
    circ.apply(ev, c);
    EXPECT_EQ(b.decrypt(c), A == &after ? M_clear(L_clear(v)) : L_clear(M_clear(v)));
    EXPECT_EQ(ev.counts().automorph, A->automorphisms());
  }
}

TEST_P(SlotLinearTest, SlicedFusedStepEqualsAffineThenLinear) {
  const auto [n, f, m] = GetParam();
  ClearBackend b(m, n, f);
  std::mt19937_64 rng(m * 7 + n);
  const long s = 3;
  BlockMap M;
  for (long p = 0; p < s; ++p)
    for (long q = 0; q < s; ++q)
      if ((p + q) % 3 != 2) M.push_back({p, q, q == p ? 1 : 1 + (rng() & mask(n)) % mask(n)});
  const Linearized L = random_affine(rng, n);
  SlicedRep<ClearBackend> rep(b, s, {}, {M});
  LinearizedCircuit<ClearBackend> affine(b, L);
  for (bool affine_first : {true, false}) {
    const auto fused = rep.fuse(0, L, affine_first);
    std::vector<long> ks = fused.automorphisms();
    for (long k : affine.automorphisms()) ks.push_back(k);
    b.require_automorphisms(ks);
    std::vector<std::vector<uint64_t>> blocks;
    for (long k = 0; k < b.slot_count(); ++k) blocks.push_back(random_slots(rng, s, n));
    auto want = rep.encrypt(blocks), got = want;
    Evaluator<ClearBackend> ev_sep(b), ev_fused(b);
    if (affine_first) {
      for (auto& c : want) affine.apply(ev_sep, c);
      rep.linear(ev_sep, want, 0);
    } else {
      rep.linear(ev_sep, want, 0);
      for (auto& c : want) affine.apply(ev_sep, c);
    }
    fused.apply(ev_fused, got);
    EXPECT_EQ(rep.decrypt(got, b.slot_count()), rep.decrypt(want, b.slot_count())) << "affine_first=" << affine_first;
    EXPECT_EQ(ev_fused.counts().automorph, ev_sep.counts().automorph);
  }
}

INSTANTIATE_TEST_SUITE_P(Rings, SlotLinearTest, ::testing::ValuesIn(kCases));

TEST(SlotLinear, RefusesMismatchedInput) {
  const ZmStar zm(257);
  const GF2n F(8, 0x1b);
  EXPECT_THROW(slot_linear(zm, F, Linearized{0, std::vector<uint64_t>(7, 1)}, {}, 3), ParameterError);
  EXPECT_THROW(slot_linear(zm, F, Linearized{0, std::vector<uint64_t>(8, 1)}, {}, 0), ParameterError);
  EXPECT_THROW(slot_linear(zm, F, Linearized{0, std::vector<uint64_t>(8, 1)}, std::vector<bool>(3, true), 3),
               ParameterError);
}

}  // namespace
}  // namespace cb
