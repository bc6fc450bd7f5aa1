// vision_bgv_test: the Vision circuits on the project's BGV engine for the four instances
// on small rings (m=257: GF(2^8), GF(2^16); m=641: GF(2^32), GF(2^64)), one or two rounds,
// packed and sliced, encryption and decryption, every block compared with the reference,
// and the chain planner's backend (PlanBackend, same seed) predicting the capacity after
// every round to the bit: the plan is the run's own arithmetic.
#include <gtest/gtest.h>
#include <omp.h>

#include "backend/bgv_backend.h"
#include "backend/plan_backend.h"
#include "ciphers/common/test_vectors.h"
#include "ciphers/vision/vision_test_circuit.h"

namespace cb {
namespace {

struct Case {
  long n, s, m;
  bool sliced;
  long rounds;
  bool decrypt;
  long bits;
  bool fused = false;  // the affine maps with the linear layer (slot_linear.h)
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << "GF(2^" << c.n << ")^" << c.s << " m=" << c.m << (c.sliced ? " sliced" : " packed") << " rounds=" << c.rounds
      << (c.decrypt ? " decrypt" : " encrypt") << " bits=" << c.bits << (c.fused ? " fused" : "");
}

// Runs the case on backend b; returns the capacity of the inputs and after each round.
template <class B, template <class> class Rep>
std::vector<double> run_case(B& b, const Case& c, const Vision& ref, bool check_output) {
  VisionCircuit<B, Rep> circ(b, ref, c.rounds, c.decrypt, c.fused);
  b.require_automorphisms(circ.automorphisms());
  const auto v = testing_vectors::load(testing_vectors::vision_file(c.n, c.s)).at(1);
  circ.load_subkeys(ref.key_schedule(v.key, c.rounds));
  std::vector<Vision::State> plain{v.plaintext}, cipher{v.round_states.at(c.rounds - 1)};
  if (circ.max_blocks() > 1) {
    Vision::State x(c.s);
    for (long i = 0; i < c.s; ++i) x[i] = (0x9e3779b97f4a7c15ull * (i + 1)) >> (64 - c.n);
    plain.push_back(x);
    cipher.push_back(ref.encrypt(v.key, x, c.rounds));
  }
  const auto& in = c.decrypt ? cipher : plain;
  const auto& want = c.decrypt ? plain : cipher;
  Evaluator<B> ev(b);
  auto st = circ.encrypt_input(in);
  std::vector<double> caps{circ.capacity(st)};
  for (const auto& r : circ.run(ev, st)) caps.push_back(r.capacity_bits);
  if (check_output) {
    EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want);
  }
  return caps;
}

template <template <class> class Rep>
void check_case(const Case& c) {
  omp_set_num_threads(1);
  const Vision ref(VisionParams::get(c.n, c.s));
  BgvParams p;
  p.m = c.m, p.bits = c.bits, p.seed = 11;
  BgvBackend b(p, c.n, ref.params().modulus_low);
  const auto caps = run_case<BgvBackend, Rep>(b, c, ref, true);
  EXPECT_GT(caps.back(), 0);
  PlanBackend plan(PlanParams{c.m, c.bits, p.c, p.hwt, p.seed}, c.n, ref.params().modulus_low);
  const auto predicted = run_case<PlanBackend, Rep>(plan, c, ref, true);
  ASSERT_EQ(predicted.size(), caps.size());
  for (size_t r = 0; r < caps.size(); ++r) EXPECT_NEAR(predicted[r], caps[r], 1e-6) << "after round " << r;
}

class VisionBgvTest : public ::testing::TestWithParam<Case> {};

TEST_P(VisionBgvTest, DecryptsToReference) {
  const Case c = GetParam();
  if (c.sliced)
    check_case<SlicedRep>(c);
  else
    check_case<PackedRep>(c);
}

INSTANTIATE_TEST_SUITE_P(
    SmallRings, VisionBgvTest,
    ::testing::Values(Case{8, 16, 257, false, 2, false, 600}, Case{8, 16, 257, true, 1, true, 400},
                      Case{16, 8, 257, false, 1, true, 500}, Case{16, 8, 257, true, 1, false, 500},
                      Case{32, 4, 641, false, 1, false, 500}, Case{32, 4, 641, true, 1, true, 500},
                      Case{64, 2, 641, false, 1, true, 650}, Case{64, 2, 641, true, 1, false, 650},
                      Case{8, 16, 257, false, 2, false, 600, true}, Case{16, 8, 257, true, 1, true, 500, true},
                      Case{64, 2, 641, false, 1, true, 650, true}));

}  // namespace
}  // namespace cb
