// Tests for ZmStar: the papers' rings, and the greedy hypercube against a brute force
// re-derivation of the rule in zmstar.h for every small odd m.
#include "engine/algebra/zmstar.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "engine/errors.h"

namespace cb {
namespace {

struct RingFacts {
  long m, phi, d, ell;
  const char* why;
};
std::ostream& operator<<(std::ostream& os, const RingFacts& r) { return os << "m=" << r.m; }

class ZmStarFacts : public ::testing::TestWithParam<RingFacts> {};

TEST_P(ZmStarFacts, PhiDEll) {
  const RingFacts& r = GetParam();
  const ZmStar z(r.m);
  EXPECT_EQ(z.phi(), r.phi);
  EXPECT_EQ(z.d(), r.d);
  EXPECT_EQ(z.ell(), r.ell);
  long prod = 1;
  for (long i = 0; i < z.dims(); ++i) prod *= z.ord(i);
  EXPECT_EQ(prod, z.ell());
}

INSTANTIATE_TEST_SUITE_P(
    Reference, ZmStarFacts,
    ::testing::Values(
        // docs/references.md §1, measured with HElib.
        RingFacts{53261, 46080, 24, 1920, "AES, GF(2^8)^16"},
        RingFacts{163455, 81920, 64, 1280, "Vision GF(2^8)^16"},
        RingFacts{148733, 129024, 48, 2688, "Vision GF(2^16)^8"},
        RingFacts{164737, 163840, 64, 2560, "Vision GF(2^32)^4 and GF(2^64)^2"},
        // Small test rings: 257 prime with ord(2)=16; 771 = 3*257; 4369 = 17*257.
        RingFacts{257, 256, 16, 16, "small prime"}, RingFacts{771, 512, 16, 32, "HElib AES toy"},
        RingFacts{4369, 4096, 16, 256, "HElib AES toy"}, RingFacts{3, 2, 2, 1, "smallest"}));

TEST(ZmStar, RejectsBadM) {
  try {
    ZmStar z(53262);
    FAIL() << "accepted even m";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "m=53262 is even: the ring needs odd m");
  }
  EXPECT_THROW(ZmStar(1), ParameterError);
  EXPECT_THROW(ZmStar(-5), ParameterError);
  EXPECT_THROW(ZmStar((1L << 20) + 1), ParameterError);
}

// Brute-force greedy rule of zmstar.h: largest order in Z_m^*/S, power in <2>, prefer
// power == 1, smallest integer.
struct Brute {
  long d = 0;
  std::vector<long> gens, ords;
  std::vector<bool> good;
};
Brute brute(long m) {
  Brute b;
  std::vector<char> inH(m, 0), inS(m, 0);
  long nunits = 0;
  for (long x = 1; x < m; ++x) nunits += std::gcd(x, m) == 1;
  for (long x = 1 % m;;) {
    inH[x] = inS[x] = 1;
    ++b.d;
    x = 2 * x % m;
    if (x == 1) break;
  }
  long sizeS = b.d;
  while (sizeS < nunits) {
    long bo = 0, bx = 0;
    bool bgood = false;
    for (long x = 1; x < m; ++x) {
      if (std::gcd(x, m) != 1 || inS[x]) continue;
      long o = 1, y = x;
      while (!inS[y]) y = y * x % m, ++o;
      long xo = 1;
      for (long i = 0; i < o; ++i) xo = xo * x % m;
      if (!inH[xo]) continue;
      const bool g = xo == 1;
      if (o > bo || (o == bo && g && !bgood)) bo = o, bx = x, bgood = g;
    }
    b.gens.push_back(bx);
    b.ords.push_back(bo);
    b.good.push_back(bgood);
    std::vector<long> S;
    for (long x = 0; x < m; ++x)
      if (inS[x]) S.push_back(x);
    for (long s : S)
      for (long j = 0, y = s; j < bo; ++j, y = y * bx % m) inS[y] = 1;
    sizeS *= bo;
  }
  return b;
}

TEST(ZmStar, GreedyMatchesBruteForceSmallM) {
  for (long m = 3; m < 600; m += 2) {
    SCOPED_TRACE(testing::Message() << "m=" << m);
    const ZmStar z(m);
    const Brute b = brute(m);
    long phi = 0;
    for (long x = 1; x < m; ++x) phi += std::gcd(x, m) == 1;
    ASSERT_EQ(z.phi(), phi);
    ASSERT_EQ(z.d(), b.d);
    ASSERT_EQ(z.ell(), phi / b.d);
    ASSERT_EQ(z.dims(), long(b.gens.size()));
    long prod = 1;
    for (long i = 0; i < z.dims(); ++i) {
      EXPECT_EQ(z.gen(i), b.gens[i]);
      EXPECT_EQ(z.ord(i), b.ords[i]);
      EXPECT_EQ(z.good(i), bool(b.good[i]));
      long p = 1;
      for (long j = 0; j < z.ord(i); ++j) p = p * z.gen(i) % m;
      long two_f = 1;
      for (long j = 0; j < z.twist(i); ++j) two_f = 2 * two_f % m;
      EXPECT_EQ(p, two_f) << "g_" << i << "^ord_" << i << " != 2^twist";
      EXPECT_GE(z.twist(i), 0);
      EXPECT_LT(z.twist(i), z.d());
      prod *= z.ord(i);
    }
    EXPECT_EQ(prod, z.ell());
    // ghs16: some unit t with t^16 = 1 and t^8 outside <2>, by brute force.
    std::set<long> two;
    for (long x = 1, j = 0; j < b.d; ++j, x = 2 * x % m) two.insert(x);
    bool ghs = false;
    for (long t = 1; t < m; ++t) {
      if (std::gcd(t, m) != 1) continue;
      long t8 = 1;
      for (int j = 0; j < 8; ++j) t8 = t8 * t % m;
      if (t8 * t8 % m == 1 && !two.count(t8)) ghs = true;
    }
    EXPECT_EQ(z.ghs16(), ghs);
    // Representatives: distinct cosets of <2>, and locate() agrees with the definition.
    std::set<long> seen;
    for (long s = 0; s < z.ell(); ++s) {
      long x = z.rep(s);
      long minx = x;
      for (long f = 0; f < z.d(); ++f, x = 2 * x % m) minx = std::min(minx, x);
      EXPECT_TRUE(seen.insert(minx).second) << "slot " << s << " repeats a coset";
      EXPECT_EQ(z.slot_of(z.coords(s)), s);
    }
    for (long x = 1; x < m; ++x) {
      if (std::gcd(x, m) != 1) {
        EXPECT_FALSE(z.in_zmstar(x));
        EXPECT_THROW(z.locate(x), ParameterError);
        continue;
      }
      const auto [s, f] = z.locate(x);
      EXPECT_EQ(z.power(2, f) * z.rep(s) % m, x);
      EXPECT_EQ(z.inverse(x) * x % m, 1);
      EXPECT_EQ(z.power(x, -3) * z.power(x, 3) % m, 1);
    }
  }
}

// In dimension i, X -> X^(g_i) shifts the coordinate e_i down by one: slot e receives
// slot e + u_i; slots with e_i = ord_i - 1 receive slot e_i = 0 twisted by 2^twist_i.
void check_dimension_shift(const ZmStar& z, long i) {
  const auto moves = z.automorphism_action(z.gen(i));
  for (long s = 0; s < z.ell(); ++s) {
    auto e = z.coords(s);
    const bool wraps = e[i] == z.ord(i) - 1;
    e[i] = wraps ? 0 : e[i] + 1;
    EXPECT_EQ(moves[s].src, z.slot_of(e)) << "slot " << s;
    EXPECT_EQ(moves[s].frob, wraps ? z.twist(i) : 0) << "slot " << s;
  }
}

TEST(ZmStar, AutomorphismActionBadDimension) {
  const ZmStar z(257);  // Z_257^* is cyclic of order 256; the one dimension is bad
  ASSERT_EQ(z.dims(), 1);
  EXPECT_FALSE(z.good(0));
  EXPECT_NE(z.twist(0), 0);
  check_dimension_shift(z, 0);
  // X -> X^2 is the Frobenius: every slot keeps its place and is squared.
  for (const auto& mv : z.automorphism_action(2)) EXPECT_EQ(mv.frob, 1);
  const auto moves = z.automorphism_action(2);
  for (long s = 0; s < z.ell(); ++s) EXPECT_EQ(moves[s].src, s);
  EXPECT_THROW(z.automorphism_action(257 * 3), ParameterError);
}

TEST(ZmStar, AutomorphismActionAllDimensions) {
  for (long m : {4369L, 2047L, 53261L}) {
    SCOPED_TRACE(testing::Message() << "m=" << m);
    const ZmStar z(m);
    for (long i = 0; i < z.dims(); ++i) check_dimension_shift(z, i);
    // A composite k: action(k1 k2) = action(k1) after action(k2), Frobenius exponents add.
    const long k1 = z.gen(0), k2 = z.gen(z.dims() - 1);
    const auto a1 = z.automorphism_action(k1), a2 = z.automorphism_action(k2);
    const auto a12 = z.automorphism_action(k1 * k2 % m);
    for (long s = 0; s < z.ell(); ++s) {
      // X -> X^(k1 k2): new[s] = old[loc(k1 k2 t_s)].
      const auto m1 = a1[s];
      const auto m2 = a2[m1.src];
      EXPECT_EQ(a12[s].src, m2.src);
      EXPECT_EQ(a12[s].frob, (m1.frob + m2.frob) % z.d());
    }
  }
}

// zmstar_basics (d from the factors of lambda(m)) against the definition, d = the first
// k with 2^k = 1, for every odd m below 20000 and the papers' rings; and as ZmStar has it.
TEST(ZmStarBasics, MatchesDefinition) {
  std::vector<long> ms;
  for (long m = 3; m < 20000; m += 2) ms.push_back(m);
  for (long m : {53261L, 163455L, 148733L, 164737L, 1048575L}) ms.push_back(m);
  for (long m : ms) {
    const ZmStarBasics b = zmstar_basics(m);
    long d = 1;
    for (long x = 2 % m; x != 1; x = 2 * x % m) ++d;
    ASSERT_EQ(b.d, d) << "m=" << m;
    long prod = 1;
    for (auto [p, e] : b.factors)
      for (long i = 0; i < e; ++i) prod *= p;
    ASSERT_EQ(prod, m);
  }
  EXPECT_EQ(zmstar_basics(53261).phi, 46080);
  EXPECT_EQ(zmstar_basics(163455).ell(), 1280);
  EXPECT_THROW(zmstar_basics(53262), ParameterError);
  EXPECT_THROW(zmstar_basics(kMaxM + 1), ParameterError);
}

TEST(ZmStar, Ghs16OnPaperRing) {
  EXPECT_TRUE(ZmStar(53261).ghs16());  // GHS's AES ring has the order-16 element
  EXPECT_FALSE(ZmStar(257).ghs16());   // Z_257^* cyclic of order 256 = 16 d: t^8 lies in <2>
}

TEST(ZmStar, LargeRingIsFast) {
  // 2^18 + 1 = 262145 = 5 * 13 * 37 * 109; the build must stay well under a second.
  const ZmStar z(262145);
  long prod = 1;
  for (long i = 0; i < z.dims(); ++i) prod *= z.ord(i);
  EXPECT_EQ(prod, z.ell());
}

}  // namespace
}  // namespace cb
