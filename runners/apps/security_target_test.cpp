// The target search (apps/security_target.h) with the security-model registry: naming both
// of the engine's models gives, in one search, the digits the former two-pass path gave
// (HElib's formula's digits, then the fewest more at which the same chain reaches the
// target by core-SVP too), and HElib's formula alone what it gave before.
//
// The planner here stands for a circuit whose chain is 204 bits at every digit count and
// weight (AES-128, 3 rounds, at m=5917: its plan, sage/cbparams/test_select.py), so the
// search's choice rests on the chains' security alone; its figures are the engine's chain
// and models, not copies.
#include "apps/security_target.h"

#include <gtest/gtest.h>

#include "engine/bgv/chain.h"
#include "engine/bgv/security.h"
#include "engine/bgv/security_model.h"
#include "engine/errors.h"

namespace cb {
namespace {

constexpr long kM = 5917, kPhi = 5760, kBits = 204;

double log2_qp(long c) {
  const bgv::Chain ch(bgv::ChainParams{kM, kBits, c});
  return ch.log2_Q() + ch.log2_P();
}

ChainPlan fixed_plan(long c, long hwt, long, bool) {
  ChainPlan p;
  p.bits = kBits;
  p.chains_tried = 1;
  p.info.m = kM, p.info.phi = kPhi, p.info.c = c, p.info.hwt = hwt;
  p.info.log2_q = log2_qp(c);
  p.info.security = bgv::helib_security(kM, kPhi, p.info.log2_q, hwt);
  return p;
}

TargetQuery query(double target, std::vector<std::string> models) {
  TargetQuery q;
  q.m = kM, q.phi = kPhi, q.target = target, q.c = 3, q.weights = {120}, q.weight_given = true;
  q.models = std::move(models);
  return q;
}

// The former two-pass path: HElib's formula's choice, then the fewest digits from there at
// which the same chain reaches the target by both models (select.py's _c_for_coresvp).
long two_pass(double target) {
  long c = 0, hwt = 0;
  choose_for_target(query(target, {"helib"}), fixed_plan, &c, &hwt);
  const auto both = bgv::security_models_named({"helib", "coresvp"});
  for (;; ++c)
    if (bgv::lowest_bits(both, {kM, kPhi, log2_qp(c), hwt}) >= target) return c;
}

TEST(TargetSearch, BothModelsInOneSearchAsTheTwoPasses) {
  for (double target : {24.0, 30.0, 32.0}) {
    long c = 0, hwt = 0;
    const ChainPlan p = choose_for_target(query(target, {"helib", "coresvp"}), fixed_plan, &c, &hwt);
    EXPECT_EQ(c, two_pass(target)) << "target " << target;
    EXPECT_EQ(hwt, 120);
    EXPECT_GE(bgv::security_model("coresvp").bits({kM, kPhi, p.info.log2_q, hwt}), target);
    EXPECT_NE(p.choice.find("by HElib's formula and core-SVP (the lowest counts)"), std::string::npos);
  }
  long c = 0, hwt = 0;
  choose_for_target(query(32, {"helib", "coresvp"}), fixed_plan, &c, &hwt);
  EXPECT_EQ(c, 5);  // HElib's formula alone takes c=3 (core-SVP 30.4 there)
  choose_for_target(query(32, {"helib"}), fixed_plan, &c, &hwt);
  EXPECT_EQ(c, 3);
}

TEST(TargetSearch, HelibAloneKeepsItsWords) {
  long c = 0, hwt = 0;
  const ChainPlan p = choose_for_target(query(32, {"helib"}), fixed_plan, &c, &hwt);
  EXPECT_EQ(p.choice.rfind("c=3, hwt=120: the fewest digits, then the shortest chain, then the lightest key reaching "
                           "32 bits by HElib's formula (hwt=120, 204 bits: c=3: ", 0),
            0u);
}

TEST(TargetSearch, UnreachableByCoreSvpIsRefusedNamingBoth) {
  long c = 0, hwt = 0;
  try {
    choose_for_target(query(60, {"helib", "coresvp"}), fixed_plan, &c, &hwt);
    FAIL() << "no refusal";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("reach at most 35.6 bits by HElib's formula and core-SVP"), std::string::npos)
        << e.what();
  }
}

TEST(TargetSearch, UnknownModelRefusedBeforeAnyPlan) {
  long c = 0, hwt = 0, plans = 0;
  auto counting = [&](long cc, long w, long h, bool i) { return ++plans, fixed_plan(cc, w, h, i); };
  EXPECT_THROW(choose_for_target(query(32, {"helib", "nope"}), counting, &c, &hwt), ParameterError);
  EXPECT_EQ(plans, 0);
}

}  // namespace
}  // namespace cb
