// plan_backend_test.cpp: what the planner's backends share at one ring (PlanRing), how long
// it lives, and that sharing it changes no bound: a backend built on a ring another key's
// backend filled gives the same capacities as one built alone. At an odd prime p: the
// planner's capacity after every operation is the engine's (same seed), the plaintext
// factors it tracks aligning sums as the evaluator aligns them.
#include "backend/plan_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/bgv_backend.h"
#include "backend/test_rings.h"

namespace cb {
namespace {

constexpr long kM = 257;  // d = 16: GF(2^8) and GF(2^16) slots
const uint64_t kLow8 = testing::first_irreducible(8), kLow16 = testing::first_irreducible(16);

TEST(PlanRing, OneAliveAtARingAndFreedWithItsLastHolder) {
  std::weak_ptr<PlanRing> seen;
  {
    const auto a = PlanRing::of(kM, 8, kLow8);
    const auto b = PlanRing::of(kM, 8, kLow8);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, PlanRing::of(kM, 16, kLow16)) << "another slot field is another ring";
    seen = a;
  }
  EXPECT_TRUE(seen.expired()) << "no holder left: the encodings are freed, not kept into the run";
}

TEST(PlanRing, AKeepTokenMakesNothingAndKeepsARingMadeUnderIt) {
  std::weak_ptr<PlanRing> seen;
  {
    const auto token = PlanRing::keep(kM, 8, kLow8);
    {
      const auto a = PlanRing::of(kM, 8, kLow8);  // as a backend makes it
      seen = a;
    }
    EXPECT_FALSE(seen.expired()) << "kept while the token lives";
    EXPECT_EQ(PlanRing::of(kM, 8, kLow8), seen.lock());
  }
  EXPECT_TRUE(seen.expired()) << "freed with the token";
  {
    const auto token = PlanRing::keep(kM, 8, kLow8);
    const auto again = PlanRing::keep(kM, 8, kLow8);
  }
  const auto fresh = PlanRing::of(kM, 8, kLow8);
  EXPECT_EQ(fresh.use_count(), 1) << "tokens alone hold no ring";
}

// Capacities of a fixed small circuit (encrypt, square, product by a constant, an
// automorphism) on a backend.
std::vector<double> capacities(PlanBackend& b) {
  std::vector<uint64_t> v(size_t(b.slot_count())), w(v.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = (3 * i + 1) & 0xFF, w[i] = (7 * i + 5) & 0xFF;
  b.require_automorphisms({3});
  auto x = b.encrypt(v);
  std::vector<double> caps{b.capacity_bits(x)};
  b.square(x);
  caps.push_back(b.capacity_bits(x));
  b.mul_plain(x, b.encode(w));
  caps.push_back(b.capacity_bits(x));
  b.automorph(x, 3);
  caps.push_back(b.capacity_bits(x));
  return caps;
}

TEST(PlanRing, SharedAcrossKeysAndDigitsWithTheBoundsOfABackendAlone) {
  const PlanParams heavy{kM, 300, 4, 150, 7}, light{kM, 300, 3, 120, 7};
  std::vector<double> alone;
  {
    PlanBackend b(heavy, 8, kLow8);
    alone = capacities(b);
  }
  const auto keep = PlanRing::keep(kM, 8, kLow8);
  {
    PlanBackend other(light, 8, kLow8);  // another key and digits fill the shared encodings
    capacities(other);
  }
  PlanBackend b(heavy, 8, kLow8);
  EXPECT_EQ(capacities(b), alone);
}

TEST(PlanRing, KeyedByThePlaintextModulus) {
  const auto at17 = PlanRing::of(kM, 1, 0, 17);
  EXPECT_EQ(at17, PlanRing::of(kM, 1, 0, 17));
  EXPECT_NE(at17, PlanRing::of(kM, 1, 0, 3)) << "another p is another ring";
  EXPECT_NE(at17, PlanRing::of(kM, 1, 1)) << "GF(2) slots at p = 2 are another ring";
}

// The same circuit on the planner's backend and the engine's at p (same seed, so the same
// secret key; same chain), the capacity after each step: products (each switch multiplies
// the plaintext factor by T^-1 mod p), a sum of a product and a fresh ciphertext (different
// factors and primes: aligned x a + y b), constants added to a product (factor != 1),
// constant products, squares, automorphisms single and hoisted.
// caps: the capacities, factors: each step's plaintext factor (both Ctxt types have one).
struct Trace {
  std::vector<double> caps;
  std::vector<uint64_t> factors;
};
template <class B>
Trace prime_capacities(B& b, uint64_t p) {
  std::vector<uint64_t> v(size_t(b.slot_count())), w(v.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = (3 * i + 1) % p, w[i] = (7 * i * i + 5) % p;
  const long k = b.zmstar().gen(0);
  b.require_automorphisms({k, 3});
  auto x = b.encrypt(v), y = b.encrypt(w);
  Trace t{{b.capacity_bits(x)}, {x.factor}};
  auto note = [&](const typename B::Ctxt& c) { t.caps.push_back(b.capacity_bits(c)), t.factors.push_back(c.factor); };
  b.mul(x, y);
  note(x);
  b.add(x, y);
  note(x);
  b.add_plain(x, b.encode(w));
  note(x);
  b.mul_plain(x, b.encode(v));
  note(x);
  b.square(y);
  note(y);
  b.add(y, x);
  note(y);
  b.square(x);
  b.add(x, y);
  note(x);
  b.automorph(x, k);
  note(x);
  for (const auto& c : b.automorph_many(y, {k, 3})) note(c);
  return t;
}

TEST(PlanBackendPrime, CapacityAfterEveryStepIsTheEnginesAtP) {
  for (const auto& [m, p] : std::vector<std::pair<long, uint64_t>>{{256, 65537}, {241, 17}, {128, 8088322049}}) {
    const PrimeField F(p);
    PlanBackend plan(PlanParams{m, 400, 3, 120 < m / 2 ? 120 : 0, 9}, F);
    BgvParams bp;
    bp.m = m, bp.bits = 400, bp.c = 3, bp.hwt = 120 < m / 2 ? 120 : 0, bp.seed = 9;
    BgvBackend run(bp, F);
    EXPECT_EQ(plan.info().p, p);
    EXPECT_EQ(plan.characteristic(), p);
    EXPECT_EQ(plan.info().log2_q, run.info().log2_q) << "m=" << m << " p=" << p << ": the same chain";
    const Trace predicted = prime_capacities(plan, p), measured = prime_capacities(run, p);
    ASSERT_EQ(predicted.caps.size(), measured.caps.size());
    for (size_t i = 0; i < predicted.caps.size(); ++i) {
      EXPECT_NEAR(predicted.caps[i], measured.caps[i], 1e-9) << "m=" << m << " p=" << p << " step " << i;
      EXPECT_GT(measured.caps[i], 0) << "m=" << m << " p=" << p << " step " << i;
    }
    EXPECT_EQ(predicted.factors, measured.factors) << "m=" << m << " p=" << p;
    EXPECT_NE(std::count(measured.factors.begin(), measured.factors.end(), uint64_t(1)), long(measured.factors.size()))
        << "m=" << m << " p=" << p << ": no factor other than 1, nothing was aligned";
  }
}

TEST(PlanBackendPrime, RefusesTheChainsTheContextRefusesAtP) {
  // A 60-bit p against a chain of 40 bits: no fresh ciphertext would decrypt (Context's
  // refusal), so this chain is no chain for a circuit at p (the planner searches past it).
  try {
    PlanBackend plan(PlanParams{128, 40, 1, 0, 1}, PrimeField(1096486890805657601));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("p=1096486890805657601 is too large for the chain"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cb
