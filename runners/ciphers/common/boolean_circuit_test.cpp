// boolean_circuit_test: straight-line programs over GF(2): parsing in the papers' notation
// and its refusals, evaluation, AND-depth, affine circuits and composition.
#include "ciphers/common/boolean_circuit.h"

#include <gtest/gtest.h>

#include "engine/errors.h"

namespace cb {
namespace {

std::string refusal(const std::string& text, std::vector<std::string> outputs = {"Y"}) {
  try {
    parse_slp("t", text, {"A", "B"}, outputs);
  } catch (const ParameterError& e) {
    return e.what();
  }
  return "";
}

// Y = (A x B) XNOR A = NOT(A AND NOT B)... evaluated on all four inputs.
TEST(BooleanCircuit, ParsesEvaluatesAndCountsDepth) {
  const auto c = parse_slp("t", "# a comment\nP = A x B\nC = A\nQ = P XNOR C\nR = Q x P\nY = R + B\n", {"A", "B"},
                           {"Y", "Q"});
  EXPECT_EQ(c.ands(), 2);
  EXPECT_EQ(c.xors(), 2);
  EXPECT_EQ(c.and_depth(), 2);  // R = Q x P: Q has depth 1
  for (uint64_t x = 0; x < 4; ++x) {
    const uint64_t a = x & 1, b = x >> 1, p = a & b, q = p ^ a ^ 1, y = (q & p) ^ b;
    EXPECT_EQ(c.evaluate(x), y | (q << 1)) << "x=" << x;
  }
  const auto last = c.last_use();
  EXPECT_EQ(last[0], 1);                          // A, last read by Q (gate 1)
  EXPECT_EQ(last[c.outputs[0]], long(c.gates.size()));  // an output outlives every gate
}

TEST(BooleanCircuit, RefusalsNameTheLine) {
  EXPECT_NE(refusal("Y = A + Z").find("line 1 'Y = A + Z': Z is not assigned before"), std::string::npos);
  EXPECT_NE(refusal("Y = A + B\nY = A x B").find("line 2 'Y = A x B': Y is assigned twice"), std::string::npos);
  EXPECT_NE(refusal("Y = A - B").find("operator - is not + (XOR), x (AND) or XNOR"), std::string::npos);
  EXPECT_NE(refusal("Y = A +").find("expected NAME = A OP B or NAME = A"), std::string::npos);
  EXPECT_NE(refusal("P = A + B", {"Y"}).find("output Y is never assigned"), std::string::npos);
}

TEST(BooleanCircuit, AffineCircuitAndComposition) {
  // y0 = x0 + x1 + 1, y1 = x1 + 1, y2 = x0 + x1 + x2.
  const auto a = affine_circuit("a", {0b011, 0b010, 0b111}, 0b011);
  EXPECT_EQ(a.ands(), 0);
  for (uint64_t x = 0; x < 8; ++x) {
    const uint64_t x0 = x & 1, x1 = (x >> 1) & 1, x2 = x >> 2;
    const uint64_t y = (x0 ^ x1 ^ 1) | ((x1 ^ 1) << 1) | ((x0 ^ x1 ^ x2) << 2);
    ASSERT_EQ(a.evaluate(x), y) << "x=" << x;
  }
  const auto aa = compose(a, a);
  for (uint64_t x = 0; x < 8; ++x) EXPECT_EQ(aa.evaluate(x), a.evaluate(a.evaluate(x))) << "x=" << x;
  try {
    affine_circuit("z", {0b01, 0b00}, 0b10);
    FAIL() << "a constant output was accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("output 1 is the constant 1: no input enters it"), std::string::npos) << e.what();
  }
  const auto two = affine_circuit("two", {0b01, 0b10}, 0);
  EXPECT_THROW(compose(a, two), ParameterError);  // 3 outputs feed 2 inputs
}

TEST(BooleanCircuit, GateReadingALaterWireIsRefused) {
  BooleanCircuit c;
  c.name = "bad";
  c.inputs = 2;
  c.gates = {{Gate::kAnd, 0, 2}};
  c.outputs = {2};
  try {
    c.check();
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("gate 0 reads wire 0, 2: a gate reads only the 2 wires before it"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cb
