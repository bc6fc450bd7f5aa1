// Tests for SlotRing: the factors and Phi_m, the CRT round trip, the ring homomorphism,
// and the automorphisms X -> X^k acting on slots exactly as ZmStar::automorphism_action
// predicts (Frobenius for k = 2, generators of good and bad dimensions).
#include "engine/algebra/slot_ring.h"

#include <NTL/GF2E.h>
#include <NTL/GF2XFactoring.h>
#include <NTL/ZZ.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "engine/errors.h"

namespace cb {
namespace {

struct RingCase {
  long m;
  const char* why;
};
std::ostream& operator<<(std::ostream& os, const RingCase& c) { return os << "m=" << c.m; }

// Phi_m mod 2 by the recursion X^m - 1 = prod_{e | m} Phi_e (independent of the Moebius
// formula the library uses).
NTL::GF2X cyclotomic(long m, std::map<long, NTL::GF2X>& memo) {
  auto it = memo.find(m);
  if (it != memo.end()) return it->second;
  NTL::GF2X p;
  NTL::SetCoeff(p, m);
  NTL::SetCoeff(p, 0);
  for (long e = 1; e < m; ++e)
    if (m % e == 0) p /= cyclotomic(e, memo);
  return memo[m] = p;
}

NTL::GF2X random_poly(std::mt19937_64& rng, long n) {
  NTL::GF2X a;
  for (long i = 0; i < n; ++i)
    if (rng() & 1) NTL::SetCoeff(a, i);
  return a;
}

// a(X^k) mod Phi_m.
NTL::GF2X apply_automorphism(const NTL::GF2X& a, long k, long m, const NTL::GF2X& Phi) {
  NTL::GF2X b;
  for (long i = 0; i <= NTL::deg(a); ++i)
    if (NTL::IsOne(NTL::coeff(a, i))) {
      const long j = (i * k) % m;
      NTL::SetCoeff(b, j, NTL::coeff(b, j) + 1);
    }
  return b % Phi;
}

class SlotRingTest : public ::testing::TestWithParam<RingCase> {
 protected:
  void SetUp() override {
    zm = std::make_unique<ZmStar>(GetParam().m);
    ring = std::make_unique<SlotRing>(*zm);
  }
  std::unique_ptr<ZmStar> zm;
  std::unique_ptr<SlotRing> ring;
};

TEST_P(SlotRingTest, FieldRootAndFactors) {
  const long m = zm->m(), d = zm->d();
  EXPECT_EQ(NTL::deg(ring->G()), d);
  EXPECT_TRUE(NTL::IterIrredTest(ring->G()));
  const NTL::GF2XModulus G(ring->G());
  // zeta has order exactly m.
  NTL::GF2X z;
  NTL::PowerMod(z, ring->zeta(), m, G);
  EXPECT_TRUE(NTL::IsOne(z));
  for (auto [p, e] : zm->factors()) {
    NTL::PowerMod(z, ring->zeta(), m / p, G);
    EXPECT_FALSE(NTL::IsOne(z)) << "zeta^(m/" << p << ") = 1";
  }
  // F_s: irreducible of degree d, vanishing at zeta^t_s; their product is Phi_m.
  NTL::GF2X prod(1);
  for (long s = 0; s < zm->ell(); ++s) {
    const NTL::GF2X& F = ring->factor(s);
    ASSERT_EQ(NTL::deg(F), d);
    EXPECT_TRUE(NTL::IterIrredTest(F));
    NTL::GF2X r, val;  // val = F(r) by Horner in K
    NTL::PowerMod(r, ring->zeta(), zm->rep(s), G);
    for (long i = d; i >= 0; --i) {
      NTL::MulMod(val, val, r, G);
      if (NTL::IsOne(NTL::coeff(F, i))) NTL::add(val, val, NTL::GF2X(1));
    }
    EXPECT_TRUE(NTL::IsZero(val)) << "F_" << s << "(zeta^" << zm->rep(s) << ") != 0";
    prod *= F;
  }
  std::map<long, NTL::GF2X> memo;
  EXPECT_EQ(ring->Phi(), cyclotomic(m, memo));
  EXPECT_EQ(prod, ring->Phi());
  EXPECT_EQ(NTL::deg(ring->Phi()), zm->phi());
}

TEST_P(SlotRingTest, DecodeOfXIsZetaPowers) {
  const NTL::GF2XModulus G(ring->G());
  NTL::GF2X X;
  NTL::SetX(X);
  const auto v = ring->decode(X);
  for (long s = 0; s < zm->ell(); ++s) {
    NTL::GF2X r;
    NTL::PowerMod(r, ring->zeta(), zm->rep(s), G);
    EXPECT_EQ(v[s], r) << "slot " << s;
  }
}

TEST_P(SlotRingTest, RoundTripAndHomomorphism) {
  const long ell = zm->ell(), d = zm->d(), phi = zm->phi();
  const NTL::GF2XModulus G(ring->G());
  std::mt19937_64 rng(zm->m());
  std::vector<NTL::GF2X> v(ell), u(ell);
  for (long s = 0; s < ell; ++s) v[s] = random_poly(rng, d), u[s] = random_poly(rng, d);
  const NTL::GF2X a = ring->encode(v), b = ring->encode(u);
  EXPECT_LT(NTL::deg(a), phi);
  EXPECT_EQ(ring->decode(a), v);
  // encode(decode(c)) == c mod Phi for c of degree above phi.
  const NTL::GF2X c = random_poly(rng, 2 * phi + 5);
  EXPECT_EQ(ring->encode(ring->decode(c)), c % ring->Phi());
  // Slot-wise product and sum.
  NTL::GF2X ab;
  NTL::MulMod(ab, a, b, ring->Phi());
  const auto w = ring->decode(ab);
  const auto w2 = ring->decode(a + b);
  for (long s = 0; s < ell; ++s) {
    NTL::GF2X p;
    NTL::MulMod(p, v[s], u[s], G);
    EXPECT_EQ(w[s], p) << "slot " << s;
    EXPECT_EQ(w2[s], v[s] + u[s]) << "slot " << s;
  }
  // A constant polynomial c(Y)... the constant 1 is 1 in every slot.
  std::vector<NTL::GF2X> ones(ell, NTL::GF2X(1));
  EXPECT_EQ(ring->encode(ones), NTL::GF2X(1));
  EXPECT_THROW(ring->encode(std::vector<NTL::GF2X>(ell + 1)), ParameterError);
}

TEST_P(SlotRingTest, AutomorphismsMoveSlotsAsPredicted) {
  const long m = zm->m(), ell = zm->ell(), d = zm->d();
  const NTL::GF2XModulus G(ring->G());
  std::mt19937_64 rng(m + 1);
  std::vector<NTL::GF2X> v(ell);
  for (long s = 0; s < ell; ++s) v[s] = random_poly(rng, d);
  const NTL::GF2X a = ring->encode(v);
  std::vector<long> ks{2, m - 1};
  for (long i = 0; i < zm->dims(); ++i) {
    ks.push_back(zm->gen(i));
    ks.push_back(zm->inverse(zm->gen(i)));
    ks.push_back(zm->power(zm->gen(i), 3) * 2 % m);
  }
  for (long k : ks) {
    if (!zm->in_zmstar(k)) continue;
    SCOPED_TRACE(testing::Message() << "k=" << k);
    const auto moved = ring->decode(apply_automorphism(a, k, m, ring->Phi()));
    const auto action = zm->automorphism_action(k);
    for (long s = 0; s < ell; ++s) {
      NTL::GF2X expect = v[action[s].src];
      for (long f = 0; f < action[s].frob; ++f) NTL::SqrMod(expect, expect, G);
      ASSERT_EQ(moved[s], expect) << "slot " << s;
    }
  }
}

TEST_P(SlotRingTest, DecodeIgnoresGlobalGF2EAndRunsInThreads) {
  std::mt19937_64 rng(7);
  const NTL::GF2X a = random_poly(rng, zm->phi());
  const auto expect = ring->decode(a);
  NTL::GF2X other;
  NTL::BuildIrred(other, 5);
  NTL::GF2E::init(other);  // a foreign global modulus must not matter
  std::vector<std::vector<NTL::GF2X>> got(4);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t) th.emplace_back([&, t] { got[t] = ring->decode(ring->encode(ring->decode(a))); });
  for (auto& t : th) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(got[t], expect);
  EXPECT_EQ(ring->decode(a), expect);
}

INSTANTIATE_TEST_SUITE_P(
    Rings, SlotRingTest,
    ::testing::Values(RingCase{257, "prime, one bad dimension, d=16"},
                      RingCase{771, "3*257, HElib's smallest AES ring"},
                      RingCase{4369, "17*257, two bad dimensions, 256 slots"},
                      RingCase{2047, "23*89, good dimensions, d=11"},
                      RingCase{595, "5*7*17, a bad dimension of order 8 and a good one, d=24"},
                      RingCase{527, "17*31, a good dimension of order 6 and a bad one, d=40"},
                      RingCase{131, "d=130 > 64: slot values span three words, one slot"},
                      RingCase{3, "smallest ring"}, RingCase{1023, "3*11*31, d=10"}),
    [](const auto& info) { return "m" + std::to_string(info.param.m); });

// The documented choices of G and zeta (slot_ring.h), re-derived by brute force.
TEST_P(SlotRingTest, DocumentedChoiceOfGAndZeta) {
  const long m = zm->m(), d = zm->d();
  // G: the smallest irreducible trinomial, else the smallest irreducible pentanomial.
  NTL::GF2X expectG;
  for (long k = 1; k < d && NTL::IsZero(expectG); ++k) {
    NTL::GF2X g;
    NTL::SetCoeff(g, d), NTL::SetCoeff(g, k), NTL::SetCoeff(g, 0);
    if (NTL::IterIrredTest(g)) expectG = g;
  }
  if (NTL::IsZero(expectG)) {
    // Pentanomials Y^d + Y^a + Y^b + Y^c + 1 in increasing integer order: mask = 2^a+2^b+2^c.
    for (unsigned long mask = 14; mask < (1UL << std::min<long>(d, 40)) && NTL::IsZero(expectG); ++mask) {
      if (__builtin_popcountl(mask) != 3 || (mask & 1)) continue;
      NTL::GF2X g;
      NTL::SetCoeff(g, d), NTL::SetCoeff(g, 0);
      for (long i = 0; i < d; ++i)
        if ((mask >> i) & 1) NTL::SetCoeff(g, i);
      if (NTL::IterIrredTest(g)) expectG = g;
    }
  }
  EXPECT_EQ(ring->G(), expectG);
  // zeta: c^((2^d-1)/m) for the first c of exact order m.
  const NTL::GF2XModulus G(ring->G());
  const NTL::ZZ e = (NTL::power2_ZZ(d) - 1) / m;
  for (long c = 2;; ++c) {
    NTL::GF2X g, z, y;
    for (long i = 0; i < 20; ++i)
      if ((c >> i) & 1) NTL::SetCoeff(g, i);
    NTL::PowerMod(z, g, e, G);
    bool order_m = !NTL::IsOne(z);
    for (auto [p, k] : zm->factors()) {
      NTL::PowerMod(y, z, m / p, G);
      order_m = order_m && !NTL::IsOne(y);
    }
    if (order_m) {
      EXPECT_EQ(ring->zeta(), z) << "first c = " << c;
      break;
    }
  }
}

TEST(SlotRing, RejectsHugeD) {
  const ZmStar z(2083);  // prime with 2 a primitive root: d = 2082
  ASSERT_EQ(z.d(), 2082);
  try {
    SlotRing r(z);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "m=2083 has d=ord_m(2)=2082 > 1024: slot fields above GF(2^1024) are not supported");
  }
}

TEST(SlotRing, Deterministic) {
  const ZmStar z(771);
  const SlotRing r1(z), r2(z);
  EXPECT_EQ(r1.G(), r2.G());
  EXPECT_EQ(r1.zeta(), r2.zeta());
}

}  // namespace
}  // namespace cb
