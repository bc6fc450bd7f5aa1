// Tests for ZmStar: the papers' rings, and the greedy hypercube against a brute force
// re-derivation of the rule in zmstar.h for every small odd m; the same at primes p > 2
// on odd and power-of-two m, and the refusals with their messages.
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

// Brute-force greedy rule of zmstar.h: largest order in Z_m^*/S, power in <p>, prefer
// power == 1, smallest integer.
struct Brute {
  long d = 0;
  std::vector<long> gens, ords;
  std::vector<bool> good;
};
Brute brute(long m, long p = 2) {
  Brute b;
  std::vector<char> inH(m, 0), inS(m, 0);
  long nunits = 0;
  for (long x = 1; x < m; ++x) nunits += std::gcd(x, m) == 1;
  for (long x = 1 % m;;) {
    inH[x] = inS[x] = 1;
    ++b.d;
    x = (p % m) * x % m;
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

namespace cb {
namespace {

// ---- Any prime p: odd m and m = 2^k -------------------------------------------------

struct RingAtP {
  long m, p, phi, d, ell;
  const char* why;
};
std::ostream& operator<<(std::ostream& os, const RingAtP& r) { return os << "m=" << r.m << "_p=" << r.p; }

class ZmStarAtP : public ::testing::TestWithParam<RingAtP> {};

// Units x in [0, m) reached by rep(s) * p^f: each exactly once (the hypercube's cosets
// cover Z_m^*/<p> once), and locate() inverts it.
void check_cover(const ZmStar& z) {
  const long m = z.m(), pm = z.p() % m;
  std::vector<int> hits(m, 0);
  for (long s = 0; s < z.ell(); ++s) {
    long x = z.rep(s);
    for (long f = 0; f < z.d(); ++f, x = x * pm % m) {
      ++hits[x];
      const auto [s2, f2] = z.locate(x);
      EXPECT_EQ(s2, s) << "x=" << x;
      EXPECT_EQ(f2, f) << "x=" << x;
    }
  }
  for (long x = 0; x < m; ++x) EXPECT_EQ(hits[x], std::gcd(x, m) == 1 ? 1 : 0) << "x=" << x;
}

TEST_P(ZmStarAtP, FactsAndCover) {
  const RingAtP& r = GetParam();
  const ZmStar z(r.m, r.p);
  EXPECT_EQ(z.p(), r.p);
  EXPECT_EQ(z.phi(), r.phi);
  EXPECT_EQ(z.d(), r.d);
  EXPECT_EQ(z.ell(), r.ell);
  const ZmStarBasics b = zmstar_basics(r.m, r.p);
  EXPECT_EQ(b.p, r.p);
  EXPECT_EQ(b.d, r.d);
  EXPECT_EQ(b.ell(), r.ell);
  long prod = 1;
  for (long i = 0; i < z.dims(); ++i) {
    prod *= z.ord(i);
    // g_i^ord_i = p^twist_i mod m (p reduced mod m first: p may exceed m).
    EXPECT_EQ(z.power(z.gen(i), z.ord(i)), z.power(r.p % r.m, z.twist(i))) << "dimension " << i;
  }
  EXPECT_EQ(prod, z.ell());
  EXPECT_FALSE(z.ghs16());  // GHS's condition is p = 2's
  if (r.m <= 70000) check_cover(z);
}

INSTANTIATE_TEST_SUITE_P(
    Reference, ZmStarAtP,
    ::testing::Values(
        // phi, d = ord_m(p) and ell by the definition (Python's pow loop), re-checked by
        // sage/cbparams/test_cyclotomic.py against Sage.
        RingAtP{65536, 65537, 32768, 1, 32768, "HElib/IAIK Pasta-3: m=2^16, p=65537, 32768 slots of F_p"},
        RingAtP{16, 65537, 8, 1, 8, "p = 1 mod m: m/2 slots of F_p"},
        RingAtP{64, 65537, 32, 1, 32, "p = 1 mod m"}, RingAtP{256, 65537, 128, 1, 128, "p = 1 mod m"},
        RingAtP{256, 257, 128, 1, 128, "p = 1 mod m"}, RingAtP{64, 17, 32, 4, 8, "2^k, p = 17 = 1 mod 16"},
        RingAtP{16, 3, 8, 4, 2, "2^k, p = 3"}, RingAtP{8, 3, 4, 2, 2, "2^k, p = 3"},
        RingAtP{4, 3, 2, 2, 1, "smallest power of two"}, RingAtP{1024, 3, 512, 256, 2, "2^k, p = 3"},
        RingAtP{13, 3, 12, 3, 4, "odd prime m"}, RingAtP{97, 3, 96, 48, 2, "odd prime m"},
        RingAtP{257, 3, 256, 256, 1, "3 generates Z_257^*: one slot"},
        RingAtP{4369, 3, 4096, 256, 16, "17 * 257"}, RingAtP{53261, 3, 46080, 240, 192, "AES's ring at p = 3"},
        RingAtP{21, 17, 12, 6, 2, "3 * 7"}, RingAtP{771, 17, 512, 32, 16, "3 * 257"},
        RingAtP{1023, 257, 600, 30, 20, "3 * 11 * 31"}, RingAtP{7, 257, 6, 6, 1, "p > m"},
        RingAtP{4369, 65537, 4096, 16, 256, "p > m, 17 * 257"}, RingAtP{4097, 65537, 3840, 24, 160, "17 * 241"},
        RingAtP{11, 65537, 10, 2, 5, "p > m"},
        // The 33- and 60-bit primes of IAIK's Z_p ciphers: ord_m(p) from p mod m.
        RingAtP{15, 8088322049L, 8, 2, 4, "33-bit p, p mod 15 = 14"},
        RingAtP{32, 8088322049L, 16, 1, 16, "33-bit p = 1 mod 32"},
        RingAtP{17, 1096486890805657601L, 16, 16, 1, "60-bit p"},
        RingAtP{65536, 1096486890805657601L, 32768, 1, 32768, "60-bit p = 1 mod 2^16"}));

TEST(ZmStar, PowerOfTwoHypercubeAtP) {
  // Z_m^* = <-1> x <5> has order m/2. With p = 1 mod m (<p> trivial) the greedy choice is
  // 3 (order m/4, 3 and 5 generate the same subgroup) and m/2 - 1 (order 2, -1 times an
  // element of <3>), both good: 2 dimensions, no twists.
  for (long m : {16L, 64L, 256L, 65536L}) {
    SCOPED_TRACE(testing::Message() << "m=" << m);
    const ZmStar z(m, 65537 % m == 1 ? 65537 : 1L + 3 * m);  // 1 + 3m: 49, 193, 769 (primes), or 65537
    ASSERT_EQ(z.p() % m, 1);
    ASSERT_EQ(z.dims(), 2);
    EXPECT_EQ(z.gen(0), 3);
    EXPECT_EQ(z.ord(0), m / 4);
    EXPECT_EQ(z.gen(1), m / 2 - 1);
    EXPECT_EQ(z.ord(1), 2);
    EXPECT_TRUE(z.good(0));
    EXPECT_TRUE(z.good(1));
    check_dimension_shift(z, 0);
    check_dimension_shift(z, 1);
  }
  // p != 1 mod m: at m = 2^20, <65537> has order 16 and the first dimension is bad,
  // 3^(2^14) = 65537^13 mod 2^20 (Python's pow), the second good ((2^19 - 1)^2 = 1).
  const ZmStar z(kMaxM, 65537);
  EXPECT_EQ(z.d(), 16);
  ASSERT_EQ(z.dims(), 2);
  EXPECT_EQ(z.gen(0), 3);
  EXPECT_EQ(z.ord(0), 1L << 14);
  EXPECT_EQ(z.twist(0), 13);
  EXPECT_EQ(z.gen(1), kMaxM / 2 - 1);
  EXPECT_EQ(z.ord(1), 2);
  EXPECT_TRUE(z.good(1));
  check_dimension_shift(z, 0);
}

TEST(ZmStar, GreedyMatchesBruteForceAtP) {
  for (long p : {3L, 17L, 257L, 65537L}) {
    std::vector<long> ms;
    for (long m = 3; m < 400; m += 2)
      if (m % p != 0) ms.push_back(m);
    for (long m = 4; m <= 1024; m *= 2) ms.push_back(m);
    for (long m : ms) {
      SCOPED_TRACE(testing::Message() << "m=" << m << " p=" << p);
      const ZmStar z(m, p);
      const Brute b = brute(m, p);
      long phi = 0;
      for (long x = 1; x < m; ++x) phi += std::gcd(x, m) == 1;
      ASSERT_EQ(z.phi(), phi);
      ASSERT_EQ(z.d(), b.d);
      ASSERT_EQ(z.ell(), phi / b.d);
      ASSERT_EQ(z.dims(), long(b.gens.size()));
      for (long i = 0; i < z.dims(); ++i) {
        EXPECT_EQ(z.gen(i), b.gens[i]);
        EXPECT_EQ(z.ord(i), b.ords[i]);
        EXPECT_EQ(z.good(i), bool(b.good[i]));
        EXPECT_GE(z.twist(i), 0);
        EXPECT_LT(z.twist(i), z.d());
        EXPECT_EQ(z.power(z.gen(i), z.ord(i)), z.power(p % m, z.twist(i)));
      }
      check_cover(z);
      for (long i = 0; i < z.dims(); ++i) check_dimension_shift(z, i);
    }
  }
}

TEST(ZmStar, AutomorphismActionAtP) {
  struct R {
    long m, p;
  };
  for (R r : {R{4369, 3}, R{1024, 3}, R{771, 17}, R{64, 17}, R{4097, 65537}, R{65536, 65537}}) {
    SCOPED_TRACE(testing::Message() << "m=" << r.m << " p=" << r.p);
    const ZmStar z(r.m, r.p);
    const long m = r.m;
    // X -> X^p is the Frobenius x -> x^p: every slot keeps its place, one Frobenius power
    // (none when d = 1, where x^p = x on F_p).
    const auto frob = z.automorphism_action(r.p % m);
    for (long s = 0; s < z.ell(); ++s) {
      EXPECT_EQ(frob[s].src, s);
      EXPECT_EQ(frob[s].frob, z.d() == 1 ? 0 : 1);
    }
    // A composite k: action(k1 k2) = action(k1) after action(k2), Frobenius powers add mod d.
    const long k1 = z.gen(0), k2 = z.power(z.gen(z.dims() - 1), -1);
    const auto a1 = z.automorphism_action(k1), a2 = z.automorphism_action(k2);
    const auto a12 = z.automorphism_action(k1 * k2 % m);
    for (long s = 0; s < z.ell(); ++s) {
      const auto m1 = a1[s];
      const auto m2 = a2[m1.src];
      EXPECT_EQ(a12[s].src, m2.src);
      EXPECT_EQ(a12[s].frob, (m1.frob + m2.frob) % z.d());
      // The definition: k t_s = t_src * p^frob.
      EXPECT_EQ(k1 * z.rep(s) % m, z.rep(m1.src) * z.power(r.p % m, m1.frob) % m);
    }
    EXPECT_THROW(z.automorphism_action(m % 2 == 0 ? 2 : 0), ParameterError);
  }
}

// zmstar_basics at p against the definition, d = the first k with p^k = 1 mod m, on odd m
// coprime to p and every power of two up to kMaxM.
TEST(ZmStarBasics, MatchesDefinitionAtP) {
  for (long p : {3L, 17L, 257L, 65537L, 8088322049L, 1096486890805657601L}) {
    std::vector<long> ms;
    for (long m = 3; m < 5000; m += 2) ms.push_back(m);
    for (long m = 4; m <= kMaxM; m *= 2) ms.push_back(m);
    for (long m : ms) {
      if (m % p == 0) continue;
      const ZmStarBasics b = zmstar_basics(m, p);
      long d = 1;
      for (long x = p % m; x != 1; x = (unsigned long long)x * (p % m) % m) ++d;
      ASSERT_EQ(b.d, d) << "m=" << m << " p=" << p;
      ASSERT_EQ(b.p, p);
      if ((m & (m - 1)) == 0) {
        ASSERT_EQ(b.phi, m / 2);
      }
    }
  }
}

// Every refusal, before any work, with its message naming the value and the constraint.
void expect_refusal(long m, long p, const std::string& text) {
  SCOPED_TRACE(testing::Message() << "m=" << m << " p=" << p);
  try {
    zmstar_basics(m, p);
    ADD_FAILURE() << "zmstar_basics accepted m=" << m << " p=" << p;
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), text);
  }
  try {
    ZmStar z(m, p);
    ADD_FAILURE() << "ZmStar accepted m=" << m << " p=" << p;
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), text);
  }
}

TEST(ZmStar, RefusalsAtP) {
  expect_refusal(257, 1, "p=1 is outside [2, 2^61): the plaintext modulus needs 2 <= p < 2305843009213693952");
  expect_refusal(257, 0, "p=0 is outside [2, 2^61): the plaintext modulus needs 2 <= p < 2305843009213693952");
  expect_refusal(257, -3, "p=-3 is outside [2, 2^61): the plaintext modulus needs 2 <= p < 2305843009213693952");
  expect_refusal(257, 1L << 61,
                 "p=2305843009213693952 is outside [2, 2^61): the plaintext modulus needs 2 <= p < "
                 "2305843009213693952");
  expect_refusal(257, 65535, "p=65535 is not prime: the plaintext modulus must be a prime");
  expect_refusal(257, 9, "p=9 is not prime: the plaintext modulus must be a prime");
  // A strong pseudoprime to small bases is still refused: 3215031751 = 151 * 751 * 28351
  // passes Miller-Rabin to bases 2, 3, 5 and 7. The Mersenne prime 2^61 - 1 is accepted.
  expect_refusal(257, 3215031751L, "p=3215031751 is not prime: the plaintext modulus must be a prime");
  EXPECT_EQ(zmstar_basics(257, (1L << 61) - 1).p, (1L << 61) - 1);
  expect_refusal(9, 3, "p=3 divides m=9: the plaintext modulus must be coprime to m");
  expect_refusal(4369, 257, "p=257 divides m=4369: the plaintext modulus must be coprime to m");
  expect_refusal(12, 5, "m=12 is even but not a power of two: the ring at p=5 needs odd m or m = 2^k");
  expect_refusal(65534, 65537,
                 "m=65534 is even but not a power of two: the ring at p=65537 needs odd m or m = 2^k");
  expect_refusal(2, 3, "m=2 is outside [3, 2^20]: the ring needs 3 <= m <= 1048576");
  expect_refusal(1L << 21, 3, "m=2097152 is outside [3, 2^20]: the ring needs 3 <= m <= 1048576");
  expect_refusal(65536, 2,
                 "m=65536 is a power of two and p=2: no slots, Phi_m = X^32768 + 1 = (X + 1)^32768 mod 2; "
                 "the ring at p=2 needs odd m");
  expect_refusal(4, 2, "m=4 is a power of two and p=2: no slots, Phi_m = X^2 + 1 = (X + 1)^2 mod 2; the ring at p=2 needs odd m");
  // p = 2 keeps its texts word for word.
  expect_refusal(53262, 2, "m=53262 is even: the ring needs odd m");
  expect_refusal(2, 2, "m=2 is even: the ring needs odd m");
}

}  // namespace
}  // namespace cb
