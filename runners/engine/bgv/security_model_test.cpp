// The security-model registry against the figures each model gave before it: HElib's
// formula on HElib 2.3.0's own five figures (security_test.cpp checks its sparse table),
// core-SVP on the papers' rings against the lattice estimator's rough uSVP
// (docs/references.md §3) and to the digit against the explorer's former Python (the
// doctests of sage/cbparams/security.py).
#include "engine/bgv/security_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "engine/bgv/coresvp.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb::bgv {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParameterError& e) {
    return e.what();
  }
  return "";
}

// docs/references.md §3: the estimator's rough (ADPS16) uSVP at key weight 120, q = 2^bits;
// beta is the Python's (0.292 beta printed to 0.1 bit).
struct PaperRing {
  long n;
  double bits, rough;
  long beta;
};

class CoreSvpOnPapersRings : public ::testing::TestWithParam<PaperRing> {};

TEST_P(CoreSvpOnPapersRings, MatchesEstimatorRough) {
  const auto& r = GetParam();
  EXPECT_NEAR(coresvp_bits(r.n, r.bits, 120), r.rough, 0.11);
  EXPECT_EQ(usvp_beta(r.n, r.bits, 120), r.beta);
  EXPECT_EQ(security_model("coresvp").bits({0, r.n, r.bits, 120}), 0.292 * double(r.beta));
}

INSTANTIATE_TEST_SUITE_P(Papers, CoreSvpOnPapersRings,
                         ::testing::Values(PaperRing{46080, 820, 166.4, 570}, PaperRing{81920, 1550, 153.0, 524},
                                           PaperRing{129024, 2000, 201.5, 690}, PaperRing{163840, 2300, 230.7, 790},
                                           PaperRing{163840, 3150, 150.1, 514}));

// sage/cbparams/security.py's doctests, printed as they were.
TEST(CoreSvp, PythonDoctests) {
  EXPECT_EQ(std::round(coresvp_bits(46080, 820, 120) * 10) / 10, 166.4);
  EXPECT_EQ(std::round(coresvp_bits(46080, 820, 0) * 10) / 10, 167.3);
}

TEST(CoreSvp, MonotonicInQAndN) {
  double last = 1e9;
  for (double q : {700, 820, 1000, 1200}) {
    const double b = coresvp_bits(46080, q, 120);
    EXPECT_LE(b, last);
    last = b;
  }
  EXPECT_LT(coresvp_bits(32768, 820, 120), coresvp_bits(65536, 820, 120));
}

TEST(CoreSvp, Refusals) {
  EXPECT_EQ(error_of([] { coresvp_bits(46080, 820, 50000); }),
            "hwt=50000: the key weight must lie in [0, phi=46080] (0 = dense key)");
  EXPECT_EQ(error_of([] { coresvp_bits(46080, 820, 120, kCoreSvpSigma, "nope"); }),
            "cost model 'nope' is unknown: use one of ['ADPS16', 'ADPS16-quantum']");
  EXPECT_EQ(error_of([] { coresvp_bits(46080, 1); }),
            "log2_q=1: the modulus must exceed the error size sigma=3.2");
  EXPECT_EQ(error_of([] { coresvp_bits(1, 820); }), "n=1: the LWE dimension must be at least 2");
}

TEST(CoreSvp, QuantumCostModel) {
  EXPECT_EQ(coresvp_bits(46080, 820, 120, kCoreSvpSigma, "ADPS16-quantum"), 0.265 * 570);
}

// HElib's model is security.h's function, m and phi as given (HElib 2.3.0's figure at m=53261).
TEST(Registry, HelibModelIsTheFormula) {
  const SecurityQuery q{53261, 46080, 1119.16, 0};
  EXPECT_EQ(security_model("helib").bits(q), helib_security(53261, 46080, 1119.16, 0));
  EXPECT_NEAR(security_model("helib").bits(q), 137.804, 0.01);
}

TEST(Registry, NamesCitationsAndKeys) {
  ASSERT_EQ(security_models().size(), 3u);
  EXPECT_EQ(security_models()[0].name, "helib");
  EXPECT_EQ(security_models()[1].name, "coresvp");
  EXPECT_EQ(security_models()[2].name, "estimator");
  for (const auto& m : security_models()) {
    EXPECT_FALSE(m.title.empty());
    EXPECT_FALSE(m.citation.empty());
    EXPECT_FALSE(m.keys.empty());
  }
  EXPECT_NE(security_model("coresvp").citation.find("ADPS16"), std::string::npos);
  EXPECT_NE(security_model("estimator").citation.find("lattice-estimator"), std::string::npos);
}

TEST(Registry, LowestOfTheNamed) {
  const auto both = security_models_named({"helib", "coresvp"});
  EXPECT_EQ(titles(both), "HElib's formula and core-SVP");
  EXPECT_EQ(titles(security_models_named({"coresvp"})), "core-SVP");
  const SecurityQuery q{53261, 46080, 820, 120};
  EXPECT_EQ(lowest_bits(both, q), std::min(helib_security(53261, 46080, 820, 120), coresvp_bits(46080, 820, 120)));
}

TEST(Registry, Refusals) {
  EXPECT_EQ(error_of([] { security_model("nope"); }),
            "security model 'nope' is unknown: the engine's are helib, coresvp, estimator");
  EXPECT_EQ(error_of([] { security_models_named({}); }),
            "no security model named: use one or more of helib, coresvp, estimator");
  EXPECT_EQ(error_of([] { security_models_named({"helib", "helib"}); }), "security model 'helib' is named twice");
}

}  // namespace
}  // namespace cb::bgv
