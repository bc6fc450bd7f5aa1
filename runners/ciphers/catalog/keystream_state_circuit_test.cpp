// The state packing (keystream_state_circuit.h): one block's state in the slots of one
// ciphertext, matrices by rotations. Every block against the clear reference (HERA-5 also
// against IAIK's known-answer test), on the clear backend (along the first dimension and in
// slot order, several blocks per ciphertext), on the planner and the engine (planned, then
// run at the plan: the plan predicts every round's capacity exactly and every block
// decrypts), the rotations a round takes, and the refusals.
#include "ciphers/catalog/keystream_state_circuit.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <omp.h>

#include <fstream>

#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/clear_backend.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/toy_keystream_test.h"

namespace cb {
namespace {

using testing::ToyKeystream;
using testing::toy_spec;

struct Outcome {
  std::vector<double> caps;          // fresh, each round, after the subtraction, after the work
  std::vector<RoundRecord> rounds;
};

// The session on b for `blocks` blocks from counter0, every stage checked against the
// reference: the keystream, the messages after the subtraction, y = m^3.
template <class B>
Outcome run_state(B& b, const KeystreamInstance& ks, long blocks, const Elements& key, uint64_t nonce = 123456789,
                  uint64_t counter0 = 5, KsBsgs bsgs = KsBsgs::kAuto) {
  KeystreamStateCircuit<B> circ(b, ks, blocks, bsgs);
  b.require_automorphisms(circ.automorphisms());
  circ.set_blocks(nonce, counter0);
  Evaluator<B> ev(b);
  const auto kc = circ.encrypt_key(key);
  Outcome o;
  auto out = circ.run(ev, kc, &o.rounds);
  EXPECT_EQ(out.size(), 1u);
  const auto expect = circ.reference(key);
  o.caps.push_back(circ.capacity(kc));
  for (const auto& r : o.rounds) o.caps.push_back(r.capacity_bits);
  const auto got = circ.decrypt(out);
  for (long j = 0; j < blocks; ++j) EXPECT_EQ(got[size_t(j)], expect[size_t(j)]) << ks.spec().id << " block " << j;
  const auto& F = ks.element_field();
  std::vector<Elements> msgs, cts;
  for (long j = 0; j < blocks; ++j) {
    Elements m, c;
    for (long i = 0; i < ks.spec().s; ++i) {
      m.push_back(uint64_t(7 * j + i + 1) % F.p());
      c.push_back(F.add(m.back(), expect[size_t(j)][size_t(i)]));
    }
    msgs.push_back(m), cts.push_back(c);
  }
  auto m = circ.subtract_from(ev, cts, out);
  EXPECT_EQ(circ.decrypt(m), msgs);
  o.caps.push_back(circ.capacity(m));
  const auto y = circ.work_after(ev, m, 2);
  EXPECT_EQ(circ.decrypt_work(y), circ.work_after_expected(msgs, 2));
  o.caps.push_back(b.capacity_bits(y));
  return o;
}

Elements key_of(const KeystreamInstance& ks) {
  Elements k;
  for (long i = 0; i < ks.spec().key_elements; ++i) k.push_back(uint64_t(31 * i + 7) % ks.element_field().p());
  return k;
}

std::unique_ptr<KeystreamInstance> instance(const std::string& id) {
  const auto [e, sp] = find_instance_id(id);
  return e->make_keystream(*sp);
}

TEST(KeystreamStateCircuit, ToyProgramOnTheClearBackend) {
  for (uint64_t p : {193ull, 65537ull}) {  // p = 1 mod 64: 32 slots of F_p, 16 along the first dimension
    ToyKeystream ks(toy_spec(p));
    ClearBackend b(64, PrimeField(p));
    KeystreamStateCircuit<ClearBackend> c(b, ks, 1);
    EXPECT_TRUE(c.replicas());  // the 4 x 4 matrix: 3 shifts and a replica, not 6
    EXPECT_EQ(c.max_blocks(), 4);  // rows of 8 slots: 2 per line, 2 lines
    run_state(b, ks, 4, {1, 2, 3, 4 % p});
    run_state(b, ks, 3, {5, 0, 7, 1});
  }
  ToyKeystream bits(toy_spec(2));
  ClearBackend b(341, 1, 1);  // 30 slots of GF(2^10) holding bits
  KeystreamStateCircuit<ClearBackend> c(b, bits, 1);
  EXPECT_GE(c.max_blocks(), 2);
  run_state(b, bits, c.max_blocks(), {1, 0, 1, 1});
}

// HERA-5 at p = 65537, m = 256 (128 slots of F_p, 64 along the first dimension): IAIK's
// known-answer test as block 0 (nonce 123456789, counter 0), and 4 blocks in one ciphertext.
TEST(KeystreamStateCircuit, HeraMatchesTheKnownAnswerAndTheReference) {
  const auto ks = instance("hera5p17");
  ClearBackend b(256, PrimeField(65537));
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/hera/kat_hera5.json");
  ASSERT_TRUE(in);
  const auto kat = nlohmann::json::parse(in);
  nlohmann::json v;
  for (const auto& x : kat.at("vectors"))
    if (x.at("p").get<uint64_t>() == 65537) v = x;
  ASSERT_FALSE(v.is_null());
  const Elements key = v.at("key").get<Elements>();
  KeystreamStateCircuit<ClearBackend> circ(b, *ks, 4);
  EXPECT_EQ(circ.max_blocks(), 4);  // rows of 32 slots (MixRows cyclically: a replica)
  b.require_automorphisms(circ.automorphisms());
  circ.set_blocks(kat.at("nonce").get<uint64_t>(), kat.at("counter").get<uint64_t>());
  Evaluator<ClearBackend> ev(b);
  const auto out = circ.decrypt(circ.run(ev, circ.encrypt_key(key)));
  EXPECT_EQ(out.at(0), v.at("keystream").get<Elements>());
  const auto outcome = run_state(b, *ks, 4, key, 99, 1000, KsBsgs::kOff);
  // Rounds 2..4: MixColumns 6 rotations (shifts -3..3), MixRows 3 and the replica 1.
  for (size_t r = 1; r + 1 < outcome.rounds.size(); ++r) EXPECT_EQ(outcome.rounds[r].counts.automorph, 10) << r;
  EXPECT_EQ(outcome.rounds.back().counts.automorph, 20);  // two MixColumns/MixRows
  // By baby-step giant-step (the rule takes it for both): MixColumns' shifts -3..3 as 4a + b,
  // babies 1..3 and giant -4 (4 as n1 = 3's 1, 2, -3, 3, with one giant step fewer); MixRows'
  // 4, 8, 12 (read from the replica) as 8a + b, baby 4 and giant 8 (2).
  for (KsBsgs mode : {KsBsgs::kAuto, KsBsgs::kOn}) {
    const auto o = run_state(b, *ks, 4, key, 99, 1000, mode);
    for (size_t r = 1; r + 1 < o.rounds.size(); ++r) EXPECT_EQ(o.rounds[r].counts.automorph, 4 + 2 + 1) << r;
  }
}

// Pasta-4 (t = 32, state 64): its two 32 x 32 matrices as one layer of 31 rotations and a
// replica; along the first dimension at m = 512, in slot order at m = 256.
TEST(KeystreamStateCircuit, PastaMatchesTheReference) {
  const auto ks = instance("pasta4p17");
  ClearBackend b512(512, PrimeField(65537));
  const auto o = run_state(b512, *ks, 2, key_of(*ks), 123456789, 5, KsBsgs::kOff);
  // The layer (31 and the replica), the mix (shifts +-64: one automorphism on a line of 128),
  // the Feistel's shift by one.
  EXPECT_EQ(o.rounds.at(1).counts.automorph, 32 + 1 + 1);
  // By BSGS the layer's shifts 1..31 take 10 (n1 = 6: babies 1..5, giants 6..30; n1 = 5, 7
  // and 8 also take 10, with more giant steps), the rest as before.
  for (KsBsgs mode : {KsBsgs::kAuto, KsBsgs::kOn})
    EXPECT_EQ(run_state(b512, *ks, 2, key_of(*ks), 123456789, 5, mode).rounds.at(1).counts.automorph, 10 + 1 + 1 + 1);
  ClearBackend b256(256, PrimeField(65537));
  KeystreamStateCircuit<ClearBackend> c(b256, *ks, 1);
  EXPECT_EQ(c.max_blocks(), 1);
  for (KsBsgs mode : {KsBsgs::kAuto, KsBsgs::kOn, KsBsgs::kOff}) run_state(b256, *ks, 1, key_of(*ks), 123456789, 5, mode);
}

// Planned on the planner's backend, then run on the engine at the plan: the capacities
// after every round are the plan's, and every block decrypts (run_state checks).
TEST(KeystreamStateCircuit, PlannedChainRunsOnTheEngine) {
  omp_set_num_threads(1);
  // HERA-5 along the first dimension: its maps by BSGS (auto: the giant steps after the
  // constant products) and directly (off); Pasta-4 in slot order (direct whatever the mode).
  for (const std::string id : {"hera5p17", "pasta4p17"})
    for (KsBsgs mode : {KsBsgs::kAuto, KsBsgs::kOff}) {
    const auto ks = instance(id);
    const long m = 256, blocks = id == "hera5p17" ? 3 : 1;
    auto pb = PlanBackend(PlanParams{m, 1000, 3, 120, 7}, PrimeField(65537));
    const ChainPlan plan = plan_chain(
        pb,
        [&](PlanBackend& b) {
          const auto o = run_state(b, *ks, blocks, key_of(*ks), 123456789, 5, mode);
          return PlanRun{o.caps.front(), std::vector<double>(o.caps.begin() + 1, o.caps.end())};
        },
        500);
    BgvParams bp;
    bp.m = m, bp.bits = plan.bits, bp.seed = 7;
    BgvBackend b(bp, PrimeField(65537));
    const auto o = run_state(b, *ks, blocks, key_of(*ks), 123456789, 5, mode);
    ASSERT_EQ(o.caps.size(), plan.round_capacity.size() + 1) << id;
    for (size_t r = 0; r < plan.round_capacity.size(); ++r) EXPECT_NEAR(o.caps[r + 1], plan.round_capacity[r], 1e-6) << id << " " << r;
    EXPECT_GE(o.caps.back(), 0) << id;
  }
}

// The rule on its own: the split with fewest automorphisms, BSGS only when it has fewer
// than the direct form (auto), or wherever it applies (on).
TEST(KeystreamStateCircuit, BsgsSplitRule) {
  auto plain = [](long e) { return e == 0 ? 1L : 1000 + e; };  // distinct k's, g^0 = 1
  std::vector<long> s;
  for (long j = 0; j <= 350; ++j) s.push_back(j);  // Rasta-6's 351 x 351 matrix with replicas
  const auto sp = ks_bsgs_split(s, 350, KsBsgs::kAuto, plain);
  // min over n1 of (n1 - 1) + floor(350 / n1): 36 at n1 = 19..22, the fewest giant steps at 22.
  long best = 1 << 30, n1b = 0, gb = 1 << 30;
  for (long n1 = 2; n1 <= 351; ++n1) {
    const long c = (n1 - 1) + 350 / n1, g = 350 / n1 + 1;
    if (c < best || (c == best && g < gb)) best = c, n1b = n1, gb = g;
  }
  EXPECT_EQ(sp.count, best);
  EXPECT_EQ(sp.n1, n1b);
  EXPECT_EQ(long(sp.baby.size()), n1b);
  EXPECT_EQ(long(sp.giant.size()), gb);
  // Three shifts: BSGS (2 keys: 1, 2 = baby 1, giant 2) beats 3 under auto; two shifts do not.
  EXPECT_EQ(ks_bsgs_split({1, 2, 3}, 3, KsBsgs::kAuto, plain).count, 2);
  EXPECT_EQ(ks_bsgs_split({1, 2}, 2, KsBsgs::kAuto, plain).n1, 0);
  EXPECT_EQ(ks_bsgs_split({1, 2}, 2, KsBsgs::kOn, plain).count, 2);
  EXPECT_EQ(ks_bsgs_split(s, 350, KsBsgs::kOff, plain).n1, 0);
}

// Rasta-6 (GF(2), 351 bits: rows of 702 with replicas) on m = 61681 (p = 2: 1542 slots of
// GF(2^40) in one dimension, not a good one: gcd(1542, 40) = 2), two blocks on the line: every block against the reference with BSGS
// and without, and the key count the rule gives.
TEST(KeystreamStateCircuit, RastaByBsgsMatchesTheReference) {
  const auto ks = instance("rasta6");
  ClearBackend b(61681, 1, 1);
  ASSERT_EQ(b.zmstar().dims(), 1);
  EXPECT_FALSE(b.zmstar().good(0));
  Elements key;
  for (long i = 0; i < 351; ++i) key.push_back(uint64_t((i * 7 + i / 5) % 3 == 0));
  const auto off = run_state(b, *ks, 2, key, 3, 9, KsBsgs::kOff);
  const auto on = run_state(b, *ks, 2, key, 3, 9, KsBsgs::kOn);
  KeystreamStateCircuit<ClearBackend> c_off(b, *ks, 2, KsBsgs::kOff), c_auto(b, *ks, 2);
  EXPECT_EQ(c_auto.max_blocks(), 2);
  // The rule: each round's 351 x 351 matrix reads shifts 0..350 (the replica for in < out),
  // BSGS with n1 = 22 (21 babies and 15 giants: 36, against 350 direct); the replica's
  // automorphism and chi's shifts 1 and 2 as before: 36 + 3 keys, not 350 + 3.
  EXPECT_EQ(c_off.automorphisms().size(), 353u);
  EXPECT_EQ(c_auto.automorphisms().size(), 39u);
  long maps = 0;
  for (long v : c_auto.bsgs_n1()) {
    EXPECT_TRUE(v == 0 || v == 22) << v;
    maps += v > 0;
  }
  EXPECT_EQ(maps, 7);  // the 7 affine layers; chi's linear part (x_(j+2)) stays direct
  EXPECT_NE(c_auto.describe().find("7 of 15 linear maps by baby-step giant-step"), std::string::npos) << c_auto.describe();
  // A round: the matrix's 36 (on: the same split) and the replica, chi's 2 (direct: 350 + 3).
  for (size_t r = 0; r + 1 < on.rounds.size(); ++r) {
    EXPECT_EQ(off.rounds[r].counts.automorph - on.rounds[r].counts.automorph, 350 - 36) << r;
  }
}

TEST(KeystreamStateCircuit, Refusals) {
  const auto hera = instance("hera5p17");
  ClearBackend small(16, PrimeField(65537));  // 8 slots: no row of 32
  try {
    KeystreamStateCircuit<ClearBackend> c(small, *hera, 1);
    ADD_FAILURE() << "no refusal";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("needs a row of 32 slots"), std::string::npos) << e.what();
  }
  ClearBackend b(256, PrimeField(65537));
  try {
    KeystreamStateCircuit<ClearBackend> c(b, *hera, 5);
    ADD_FAILURE() << "no refusal";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("--blocks 5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1..4"), std::string::npos) << e.what();
  }
  ClearBackend other(256, PrimeField(257));
  EXPECT_THROW(KeystreamStateCircuit<ClearBackend>(other, *hera, 1), ParameterError);
  KeystreamStateCircuit<ClearBackend> c(b, *hera, 2);
  EXPECT_THROW(c.set_blocks(1, ~uint64_t(0)), ParameterError);
}

}  // namespace
}  // namespace cb
