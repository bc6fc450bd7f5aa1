#include "apps/ctr_run.h"

#include <nlohmann/json.hpp>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>

#include "apps/record_json.h"
#include "apps/record_sizes.h"
#include "apps/run_request.h"
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
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb {
namespace {

using json = nlohmann::json;
using apps::finite;
using apps::fnv1a;
using apps::round_json;
using Slots = std::vector<uint64_t>;

// The most products the capacity count tries beyond --depth-after.
constexpr long kMaxDepthLeft = 64;

// The client's side in the clear: the key (as block mode draws it), the public counter
// blocks, the reference keystream (the entry's encryption of them), the messages (block
// mode's plaintexts) and their symmetric ciphertexts c = m + KS.
struct Client {
  Elements key;
  std::vector<Elements> ctrs, ks, msgs, cts;
};

Client make_client(const CipherInstance& inst, long R, long blocks, const CtrRunOptions& o) {
  const Workload w = make_workload(inst, R, blocks, o.seed, o.key);
  const auto& F = inst.element_field();
  Client c;
  c.key = w.key;
  c.msgs = w.plain;
  c.ctrs.resize(size_t(blocks)), c.ks.resize(size_t(blocks));
  for_each_lane<ClearBackend>(blocks, [&](long j) {
    c.ctrs[size_t(j)] = counter_block(inst, o.nonce, o.counter + uint64_t(j));
    c.ks[size_t(j)] = inst.encrypt(c.key, c.ctrs[size_t(j)], R);
  });
  for (long j = 0; j < blocks; ++j) {
    Elements x;
    for (size_t i = 0; i < c.msgs[size_t(j)].size(); ++i) x.push_back(F.add(c.msgs[size_t(j)][i], c.ks[size_t(j)][i]));
    c.cts.push_back(std::move(x));
  }
  return c;
}

// What one session on a backend measured.
struct Session : apps::SessionStages {
  OpCounts ops;
  double autokeys_s = 0;
  long depth_left = -1;  // asked of the planner's backend only
};

// The circuit of one backend with the client's data, run as many times as asked (the
// planner runs it at every chain it tries; its constants are encoded once).
template <class B, template <class> class Rep>
class CtrSession {
 public:
  using Circuit = CipherCircuit<B, Rep>;
  using State = typename Circuit::State;
  using Ctxt = typename B::Ctxt;

  CtrSession(B& b, const CipherInstance& inst, const CtrRunOptions& o, long R, bool per_round)
      : b_(b), inst_(inst), o_(o), per_round_(per_round), circ_(b, inst, R, false, o.linear == "fused") {
    Stopwatch w;
    b.require_automorphisms(circ_.automorphisms());
    autokeys_s_ = w.seconds();
  }
  // The client's blocks (at most max_blocks()).
  void set_client(std::shared_ptr<const Client> cd) {
    cd_ = std::move(cd);
    blocks_ = long(cd_->ctrs.size());
    if (blocks_ > circ_.max_blocks())
      throw ParameterError(msg("--blocks ", blocks_, ": m=", o_.m, " holds ", circ_.max_blocks(), " blocks of ",
                               inst_.spec().id, " ", Rep<B>::kName));
    // The slots the blocks use (an element of 1 in every block, placed by the layout).
    used_.assign(size_t(b_.slot_count()), false);
    const std::vector<Elements> ones(size_t(blocks_), Elements(size_t(inst_.spec().s), 1));
    for (const auto& v : circ_.rep().block_slots(ones))
      for (size_t k = 0; k < v.size(); ++k) used_[k] = used_[k] || v[k] != 0;
  }

  const Circuit& circuit() const { return circ_; }
  long blocks() const { return blocks_; }

  // One session, every stage checked. more: count the further products the data takes
  // (depth_left; the planner's backend).
  Session run(bool more = false) {
    Session s;
    s.autokeys_s = autokeys_s_;
    const auto& rep = circ_.rep();
    Stopwatch w;
    const auto pub = circ_.encode_public(cd_->ctrs);
    s.material_s = w.lap();
    circ_.load_subkeys(inst_.subkeys(cd_->key, circ_.rounds()), per_round_);
    s.encrypt_key_s = w.lap();
    Evaluator<B> ev(b_);
    const double cpu0 = process_cpu_seconds();
    const double late0 = circ_.subkey_encrypt_seconds(), late_cpu0 = circ_.subkey_encrypt_cpu_seconds();
    w.lap();
    State st;
    try {
      s.rounds = circ_.run_public(ev, pub, st);
    } catch (const CapacityError& e) {
      throw CapacityError(msg(inst_.spec().id, " ran out of modulus capacity during the rounds (", e.what(),
                              "): use more --bits"));
    }
    // Subkeys encrypted per round are the key owner's work: out of the keystream's time.
    const double late = circ_.subkey_encrypt_seconds() - late0;
    s.keystream_s = w.lap() - late;
    s.keystream_cpu_s = process_cpu_seconds() - cpu0 - (circ_.subkey_encrypt_cpu_seconds() - late_cpu0);
    s.encrypt_key_s += late;
    s.ops = ev.counts();
    s.after_keystream = circ_.capacity(st);
    const auto got = circ_.decrypt_output(st, blocks_);
    for (long j = 0; j < blocks_; ++j) s.wrong_keystream += got[size_t(j)] != cd_->ks[size_t(j)];
    s.keystream0 = got.at(0);
    // m = c - KS: c's slot vectors added as constants (F_p: KS negated first).
    w.lap();
    const auto cs = rep.block_slots(cd_->cts);
    const bool prime = inst_.spec().p != 2;
    std::optional<typename B::Ptxt> minus_one;
    if (prime) minus_one = b_.encode(Slots(size_t(b_.slot_count()), inst_.element_field().neg(1)));
    ev.lanes(long(st.size()), [&](Evaluator<B>& e, long i) {
      if (prime) e.mul_plain(st[size_t(i)], *minus_one);
      e.add_plain(st[size_t(i)], b_.encode(cs[size_t(i)]));
    });
    s.subtract_s = w.lap();
    s.after_subtract = circ_.capacity(st);
    // The work after: y = m_0 m_1 ... m_L over the state's ciphertexts, cyclically.
    Ctxt y = st.at(0);
    for (long l = 1; l <= o_.depth_after; ++l) ev.mul(y, st[size_t(l) % st.size()]);
    s.work_after_s = w.lap();
    s.after_work = b_.capacity_bits(y);
    // A fresh ciphertext, as the key's are (capacity and size; not timed).
    const Ctxt fresh = b_.encrypt(Slots(size_t(b_.slot_count()), 0));
    s.fresh = b_.capacity_bits(fresh);
    if constexpr (!std::is_same_v<B, PlanBackend>) {  // the plaintext bits one output ciphertext carries
      const double bits = double(blocks_) * double(inst_.spec().s) * element_bits() / double(rep.ciphertexts());
      s.sizes = apps::record_sizes_json(b_, fresh, st.at(0), bits);
    }
    Stopwatch dw;
    const auto msgs = circ_.decrypt_output(st, blocks_);
    const auto yv = b_.decrypt(y);
    s.decrypt_s = dw.seconds();
    for (long j = 0; j < blocks_; ++j) s.wrong_msgs += msgs[size_t(j)] != cd_->msgs[size_t(j)];
    const auto want = work_after_clear(rep.block_slots(cd_->msgs));
    for (size_t k = 0; k < used_.size(); ++k) s.wrong_work += used_[k] && yv[k] != want[k];
    if (more) {
      long n = 0;
      for (; n < kMaxDepthLeft; ++n) {
        Ctxt z = y;
        ev.mul(z, st[size_t(o_.depth_after + 1 + n) % st.size()]);
        if (!(b_.capacity_bits(z) >= 0)) break;
        y = std::move(z);
      }
      s.depth_left = n;
    }
    return s;
  }

 private:
  // Bits of one element of the instance (n, log2 p).
  double element_bits() const {
    return inst_.spec().p != 2 ? std::log2(double(inst_.spec().p)) : double(inst_.spec().n);
  }
  // The clear products y = v_0 v_1 ... v_L slot by slot, v the messages' slot vectors.
  Slots work_after_clear(const std::vector<Slots>& v) const {
    Slots y = v.at(0);
    const auto& F = inst_.element_field();
    for (long l = 1; l <= o_.depth_after; ++l) {
      const Slots& x = v[size_t(l) % v.size()];
      for (size_t k = 0; k < y.size(); ++k) y[k] = Rep<B>::kBits ? (y[k] & x[k]) : F.mul(y[k], x[k]);
    }
    return y;
  }

  B& b_;
  const CipherInstance& inst_;
  const CtrRunOptions& o_;
  std::shared_ptr<const Client> cd_;
  bool per_round_;
  Circuit circ_;
  long blocks_ = 0;
  double autokeys_s_ = 0;
  std::vector<bool> used_;
};

// The blocks a run takes: --blocks, else all the ring holds in the packing (packed: at
// most floor(ell / s) before the layout is chosen; the circuit checks the exact count).
long blocks_bound(const CtrRunOptions& o, long ell) {
  if (o.blocks) return o.blocks;
  return o.packing == "packed" ? ell / o.spec->s : ell;
}

template <template <class> class Rep>
int run_rep(const CtrRunOptions& o) {
  const Stopwatch process;
  const auto inst_ptr = o.entry->make(*o.spec);
  const CipherInstance& inst = *inst_ptr;
  const auto& sp = inst.spec();
  const long R = o.rounds ? o.rounds : sp.rounds;
  const bool bits_rep = Rep<PlanBackend>::kBits;
  const long slot_n = bits_rep ? 1 : sp.p != 2 ? 1 : sp.n;
  const uint64_t slot_f_low = bits_rep ? 1 : sp.p != 2 ? 0 : sp.f_low;
  apps::check_writable(o.json_path);
  // The planner's backend: its circuit decides the blocks (all the layout holds).
  long c = o.c, hwt = o.hwt;  // the run's digits and key weight (--security-target chooses them)
  auto make_plan_backend = [&](long cc, long w) {
    PlanParams pp;
    pp.m = o.m, pp.bits = 1000, pp.c = cc, pp.hwt = w, pp.seed = o.seed;
    return sp.p != 2 ? PlanBackend(pp, inst.element_field().prime()) : PlanBackend(pp, slot_n, slot_f_low);
  };
  PlanBackend pb = make_plan_backend(c, hwt);
  using S = CtrSession<PlanBackend, Rep>;
  S sess(pb, inst, o, R, false);  // the planner's noise does not depend on when subkeys are encrypted
  const long blocks = o.blocks ? o.blocks : sess.circuit().max_blocks();
  if (const std::string why = ctr_refusal(inst, o.nonce, o.counter, blocks); !why.empty()) throw ParameterError(why);
  const auto cd = std::make_shared<const Client>(make_client(inst, R, blocks, o));
  sess.set_client(cd);
  const long subkey_cts = sess.circuit().subkey_ciphertexts();

  // The plan (BGV): the least chain on which the whole session, work after included, holds.
  std::optional<ChainPlan> plan;
  long left = -1;
  double plan_s = 0;
  std::optional<PlanCache> cache;
  if (!o.plan_cache.empty()) cache.emplace(o.plan_cache);
  if (o.backend == "bgv") {
    Stopwatch pw;
    auto to_run = [](const Session& s) {
      if (s.wrong_keystream || s.wrong_msgs || s.wrong_work)
        throw Error("chain planner: the CTR session's clear evaluation differs from the reference");
      PlanRun r;
      r.fresh_capacity = s.fresh;
      for (const auto& rec : s.rounds) r.round_capacity.push_back(rec.capacity_bits);
      r.round_capacity.push_back(s.after_subtract);
      r.round_capacity.push_back(s.after_work);
      return r;
    };
    // The session's plan at digits cc and key weight w, from the cache where it has it.
    auto plan_at = [&](long cc, long w, long hint, bool hint_is_plan) {
      const std::string key =
          msg("ctr 1|", PlanCache::engine_identity(), "|instance=", sp.id, "|packing=", o.packing, "|linear=", o.linear,
              "|rounds=", R, "|blocks=", blocks, "|key=", fnv1a(inst.to_bytes(cd->key)), "|m=", o.m, "|p=", sp.p,
              "|c=", cc, "|hwt=", w, "|seed=", o.seed, "|nonce=", o.nonce, "|counter=", o.counter,
              "|depth_after=", o.depth_after);
      if (cache)
        if (auto hit = cache->load(key)) return *hit;
      PlanBackend b = make_plan_backend(cc, w);
      S ss(b, inst, o, R, false);
      ss.set_client(cd);
      auto lanes = [&]() {
        auto lb = b.lane();
        auto ls = std::make_shared<S>(*lb, inst, o, R, false);
        ls->set_client(cd);
        return PlanLane{lb, [ls, to_run](PlanBackend&) { return to_run(ls->run()); }};
      };
      if (hint <= 0) hint = 150 * R + 60 * o.depth_after + 100;
      const ChainPlan p = plan_chain(b, [&](PlanBackend&) { return to_run(ss.run()); }, hint, 40000, lanes, hint_is_plan);
      if (cache) cache->store(key, p);
      return p;
    };
    if (o.security_target > 0) {
      TargetQuery q;
      q.m = o.m, q.phi = o.ring->zmstar().phi(), q.target = o.security_target, q.c = o.c;
      q.p = uint64_t(o.ring->zmstar().p());
      q.weights = target_weights(o.hwt_given, o.hwt);
      q.weight_given = o.hwt_given, q.bits_hint = o.bits_hint, q.models = o.security_models;
      plan = choose_for_target(q, plan_at, &c, &hwt);
    } else {
      plan = plan_at(c, hwt, o.bits_hint, false);
    }
    if (o.bits > 0 && o.bits < plan->bits && !o.force)
      throw ParameterError(msg("--bits ", o.bits, " is below the planned chain: ", R, " rounds of ", sp.id,
                               " in CTR mode with --depth-after ", o.depth_after, " at m=", o.m, " need ", plan->bits,
                               " bits (--force runs anyway)"));
    PlanBackend at = make_plan_backend(c, hwt);  // the run's digits and weight, at its chain
    at.set_bits(o.bits > 0 ? o.bits : plan->bits);
    S chosen(at, inst, o, R, false);
    chosen.set_client(cd);
    left = chosen.run(true).depth_left;
    plan_s = pw.seconds();
    std::fprintf(stderr,
                 "run_cipher: planned chain %ld bits for %s in CTR mode and %ld products after (security %.1f) in %.1f s%s\n",
                 plan->bits, sp.id.c_str(), o.depth_after, plan->info.security, plan_s,
                 cache && cache->hits() ? " (from the plan cache)" : "");
  } else if (o.plan_only) {
    throw ParameterError("--plan needs --backend bgv (the clear backend has no noise)");
  }
  const long bits = o.bits > 0 ? o.bits : plan ? plan->bits : 0;
  const auto [per_round, why] =
      o.subkey_policy ? o.subkey_policy(subkey_cts, bits) : std::pair<bool, std::string>{false, "default"};

  json out;
  out["cipher"] = o.entry->name;
  out["instance"] = CipherEntry::instance_label(sp);
  out["instance_id"] = sp.id;
  out["mode"] = "ctr";
  out["packing"] = o.packing;
  out["linear"] = o.linear;
  out["direction"] = "encrypt";
  out["rounds"] = R;
  out["rounds_spec"] = sp.rounds;
  out["backend"] = o.backend;
  out["seed"] = o.seed;
  out["nonce"] = o.nonce;
  out["counter"] = o.counter;
  out["counter_block"] = inst.format(cd->ctrs.at(0));
  out["depth_after"] = o.depth_after;
  out["blocks"] = blocks;
  if (plan)
    out["plan"] = {{"bits", plan->bits},
                   {"chain", plan->chain},
                   {"fresh_capacity_bits", plan->fresh_capacity},
                   {"round_capacity_bits", plan->round_capacity},
                   {"min_capacity_bits", plan->min_capacity},
                   {"chains_tried", plan->chains_tried},
                   {"choice", plan->choice},
                   {"seconds", plan_s},
                   {"cache", cache ? json{{"dir", cache->dir()}, {"hits", cache->hits()}, {"misses", cache->misses()}}
                                   : json(nullptr)}};
  if (o.plan_only) {
    out["params"] = info_json(plan->info);
    out["params"].erase("name");
    out["capacity"] = {{"depth_after", o.depth_after}, {"depth_left", left}};
    std::ofstream f(o.json_path);
    f << out.dump(2) << "\n";
    if (!f) throw Error(msg("--json ", o.json_path, ": write failed"));
    return 0;
  }

  Stopwatch wall;
  Session s;
  json params;
  double keygen_s = 0;
  long max_blocks = 0, autos = 0, state_cts = 0;
  std::string layout;
  auto take = [&](auto& b) {
    keygen_s = wall.seconds();
    using B = std::decay_t<decltype(b)>;
    CtrSession<B, Rep> sess(b, inst, o, R, per_round);
    sess.set_client(cd);
    s = sess.run();
    keygen_s += s.autokeys_s;
    max_blocks = sess.circuit().max_blocks();
    state_cts = sess.circuit().rep().ciphertexts();
    autos = long(sess.circuit().automorphisms().size());
    layout = sess.circuit().describe();
    params = info_json(b.info());
    params.erase("name");
  };
  if (o.backend == "clear") {
    if (sp.p != 2) {
      ClearBackend b(o.m, inst.element_field().prime());
      take(b);
    } else {
      ClearBackend b(o.m, slot_n, slot_f_low);
      take(b);
    }
#ifdef CB_HAVE_HELIB
  } else if (o.backend == "helib") {
    if (bits <= 0) throw ParameterError("--bits is required with --backend helib (HElib builds its own chain for it)");
    const HelibParams hp{o.m, bits, c, hwt, o.seed};
    std::optional<HelibBackend> made;
    if (sp.p != 2) made.emplace(hp, inst.element_field().prime());
    else made.emplace(hp, slot_n, slot_f_low);
    take(*made);
    out.update(json::parse(made->report_json()));
#endif
  } else if (o.backend == "bgv") {
    BgvParams p;
    p.m = o.m, p.bits = bits, p.c = c, p.hwt = hwt, p.seed = o.seed;
    p.secret_key_encryption = o.encryption == "secret";
    std::optional<BgvBackend> made;
    if (sp.p != 2) made.emplace(p, inst.element_field().prime());
    else made.emplace(p, slot_n, slot_f_low);
    take(*made);
  } else {
    throw ParameterError(msg("--backend ", o.backend, ": --mode ctr runs on bgv, clear or helib"));
  }
  const double wall_s = wall.seconds();
  out["encryption"] = o.backend == "bgv" ? o.encryption : o.backend == "helib" ? "public" : "none";
  out["threads"] = omp_get_max_threads();
  out["params"] = params;
  out["blocks_per_run_max"] = max_blocks;
  out["layout"] = layout;
  out["automorphism_keys"] = autos;
  out["subkeys"] = {{"encrypted", per_round ? "per round" : "up front"}, {"ciphertexts", subkey_cts}, {"why", why}};
  out["key_fingerprint"] = msg(std::hex, fnv1a(inst.to_bytes(cd->key)));
  out["keystream"] = inst.format(s.keystream0);
  out["ops"] = s.ops.as_map();
  apps::SessionShape shape;
  shape.blocks = blocks, shape.s = sp.s, shape.key_cts = subkey_cts, shape.result_cts = state_cts;
  shape.element_bytes = inst.element_bytes();
  shape.element_bits = sp.p != 2 ? std::log2(double(sp.p)) : double(sp.n);
  shape.depth_after = o.depth_after, shape.depth_left = left;
  shape.wrong_unit = "slots";
  const json timings = {{"keygen_s", keygen_s}, {"wall_s", wall_s}, {"plan_s", plan_s}, {"process_s", process.seconds()}};
  return apps::finish_session_record(out, s, shape, timings, o.json_path);
}

}  // namespace

void check_ctr(const CtrRunOptions& o) {
  const auto& sp = *o.spec;
  if (o.entry->keystream())
    throw ParameterError(msg(o.entry->name, " is a keystream generator: it runs in CTR mode by itself (no --mode needed)"));
  if (o.m <= 0) throw ParameterError("--m is required (the cyclotomic index of the ring)");
  if (!o.ring) throw Error("check_ctr: CtrRunOptions::ring is not set (the run's ring, apps/run_request.h)");
  if (o.depth_after < 0 || o.depth_after > 1000)
    throw ParameterError(msg("--depth-after ", o.depth_after, ": the products after the keystream are 0..1000"));
  const auto inst = o.entry->make(sp);
  const long R = o.rounds ? o.rounds : sp.rounds;
  const std::string why =
      ctr_program_refusal(compile_program(*inst, R, false, false, o.packing == kBitSliced));
  if (!why.empty()) throw ParameterError(msg(o.entry->name, " ", sp.id, ": ", why));
  const ZmStar& zm = o.ring->zmstar();  // the run's: ZmStar(m, p), p = 2 for GF(2^n)
  const long ell = o.packing == kBitSliced || sp.p != 2 || zm.d() % sp.n == 0 ? zm.ell() : 0;
  const long blocks = blocks_bound(o, ell);
  if (blocks >= 1)
    if (const std::string w = ctr_refusal(*inst, o.nonce, o.counter, blocks); !w.empty()) throw ParameterError(w);
}

int run_ctr(const CtrRunOptions& o) {
  check_ctr(o);
  if (o.packing == "packed") return run_rep<PackedRep>(o);
  if (o.packing == kBitSliced) return run_rep<BitSlicedRep>(o);
  return run_rep<SlicedRep>(o);
}

}  // namespace cb
