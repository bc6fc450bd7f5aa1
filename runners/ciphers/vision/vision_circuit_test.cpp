// vision_circuit_test: the Vision circuits (packed and sliced, encryption and decryption)
// for the four instances on the clear backend, against the vectors' ciphertexts and round
// states (full and reduced rounds, 13 rounds for GF(2^64)^2 as the FHE paper ran) and the
// plaintext reference on extra random blocks.
#include "ciphers/vision/vision_test_circuit.h"

#include <gtest/gtest.h>

#include <random>

#include "backend/clear_backend.h"
#include "ciphers/common/test_vectors.h"
#include "engine/errors.h"

namespace cb {
namespace {

struct Case {
  long n, s;  // GF(2^n)^s
  long m;     // ring: n | ord_m(2)
  bool sliced;
  long rounds;
  bool decrypt;
  bool fused = false;  // affine maps with the matmul (slot_linear.h)
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << "GF(2^" << c.n << ")^" << c.s << " m=" << c.m << (c.sliced ? " sliced" : " packed") << " rounds=" << c.rounds
      << (c.decrypt ? " decrypt" : " encrypt") << (c.fused ? " fused" : "");
}

template <template <class> class Rep>
void check_case(const Case& c) {
  const Vision ref(VisionParams::get(c.n, c.s));
  ClearBackend b(c.m, c.n, ref.params().modulus_low);
  VisionCircuit<ClearBackend, Rep> circ(b, ref, c.rounds, c.decrypt, c.fused);
  ASSERT_EQ(circ.fused(), c.fused);
  b.require_automorphisms(circ.automorphisms());
  std::mt19937_64 rng(c.m + c.n + c.rounds);
  const uint64_t mask = c.n == 64 ? ~0ull : (1ull << c.n) - 1;
  for (const auto& v : testing_vectors::load(testing_vectors::vision_file(c.n, c.s))) {
    circ.load_subkeys(ref.key_schedule(v.key, c.rounds));
    std::vector<Vision::State> plain{v.plaintext}, cipher{v.round_states.at(c.rounds - 1)};
    for (long k = 1; k < std::min(circ.max_blocks(), 3L); ++k) {
      Vision::State p(c.s);
      for (auto& x : p) x = rng() & mask;
      plain.push_back(p);
      cipher.push_back(ref.encrypt(v.key, p, c.rounds));
    }
    const auto& in = c.decrypt ? cipher : plain;
    const auto& want = c.decrypt ? plain : cipher;
    Evaluator<ClearBackend> ev(b);
    auto st = circ.encrypt_input(in);
    const auto recs = circ.run(ev, st);
    EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want) << v.name;
    ASSERT_EQ(long(recs.size()), c.rounds);
    const auto ops = c.fused ? std::vector<const char*>{"inversion", "affine1+matmul", "keyadd", "affine2+matmul"}
                             : std::vector<const char*>{"inversion", "affine1", "matmul", "keyadd", "affine2"};
    EXPECT_EQ(recs[0].ops.size(), ops.size());
    for (const char* op : ops) EXPECT_EQ(recs[0].ops.count(op), 1u) << op;
    long depth = 0;
    while ((1L << depth) < c.n - 1) ++depth;
    EXPECT_EQ(b.depth(st[0]), 2 * depth * c.rounds);
  }
}

class VisionCircuitTest : public ::testing::TestWithParam<Case> {};

TEST_P(VisionCircuitTest, MatchesVectorsAndReference) {
  const Case c = GetParam();
  if (c.sliced)
    check_case<SlicedRep>(c);
  else
    check_case<PackedRep>(c);
}

// 257: d=16, 16 slots (GF(2^8), GF(2^16)); 641: d=64, 10 slots (GF(2^32), GF(2^64)).
INSTANTIATE_TEST_SUITE_P(
    Instances, VisionCircuitTest,
    ::testing::Values(Case{8, 16, 257, false, 10, false}, Case{8, 16, 257, false, 10, true},
                      Case{8, 16, 257, true, 10, false}, Case{8, 16, 257, true, 10, true},
                      Case{16, 8, 257, false, 10, false}, Case{16, 8, 257, false, 10, true},
                      Case{16, 8, 257, true, 10, false}, Case{16, 8, 257, true, 4, true},
                      Case{32, 4, 641, false, 10, false}, Case{32, 4, 641, false, 10, true},
                      Case{32, 4, 641, true, 10, false}, Case{32, 4, 641, true, 2, true},
                      Case{64, 2, 641, false, 18, false}, Case{64, 2, 641, false, 13, false},
                      Case{64, 2, 641, false, 13, true}, Case{64, 2, 641, true, 18, false},
                      Case{64, 2, 641, true, 3, true}, Case{8, 16, 257, false, 1, false},
                      Case{8, 16, 257, false, 10, false, true}, Case{8, 16, 257, false, 10, true, true},
                      Case{8, 16, 257, true, 10, false, true}, Case{8, 16, 257, true, 10, true, true},
                      Case{16, 8, 257, false, 10, false, true}, Case{16, 8, 257, true, 4, true, true},
                      Case{32, 4, 641, false, 10, false, true}, Case{32, 4, 641, false, 10, true, true},
                      Case{64, 2, 641, false, 13, false, true}, Case{64, 2, 641, false, 13, true, true},
                      Case{64, 2, 641, true, 3, true, true}));

TEST(VisionCircuit, RefusesFieldMismatchAndRounds) {
  const Vision ref(VisionParams::get(16, 8));
  ClearBackend b8(257, 8, 0x1b);
  try {
    VisionCircuit<ClearBackend, PackedRep> c(b8, ref, 10, false);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "vision16 needs GF(2^16) mod x^16 + 0x2b in the slots: the backend has GF(2^8)");
  }
  ClearBackend b(257, 16, ref.params().modulus_low);
  try {
    VisionCircuit<ClearBackend, SlicedRep> c(b, ref, 11, false);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "vision16 rounds=11: must be 1..10");
  }
}

}  // namespace
}  // namespace cb
