// Tests for GF2n: the AES field's known products, and agreement with NTL's GF2E for
// several (n, f), including n = 64 with the x^64 term implicit.
#include <NTL/GF2E.h>
#include <NTL/GF2XFactoring.h>
#include <gtest/gtest.h>

#include <random>

#include "engine/algebra/subfield.h"
#include "engine/errors.h"

namespace cb {
namespace {

TEST(GF2n, AesKnownValues) {
  const GF2n F(8, 0x1b);  // x^8 + x^4 + x^3 + x + 1
  EXPECT_EQ(F.mul(0x57, 0x83), 0xc1u);  // FIPS-197 section 4.2
  EXPECT_EQ(F.mul(0x57, 0x13), 0xfeu);  // FIPS-197 section 4.2.1
  EXPECT_EQ(F.inv(0x53), 0xcau);        // the S-box example pair
  EXPECT_EQ(F.inv(0), 0u);
  EXPECT_EQ(F.inv(1), 1u);
  for (uint64_t a = 1; a < 256; ++a) EXPECT_EQ(F.mul(a, F.inv(a)), 1u) << a;
  EXPECT_EQ(F.pow(0x03, 255), 1u);
  EXPECT_EQ(F.frob(0x57, 8), 0x57u);
  EXPECT_EQ(F.frob(F.frob(0x57, 3), -3), 0x57u);
  EXPECT_EQ(F.frob(0x57, 1), F.sqr(0x57));
  EXPECT_EQ(F.frob(0x57, 11), F.frob(0x57, 3));
}

struct FieldCase {
  long n;
  uint64_t f_low;
};
std::ostream& operator<<(std::ostream& os, const FieldCase& c) {
  return os << "n=" << c.n << " f_low=0x" << std::hex << c.f_low;
}

class GF2nVsNtl : public ::testing::TestWithParam<FieldCase> {};

NTL::GF2X poly(uint64_t a) {
  NTL::GF2X p;
  for (int i = 0; i < 64; ++i)
    if ((a >> i) & 1) NTL::SetCoeff(p, i);
  return p;
}
uint64_t word(const NTL::GF2X& p) {
  uint64_t a = 0;
  for (long i = 0; i <= NTL::deg(p); ++i)
    if (NTL::IsOne(NTL::coeff(p, i))) a |= uint64_t(1) << i;
  return a;
}

TEST_P(GF2nVsNtl, MulInvFrob) {
  const auto [n, f_low] = GetParam();
  const GF2n F(n, f_low);
  NTL::GF2X f = poly(f_low);
  NTL::SetCoeff(f, n);
  NTL::GF2XModulus M(f);
  std::mt19937_64 rng(n * 1000003 + f_low);
  const uint64_t mask = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  for (int it = 0; it < 2000; ++it) {
    const uint64_t a = rng() & mask, b = rng() & mask;
    NTL::GF2X p;
    NTL::MulMod(p, poly(a), poly(b), M);
    ASSERT_EQ(F.mul(a, b), word(p)) << std::hex << a << " * " << b;
  }
  for (int it = 0; it < 50; ++it) {
    const uint64_t a = (rng() & mask) | 1;
    EXPECT_EQ(F.mul(a, F.inv(a)), 1u);
    EXPECT_EQ(F.frob(a, n), a);
    EXPECT_EQ(F.frob(F.frob(a, 5), -5), a);
    EXPECT_EQ(F.mul(F.pow(a, 12345), F.pow(a, 54321)), F.pow(a, 66666));
  }
}

INSTANTIATE_TEST_SUITE_P(Fields, GF2nVsNtl,
                         ::testing::Values(FieldCase{8, 0x1b},                    // AES
                                           FieldCase{16, 0x2b},                   // x^16+x^5+x^3+x+1
                                           FieldCase{32, 0x8d},                   // x^32+x^7+x^3+x^2+1
                                           FieldCase{64, 0x1b},                   // x^64+x^4+x^3+x+1
                                           FieldCase{1, 0x1},                     // GF(2) = x + 1
                                           FieldCase{7, 0x41},                    // x^7+x^6+1: dense top
                                           FieldCase{63, 0x3}));                  // x^63+x+1

TEST(GF2n, Gf64Known) {
  const GF2n F(64, 0x1b);
  // x^63 * x = x^64 = x^4 + x^3 + x + 1.
  EXPECT_EQ(F.mul(uint64_t(1) << 63, 2), 0x1bu);
  EXPECT_EQ(F.mul(uint64_t(1) << 63, uint64_t(1) << 63), F.mul(0x1b, uint64_t(1) << 62));
}

TEST(GF2n, RejectsBadModulus) {
  try {
    GF2n F(8, 0x1a);  // x^8+x^4+x^3+x = x * (...)
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "f=x^8+0x1a is reducible: GF(2^8) needs an irreducible modulus");
  }
  EXPECT_THROW(GF2n(0, 1), ParameterError);
  EXPECT_THROW(GF2n(65, 1), ParameterError);
  EXPECT_THROW(GF2n(8, 0x11b), ParameterError);
}

}  // namespace
}  // namespace cb
