// op_profile_test: a step's time is its own (nested steps apart), counts add up per key,
// and a scope standing for no step leaves its time to the step around it.
#include "engine/bgv/op_profile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace cb::bgv {
namespace {

void busy(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

const OpProfile::Entry* find(const std::vector<OpProfile::Entry>& es, const std::string& op, long primes) {
  for (const auto& e : es)
    if (e.op == op && e.primes == primes) return &e;
  return nullptr;
}

TEST(OpProfile, NestedStepsAreTimedApart) {
  OpProfile p;
  {
    OpProfile::Scope outer(p, "mul", 5);
    busy(0.01);
    {
      OpProfile::Scope inner(p, "mod_switch", 4, 1, 2);  // one pass standing for two switches
      busy(0.02);
    }
    outer.set(4);  // the key known later
  }
  const auto es = p.entries();
  ASSERT_EQ(es.size(), 2u);
  const auto* mul = find(es, "mul", 4);
  const auto* ms = find(es, "mod_switch", 4);
  ASSERT_TRUE(mul && ms);
  EXPECT_EQ(mul->count, 1);
  EXPECT_EQ(ms->count, 2);
  EXPECT_EQ(ms->dropped, 1);
  EXPECT_GE(ms->seconds, 0.02);
  EXPECT_GE(mul->seconds, 0.01);
  EXPECT_LT(mul->seconds, 0.02);  // the inner step's time is not the product's
}

TEST(OpProfile, CountsAddUpAndResetClears) {
  OpProfile p;
  for (int i = 0; i < 3; ++i) OpProfile::Scope s(p, "add", 7);
  { OpProfile::Scope s(p, "add", 8); }
  auto es = p.entries();
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(find(es, "add", 7)->count, 3);
  EXPECT_EQ(find(es, "add", 8)->count, 1);
  p.reset();
  EXPECT_TRUE(p.entries().empty());
}

TEST(OpProfile, AScopeOfNoStepLeavesItsTimeOutside) {
  OpProfile p;
  {
    OpProfile::Scope outer(p, "automorph", 3);
    {
      OpProfile::Scope none(p, "automorph_hoisted", 3, 0, 0);  // every k was the identity
      busy(0.01);
      OpProfile::Scope ms(p, "mod_switch", 2, 1);
      busy(0.01);
    }
  }
  const auto es = p.entries();
  ASSERT_EQ(es.size(), 2u);
  EXPECT_GE(find(es, "automorph", 3)->seconds, 0.01);  // the empty scope's own time
  EXPECT_LT(find(es, "automorph", 3)->seconds, 0.02);  // but not the mod switch inside it
  EXPECT_GE(find(es, "mod_switch", 2)->seconds, 0.01);
}

TEST(OpProfile, ThreadsNestApart) {
  OpProfile p;
  OpProfile::Scope outer(p, "mul", 2);
  std::thread t([&] {
    OpProfile::Scope s(p, "relin", 2);
    busy(0.01);
  });
  t.join();
  const auto es = p.entries();
  ASSERT_EQ(es.size(), 1u);
  EXPECT_GE(find(es, "relin", 2)->seconds, 0.01);
}

}  // namespace
}  // namespace cb::bgv
