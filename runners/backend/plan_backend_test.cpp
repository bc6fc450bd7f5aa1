// plan_backend_test.cpp: what the planner's backends share at one ring (PlanRing), how long
// it lives, and that sharing it changes no bound: a backend built on a ring another key's
// backend filled gives the same capacities as one built alone.
#include "backend/plan_backend.h"

#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace cb
