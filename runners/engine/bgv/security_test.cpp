#include "engine/bgv/security.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cb::bgv {
namespace {

// HElib 2.3.0, buildModChain(bits, c=3), dense key (docs/references.md §2): the figures given
// there are log2(1/alpha) and the security level.
struct HelibFigure {
  long phi;
  double log2_alpha_inv, security;
};

class HelibFormula : public ::testing::TestWithParam<HelibFigure> {};

TEST_P(HelibFormula, ReproducesMeasuredFigure) {
  const auto& f = GetParam();
  EXPECT_NEAR(helib_security_level(f.phi, f.log2_alpha_inv, 0), f.security, 0.01);
}

INSTANTIATE_TEST_SUITE_P(Reference, HelibFormula,
                         ::testing::Values(HelibFigure{46080, 1109.632, 137.804},
                                           HelibFigure{81920, 2085.967, 129.233},
                                           HelibFigure{129024, 2745.143, 158.603},
                                           HelibFigure{163840, 3104.155, 180.567},
                                           HelibFigure{163840, 4242.755, 126.742}));

// From log2 Q the way HElib gets sigma: m=53261, log2 Q = 1119.16 -> 1109.632 -> 137.804.
TEST(HelibFormulaFromQ, SigmaScaledBySqrtM) {
  EXPECT_NEAR(helib_security(53261, 46080, 1119.16, 0), 137.804, 0.01);
}

// HElib's sigma: 3.2, times sqrt(m) unless m is a power of two (docs/references.md §2).
TEST(HelibFormulaFromQ, SigmaRule) {
  EXPECT_EQ(helib_sigma(4096), 3.2);
  EXPECT_NEAR(helib_sigma(4095), 3.2 * std::sqrt(4095.0), 1e-12);
}

TEST(HelibFormulaSparse, TablePointsAndInterpolation) {
  // At a table point the formula is a_i X + b_i.
  EXPECT_NEAR(helib_security_level(1000, 10, 120), 2.4 * 100 + 19, 1e-9);
  EXPECT_NEAR(helib_security_level(1000, 10, 150), 2.67 * 100 + 13, 1e-9);
  // Halfway between 120 and 150.
  EXPECT_NEAR(helib_security_level(1000, 10, 135), (2.4 + 2.67) / 2 * 100 + 16, 1e-9);
  // Beyond 450: the last point.
  EXPECT_NEAR(helib_security_level(1000, 10, 1000), 3.55 * 100 - 12, 1e-9);
  // Weights 1..119 and negative weights: 0; the result is floored at 0.
  EXPECT_EQ(helib_security_level(1000, 10, 60), 0.0);
  EXPECT_EQ(helib_security_level(1000, 10, -1), 0.0);
  EXPECT_EQ(helib_security_level(10, 1000, 0), 0.0);
}

}  // namespace
}  // namespace cb::bgv
