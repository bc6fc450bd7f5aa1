#include "engine/util/short_convolution.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

struct ConvCase {
  long r;
  int bits;  // bit length of q: 60 (scalar kernels) or 50 (IFMA kernels where compiled)
  long wp;   // columns
  friend std::ostream& operator<<(std::ostream& os, const ConvCase& c) {
    return os << "r" << c.r << "_q" << c.bits << "bit_wp" << c.wp;
  }
};

class Short : public ::testing::TestWithParam<ConvCase> {};

// Every column against the definition y_s = sum_i x_i k_(s - i mod r), on inputs at the
// top of the allowed range ([0, 4q) for the IFMA kernels, else [0, q)) and random ones.
TEST_P(Short, MatchesTheDefinition) {
  const auto [r, bits, wp] = GetParam();
  const uint64_t q = ntt_primes(1, bits, 2 * uint64_t(r))[0];
  const ShortConvolution sc(r, q);
  EXPECT_EQ(sc.length(), r);
  EXPECT_EQ(sc.fast(), kIfmaCompiled && bits <= 50);
  const uint64_t top = sc.fast() ? 4 * q : q;
  std::mt19937_64 rng(uint64_t(r) * 131 + uint64_t(bits));
  std::vector<uint64_t> k(r), h(r), hp(r), x(r * wp);
  for (auto& v : k) v = rng() % q;
  k[0] = q - 1;
  for (long i = 0; i < r * wp; ++i) x[i] = i % 8 == 3 ? top - 1 - rng() % 4 : rng() % top;
  sc.prepare(k.data(), h.data(), hp.data());
  auto y = x;
  sc.apply(y.data(), wp, h.data(), hp.data());
  for (long c = 0; c < wp; ++c)
    for (long s = 0; s < r; ++s) {
      uint64_t want = 0;
      for (long i = 0; i < r; ++i) want = add_mod(want, mul_mod(x[i * wp + c] % q, k[(s - i + r) % r], q), q);
      const uint64_t got = y[s * wp + c];
      ASSERT_LT(got, sc.fast() ? 2 * q : q) << "s=" << s << " c=" << c;
      ASSERT_EQ(got % q, want) << "s=" << s << " c=" << c;
    }
}

// The lengths the papers' rings give (3: p = 7, 13, 97; 5: 11, 41, 641; 15: 31, 241; 21:
// 673; 51: 103), the ones with register kernels (1 to 15) and others (17, 27).
std::vector<ConvCase> cases() {
  std::vector<ConvCase> out;
  for (int bits : {60, 50})
    for (long r : {1L, 3L, 5L, 7L, 9L, 11L, 13L, 15L, 17L, 21L, 27L, 51L}) out.push_back({r, bits, r < 20 ? 24 : 8});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Lengths, Short, ::testing::ValuesIn(cases()), ::testing::PrintToStringParamName());

TEST(ShortConvolution, SmallModuliAndTheWholeKernelRange) {
  // A 30-bit prime (2^52 mod q far from 2^52) and kernels of q - 1 everywhere: the largest
  // accumulated sums.
  for (long r : {3L, 15L, 21L}) {
    const uint64_t q = ntt_primes(1, 30, 2 * uint64_t(r))[0];
    const ShortConvolution sc(r, q);
    const long wp = 8;
    std::vector<uint64_t> k(r, q - 1), h(r), hp(r), x(r * wp, sc.fast() ? 4 * q - 1 : q - 1);
    sc.prepare(k.data(), h.data(), hp.data());
    sc.apply(x.data(), wp, h.data(), hp.data());
    // (q - 1)^2 r = r mod q, inputs 4q - 1 = q - 1 mod q
    for (uint64_t v : x) EXPECT_EQ(v % q, uint64_t(r) % q) << "r=" << r;
  }
}

TEST(ShortConvolution, NamesTheBrokenConstraint) {
  try {
    ShortConvolution(0, 97);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "ShortConvolution: r=0 must be >= 1");
  }
  EXPECT_THROW(ShortConvolution(3, uint64_t(1) << 62), ParameterError);
}

TEST(ShortConvolution, CostCountsProductsAndReductions) {
  EXPECT_EQ(ShortConvolution::cost(3), 9.0);
  EXPECT_DOUBLE_EQ(ShortConvolution::cost(15), 2.0 / 3.0 * 225 + 30);
}

}  // namespace
}  // namespace cb::util
