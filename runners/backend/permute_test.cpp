// permute_test: SlotPermutation / PermutationPlan on ClearBackend, against the directly
// permuted vector, in rings with good and bad dimensions (found by search, test_rings.h).
#include "backend/permute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <random>

#include "backend/clear_backend.h"
#include "backend/test_rings.h"

namespace cb {
namespace {

using cb::testing::find_ring;
using cb::testing::first_irreducible;
using cb::testing::has_bad_dim;

struct Ring {
  std::string reason;
  long m, n;
  uint64_t f_low;
};
void PrintTo(const Ring& r, std::ostream* os) { *os << r.reason << " (m=" << r.m << ", n=" << r.n << ")"; }

// n = d when d <= 64, so that any Frobenius twist is visible in GF(2^n).
Ring ring_for(const std::string& reason, long m) {
  const long d = ZmStar(m).d();
  return {reason, m, d, first_irreducible(d)};
}

// The smallest m with each hypercube shape (RingShapes below re-finds them by search),
// and an AES-sized ring.
const std::function<bool(const ZmStar&)> kOneGoodDim = [](const ZmStar& z) {
  return z.dims() == 1 && z.good(0) && z.ell() >= 6 && z.d() <= 64;
};
const std::function<bool(const ZmStar&)> kOneBadDim = [](const ZmStar& z) {
  return z.dims() == 1 && !z.good(0) && z.ell() >= 6 && z.d() <= 64;
};
const std::function<bool(const ZmStar&)> kBadAmongTwo = [](const ZmStar& z) {
  return z.dims() == 2 && has_bad_dim(z) && z.ell() >= 12 && z.d() <= 64;
};
const std::function<bool(const ZmStar&)> kThreeGood = [](const ZmStar& z) {
  return z.dims() >= 3 && !has_bad_dim(z) && z.ell() >= 24 && z.d() <= 64;
};
const std::function<bool(const ZmStar&)> kBadAmongThree = [](const ZmStar& z) {
  return z.dims() >= 3 && has_bad_dim(z) && z.ell() >= 32 && z.d() <= 64;
};

std::vector<Ring> rings() {
  return {ring_for("one_good_dim", 31),          // d = 5, ell = 6
          ring_for("one_bad_dim", 85),           // d = 8, ell = 8, twist 4
          ring_for("bad_dim_among_two", 255),    // d = 8, ell = 16 = 8 x 2, dim 0 bad
          ring_for("three_good_dims", 1365),     // d = 12, ell = 48 = 12 x 2 x 2
          ring_for("bad_dim_among_three", 1785), // d = 24, ell = 32 = 8 x 2 x 2, dim 0 bad
          {"aes_4369", 4369, 8, 0x1b}};          // d = 16, ell = 256: an AES-sized small ring
}

TEST(Permute, RingShapes) {
  EXPECT_EQ(find_ring(kOneGoodDim, "one good dimension"), 31);
  EXPECT_EQ(find_ring(kOneBadDim, "one bad dimension"), 85);
  EXPECT_EQ(find_ring(kBadAmongTwo, "two dimensions, one bad"), 255);
  EXPECT_EQ(find_ring(kThreeGood, "three good dimensions"), 1365);
  EXPECT_EQ(find_ring(kBadAmongThree, "three dimensions, one bad"), 1785);
}

std::vector<uint64_t> random_slots(std::mt19937_64& rng, long ell, long n) {
  std::vector<uint64_t> v(ell);
  const uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
  for (auto& x : v) x = rng() & mask;
  return v;
}

// Applies perm through a plan on ClearBackend and compares with apply_clear. With
// kGarbage only the listed slots are compared.
PermutationCost check(ClearBackend& be, const SlotPermutation& perm, std::mt19937_64& rng,
                      DontCare dc = DontCare::kZero) {
  const PermutationPlan<ClearBackend> plan(be, perm, dc);
  be.require_automorphisms(plan.automorphisms());
  const auto v = random_slots(rng, be.slot_count(), be.field().n());
  auto c = be.encrypt(v);
  be.reset_op_counts();
  plan.apply(be, c);
  const auto got = be.decrypt(c), want = perm.apply_clear(v);
  for (long s = 0; s < be.slot_count(); ++s) {
    if (dc == DontCare::kGarbage && perm.src(s) == SlotPermutation::kDontCare) continue;
    EXPECT_EQ(got[s], want[s]) << "slot " << s;
  }
  // The plan's cost is what it does.
  const auto ops = be.op_counts();
  const auto cost = plan.cost();
  EXPECT_EQ(ops.automorph, cost.automorphisms);
  EXPECT_EQ(ops.mul_plain, cost.masks);
  EXPECT_EQ(ops.add, cost.additions);
  EXPECT_EQ(ops.automorph_many, cost.automorphisms >= 2 ? 1 : 0);  // hoisted when it helps
  return cost;
}

class PermuteRing : public ::testing::TestWithParam<Ring> {
 protected:
  void SetUp() override { be_ = std::make_unique<ClearBackend>(GetParam().m, GetParam().n, GetParam().f_low); }
  std::unique_ptr<ClearBackend> be_;
  std::mt19937_64 rng_{12345};
};

TEST_P(PermuteRing, GroupsAreUntwistedMovesOfTheirAutomorphism) {
  const ZmStar& zm = be_->zmstar();
  std::vector<long> src(zm.ell());
  std::iota(src.begin(), src.end(), 0);
  std::shuffle(src.begin(), src.end(), rng_);
  const SlotPermutation perm(zm, src);
  long covered = 0;
  for (const auto& g : perm.groups()) {
    const auto moves = zm.automorphism_action(g.k);
    for (long dst : g.dsts) {
      ASSERT_EQ(moves[dst].src, src[dst]);
      ASSERT_EQ(moves[dst].frob, 0);
    }
    covered += long(g.dsts.size());
  }
  EXPECT_EQ(covered, zm.ell());
  // The subfield cover: twists only by multiples of n, every dst served once.
  const long n = be_->field().n();
  std::vector<int> served(zm.ell(), 0);
  for (const auto& g : perm.cover(n)) {
    const auto moves = zm.automorphism_action(g.k);
    for (long dst : g.dsts) {
      ASSERT_EQ(moves[dst].src, src[dst]);
      ASSERT_EQ(moves[dst].frob % n, 0);
      ++served[dst];
    }
  }
  EXPECT_EQ(std::count(served.begin(), served.end(), 1), zm.ell());
  EXPECT_LE(perm.cover(n).size(), perm.groups().size());
}

TEST_P(PermuteRing, RotateEveryDimension) {
  const ZmStar& zm = be_->zmstar();
  for (long dim = 0; dim < zm.dims(); ++dim) {
    for (long r : {1L, -1L, 2L, zm.ord(dim) - 1, zm.ord(dim) + 1}) {
      SCOPED_TRACE(msg("dim ", dim, " r=", r));
      const auto cost = check(*be_, SlotPermutation::rotate_dim(zm, dim, r), rng_);
      if (r % zm.ord(dim) == 0) {
        EXPECT_EQ(cost.total(), 0);
      } else if (zm.good(dim)) {
        // One automorphism g^-r and no mask: a good dimension rotates for free.
        EXPECT_EQ(cost.automorphisms, 1);
        EXPECT_EQ(cost.masks, 0);
      } else if (zm.twist(dim) % be_->field().n() == 0) {
        // Bad dimension whose twist is invisible on GF(2^n): as good as a good one.
        EXPECT_EQ(cost.automorphisms, 1);
        EXPECT_EQ(cost.masks, 0);
      } else {
        // Bad dimension: the wrapped slots need the other k; two masks.
        EXPECT_EQ(cost.automorphisms, 2);
        EXPECT_EQ(cost.masks, 2);
      }
    }
  }
}

// The plan is needed: in a bad dimension the single automorphism g^-1 leaves the wrapped
// slots twisted (this is what makes the test above able to fail).
TEST_P(PermuteRing, NaiveRotationIsWrongInBadDimensions) {
  const ZmStar& zm = be_->zmstar();
  for (long dim = 0; dim < zm.dims(); ++dim) {
    // A twist by a multiple of n is invisible on GF(2^n) values (m=4369, n=8: twist 8).
    if (zm.good(dim) || zm.twist(dim) % be_->field().n() == 0) continue;
    const auto perm = SlotPermutation::rotate_dim(zm, dim, 1);
    const long k = zm.inverse(zm.gen(dim));
    be_->require_automorphisms({k});
    const auto v = random_slots(rng_, zm.ell(), be_->field().n());
    auto c = be_->encrypt(v);
    be_->automorph(c, k);
    EXPECT_NE(be_->decrypt(c), perm.apply_clear(v)) << "dim " << dim;
  }
}

TEST_P(PermuteRing, LinearRotations) {
  const ZmStar& zm = be_->zmstar();
  for (long r : {1L, 3L, -1L, zm.ell() / 2, zm.ell() - 1}) {
    SCOPED_TRACE(msg("r=", r));
    const auto cost = check(*be_, SlotPermutation::rotate(zm, r), rng_);
    EXPECT_LE(cost.automorphisms, 1L << (2 * zm.dims()));
  }
  EXPECT_EQ(check(*be_, SlotPermutation::rotate(zm, zm.ell()), rng_).total(), 0);
}

TEST_P(PermuteRing, RandomPermutationsAndPartialMaps) {
  const ZmStar& zm = be_->zmstar();
  const long ell = zm.ell();
  for (int t = 0; t < 3; ++t) {
    std::vector<long> src(ell);
    std::iota(src.begin(), src.end(), 0);
    std::shuffle(src.begin(), src.end(), rng_);
    check(*be_, SlotPermutation(zm, src), rng_);
    // Half the slots don't care; sources may repeat.
    std::vector<long> partial(ell, SlotPermutation::kDontCare);
    for (long dst = 0; dst < ell; dst += 2) partial[dst] = long(rng_() % ell);
    check(*be_, SlotPermutation(zm, partial), rng_);
    check(*be_, SlotPermutation(zm, partial), rng_, DontCare::kGarbage);
  }
}

TEST_P(PermuteRing, DontCareOptionSkipsTheOnlyMask) {
  const ZmStar& zm = be_->zmstar();
  // Rotate only the first half of dimension 0's rows; the rest don't care.
  const auto full = SlotPermutation::rotate_dim(zm, zm.dims() - 1, 1);
  std::vector<std::pair<long, long>> pairs;
  for (const auto& g : full.groups())
    if (g.k == full.groups().front().k)
      for (size_t i = 0; i < g.dsts.size(); i += 2) pairs.push_back({g.dsts[i], full.src(g.dsts[i])});
  const auto half = SlotPermutation::from_pairs(zm, pairs);
  ASSERT_EQ(half.groups().size(), 1u);
  const auto zero = check(*be_, half, rng_, DontCare::kZero);
  const auto garbage = check(*be_, half, rng_, DontCare::kGarbage);
  EXPECT_EQ(zero.masks, 1);
  EXPECT_EQ(garbage.masks, 0);
  EXPECT_EQ(zero.automorphisms, garbage.automorphisms);
}

TEST_P(PermuteRing, IdentityAndEmpty) {
  const ZmStar& zm = be_->zmstar();
  std::vector<long> id(zm.ell());
  std::iota(id.begin(), id.end(), 0);
  const auto c_id = check(*be_, SlotPermutation(zm, id), rng_);
  EXPECT_EQ(c_id.total(), 0);
  const SlotPermutation none(zm, std::vector<long>(zm.ell(), SlotPermutation::kDontCare));
  EXPECT_EQ(check(*be_, none, rng_).masks, 1);  // everything becomes 0
  EXPECT_EQ(PermutationPlan<ClearBackend>(*be_, none, DontCare::kGarbage).cost().total(), 0);
}

TEST_P(PermuteRing, FrobeniusHelper) {
  const ZmStar& zm = be_->zmstar();
  const GF2n& F = be_->field();
  const auto v = random_slots(rng_, zm.ell(), F.n());
  for (long j : {1L, F.n() - 1, -1L, F.n(), zm.d()}) {
    be_->require_automorphisms({zm.power(2, j)});
    auto c = be_->encrypt(v);
    frobenius(*be_, c, j);
    const auto got = be_->decrypt(c);
    for (long s = 0; s < zm.ell(); ++s) ASSERT_EQ(got[s], F.frob(v[s], j)) << "j=" << j;
  }
}

INSTANTIATE_TEST_SUITE_P(Rings, PermuteRing, ::testing::ValuesIn(rings()),
                         [](const auto& info) { return info.param.reason; });

// m = 4369: d = 16, dimension 0 (ord 128) is bad with twist 8. Exactly, a rotation along
// it needs two automorphisms; on AES bytes (n = 8) the twist is invisible and one does.
TEST(Permute, SubfieldCoverSavesTheSecondAutomorphism) {
  ClearBackend be(4369, 8, 0x1b);
  const ZmStar& zm = be.zmstar();
  ASSERT_FALSE(zm.good(0));
  ASSERT_EQ(zm.twist(0), 8);
  const auto perm = SlotPermutation::rotate_dim(zm, 0, 1);
  EXPECT_EQ(perm.groups().size(), 2u);
  EXPECT_EQ(perm.cover(16).size(), 2u);
  ASSERT_EQ(perm.cover(8).size(), 1u);
  EXPECT_EQ(perm.cover(8)[0].k, zm.inverse(zm.gen(0)));
  std::mt19937_64 rng(5);
  const auto cost = check(be, perm, rng);
  EXPECT_EQ(cost.automorphisms, 1);
  EXPECT_EQ(cost.masks, 0);
  // With GF(2^16) values the twist shows, and the plan pays for it.
  ClearBackend be16(4369, 16, first_irreducible(16));
  const auto cost16 = check(be16, perm, rng);
  EXPECT_EQ(cost16.automorphisms, 2);
  EXPECT_EQ(cost16.masks, 2);
  try {
    perm.cover(3);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()),
              "n=3 does not divide d=16 (m=4369): slot values must lie in GF(2^n) inside GF(2^d)");
  }
}

// A backend without automorph_many (the hook is optional): the plan falls back to one
// automorph per k, with the same result.
struct NoHoistBackend {
  using Ctxt = ClearBackend::Ctxt;
  using Ptxt = ClearBackend::Ptxt;
  const ClearBackend& be;
  const ZmStar& zmstar() const { return be.zmstar(); }
  const GF2n& field() const { return be.field(); }
  Ptxt encode(const std::vector<uint64_t>& v) const { return be.encode(v); }
  void add(Ctxt& a, const Ctxt& b) const { be.add(a, b); }
  void mul_plain(Ctxt& a, const Ptxt& p) const { be.mul_plain(a, p); }
  void automorph(Ctxt& a, long k) const { be.automorph(a, k); }
};
static_assert(has_automorph_many<ClearBackend>::value);
static_assert(!has_automorph_many<NoHoistBackend>::value);

TEST(Permute, WorksWithoutHoisting) {
  ClearBackend be(255, 8, 0x1b);
  const NoHoistBackend nb{be};
  const auto perm = SlotPermutation::rotate(be.zmstar(), 3);
  const PermutationPlan<NoHoistBackend> plan(nb, perm);
  ASSERT_GE(plan.cost().automorphisms, 2);
  be.require_automorphisms(plan.automorphisms());
  std::mt19937_64 rng(9);
  const auto v = random_slots(rng, be.slot_count(), 8);
  auto c = be.encrypt(v);
  be.reset_op_counts();
  plan.apply(nb, c);
  EXPECT_EQ(be.decrypt(c), perm.apply_clear(v));
  EXPECT_EQ(be.op_counts().automorph_many, 0);
  EXPECT_EQ(be.op_counts().automorph, plan.cost().automorphisms);
}

TEST(Permute, PlanNeedsItsKeys) {
  ClearBackend be(4369, 8, 0x1b);
  const auto perm = SlotPermutation::rotate(be.zmstar(), 5);
  const PermutationPlan<ClearBackend> plan(be, perm);
  auto c = be.encrypt(std::vector<uint64_t>(be.slot_count(), 1));
  EXPECT_THROW(plan.apply(be, c), KeyError);
  be.require_automorphisms(plan.automorphisms());
  EXPECT_NO_THROW(plan.apply(be, c));
}

TEST(Permute, ArgumentErrors) {
  const ZmStar zm(257);
  try {
    SlotPermutation(zm, std::vector<long>(15, 0));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "the permutation lists 15 slots: the ring m=257 has ell=16");
  }
  try {
    SlotPermutation::from_pairs(zm, {{1, 2}, {1, 3}});
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "destination slot 1 is listed twice (sources 2 and 3)");
  }
  EXPECT_THROW(SlotPermutation::from_pairs(zm, {{1, 16}}), ParameterError);
  EXPECT_THROW(SlotPermutation::rotate_dim(zm, 1, 1), ParameterError);
  const ClearBackend other(771, 8, 0x1b);
  try {
    PermutationPlan<ClearBackend>(other, SlotPermutation::rotate(zm, 1));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "the permutation was built for m=257 but the backend has m=771");
  }
}

// The planner is linear in ell: a random permutation of ~3000 slots plans in milliseconds.
TEST(Permute, PlannerIsFastForThousandsOfSlots) {
  const long m = 109655;  // d = 24, ell = 2880, three dimensions, one bad
  const ZmStar zm(m);
  ASSERT_EQ(zm.ell(), 2880);
  std::vector<long> src(zm.ell());
  std::iota(src.begin(), src.end(), 0);
  std::mt19937_64 rng(3);
  std::shuffle(src.begin(), src.end(), rng);
  const auto t0 = std::chrono::steady_clock::now();
  const SlotPermutation perm(zm, src);
  const SlotPermutation rot = SlotPermutation::rotate(zm, 17);
  const auto cover = perm.cover(8);  // d/n = 3 candidates per slot
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 0.5) << "m=" << m << " ell=" << zm.ell();
  EXPECT_GT(perm.groups().size(), 1u);
  EXPECT_LE(cover.size(), perm.groups().size());
  EXPECT_LE(rot.groups().size(), size_t(1) << (2 * zm.dims()));
  ::testing::Test::RecordProperty("plan_seconds", std::to_string(secs));
}

}  // namespace
}  // namespace cb
