// Chain (chain.h) on odd and power-of-two rings: every prime is 1 mod the transform's step
// (m N for odd m, m for m = 2^k) and distinct, the kinds have the sizes chain.h promises,
// and the refusals name m and the constraint.
#include "engine/bgv/chain.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <set>
#include <string>

#include "engine/errors.h"
#include "engine/util/cyclotomic_transform.h"
#include "engine/util/primes.h"

namespace cb::bgv {
namespace {

struct ChainCase {
  long m, bits, c;
  friend std::ostream& operator<<(std::ostream& os, const ChainCase& k) {
    return os << "m" << k.m << "_bits" << k.bits << "_c" << k.c;
  }
};

class ChainShape : public ::testing::TestWithParam<ChainCase> {};

TEST_P(ChainShape, PrimesHoldTheTransformsRoots) {
  const ChainCase k = GetParam();
  const Chain ch(ChainParams{k.m, k.bits, k.c});
  const bool pow2 = (k.m & (k.m - 1)) == 0;
  EXPECT_EQ(ch.N(), pow2 ? k.m / 2 : util::bluestein_length(k.m));
  EXPECT_EQ(ch.step(), util::CyclotomicTransform::step(k.m));
  EXPECT_EQ(ch.step(), pow2 ? uint64_t(k.m) : uint64_t(k.m) * uint64_t(util::bluestein_length(k.m)));
  std::set<uint64_t> seen;
  for (uint64_t q : ch.primes()) {
    EXPECT_TRUE(util::is_prime(q)) << q;
    EXPECT_EQ((q - 1) % ch.step(), 0u) << "q=" << q;
    EXPECT_TRUE(seen.insert(q).second) << "q=" << q << " twice";
    // Every prime takes the transform (checks q = 1 mod step itself).
    EXPECT_NO_THROW(util::CyclotomicTransform(k.m, q));
  }
  // The ladder: increasing sizes from the smallest the ring allows, log2(step) + 2 bits (or
  // the first size above that has a prime).
  const int min_bits = int(std::ceil(std::log2(double(ch.step())))) + 2;
  ASSERT_GT(ch.S(), 0);
  EXPECT_GE(int(std::ceil(ch.log2_q(0))), min_bits);
  EXPECT_LE(int(std::ceil(ch.log2_q(0))), min_bits + 2);
  for (long i = 1; i < ch.S(); ++i) EXPECT_GT(ch.log2_q(i), ch.log2_q(i - 1));
  EXPECT_GE(ch.log2_Q(), double(k.bits) - 1);
  EXPECT_EQ(long(ch.digits().size()), k.c);
  EXPECT_GT(ch.log2_P(), ch.log2_max_digit());
  const std::string d = ch.describe();
  EXPECT_NE(d.find(pow2 ? "q = 1 mod m;" : "q = 1 mod m*N, N="), std::string::npos) << d;
}

INSTANTIATE_TEST_SUITE_P(Rings, ChainShape,
                         ::testing::Values(ChainCase{257, 200, 2}, ChainCase{4369, 300, 3},
                                           ChainCase{64, 120, 2}, ChainCase{256, 200, 3},
                                           ChainCase{4096, 300, 3}, ChainCase{65536, 400, 2}),
                         ::testing::PrintToStringParamName());

TEST(Chain, PowerOfTwoRingsNeedOnlyTheMthRoots) {
  // m = 65536: the IAIK Pasta ring. Its primes are 1 mod 2^16, not 1 mod 2^16 * 2^17 (a
  // Bluestein length would need 35-bit ladder primes): the ladder starts at 20 bits, no
  // prime 1 mod 2^16 having 18 or 19 (786433 = 12 * 2^16 + 1 is the least).
  const Chain ch(ChainParams{65536, 400, 2});
  EXPECT_EQ(ch.q(0), 786433u);
  // The Fermat prime in m = 128's ladder, as chain.h says (the context refuses p = 257 there).
  const Chain c128(ChainParams{128, 100, 2});
  EXPECT_EQ(c128.q(0), 257u);
}

TEST(Chain, RefusalsNameMAndTheConstraint) {
  auto message = [](long m) {
    try {
      Chain(ChainParams{m, 100, 2});
    } catch (const ParameterError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(96), "m=96 is even but not a power of two: the ring needs odd m or m = 2^k");
  EXPECT_EQ(message(53262), "m=53262 is even but not a power of two: the ring needs odd m or m = 2^k");
  EXPECT_EQ(message(2), "m=2: the ring needs odd m with 3 <= m <= 2^20, or m = 2^k with 4 <= m <= 2^20");
  EXPECT_EQ(message(1L << 21), "m=2097152: the ring needs odd m with 3 <= m <= 2^20, or m = 2^k with 4 <= m <= 2^20");
  EXPECT_EQ(message(1), "m=1: the ring needs odd m with 3 <= m <= 2^20, or m = 2^k with 4 <= m <= 2^20");
  EXPECT_EQ(message(4), "no error");
}

// p = 65537 is 1 mod every m = 2^k <= 65536, and the ladder of m = 32768 starts with it;
// the chain of a run at that p skips it (chain.h), and at p = 2 nothing changes.
TEST(Chain, NeverTakesThePlaintextModulus) {
  ChainParams at2{32768, 400, 3};
  ChainParams atp = at2;
  atp.p = 65537;
  const Chain a(at2), b(atp);
  EXPECT_NE(std::find(a.primes().begin(), a.primes().end(), 65537ULL), a.primes().end());
  EXPECT_EQ(std::find(b.primes().begin(), b.primes().end(), 65537ULL), b.primes().end());
  EXPECT_EQ(a.num_primes(), b.num_primes());
}

}  // namespace
}  // namespace cb::bgv
