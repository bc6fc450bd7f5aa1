#include "engine/util/modarith.h"

#include <gtest/gtest.h>

#include <random>

namespace cb::util {
namespace {

// Moduli at the edges the engine uses: tiny, a 30-bit prime, a 60-bit NTT prime, and the
// largest odd value below the 2^62 bound.
const uint64_t kModuli[] = {3, 1073741789ULL, 1152921504606830593ULL, (uint64_t(1) << 62) - 57};

TEST(ModArith, AddSubNegMulMatchWideArithmetic) {
  std::mt19937_64 rng(1);
  for (uint64_t q : kModuli) {
    for (int it = 0; it < 2000; ++it) {
      const uint64_t a = rng() % q, b = rng() % q;
      EXPECT_EQ(add_mod(a, b, q), uint64_t((u128(a) + b) % q));
      EXPECT_EQ(sub_mod(a, b, q), uint64_t((u128(a) + q - b) % q));
      EXPECT_EQ(neg_mod(a, q), uint64_t((q - a) % q));
      EXPECT_EQ(mul_mod(a, b, q), uint64_t(u128(a) * b % q));
    }
  }
}

TEST(ModArith, ShoupProductIsCorrectAndLazyRangeHolds) {
  std::mt19937_64 rng(2);
  for (uint64_t q : kModuli) {
    for (int it = 0; it < 2000; ++it) {
      const uint64_t w = rng() % q;
      const uint64_t x = it % 3 == 0 ? ~uint64_t(0) - uint64_t(it) : rng();  // any x < 2^64
      const ShoupMul s(w, q);
      const uint64_t lazy = mul_shoup_lazy(x, s.w, s.wp, q);
      const uint64_t exact = uint64_t(u128(x) * w % q);
      EXPECT_LT(lazy, 2 * q);
      EXPECT_EQ(lazy % q, exact);
      EXPECT_EQ(mul_shoup(x, s.w, s.wp, q), exact);
    }
  }
}

TEST(ModArith, PowAndInverse) {
  const uint64_t q = 1152921504606830593ULL;  // prime
  EXPECT_EQ(pow_mod(5, 0, q), 1u);
  EXPECT_EQ(pow_mod(0, 0, q), 1u);
  EXPECT_EQ(pow_mod(3, q - 1, q), 1u);  // Fermat
  EXPECT_EQ(pow_mod(2, 10, 1000), 24u);
  std::mt19937_64 rng(3);
  for (int it = 0; it < 200; ++it) {
    const uint64_t a = 1 + rng() % (q - 1);
    const uint64_t ai = inv_mod(a, q);
    EXPECT_EQ(mul_mod(a, ai, q), 1u);
    EXPECT_EQ(ai, pow_mod(a, q - 2, q));
  }
  EXPECT_EQ(inv_mod(7, 10), 3u);  // composite modulus, invertible element
}

TEST(ModArith, InverseOfNonUnitThrowsNamingTheValues) {
  try {
    inv_mod(6, 9);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "inv_mod: a=6 is not invertible modulo q=9");
  }
  EXPECT_THROW(inv_mod(0, 17), ParameterError);
}

TEST(ModArith, BarrettReducesAny128BitValue) {
  std::mt19937_64 rng(4);
  for (uint64_t q : kModuli) {
    const Barrett br(q);
    EXPECT_EQ(br.q(), q);
    for (int it = 0; it < 5000; ++it) {
      u128 x = (u128(rng()) << 64) | rng();
      if (it % 4 == 1) x = u128(rng() % q) * (rng() % q);  // a product of residues
      if (it % 4 == 2) x = ~u128(0) - u128(it);           // near the top
      if (it % 4 == 3) x = u128(it);                      // small
      EXPECT_EQ(br.reduce(x), uint64_t(x % q)) << "q=" << q;
    }
  }
  EXPECT_THROW(Barrett(uint64_t(1) << 62), ParameterError);
}

TEST(ModArith, BarrettMultipliesResidues) {
  std::mt19937_64 rng(6);
  for (uint64_t q : kModuli) {
    const Barrett br(q);
    for (int it = 0; it < 5000; ++it) {
      uint64_t a = rng() % q, b = rng() % q;
      if (it < 4) a = q - 1 - (it & 1), b = q - 1 - (it >> 1);  // largest products
      EXPECT_EQ(br.mul(a, b), uint64_t(u128(a) * b % q)) << "q=" << q;
    }
  }
  const Barrett two(2);  // smallest modulus
  EXPECT_EQ(two.mul(1, 1), 1u);
}

}  // namespace
}  // namespace cb::util
