// Tests for Subfield: the AES field and GF(2^32), GF(2^64) inside the slot fields of
// small rings; embed is a field homomorphism compatible with Frobenius, project inverts
// it and rejects non-members, and GF(2^n) arithmetic survives encode/decode.
#include "engine/algebra/subfield.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/errors.h"

namespace cb {
namespace {

struct EmbedCase {
  long m, n;
  uint64_t f_low;
  const char* why;
};
std::ostream& operator<<(std::ostream& os, const EmbedCase& c) {
  return os << "m=" << c.m << " n=" << c.n << " f_low=0x" << std::hex << c.f_low;
}

class SubfieldTest : public ::testing::TestWithParam<EmbedCase> {};

bool less_as_integer(const NTL::GF2X& a, const NTL::GF2X& b) {
  if (NTL::deg(a) != NTL::deg(b)) return NTL::deg(a) < NTL::deg(b);
  for (long i = NTL::deg(a); i >= 0; --i)
    if (NTL::coeff(a, i) != NTL::coeff(b, i)) return NTL::IsZero(NTL::coeff(a, i));
  return false;
}

TEST_P(SubfieldTest, EmbedProjectHomomorphism) {
  const auto& c = GetParam();
  const ZmStar zm(c.m);
  const SlotRing ring(zm);
  const Subfield sub(ring, c.n, c.f_low);
  const GF2n F(c.n, c.f_low);
  const NTL::GF2XModulus G(ring.G());
  const uint64_t mask = c.n == 64 ? ~uint64_t(0) : (uint64_t(1) << c.n) - 1;

  // theta is a root of f, and the smallest of its n conjugates theta^(2^i).
  NTL::GF2X val, x_n;  // f(theta) = theta^n + sum f_i theta^i
  NTL::PowerMod(x_n, sub.theta(), c.n, G);
  val = x_n;
  NTL::GF2X ti(1);
  for (long i = 0; i < c.n; ++i, NTL::MulMod(ti, ti, sub.theta(), G))
    if ((c.f_low >> i) & 1) val += ti;
  EXPECT_TRUE(NTL::IsZero(val));
  NTL::GF2X conj = sub.theta();
  for (long i = 1; i < c.n; ++i) {
    NTL::SqrMod(conj, conj, G);
    EXPECT_NE(conj, sub.theta());
    EXPECT_TRUE(less_as_integer(sub.theta(), conj)) << "conjugate " << i << " is smaller";
  }

  EXPECT_EQ(sub.embed(0), NTL::GF2X());
  EXPECT_EQ(sub.embed(1), NTL::GF2X(1));
  std::mt19937_64 rng(c.m * 131 + c.n);
  for (int it = 0; it < 300; ++it) {
    const uint64_t a = rng() & mask, b = rng() & mask;
    const NTL::GF2X ea = sub.embed(a), eb = sub.embed(b);
    NTL::GF2X prod, sq;
    NTL::MulMod(prod, ea, eb, G);
    ASSERT_EQ(prod, sub.embed(F.mul(a, b))) << std::hex << a << " * " << b;
    ASSERT_EQ(ea + eb, sub.embed(a ^ b));
    NTL::SqrMod(sq, ea, G);
    ASSERT_EQ(sq, sub.embed(F.frob(a, 1)));
    ASSERT_EQ(sub.project(ea), a);
    ASSERT_EQ(sub.project(prod), F.mul(a, b));
  }
  if (c.n < 64) {
    for (uint64_t a = 0; a < std::min<uint64_t>(mask, 4096); ++a) ASSERT_EQ(sub.project(sub.embed(a)), a);
  }
}

TEST_P(SubfieldTest, SlotArithmeticThroughTheRing) {
  const auto& c = GetParam();
  const ZmStar zm(c.m);
  const SlotRing ring(zm);
  const Subfield sub(ring, c.n, c.f_low);
  const GF2n F(c.n, c.f_low);
  const uint64_t mask = c.n == 64 ? ~uint64_t(0) : (uint64_t(1) << c.n) - 1;
  std::mt19937_64 rng(c.m + c.n);
  std::vector<uint64_t> x(zm.ell()), y(zm.ell());
  std::vector<NTL::GF2X> ex(zm.ell()), ey(zm.ell());
  for (long s = 0; s < zm.ell(); ++s) {
    x[s] = rng() & mask, y[s] = rng() & mask;
    ex[s] = sub.embed(x[s]), ey[s] = sub.embed(y[s]);
  }
  NTL::GF2X p;
  NTL::MulMod(p, ring.encode(ex), ring.encode(ey), ring.Phi());
  const auto out = ring.decode(p);
  for (long s = 0; s < zm.ell(); ++s) EXPECT_EQ(sub.project(out[s]), F.mul(x[s], y[s])) << "slot " << s;
}

INSTANTIATE_TEST_SUITE_P(Fields, SubfieldTest,
                         ::testing::Values(EmbedCase{257, 8, 0x1b, "AES field, d=16"},
                                           EmbedCase{4369, 8, 0x1b, "AES field, HElib toy ring"},
                                           EmbedCase{257, 16, 0x2b, "n = d: the whole slot field"},
                                           EmbedCase{641, 64, 0x1b, "GF(2^64), d=64, 10 slots"},
                                           EmbedCase{641, 32, 0x8d, "GF(2^32) in GF(2^64)"},
                                           EmbedCase{131, 1, 0x1, "GF(2) in a three-word field"}));

TEST(Subfield, ProjectRejectsNonMembers) {
  const ZmStar zm(257);
  const SlotRing ring(zm);
  const Subfield sub(ring, 8, 0x1b);
  // zeta has order 257, which does not divide 2^8 - 1: not in GF(2^8).
  try {
    sub.project(ring.zeta());
    FAIL() << "projected a non-member";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "slot value is not in the subfield GF(2^8) of GF(2^16) (m=257): cannot project it");
  }
  NTL::GF2X b = sub.embed(0x57);
  b += ring.zeta();
  EXPECT_THROW(sub.project(b), ParameterError);
  EXPECT_THROW(sub.embed(0x100), ParameterError);
}

TEST(Subfield, RejectsBadParameters) {
  const ZmStar zm(257);
  const SlotRing ring(zm);
  try {
    Subfield sub(ring, 12, 0x9);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "n=12 does not divide d=16 (m=257): GF(2^12) does not embed in the slots");
  }
  try {
    Subfield sub(ring, 8, 0x1a);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "f=x^8+0x1a is reducible: GF(2^8) needs an irreducible modulus");
  }
  EXPECT_THROW(Subfield(ring, 0, 1), ParameterError);
  EXPECT_THROW(Subfield(ring, 65, 1), ParameterError);
}

}  // namespace
}  // namespace cb
