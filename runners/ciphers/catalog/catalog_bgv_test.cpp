// catalog_bgv_test: every entry of the catalog on the BGV engine, on the smallest ring
// whose slots hold its field (bit-sliced, where offered: m = 257), two rounds (one for
// decryption packed, where offered) at the chain the planner finds, every block decrypted and compared with the reference, and the
// planner's backend (PlanBackend, same seed) predicting the capacity after every round
// and counting, at the same prime counts, every step the engine times in the rounds.
// Prime-field instances (F_p) run at plaintext modulus p on m = 2^k with p = 1 mod m (every
// slot F_p; 128 slots: m = 256 for both of MiMC's primes, phi = 128 holding the key weight
// 120), the planner tracking the ciphertexts' plaintext factors as the engine does.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>

#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/harness.h"
#include "ciphers/catalog/program.h"
#include "ciphers/catalog/test_cases.h"

namespace cb {
namespace {

using testing::InstanceCase;

// The ring an instance is tested on: the smallest odd m whose slots hold GF(2^n) with 3
// blocks' room; at p > 2 the smallest m with 128 slots of F_p (m = 256 for MiMC's primes:
// phi = 128, room for the key weight 120).
long test_ring(const InstanceSpec& sp) {
  return sp.p == 2 ? testing::small_ring(sp.n, sp.s * 3) : testing::small_prime_ring(sp.p, std::max(128L, sp.s * 3));
}

// The planner's and the engine's backend for the instance's slot field (F_p or GF(2^n)).
PlanBackend plan_backend(const PlanParams& pp, const InstanceSpec& sp) {
  if (sp.p != 2) return PlanBackend(pp, PrimeField(sp.p));
  return PlanBackend(pp, sp.n, sp.f_low);
}
BgvBackend bgv_backend(const BgvParams& p, const InstanceSpec& sp) {
  if (sp.p != 2) return BgvBackend(p, PrimeField(sp.p));
  return BgvBackend(p, sp.n, sp.f_low);
}

// Capacity of the inputs and after each round; checks every block.
template <class B, template <class> class Rep = PackedRep>
std::vector<double> run_on(B& b, const CipherInstance& inst, long R, bool decrypt) {
  CipherHarness<B, Rep> h(b, inst, R, decrypt, false, 3, 7);
  h.load_keys();
  auto st = h.encrypt_inputs();
  std::vector<double> caps{h.circ.capacity(st)};
  if constexpr (std::is_same_v<B, BgvBackend>) b.reset_op_profile();  // the rounds' steps
  if constexpr (std::is_same_v<B, PlanBackend>) b.reset_op_counts();
  Evaluator<B> ev(b);
  for (const auto& r : h.circ.run(ev, st)) caps.push_back(r.capacity_bits);
  EXPECT_EQ(h.decrypt_outputs(st), h.expected()) << inst.spec().id << (decrypt ? " decrypt" : "");
  return caps;
}

using StepCounts = std::map<std::tuple<std::string, long, long>, long>;  // (step, primes, dropped) -> calls

// The chain the planner finds for R rounds of inst at m (seed 7), then the engine's run
// at it: both runs' capacities and the steps each counted (the planner's over lane
// widths; the engine's timed ones), and the planned chain's L.
struct PlannedRun {
  ChainPlan plan;
  std::vector<double> caps;
  StepCounts planned, timed;
  long L = 0;
};

PlannedRun plan_and_run(const CipherInstance& inst, const InstanceSpec& spec, long m, long R, bool decrypt) {
  PlanBackend pb = plan_backend(PlanParams{m, 1000, 3, 120, 7}, spec);
  PlannedRun r;
  r.plan = plan_chain(
      pb,
      [&](PlanBackend& b) {
        const auto caps = run_on(b, inst, R, decrypt);
        return PlanRun{caps.front(), std::vector<double>(caps.begin() + 1, caps.end())};
      },
      300);
  BgvParams p;
  p.m = m, p.bits = r.plan.bits, p.seed = 7;
  BgvBackend b = bgv_backend(p, spec);
  r.caps = run_on(b, inst, R, decrypt);
  // The planner's last run is at the planned chain (checked): it counted each step the
  // engine timed, at the same primes (what sage/cbparams/cost_model.py prices).
  EXPECT_EQ(pb.info().bits, r.plan.bits);
  for (const auto& o : pb.op_counts()) r.planned[{o.op, o.primes, o.dropped}] += o.count;
  for (const auto& e : b.op_profile()) r.timed[{e.op, e.primes, e.dropped}] = e.count;
  r.L = pb.chain().L();
  return r;
}

class CatalogBgv : public ::testing::TestWithParam<InstanceCase> {};

TEST_P(CatalogBgv, PlannedChainDecryptsToReference) {
  omp_set_num_threads(1);
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  const long m = test_ring(c.spec);
  const bool dec = decrypt_refusal(*inst).empty();
  for (bool decrypt : {false, true}) {
    if (decrypt && !dec) continue;
    const long R = decrypt ? 1 : std::min(2L, c.spec.rounds);
    const PlannedRun run = plan_and_run(*inst, c.spec, m, R, decrypt);
    const ChainPlan& plan = run.plan;
    const auto& caps = run.caps;
    EXPECT_EQ(run.planned, run.timed) << c.spec.id << (decrypt ? " decrypt" : "");
    ASSERT_EQ(caps.size(), plan.round_capacity.size() + 1);
    EXPECT_NEAR(caps.front(), plan.fresh_capacity, 1e-6);
    for (size_t r = 1; r < caps.size(); ++r) {
      EXPECT_NEAR(caps[r], plan.round_capacity[r - 1], 1e-6) << "m=" << m << " round " << r;
      EXPECT_GE(caps[r], 0) << "round " << r;
      EXPECT_LT(caps[r], caps[r - 1]) << "round " << r;
    }
    std::printf("%s m=%ld p=%llu %s: %ld bits for %ld rounds\n", c.spec.id.c_str(), m,
                static_cast<unsigned long long>(c.spec.p), decrypt ? "decrypt" : "encrypt", plan.bits, R);
  }
}

// The planner with lanes (chains run side by side, chain_planner.h) at 4 threads finds the
// plan of one chain at a time on one thread: the same chain, capacities, random terms and
// step counts, its last run on the caller's backend.
TEST_P(CatalogBgv, LanesFindThePlanOfOneChainAtATime) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  const long m = test_ring(c.spec);
  const long R = std::min(2L, c.spec.rounds);
  const PlanParams pp{m, 1000, 3, 120, 7};
  auto run = [&](PlanBackend& b) {
    const auto caps = run_on(b, *inst, R, false);
    return PlanRun{caps.front(), std::vector<double>(caps.begin() + 1, caps.end())};
  };
  omp_set_num_threads(1);
  PlanBackend alone = plan_backend(pp, c.spec);
  const ChainPlan one = plan_chain(alone, run, 40);
  omp_set_num_threads(4);
  PlanBackend side = plan_backend(pp, c.spec);
  long made = 0;
  const ChainPlan many = plan_chain(side, run, 40, 40000, [&]() {
    ++made;
    return PlanLane{side.lane(), run};
  });
  omp_set_num_threads(1);
  EXPECT_GT(made, 0) << "no lane was asked for";
  EXPECT_EQ(many.bits, one.bits);
  EXPECT_EQ(many.fresh_capacity, one.fresh_capacity);
  EXPECT_EQ(many.round_capacity, one.round_capacity);
  EXPECT_EQ(many.min_capacity, one.min_capacity);
  EXPECT_EQ(many.random_terms, one.random_terms);
  EXPECT_GE(many.chains_tried, one.chains_tried);
  EXPECT_EQ(side.info().bits, one.bits);
  StepCounts a, b;
  for (const auto& o : alone.op_counts()) a[{o.op, o.primes, o.dropped}] += o.count;
  for (const auto& o : side.op_counts()) b[{o.op, o.primes, o.dropped}] += o.count;
  EXPECT_EQ(a, b);
}

// Bit-sliced, where the entry offers it: two rounds both ways at the planned chain, on
// slots of GF(2) (m = 257: 16 slots, a block each), the plan predicting every round.
TEST_P(CatalogBgv, BitSlicedPlannedChainDecryptsToReference) {
  omp_set_num_threads(1);
  const auto& c = GetParam();
  if (c.spec.p != 2) GTEST_SKIP() << c.spec.id << " is over F_" << c.spec.p << ": bit slicing is GF(2^n)'s";
  const auto inst = c.entry->make(c.spec);
  if (!bits_refusal(*inst).empty()) GTEST_SKIP() << bits_refusal(*inst);
  const long m = 257;
  for (bool decrypt : {false, true}) {
    if (decrypt && !bits_refusal(*inst, true).empty()) continue;
    const long R = std::min(2L, c.spec.rounds);
    PlanBackend pb(PlanParams{m, 1000, 3, 120, 7}, 1, 1);
    const ChainPlan plan = plan_chain(
        pb,
        [&](PlanBackend& b) {
          const auto caps = run_on<PlanBackend, BitSlicedRep>(b, *inst, R, decrypt);
          return PlanRun{caps.front(), std::vector<double>(caps.begin() + 1, caps.end())};
        },
        300);
    BgvParams p;
    p.m = m, p.bits = plan.bits, p.seed = 7;
    BgvBackend b(p, 1, 1);
    const auto caps = run_on<BgvBackend, BitSlicedRep>(b, *inst, R, decrypt);
    ASSERT_EQ(caps.size(), plan.round_capacity.size() + 1);
    EXPECT_NEAR(caps.front(), plan.fresh_capacity, 1e-6);
    for (size_t r = 1; r < caps.size(); ++r) {
      EXPECT_NEAR(caps[r], plan.round_capacity[r - 1], 1e-6) << "m=" << m << " round " << r;
      EXPECT_GE(caps[r], 0) << "round " << r;
      EXPECT_LT(caps[r], caps[r - 1]) << "round " << r;
    }
    std::printf("%s bit-sliced m=%ld %s: %ld bits for %ld rounds\n", c.spec.id.c_str(), m,
                decrypt ? "decrypt" : "encrypt", plan.bits, R);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogBgv, ::testing::ValuesIn(testing::all_instances()), testing::case_name);

// Past the engine's plaintext cache (Plaintext::cache_limit, lowered here to two or three
// constants' room), constants refused it are transformed at each use at the ciphertext's
// primes, where a kept one transforms each limb once; the planner counts the same steps at
// the same primes (with the cache and past it), and the blocks decrypt.
TEST(CatalogBgvPlaintextCache, PlannedCountsFollowTheEngineOnceTheCacheIsFull) {
  omp_set_num_threads(1);
  struct Limit {
    size_t saved = bgv::Plaintext::cache_limit();
    ~Limit() { bgv::Plaintext::set_cache_limit(saved); }
  } restore;
  auto limbs = [](const PlannedRun& r) {  // limbs transformed by encodings
    long n = 0;
    for (const auto& [key, count] : r.planned)
      if (std::get<0>(key) == "encode") n += std::get<1>(key) * count;
    return n;
  };
  for (const char* id : {"aes", "vision16"}) {
    const auto [entry, spec] = find_instance_id(id);
    const auto inst = entry->make(*spec);
    const long m = testing::small_ring(spec->n, spec->s * 3);
    const PlannedRun kept = plan_and_run(*inst, *spec, m, std::min(2L, spec->rounds), false);
    bgv::Plaintext::set_cache_limit(size_t(2.5 * 24 * ZmStar(m).phi() * sizeof(uint64_t)));  // ~2 constants at L ~ 24
    const PlannedRun run = plan_and_run(*inst, *spec, m, std::min(2L, spec->rounds), false);
    bgv::Plaintext::set_cache_limit(restore.saved);
    EXPECT_EQ(kept.planned, kept.timed) << id;
    EXPECT_EQ(run.planned, run.timed) << id;
    EXPECT_GT(limbs(kept), 0) << id;
    EXPECT_GT(limbs(run), limbs(kept)) << id << ": no constant was refused the cache";
  }
}

// Hints (chain_planner.h): a hint below the plan is raised until it holds and the bracket
// bisected; a hint that is the plan at other digits (hint_is_plan) is taken when it holds
// at these digits and one bit less does not, and searched from otherwise (a hint 60 bits
// above the plan, where one bit less holds too). Every plan is a chain the engine's run at
// those digits decrypts, with capacity left after every round.
TEST(CatalogBgvHints, FailingHintsAndPlansAtOtherDigits) {
  omp_set_num_threads(1);
  const auto [entry, spec] = find_instance_id("aes");
  const auto inst = entry->make(*spec);
  const long m = testing::small_ring(spec->n, spec->s * 3), R = 2;
  auto run = [&](PlanBackend& b) {
    const auto caps = run_on(b, *inst, R, false);
    return PlanRun{caps.front(), std::vector<double>(caps.begin() + 1, caps.end())};
  };
  auto plan_at = [&](long c, long hint, bool hint_is_plan) {
    PlanBackend pb(PlanParams{m, 1000, c, 120, 7}, spec->n, spec->f_low);
    return plan_chain(pb, run, hint, 40000, {}, hint_is_plan);
  };
  auto engine_holds = [&](long c, long bits) {
    BgvParams p;
    p.m = m, p.bits = bits, p.c = c, p.seed = 7;
    BgvBackend b(p, spec->n, spec->f_low);
    for (double cap : run_on(b, *inst, R, false)) EXPECT_GE(cap, 0) << "c=" << c << ", " << bits << " bits";
  };
  const ChainPlan at3 = plan_at(3, 40, false);
  const ChainPlan from_below = plan_at(3, at3.bits - 40, false);
  EXPECT_GE(from_below.min_capacity, 0);
  engine_holds(3, from_below.bits);
  // c=2 moves the bounds by a fraction of a bit here: the c=3 plan is c=2's, two chains run
  // (it and one bit less); at c=4 it fails here and is searched.
  const ChainPlan at2 = plan_at(2, at3.bits, true);
  EXPECT_EQ(at2.bits, at3.bits);
  EXPECT_EQ(at2.chains_tried, 2);
  engine_holds(2, at2.bits);
  const ChainPlan at4 = plan_at(4, at3.bits, true);
  EXPECT_GE(at4.min_capacity, 0);
  engine_holds(4, at4.bits);
  const ChainPlan above = plan_at(4, at3.bits + 60, true);
  EXPECT_LT(above.bits, at3.bits + 60) << "a hint whose chain one bit shorter holds was taken as the plan";
  EXPECT_GE(above.min_capacity, 0);
  engine_holds(4, above.bits);
  std::printf("aes m=%ld: c=3 %ld bits (%ld chains); from %ld bits %ld (%ld); c=4 from the c=3 plan %ld (%ld), "
              "from %ld bits %ld (%ld)\n", m, at3.bits, at3.chains_tried, at3.bits - 40, from_below.bits,
              from_below.chains_tried, at4.bits, at4.chains_tried, at3.bits + 60, above.bits, above.chains_tried);
}

}  // namespace
}  // namespace cb
