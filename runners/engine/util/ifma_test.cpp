#include "engine/util/ifma.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "engine/util/modarith.h"
#include "engine/util/primes.h"

#ifdef CB_UTIL_IFMA
// GCC 12 reports its own _mm512_undefined_* placeholders as maybe-uninitialized (vecmod.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

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

// The 52-bit Barrett product (ifma.h): the raw remainder lies in [0, 3q) and is congruent
// to a b + c, for every bit length L = 2..50 (the largest prime below 2^L, the smallest
// above 2^(L-1), 2^(L-1) + 1 and 2^L: the ends of one L), extreme operands (among them
// a = q - 3, b = 2^(L-1) - 3, c = q - 1, where just above 2^(L-1) the quotient estimate
// is two short: the bound is reached, as the count below checks) and random ones.
TEST(Barrett52, LazyProductIsBelowThreeQAndCongruent) {
  std::vector<uint64_t> moduli = {2, 3};
  for (int bits = 4; bits <= 50; ++bits) {
    moduli.push_back(ntt_primes(1, bits, 2)[0]);
    uint64_t q = (uint64_t(1) << (bits - 1)) + 1;
    moduli.push_back(q);
    while (!is_prime(q)) q += 2;
    moduli.push_back(q);
    if (bits < 50) moduli.push_back(uint64_t(1) << bits);
  }
  std::mt19937_64 rng(7);
  long two_short = 0;  // products whose raw remainder is in [2q, 3q)
  for (const uint64_t q : moduli) {
    const Barrett52Params p(q);
    ASSERT_LT(p.mu, uint64_t(1) << 52) << q;
    const uint64_t p2 = uint64_t(1) << (p.L - 1);
    std::vector<uint64_t> edge;
    for (uint64_t v : {uint64_t(0), uint64_t(1), q / 2, q - 3, q - 2, q - 1, p2 - 3, p2 - 2, p2 - 1})
      edge.push_back(v % q);
    std::vector<std::array<uint64_t, 3>> ops;
    for (uint64_t a : edge)
      for (uint64_t b : edge)
        for (uint64_t c : {uint64_t(0), q - 2, q - 1}) ops.push_back({a, b, c % q});
    for (int i = 0; i < 2000; ++i) ops.push_back({rng() % q, rng() % q, rng() % q});
    for (const auto& [a, b, c] : ops) {
      const uint64_t r = mul_add_barrett52_lazy(a, b, c, q, p);
      ASSERT_LT(r, 3 * q) << "q=" << q << " a=" << a << " b=" << b << " c=" << c;
      ASSERT_EQ(r % q, uint64_t((u128(a) * b + c) % q)) << "q=" << q << " a=" << a << " b=" << b;
      two_short += r >= 2 * q;
    }
#ifdef CB_UTIL_IFMA
    const IfmaBarrett52 f(q);
    for (size_t i = 0; i + 8 <= ops.size(); i += 8) {
      alignas(64) uint64_t a[8], b[8], c[8], r[8];
      for (int l = 0; l < 8; ++l) a[l] = ops[i + l][0], b[l] = ops[i + l][1], c[l] = ops[i + l][2];
      _mm512_store_si512(r, f.mul_add(_mm512_load_si512(a), _mm512_load_si512(b), _mm512_load_si512(c)));
      for (int l = 0; l < 8; ++l) ASSERT_EQ(r[l], mul_add_barrett52_lazy(a[l], b[l], c[l], q, p) % q);
    }
#endif
  }
  EXPECT_GT(two_short, 0);  // the extremes reach [2q, 3q): the second subtraction is needed
  EXPECT_THROW(Barrett52Params{1}, ParameterError);
  EXPECT_THROW(Barrett52Params{kMaxIfmaModulus}, ParameterError);
}

TEST(MaxFastPrimeBits, MatchesTheCompiledKernels) {
  EXPECT_EQ(max_fast_prime_bits(), kIfmaCompiled ? 50 : 60);
  // The largest prime of that size takes the fast path: below kMaxIfmaModulus with IFMA.
  const uint64_t q = ntt_primes(1, max_fast_prime_bits(), 2)[0];
  EXPECT_EQ(q < kMaxIfmaModulus, kIfmaCompiled);
}

}  // namespace
}  // namespace cb::util
