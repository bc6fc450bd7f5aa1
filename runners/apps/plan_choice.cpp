#include "apps/plan_choice.h"

#include <iomanip>
#include <memory>
#include <utility>
#include <vector>

#include "apps/security_target.h"
#include "engine/bgv/chain.h"
#include "engine/bgv/memory.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/catalog.h"
#include "engine/errors.h"

namespace cb {

namespace {

// The planner's backend for the run's ring and slot field (F_p at a prime-field instance).
PlanBackend plan_backend(const PlanParams& pp, const Instance& in) {
  if (in.spec->p != 2) return PlanBackend(pp, in.ref->element_field().prime());
  return PlanBackend(pp, in.slot_n, in.slot_f_low);
}

}  // namespace

PlanChooser::PlanChooser(const std::string& cache_dir) {
  if (!cache_dir.empty()) cache_.emplace(cache_dir);
}

std::string plan_key(const Options& o, const Instance& in, long c, long hwt, long blocks) {
  return msg("plan 2|", PlanCache::engine_identity(), "|instance=", in.spec->id, "|packing=", in.packing,
             "|linear=", o.linear, "|rounds=", in.rounds, "|direction=", o.decrypt ? "decrypt" : "encrypt",
             "|blocks=", blocks, "|key=", o.key_hex, "|plaintext=", o.pt_hex, "|m=", o.m, "|p=", in.spec->p, "|c=", c,
             "|hwt=", hwt, "|seed=", o.seed);
}

// The planned chain for the run's circuit, ring, digits, key weight and seed (from this
// process's plans or the plan cache when they have it).
template <template <class> class Rep>
ChainPlan PlanChooser::plan_circuit(const Options& o, const Instance& in, long c, long hwt, long bits_hint,
                                    bool hint_is_plan) {
  std::string key;
  std::optional<ChainPlan> cached;
  auto look_up = [&](long blocks) {
    key = plan_key(o, in, c, hwt, blocks);
    if (const auto it = plans_.find(key); it != plans_.end()) cached = it->second;
    else if (cache_) cached = cache_->load(key);
    return cached && o.bits <= cached->bits;  // a plan covers any --bits up to its chain
  };
  // Without --blocks, the plan is looked up before the circuit is built (encoding its
  // constants on the planner's backend took 0.5 to 1.5 s of a run at the papers' rings).
  if (o.blocks == 0 && look_up(0)) {
    plans_.emplace(key, *cached);
    return std::move(*cached);
  }
  PlanParams pp;
  pp.m = o.m, pp.bits = 1000, pp.c = c, pp.hwt = hwt, pp.seed = o.seed;
  PlanBackend b = plan_backend(pp, in);
  auto h = make_harness<PlanBackend, Rep>(b, o, in);
  // --blocks naming every block the ciphertexts hold is the same circuit as none.
  if (o.blocks != 0 && look_up(h.blocks == h.circ.max_blocks() ? 0 : h.blocks)) {
    plans_.emplace(key, *cached);
    return std::move(*cached);
  }
  using Harness = CipherHarness<PlanBackend, Rep>;
  auto run_on = [](Harness& hr, PlanBackend& pb) {
    hr.load_keys();
    auto st = hr.encrypt_inputs();
    PlanRun r;
    r.fresh_capacity = hr.circ.capacity(st);
    Evaluator<PlanBackend> ev(pb);
    pb.reset_op_counts();  // count the rounds' operations only (what total_s times)
    for (auto& rec : hr.circ.run(ev, st)) r.round_capacity.push_back(rec.capacity_bits);
    if (hr.decrypt_outputs(st) != hr.expected())
      throw Error("chain planner: the circuit's clear evaluation differs from the reference");
    return r;
  };
  auto run = [&](PlanBackend& pb) { return run_on(h, pb); };
  // Lanes for chains side by side (chain_planner.h): a backend like b with the circuit
  // built on it.
  auto lanes = [&]() {
    auto pb = b.lane();
    std::shared_ptr<Harness> hr(new Harness(make_harness<PlanBackend, Rep>(*pb, o, in)));
    return PlanLane{pb, [hr, run_on](PlanBackend& x) { return run_on(*hr, x); }};
  };
  ChainPlan p;
  if (cached) {
    p = std::move(*cached);
  } else {
    // Where the search starts: an earlier plan's chain at this ring (--bits-hint, or the
    // chain --security-target planned at other digits: c barely moves the noise), else
    // 150 bits a round; the search brackets and bisects from there either way.
    const long hint = bits_hint > 0 ? bits_hint : 150 * in.rounds + 100;
    p = plan_chain(b, run, hint, 40000, lanes, bits_hint > 0 && hint_is_plan);
    p.keys = long(h.autos.size()) + 1;  // the automorphisms' and the relinearization key
    // The operations the run will do: plan_chain's last run is at the planned chain.
    p.op_counts_bits = p.bits;
    p.op_counts = b.op_counts();
    if (cache_) cache_->store(key, p);
  }
  plans_.emplace(key, p);
  // A longer --bits runs the circuit once more at that chain (more primes per operation).
  if (o.bits > p.bits) {
    b.set_bits(o.bits);
    run(b);
    p.op_counts_bits = o.bits;
    p.op_counts = b.op_counts();
  }
  return p;
}

ChainPlan PlanChooser::plan_at(const Options& o, const Instance& in, long c, long hwt, long bits_hint,
                               bool hint_is_plan) {
  if (in.packing == "packed") return plan_circuit<PackedRep>(o, in, c, hwt, bits_hint, hint_is_plan);
  if (in.packing == kBitSliced) return plan_circuit<BitSlicedRep>(o, in, c, hwt, bits_hint, hint_is_plan);
  return plan_circuit<SlicedRep>(o, in, c, hwt, bits_hint, hint_is_plan);
}

ChosenParams PlanChooser::choose(const Options& o, const Instance& in, const RunRing& ring) {
  ChosenParams chosen;
  if (o.security_target <= 0) {
    chosen.plan = plan_at(o, in, o.c, o.hwt, o.bits_hint, o.hint_is_plan);
    chosen.c = o.c, chosen.hwt = o.hwt;
    return chosen;
  }
  TargetQuery q;
  q.m = o.m, q.phi = ring.zmstar().phi(), q.target = o.security_target, q.c = o.c;
  q.p = uint64_t(ring.zmstar().p());
  q.weights = target_weights(o.hwt_given, o.hwt);
  q.weight_given = o.hwt_given, q.bits_hint = o.bits_hint, q.hint_is_plan = o.hint_is_plan;
  q.models = o.security_models;
  // Each weight's planner, and the re-plan at other digits, build their backends on one
  // ring's slot CRT, encodings and permutations, made once, when a plan is first computed
  // (PlanRing::keep: none when every plan is cached).
  const auto keep_ring = PlanRing::keep(o.m, in.slot_n, in.slot_f_low, in.spec->p);
  auto plan = [&](long c, long hwt, long hint, bool hint_is_plan) { return plan_at(o, in, c, hwt, hint, hint_is_plan); };
  chosen.plan = choose_for_target(q, plan, &chosen.c, &chosen.hwt);
  return chosen;
}

long run_bits(const Options& o, const Instance& in, const ChainPlan& plan) {
  if (o.bits == 0) return plan.bits;
  if (o.bits < plan.bits && !o.force)
    throw ParameterError(msg("--bits ", o.bits, " is below the planned chain: ", in.rounds, " rounds of ", in.display,
                             " at m=", o.m, " need ", plan.bits, " bits (", std::fixed, std::setprecision(1),
                             plan.bits_per_round, " per round; --bits ", plan.bits, ", or --force runs anyway)"));
  return o.bits;
}

ChainMemory check_memory(const Options& o, const RunRing& ring, const ChosenParams& cp) {
  const bgv::Chain ch(bgv::ChainParams{o.m, cp.bits, cp.c});
  const bgv::MemoryModel mm = memory_model(o, ring, cp.bits, cp.c);
  const double key_bytes = double(cp.plan.keys) * double(mm.key);
  const double avail = memory_allowed(o);
  if (avail > 0 && key_bytes > avail && !o.force)
    throw ParameterError(msg("m=", o.m, " with a ", cp.bits, "-bit chain (c=", cp.c, ", ", ch.num_primes() - ch.S(),
                             " primes) needs about ", std::fixed, std::setprecision(1), key_bytes / 1e9,
                             " GB for its ", cp.plan.keys, " key-switching keys alone, more than the ",
                             avail / 1e9, " GB ", o.max_memory_gb > 0 ? "allowed (--max-memory-gb)" : "available",
                             ": use a smaller ring or chain, fewer digits c, or --force"));
  const std::string note = msg("m=", o.m, ", ", cp.bits, "-bit chain (c=", cp.c, "): the ", cp.plan.keys,
                    " key-switching keys take about ", std::fixed, std::setprecision(1), key_bytes / 1e9, " GB");
  return {double(mm.ciphertext), note};
}

}  // namespace cb
