// boyar_peralta_test: the Boolean S-box circuits of the bit-sliced packing against the
// reference S-box (computed from GF(2^8) inversion and the affine map, aes128.h) on all 256
// inputs, and their costs: 34 AND at AND-depth 4 (Boyar-Peralta, ePrint 2011/332).
#include "ciphers/aes128/boyar_peralta.h"

#include <gtest/gtest.h>

#include "ciphers/aes128/aes128.h"

namespace cb::aes128 {
namespace {

TEST(BoyarPeralta, SboxCircuitIsTheSboxOnAllInputs) {
  const auto& c = sbox_circuit();
  for (uint64_t x = 0; x < 256; ++x) EXPECT_EQ(c.evaluate(x), sbox_pieces().sbox[x]) << "x=" << x;
}

TEST(BoyarPeralta, InverseCircuitIsTheInverseSboxOnAllInputs) {
  const auto& c = inv_sbox_circuit();
  for (uint64_t y = 0; y < 256; ++y) EXPECT_EQ(c.evaluate(y), sbox_pieces().inv_sbox[y]) << "y=" << y;
}

// The paper's counts: 128 gates, 34 AND, 94 XOR/XNOR, multiplicative depth 4; the inverse
// adds XOR and NOT gates only.
TEST(BoyarPeralta, GateCountsAndAndDepth) {
  const auto& c = sbox_circuit();
  EXPECT_EQ(c.inputs, 8);
  EXPECT_EQ(c.outputs.size(), 8u);
  EXPECT_EQ(c.gates.size(), 128u);
  EXPECT_EQ(c.ands(), 34);
  EXPECT_EQ(c.xors(), 94);
  EXPECT_EQ(c.and_depth(), 4);
  const auto& d = inv_sbox_circuit();
  EXPECT_EQ(d.ands(), 34);
  EXPECT_EQ(d.and_depth(), 4);
}

}  // namespace
}  // namespace cb::aes128
