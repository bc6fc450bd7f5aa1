#include "engine/util/primes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"

namespace cb::util {
namespace {

bool trial_division_prime(uint64_t n) {
  if (n < 2) return false;
  for (uint64_t p = 2; p * p <= n; ++p)
    if (n % p == 0) return false;
  return true;
}

TEST(Primes, IsPrimeMatchesTrialDivisionOnSmallNumbers) {
  for (uint64_t n = 0; n < 20000; ++n) EXPECT_EQ(is_prime(n), trial_division_prime(n)) << n;
}

TEST(Primes, IsPrimeRejectsPseudoprimesAndAcceptsKnownPrimes) {
  // Carmichael numbers and strong pseudoprimes to several small bases.
  for (uint64_t n : {561ULL, 41041ULL, 3215031751ULL, 2152302898747ULL, 3474749660383ULL,
                     341550071728321ULL, 3825123056546413051ULL})
    EXPECT_FALSE(is_prime(n)) << n;
  for (uint64_t n : {2305843009213693951ULL /* 2^61-1 */, 18446744073709551557ULL /* 2^64-59 */,
                     1152921504606846883ULL /* 2^60-93 */})
    EXPECT_TRUE(is_prime(n)) << n;
}

struct PrimeCase {
  long count;
  int bits;
  uint64_t step;
  friend std::ostream& operator<<(std::ostream& os, const PrimeCase& c) {
    return os << "count" << c.count << "_bits" << c.bits << "_step" << c.step;
  }
};

class NttPrimes : public ::testing::TestWithParam<PrimeCase> {};

TEST_P(NttPrimes, AreDistinctPrimesOfExactBitLengthInTheClass) {
  const PrimeCase c = GetParam();
  const auto ps = ntt_primes(c.count, c.bits, c.step);
  ASSERT_EQ(long(ps.size()), c.count);
  std::set<uint64_t> seen;
  for (size_t i = 0; i < ps.size(); ++i) {
    const uint64_t q = ps[i];
    EXPECT_TRUE(is_prime(q)) << q;
    EXPECT_EQ(q % c.step, 1 % c.step) << q;
    EXPECT_GT(q, uint64_t(1) << (c.bits - 1));
    EXPECT_LT(q, uint64_t(1) << c.bits);
    EXPECT_TRUE(seen.insert(q).second) << "repeated " << q;
    if (i > 0) {
      EXPECT_LT(q, ps[i - 1]) << "search is downward";
    }
  }
  // Downward search: no prime of the class lies between the first result and 2^bits.
  for (uint64_t x = ps[0] + c.step; x < (uint64_t(1) << c.bits); x += c.step)
    EXPECT_FALSE(is_prime(x)) << x;
  // Deterministic, and exclusion skips exactly the excluded primes.
  EXPECT_EQ(ntt_primes(c.count, c.bits, c.step), ps);
  const auto rest = ntt_primes(c.count, c.bits, c.step, {ps[0]});
  EXPECT_EQ(std::count(rest.begin(), rest.end(), ps[0]), 0);
  EXPECT_EQ(std::vector<uint64_t>(rest.begin(), rest.end() - 1),
            std::vector<uint64_t>(ps.begin() + 1, ps.end()));
}

INSTANTIATE_TEST_SUITE_P(Chains, NttPrimes,
                         ::testing::Values(PrimeCase{5, 60, 53261ULL * 131072},   // m=53261
                                           PrimeCase{3, 60, 164737ULL * 524288},  // m=164737
                                           PrimeCase{4, 40, 257ULL * 1024},       // m=257
                                           PrimeCase{10, 20, 1},                  // plain primes
                                           PrimeCase{3, 61, 4369ULL * 16384}),    // top bound
                         ::testing::PrintToStringParamName());

TEST(Primes, TooFewPrimesThrowsWithTheCounts) {
  // 2^4 < q < 2^5 with q = 1 mod 8: only 17 (25 is not prime).
  try {
    ntt_primes(2, 5, 8);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "ntt_primes: only 1 primes q = 1 mod 8 with 2^4 < q < 2^5 are available "
                 "(excluding 0), but 2 were requested");
  }
  EXPECT_EQ(ntt_primes(1, 5, 8), std::vector<uint64_t>{17});
  try {
    ntt_primes(1, 62, 2);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "ntt_primes: bits=62 is outside [2, 61]");
  }
  EXPECT_THROW(ntt_primes(1, 40, uint64_t(1) << 41), ParameterError);
}

TEST(Primes, PrimitiveRootHasExactOrder) {
  const uint64_t step = 771ULL * 2048;
  const uint64_t q = ntt_primes(1, 50, step)[0];
  for (uint64_t order : {uint64_t(771), uint64_t(2048), step, uint64_t(3), uint64_t(1)}) {
    const uint64_t w = primitive_root_of_unity(order, q);
    EXPECT_EQ(pow_mod(w, order, q), 1u);
    for (uint64_t p : prime_factors(order)) EXPECT_NE(pow_mod(w, order / p, q), 1u) << order;
    EXPECT_EQ(primitive_root_of_unity(order, q), w) << "deterministic";
  }
  try {
    primitive_root_of_unity(5, 17);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "primitive_root_of_unity: order=5 does not divide q-1=16");
  }
  EXPECT_THROW(primitive_root_of_unity(2, 15), ParameterError);
}

TEST(Primes, BluesteinLengthIsSmallestPowerOfTwoCovering2mMinus1) {
  EXPECT_EQ(bluestein_length(1), 1);
  EXPECT_EQ(bluestein_length(257), 1024);
  EXPECT_EQ(bluestein_length(4369), 16384);
  EXPECT_EQ(bluestein_length(53261), 131072);
  EXPECT_EQ(bluestein_length(163455), 524288);
  EXPECT_EQ(bluestein_length(164737), 524288);
  EXPECT_THROW(bluestein_length(0), ParameterError);
}

TEST(Primes, PrimeFactors) {
  EXPECT_EQ(prime_factors(53261), (std::vector<uint64_t>{13, 17, 241}));
  EXPECT_EQ(prime_factors(343), (std::vector<uint64_t>{7}));
  EXPECT_EQ(prime_factors(1), (std::vector<uint64_t>{}));
}

TEST(Primes, PaperRingsHaveEnoughFastPrimes) {
  // A chain of ~50-bit primes for the paper rings needs some 90 primes q = 1 mod m*N.
  // Counted once over the whole ranges (2^(b-1), 2^b): 50 bits: 5507, 772, 469, 359;
  // 49 bits: 2756, 382, 255, 207 for m = 53261, 163455, 148733, 164737.
  for (long m : {53261L, 163455L, 148733L, 164737L}) {
    const uint64_t step = uint64_t(m) * uint64_t(bluestein_length(m));
    for (int bits : {50, 49}) {
      const auto qs = ntt_primes(90, bits, step);
      ASSERT_EQ(qs.size(), 90u);
      for (uint64_t q : qs) ASSERT_LT(q, kMaxIfmaModulus) << "m=" << m;
    }
  }
}

}  // namespace
}  // namespace cb::util
