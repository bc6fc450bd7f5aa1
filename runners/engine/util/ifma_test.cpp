#include "engine/util/ifma.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

// The moduli at the edges of the 52-bit product's range: the largest prime below 2^50
// (4q - 1 is then just below 2^52, the hardware's input width) and small ones.
struct ModCase {
  int bits;
  friend std::ostream& operator<<(std::ostream& os, const ModCase& c) {
    return os << "q" << c.bits << "bit";
  }
};

class Shoup52 : public ::testing::TestWithParam<ModCase> {
 protected:
  static uint64_t modulus() { return ntt_primes(1, GetParam().bits, 2)[0]; }
  // Multiplicands in [0, 4q) including the extremes, multipliers in [0, q).
  static std::vector<std::pair<uint64_t, uint64_t>> operands(uint64_t q) {
    std::vector<std::pair<uint64_t, uint64_t>> v;
    for (uint64_t x : {uint64_t(0), uint64_t(1), q - 1, q, 2 * q - 1, 4 * q - 1})
      for (uint64_t w : {uint64_t(0), uint64_t(1), q / 2, q - 1}) v.push_back({x, w});
    std::mt19937_64 rng(5);
    for (int i = 0; i < 4000; ++i) v.push_back({rng() % (4 * q), rng() % q});
    return v;
  }
};

TEST_P(Shoup52, LazyProductIsBelowTwoQAndCongruent) {
  const uint64_t q = modulus();
  ASSERT_LT(q, kMaxIfmaModulus);
  ASSERT_LT(4 * q - 1, uint64_t(1) << 52);  // every lazy value is a valid multiplicand
  for (auto [x, w] : operands(q)) {
    const uint64_t wp = shoup52(w, q);
    ASSERT_LT(wp, uint64_t(1) << 52);
    const uint64_t r = mul_shoup52_lazy(x, w, wp, q);
    ASSERT_LT(r, 2 * q) << "x=" << x << " w=" << w;
    ASSERT_EQ(r % q, mul_mod(x, w, q)) << "x=" << x << " w=" << w;
  }
}

#ifdef CB_UTIL_IFMA
TEST_P(Shoup52, VectorProductMatchesScalar) {
  const uint64_t q = modulus();
  const Ifma52 ar(q);
  const auto ops = operands(q);
  for (size_t i = 0; i + 8 <= ops.size(); i += 8) {
    alignas(64) uint64_t x[8], w[8], wp[8], r[8];
    for (int l = 0; l < 8; ++l) {
      x[l] = ops[i + l].first, w[l] = ops[i + l].second, wp[l] = shoup52(w[l], q);
    }
    _mm512_store_si512(r, ar.mul_lazy(_mm512_load_si512(x), _mm512_load_si512(w),
                                      _mm512_load_si512(wp)));
    for (int l = 0; l < 8; ++l) ASSERT_EQ(r[l], mul_shoup52_lazy(x[l], w[l], wp[l], q));
  }
}
#endif

INSTANTIATE_TEST_SUITE_P(Moduli, Shoup52,
                         ::testing::Values(ModCase{50}, ModCase{49}, ModCase{40}, ModCase{20},
                                           ModCase{3}),
                         ::testing::PrintToStringParamName());

TEST(MaxFastPrimeBits, MatchesTheCompiledKernels) {
  EXPECT_EQ(max_fast_prime_bits(), kIfmaCompiled ? 50 : 60);
  // The largest prime of that size takes the fast path: below kMaxIfmaModulus with IFMA.
  const uint64_t q = ntt_primes(1, max_fast_prime_bits(), 2)[0];
  EXPECT_EQ(q < kMaxIfmaModulus, kIfmaCompiled);
}

}  // namespace
}  // namespace cb::util
