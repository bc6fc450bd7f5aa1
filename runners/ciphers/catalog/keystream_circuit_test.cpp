// The keystream circuit (keystream_circuit.h) against the program run in the clear
// (eval_program), on a toy program that uses every operation, over F_p and over bits, on
// the clear backend, the planner and the engine (planned, then run at the plan: the plan
// predicts the run's capacity after every round exactly, and every block decrypts).
#include "ciphers/catalog/keystream_circuit.h"

#include <gtest/gtest.h>
#include <omp.h>

#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/clear_backend.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/toy_keystream_test.h"

namespace cb {
namespace {

using testing::ToyKeystream;
using testing::toy_spec;


// Runs the circuit on b for `blocks` blocks and checks every block; the capacities.
template <class B>
std::vector<double> run_toy(const B& b, const KeystreamInstance& ks, long blocks) {
  KeystreamCircuit<B> circ(b, ks, blocks);
  circ.set_blocks(123456789, 5);
  const Elements key{1 % ks.spec().p, 2 % ks.spec().p, 3 % ks.spec().p, 1};
  Evaluator<B> ev(const_cast<B&>(b));
  const auto kc = circ.encrypt_key(key);
  std::vector<RoundRecord> recs;
  auto out = circ.run(ev, kc, &recs);
  EXPECT_EQ(out.size(), 3u);
  const auto expect = circ.reference(key);
  std::vector<double> caps{circ.capacity(kc)};
  for (const auto& r : recs) caps.push_back(r.capacity_bits);
  // The server's subtraction: a message m, its symmetric ciphertext c = m + KS.
  std::vector<Elements> msgs, cts;
  const auto& F = ks.element_field();
  for (long j = 0; j < blocks; ++j) {
    Elements m, c;
    for (long i = 0; i < 3; ++i) m.push_back((7 * j + i) % F.p()), c.push_back(F.add(m.back(), expect[size_t(j)][size_t(i)]));
    msgs.push_back(m), cts.push_back(c);
  }
  for (long i = 0; i < 3; ++i) {
    const auto got = b.decrypt(out[size_t(i)]);
    for (long j = 0; j < blocks; ++j) EXPECT_EQ(got[size_t(j)], expect[size_t(j)][size_t(i)]) << "element " << i << " block " << j;
  }
  auto m = circ.subtract_from(ev, cts, out);
  for (long i = 0; i < 3; ++i) {
    const auto got = b.decrypt(m[size_t(i)]);
    for (long j = 0; j < blocks; ++j) EXPECT_EQ(got[size_t(j)], msgs[size_t(j)][size_t(i)]);
  }
  caps.push_back(circ.capacity(m));
  const auto y = circ.work_after(ev, m, 2);
  const auto want = circ.work_after_clear(msgs, 2);
  const auto got = b.decrypt(y);
  for (long j = 0; j < blocks; ++j) EXPECT_EQ(got[size_t(j)], want[size_t(j)]);
  caps.push_back(b.capacity_bits(y));
  return caps;
}

TEST(KeystreamCircuit, ProgramMatchesTheClearEvaluationOnTheClearBackend) {
  for (uint64_t p : {17ull, 65537ull}) {
    ToyKeystream ks(toy_spec(p));
    check_program(ks);
    ClearBackend b(16, PrimeField(p));  // 8 slots of F_p (p = 1 mod 16)
    run_toy(b, ks, 8);
    run_toy(b, ks, 3);
  }
  ToyKeystream bits(toy_spec(2));
  check_program(bits);
  ClearBackend b(31, 1, 1);  // 6 slots of GF(2^5), holding bits
  run_toy(b, bits, 6);
}

TEST(KeystreamCircuit, PlannedChainRunsOnTheEngine) {
  omp_set_num_threads(1);
  for (uint64_t p : {17ull, 2ull}) {
    ToyKeystream ks(toy_spec(p));
    const long m = p == 2 ? 31 * 11 : 256;  // m=341: GF(2^10) slots; m=256: 128 slots of F_17
    auto pb = p == 2 ? PlanBackend(PlanParams{m, 1000, 3, 120, 7}, 1, 1)
                     : PlanBackend(PlanParams{m, 1000, 3, 120, 7}, PrimeField(p));
    const ChainPlan plan = plan_chain(
        pb,
        [&](PlanBackend& b) {
          const auto caps = run_toy(b, ks, 5);
          return PlanRun{caps.front(), std::vector<double>(caps.begin() + 1, caps.end())};
        },
        200);
    BgvParams bp;
    bp.m = m, bp.bits = plan.bits, bp.seed = 7;
    BgvBackend b = p == 2 ? BgvBackend(bp, 1, 1) : BgvBackend(bp, PrimeField(p));
    const auto caps = run_toy(b, ks, 5);
    ASSERT_EQ(caps.size(), plan.round_capacity.size() + 1);
    for (size_t r = 0; r < plan.round_capacity.size(); ++r) EXPECT_NEAR(caps[r + 1], plan.round_capacity[r], 1e-6) << r;
    EXPECT_GE(caps.back(), 0);
  }
}

// align: operands at different prime sets end at one, the least, and decrypt as before;
// the planner's backend takes the same set (the plans above depend on it).
TEST(KeystreamCircuit, AlignSwitchesOperandsToOneSet) {
  BgvParams bp;
  bp.m = 256, bp.bits = 300, bp.seed = 3;
  BgvBackend b(bp, PrimeField(17));
  const std::vector<uint64_t> v(size_t(b.slot_count()), 5), w(size_t(b.slot_count()), 3);
  auto x = b.encrypt(v), y = b.encrypt(w), z = b.encrypt(w);
  b.mul(y, z);  // y at fewer primes than x
  ASSERT_NE(b.capacity_bits(x), b.capacity_bits(y));
  b.align({&x, &y});
  const double cx = b.capacity_bits(x);
  EXPECT_EQ(b.decrypt(x), v);
  EXPECT_EQ(b.decrypt(y), std::vector<uint64_t>(size_t(b.slot_count()), 9));
  b.add(x, y);  // now a plain addition
  EXPECT_EQ(b.decrypt(x), std::vector<uint64_t>(size_t(b.slot_count()), 14));
  EXPECT_LT(cx, 300);
}

TEST(KeystreamCircuit, Refusals) {
  ToyKeystream ks(toy_spec(17));
  ClearBackend b(16, PrimeField(17));
  EXPECT_THROW(KeystreamCircuit<ClearBackend>(b, ks, 9), ParameterError);  // 8 slots
  ClearBackend other(16, PrimeField(97));
  EXPECT_THROW(KeystreamCircuit<ClearBackend>(other, ks, 1), ParameterError);
  KeystreamCircuit<ClearBackend> c(b, ks, 2);
  EXPECT_THROW(c.set_blocks(1, ~uint64_t(0)), ParameterError);
}

}  // namespace
}  // namespace cb
