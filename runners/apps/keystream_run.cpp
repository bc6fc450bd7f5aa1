#include "apps/keystream_run.h"

#include <nlohmann/json.hpp>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <random>

#include "apps/record_json.h"
#include "apps/record_sizes.h"
#include "apps/transcipher_record.h"
#include "apps/security_target.h"
#include "backend/backend_json.h"
#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/clear_backend.h"
#include "backend/plan_backend.h"
#include "backend/plan_cache.h"
#ifdef CB_HAVE_HELIB
#include "backend/helib_backend.h"
#endif
#include "ciphers/catalog/keystream_circuit.h"
#include "ciphers/catalog/keystream_state_circuit.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb {
namespace {

using json = nlohmann::json;
using apps::finite;
using apps::fnv1a;
using apps::round_json;

// The most products the capacity count tries beyond --depth-after.
constexpr long kMaxDepthLeft = 64;

// The client's side in the clear: the key (--key or drawn from --seed) and the messages,
// with their symmetric ciphertexts c = m + KS under the reference keystream.
struct ClientData {
  Elements key;
  std::vector<Elements> msgs, cts;
};

Elements random_elements(std::mt19937_64& g, const CipherField& F, long count) {
  Elements v;
  for (long i = 0; i < count; ++i) v.push_back(F.is_prime() ? g() % F.p() : g() & (F.n() == 64 ? ~0ull : (1ull << F.n()) - 1));
  return v;
}

// What one session on a backend measured (apps/transcipher_record.h), with the engine's steps.
struct Session : apps::SessionStages {
  nlohmann::json op_profile = nlohmann::json::array();  // BGV: the keystream's engine steps
  long rotations = 0, rotation_keys = 0;  // the keystream's automorphisms and their keys
  long key_cts = 0, result_cts = 0;       // the ciphertexts of the encrypted key and of the results
};

// One session of the keystream circuit on b, checked stage by stage (the planner runs it
// too: its capacities are the plan's). Circuit: KeystreamCircuit (one block per slot) or
// KeystreamStateCircuit (one block's state in slots, --packing state).
template <class B, class Circuit>
Session session_with(B& b, const KeystreamInstance& ks, const KeystreamRunOptions& o, const ClientData& cd,
                     const std::vector<Elements>& ks_ref, long blocks) {
  Session s;
  Circuit circ(b, ks, blocks);
  if (const auto ks_needed = circ.automorphisms(); !ks_needed.empty()) b.require_automorphisms(ks_needed);
  Stopwatch w;
  circ.set_blocks(o.nonce, o.counter);
  s.material_s = w.lap();
  const auto key = circ.encrypt_key(cd.key);
  s.encrypt_key_s = w.lap();
  s.fresh = circ.capacity(key);
  Evaluator<B> ev(b);
  if constexpr (std::is_same_v<B, BgvBackend>) b.reset_op_profile();  // the keystream's steps only
  const double cpu0 = process_cpu_seconds();
  w.lap();
  auto out = circ.run(ev, key, &s.rounds);
  s.keystream_s = w.lap();
  if constexpr (std::is_same_v<B, BgvBackend>) {
    for (const auto& e : b.op_profile())
      s.op_profile.push_back({{"op", e.op}, {"primes", e.primes}, {"dropped", e.dropped}, {"count", e.count},
                              {"seconds", e.seconds}});
  }
  s.keystream_cpu_s = process_cpu_seconds() - cpu0;
  s.after_keystream = circ.capacity(out);
  const auto got = circ.decrypt(out);
  w.lap();  // the check's decryption is not the server's time
  for (long j = 0; j < blocks; ++j) s.wrong_keystream += got[size_t(j)] != ks_ref[size_t(j)];
  s.keystream0 = got.at(0);
  auto m = circ.subtract_from(ev, cd.cts, std::move(out));
  s.subtract_s = w.lap();
  s.after_subtract = circ.capacity(m);
  const auto y = circ.work_after(ev, m, o.depth_after);
  s.work_after_s = w.lap();
  if constexpr (!std::is_same_v<B, PlanBackend>) {  // one ciphertext carries elements_per_ciphertext() elements
    const double bits = double(circ.elements_per_ciphertext()) * apps::slot_element_bits(b);
    s.sizes = apps::record_sizes_json(b, key.at(0), m.at(0), bits);
  }
  s.after_work = b.capacity_bits(y);
  Stopwatch dw;
  const auto msgs = circ.decrypt(m);
  const auto yv = circ.decrypt_work(y);
  s.decrypt_s = dw.seconds();
  const auto want = circ.work_after_expected(cd.msgs, o.depth_after);
  for (long j = 0; j < blocks; ++j) {
    s.wrong_msgs += msgs[size_t(j)] != cd.msgs[size_t(j)];
    s.wrong_work += yv[size_t(j)] != want[size_t(j)];
  }
  for (const auto& r : s.rounds) s.rotations += r.counts.automorph;
  s.rotation_keys = long(circ.automorphisms().size());
  s.key_cts = circ.key_ciphertexts(), s.result_cts = circ.result_ciphertexts();
  return s;
}

template <class B>
Session session(B& b, const KeystreamInstance& ks, const KeystreamRunOptions& o, const ClientData& cd,
                const std::vector<Elements>& ks_ref, long blocks) {
  if (o.packing == "state") return session_with<B, KeystreamStateCircuit<B>>(b, ks, o, cd, ks_ref, blocks);
  return session_with<B, KeystreamCircuit<B>>(b, ks, o, cd, ks_ref, blocks);
}

// The further products the transciphered data takes on the planner's backend at its
// chain: y <- y m_l until a bound passes its modulus (at most kMaxDepthLeft).
// ops: the session's operations at that chain (PlanBackend::op_counts: key, keystream,
// subtraction, work after; the further products not counted), for the plan record.
template <class Circuit>
long depth_left_with(PlanBackend& pb, const KeystreamInstance& ks, const KeystreamRunOptions& o, const ClientData& cd,
                     long blocks, std::vector<PlanBackend::OpCount>& ops) {
  Circuit circ(pb, ks, blocks);
  if (const auto ks_needed = circ.automorphisms(); !ks_needed.empty()) pb.require_automorphisms(ks_needed);
  circ.set_blocks(o.nonce, o.counter);
  Evaluator<PlanBackend> ev(pb);
  auto m = circ.subtract_from(ev, cd.cts, circ.run(ev, circ.encrypt_key(cd.key)));
  auto y = circ.work_after(ev, m, o.depth_after);
  ops = pb.op_counts();
  long more = 0;
  for (; more < kMaxDepthLeft; ++more) {
    auto z = y;
    ev.mul(z, m[size_t(o.depth_after + 1 + more) % m.size()]);
    if (!(pb.capacity_bits(z) >= 0)) break;
    y = std::move(z);
  }
  return more;
}
long depth_left(PlanBackend& pb, const KeystreamInstance& ks, const KeystreamRunOptions& o, const ClientData& cd,
                long blocks, std::vector<PlanBackend::OpCount>& ops) {
  if (o.packing == "state") return depth_left_with<KeystreamStateCircuit<PlanBackend>>(pb, ks, o, cd, blocks, ops);
  return depth_left_with<KeystreamCircuit<PlanBackend>>(pb, ks, o, cd, blocks, ops);
}

}  // namespace

int run_keystream(const KeystreamRunOptions& o) {
  const Stopwatch process;
  const auto ks_ptr = o.entry->make_keystream(*o.spec);
  const KeystreamInstance& ks = *ks_ptr;
  const auto& sp = ks.spec();
  const auto& F = ks.element_field();
  // Everything checked before any work.
  if (o.m <= 0) throw ParameterError("--m is required (the cyclotomic index of the ring)");
  if (o.depth_after < 0 || o.depth_after > 1000)
    throw ParameterError(msg("--depth-after ", o.depth_after, ": the products after the keystream are 0..1000"));
  const ZmStar zm(o.m, long(sp.p));  // ParameterError for a ring without slots at p
  const long ell = zm.ell();
  if (sp.p == 2 && zm.d() % sp.n != 0)
    throw ParameterError(msg("m=", o.m, " has d=", zm.d(), ": ", sp.id, " needs GF(2^", sp.n, ") slots"));
  if (o.packing != "blocks" && o.packing != "state")
    throw ParameterError(msg("--packing ", o.packing, ": keystream entries pack blocks (one per slot) or state"));
  std::optional<KsStateRows> rows;  // --packing state: a block's row in the slots
  if (o.packing == "state") rows.emplace(zm, ks);
  const long max_blocks = rows ? rows->max_blocks() : ell;
  const long blocks = o.blocks ? o.blocks : max_blocks;
  if (blocks < 1 || blocks > max_blocks)
    throw ParameterError(rows ? msg("--blocks ", blocks, ": ", sp.id, " with --packing state holds 1..", max_blocks,
                                    " blocks per ciphertext at m=", o.m)
                              : msg("--blocks ", blocks, ": ", sp.id, " runs one block per slot, 1..", ell, " at m=", o.m));
  if (o.counter > ~uint64_t(0) - uint64_t(blocks - 1))
    throw ParameterError(msg("--counter ", o.counter, " with ", blocks, " blocks: the counters pass 2^64 - 1"));
  std::mt19937_64 g(o.seed);
  ClientData cd;
  cd.key = o.key_text.empty() ? random_elements(g, F, sp.key_elements) : ks.parse(o.key_text, sp.key_elements, "--key");
  apps::check_writable(o.json_path);
  // The client: messages and their symmetric ciphertexts under the reference keystream.
  std::vector<Elements> ks_ref(static_cast<size_t>(blocks));
  for_each_lane<ClearBackend>(blocks, [&](long j) { ks_ref[size_t(j)] = ks.keystream(cd.key, o.nonce, o.counter + uint64_t(j)); });
  for (long j = 0; j < blocks; ++j) {
    cd.msgs.push_back(random_elements(g, F, sp.s));
    Elements c;
    for (long i = 0; i < sp.s; ++i) c.push_back(F.add(cd.msgs.back()[size_t(i)], ks_ref[size_t(j)][size_t(i)]));
    cd.cts.push_back(c);
  }

  // The plan (BGV): the least chain on which the whole session, work after included, holds.
  std::optional<ChainPlan> plan;
  long left = -1;
  std::vector<PlanBackend::OpCount> plan_ops;  // the session's operations at the planned chain
  double plan_s = 0;
  long c = o.c, hwt = o.hwt;  // the run's digits and key weight (--security-target chooses them)
  auto plan_backend = [&](long bits, long cc, long w) {
    PlanParams pp;
    pp.m = o.m, pp.bits = bits, pp.c = cc, pp.hwt = w, pp.seed = o.seed;
    return sp.p != 2 ? PlanBackend(pp, F.prime()) : PlanBackend(pp, 1, 1);
  };
  std::optional<PlanCache> cache;
  if (!o.plan_cache.empty() && o.backend == "bgv") cache.emplace(o.plan_cache);
  if (o.backend == "bgv") {
    Stopwatch pw;
    auto run = [&](PlanBackend& b) {
      const Session s = session(b, ks, o, cd, ks_ref, blocks);
      if (s.wrong_keystream || s.wrong_msgs || s.wrong_work)
        throw Error("chain planner: the keystream circuit's clear evaluation differs from the reference");
      PlanRun r;
      r.fresh_capacity = s.fresh;
      for (const auto& rec : s.rounds) r.round_capacity.push_back(rec.capacity_bits);
      r.round_capacity.push_back(s.after_subtract);
      r.round_capacity.push_back(s.after_work);
      return r;
    };
    // The session's plan at digits cc and key weight w (the planner runs it whole).
    // From the plan cache where it has it (keyed by all a plan depends on).
    auto plan_at = [&](long cc, long w, long hint, bool hint_is_plan) {
      const std::string key = msg("keystream 1|", PlanCache::engine_identity(), "|instance=", sp.id, "|blocks=", blocks,
                                  "|key=", apps::fnv1a(ks.to_bytes(cd.key)), "|m=", o.m, "|p=", sp.p, "|c=", cc,
                                  "|hwt=", w, "|seed=", o.seed, "|nonce=", o.nonce, "|counter=", o.counter,
                                  "|depth_after=", o.depth_after, rows ? "|packing=state" : "");
      if (cache)
        if (auto hit = cache->load(key)) return *hit;
      PlanBackend pb = plan_backend(1000, cc, w);
      if (hint <= 0) hint = 60 * (long(ks.program().size()) + o.depth_after) + 100;
      const ChainPlan p = plan_chain(pb, run, hint, 40000, nullptr, hint_is_plan);
      if (cache) cache->store(key, p);
      return p;
    };
    if (o.security_target > 0) {
      TargetQuery q;
      q.m = o.m, q.phi = zm.phi(), q.target = o.security_target, q.c = o.c, q.bits_hint = o.bits_hint;
      q.p = uint64_t(zm.p());
      q.weights = target_weights(o.hwt_given, o.hwt);
      q.weight_given = o.hwt_given, q.models = o.security_models;
      plan = choose_for_target(q, plan_at, &c, &hwt);
    } else {
      plan = plan_at(c, hwt, o.bits_hint, false);
    }
    if (o.bits > 0 && o.bits < plan->bits && !o.force)
      throw ParameterError(msg("--bits ", o.bits, " is below the planned chain: ", sp.id, " with --depth-after ",
                               o.depth_after, " at m=", o.m, " needs ", plan->bits, " bits (--force runs anyway)"));
    PlanBackend pb = plan_backend(o.bits > 0 ? o.bits : plan->bits, c, hwt);
    left = depth_left(pb, ks, o, cd, blocks, plan_ops);
    plan_s = pw.seconds();
    std::fprintf(stderr, "run_cipher: planned chain %ld bits for %s and %ld products after (c=%ld, hwt=%ld, security %.1f) in %.1f s\n",
                 plan->bits, sp.id.c_str(), o.depth_after, c, hwt, plan->info.security, plan_s);
  } else if (o.plan_only) {
    throw ParameterError("--plan needs --backend bgv (the clear backend has no noise)");
  }
  json out;
  out["cipher"] = o.entry->name;
  out["instance"] = CipherEntry::instance_label(sp);
  out["instance_id"] = sp.id;
  out["mode"] = "keystream";
  out["backend"] = o.backend;
  out["seed"] = o.seed;
  out["nonce"] = o.nonce;
  out["counter"] = o.counter;
  out["depth_after"] = o.depth_after;
  out["blocks"] = blocks;
  out["packing"] = o.packing;
  out["blocks_per_run_max"] = max_blocks;
  if (plan) {
    json ops = json::array();  // as run_report.cpp's plan_json: what cbparams.transcipher compares packings by
    for (const auto& c : plan_ops)
      ops.push_back({{"op", c.op}, {"primes", c.primes}, {"dropped", c.dropped}, {"count", c.count}, {"lanes", c.lanes}});
    json pj = {{"bits", plan->bits}, {"chain", plan->chain}, {"fresh_capacity_bits", plan->fresh_capacity},
               {"round_capacity_bits", plan->round_capacity}, {"min_capacity_bits", plan->min_capacity},
               {"chains_tried", plan->chains_tried}, {"choice", plan->choice}, {"seconds", plan_s},
               {"op_counts", ops}, {"op_counts_bits", o.bits > 0 ? o.bits : plan->bits},
               {"cache", cache ? json{{"dir", cache->dir()}, {"hits", cache->hits()}, {"misses", cache->misses()}}
                               : json(nullptr)}};
    out["plan"] = pj;
  }
  if (o.plan_only) {
    out["params"] = info_json(plan->info);
    out["params"].erase("name");
    out["capacity"] = {{"depth_after", o.depth_after}, {"depth_left", left}};
    std::ofstream f(o.json_path);
    f << out.dump(2) << "\n";
    if (!f) throw Error(msg("--json ", o.json_path, ": write failed"));
    return 0;
  }
  const long bits = o.bits > 0 ? o.bits : plan ? plan->bits : 0;
  Stopwatch wall;
  Session s;
  json params;
  double keygen_s = 0;
  auto take = [&](auto& b) {
    keygen_s = wall.seconds();
    s = session(b, ks, o, cd, ks_ref, blocks);
    params = info_json(b.info());
    params.erase("name");
  };
  if (o.backend == "clear") {
    if (sp.p != 2) {
      ClearBackend b(o.m, F.prime());
      take(b);
    } else {
      ClearBackend b(o.m, 1, 1);
      take(b);
    }
#ifdef CB_HAVE_HELIB
  } else if (o.backend == "helib") {
    if (bits <= 0) throw ParameterError("--bits is required with --backend helib (HElib builds its own chain for it)");
    const HelibParams hp{o.m, bits, c, hwt, o.seed};
    std::optional<HelibBackend> made;
    if (sp.p != 2) made.emplace(hp, F.prime());
    else made.emplace(hp, 1, 1);
    take(*made);
    out.update(json::parse(made->report_json()));
#endif
  } else if (o.backend == "bgv") {
    BgvParams p;
    p.m = o.m, p.bits = bits, p.c = c, p.hwt = hwt, p.seed = o.seed;
    p.secret_key_encryption = o.encryption == "secret";
    std::optional<BgvBackend> made;
    if (sp.p != 2) made.emplace(p, F.prime());
    else made.emplace(p, 1, 1);
    take(*made);
  } else {
    throw ParameterError(msg("--backend ", o.backend, ": keystream entries run on bgv, clear or helib"));
  }
  const double wall_s = wall.seconds();
  out["encryption"] = o.backend == "bgv" ? o.encryption : o.backend == "helib" ? "public" : "none";
  out["threads"] = omp_get_max_threads();
  out["params"] = params;
  out["layout"] = rows ? rows->describe(blocks)
                       : msg("one block per slot: ", ks.state_size(), " ciphertexts of state, ", blocks, " of ", ell, " slots");
  out["rotations"] = s.rotations;
  out["rotation_keys"] = s.rotation_keys;
  out["key_fingerprint"] = msg(std::hex, fnv1a(ks.to_bytes(cd.key)));
  out["keystream"] = ks.format(s.keystream0);
  if (o.backend == "bgv") out["op_profile"] = s.op_profile;
  apps::SessionShape shape;
  shape.blocks = blocks, shape.s = sp.s, shape.key_cts = s.key_cts, shape.result_cts = s.result_cts;
  shape.element_bytes = ks.element_bytes();
  shape.element_bits = F.is_prime() ? std::log2(double(F.p())) : double(F.n());
  shape.depth_after = o.depth_after, shape.depth_left = left;
  const json timings = {{"keygen_s", keygen_s}, {"wall_s", wall_s}, {"plan_s", plan_s}, {"process_s", process.seconds()}};
  return apps::finish_session_record(out, s, shape, timings, o.json_path);
}

}  // namespace cb
