// run_cipher: a cipher of the catalog evaluated homomorphically, with per-round timings.
//
//   run_cipher --cipher NAME [--field-bits n] [--state-size s] [--rounds R]
//              [--packing {packed|sliced|byte-sliced|bit-sliced}] [--linear {fused|separate}]
//              --m M [--bits B] [--c C] [--hwt H]
//              [--key HEX] [--plaintext HEX] [--blocks K] [--seed S] [--decrypt]
//              [--backend {bgv|clear}] [--plan] --json OUT
//   run_cipher --list-ciphers --json OUT      the catalog (apps/catalog_json.h)
//   run_cipher --cipher NAME --p P | --instance ID ...   a prime-field instance (bgv or clear)
//   run_cipher --cipher NAME --mode ctr [--nonce N] [--counter C] [--depth-after L] ...
//   run_cipher --cipher pasta|hera|rasta ...   a keystream entry (apps/keystream_run.h)
//
// --mode block (a block cipher's default) encrypts the key and the blocks and runs the
// cipher on both, as below. --mode ctr is transciphering (apps/ctr_run.h): block j's
// keystream is E_k(ctr_j), ctr_j the counter block of (nonce, counter + j) (harness.h:
// nonce 2^64 + counter + j in big-endian digits of the field; AES-128: SP 800-38A's
// nonce || counter, OpenSSL's AES-128-CTR IV); the counter blocks stay public (round 1's
// whitening AddKey is the encrypted subkey 0 plus them as constants), the key schedule is
// encrypted, and the keystream is subtracted from the public symmetric ciphertext, then
// --depth-after L products; the keystream entries' record fields with mode "ctr".
// --decrypt, --plaintext, --measure-noise and (for now) --security-target are refused
// there; a keystream entry takes --mode ctr or none, and refuses --mode block.
//
// The cipher is an entry of the catalog (ciphers/catalog/catalog.h); --field-bits and
// --state-size pick one of its instances (default: its first), and the generic circuit
// (ciphers/catalog/circuit.h) evaluates its description. "sliced" and "byte-sliced" name
// the one-ciphertext-per-element packing of every cipher; "bit-sliced" (one ciphertext per
// state bit, a block per slot: ciphers/common/bit_sliced.h) runs the entry's rounds on
// bits where it offers them (catalog.h packings()); its slots hold bits, so the backend's
// field is GF(2) and any ring m will do.
//
// The chain (BGV): the planner (backend/chain_planner.h) runs the same circuit on clear
// slots with the engine's noise bounds beside them and finds the least chain on which no
// bound reaches its modulus. --plan writes that plan (params as a run would report them,
// the planned bits per round and capacity after each round) and stops; without --bits the
// run uses the planned chain; a --bits below the plan is refused with the plan's figure
// (--force runs anyway). For a seeded run the plan knows the run's secret key and
// predicts its capacity per round exactly ("plan" in the run's JSON).
// --security-target T picks the key-switching digits c: the fewest (from --c up) whose
// planned chain reaches T bits by HElib's formula (c sets the special primes P, which the
// formula counts), and says why in plan.choice.
// Progress: one line per round on stderr (seconds, capacity left, ETA).
//
// One cipher key per run (the round keys are expanded in the clear and encrypted, as the
// papers did: --subkeys up-front all before the rounds, per-round each before the round
// that adds it, auto per round when all would take over a quarter of the memory; per
// round, their encryption is counted in encrypt_keys_s, not in the rounds). Block 0 is --plaintext when given; the other blocks, and the key when
// --key is absent, come from a generator seeded by --seed. --blocks defaults to what the
// ciphertext(s) hold. The key and blocks are encrypted with the secret key, as their owner
// would (--encryption public: with the public key; engine/bgv/encryptor.h). With --decrypt the circuit is the inverse cipher: the reference
// encrypts the plaintext blocks in the clear, those ciphertexts are FHE-encrypted, and
// the circuit must return the plaintexts (AES transciphering).
//
// Every run decrypts every block and compares it with the plaintext reference
// (ciphers/reference, itself checked against the test vectors). When any block differs,
// "correct" is false, the timings move under "invalid_timings" and the exit status is 2.
// A prime-field instance (F_p, p > 2: --p P with --cipher, or --instance ID such as
// mimcp17) runs on the engine at plaintext modulus p (BgvBackend's F_p slots: the ring m
// must be one Context takes at p, odd or m = 2^k; for p = 1 mod m every one of the m/2
// slots is F_p), planned as at p = 2 (the planner's bounds at p, the plaintext factor
// tracked: --plan, --security-target), on --backend clear, and on --backend helib (HElib's
// context at .p(p), HelibBackend(HelibParams, PrimeField); --bits required as at p = 2). Its
// --key and --plaintext are decimal elements mod p, comma-separated, and its record has
// plaintext, input, ciphertext, expected (decimal) and p in place of the *_hex fields;
// params.p is the plaintext modulus (2 for GF(2^n) instances) in every record.
// Errors (bad arguments, a ring that cannot hold the cipher, a chain too short for the
// rounds, running out of capacity) print one message on stderr, write no JSON and exit 1.
// Neither the cipher key nor any FHE secret is written; the JSON has a fingerprint of
// the cipher key (FNV-1a, 64 bits) to tell runs apart.
//
// --linear fused evaluates each affine map of the S-box with the linear layer next to it as
// one map (ciphers/common/slot_linear.h): one layer of constant products, so a shorter
// chain, for more key switches; separate (the default) times them apart, as the paper's
// Table 1.
//
// JSON: cipher, instance ("GF(2^8)^16"), instance_id (the catalog's id, e.g. vision8), packing, linear, direction, rounds (rounds_spec: the
// cipher's own count), backend, encryption (secret, public; none on the clear backend), threads, params{p, m, phi, d, slots, bits, c, hwt, log2_q,
// log2_q_ct, log2_p, security}, blocks, blocks_per_run_max, layout, automorphism_keys,
// subkeys{encrypted ("up front" or "per round"), ciphertexts, why},
// timings{setup_s (backend and circuit setup, key generation and round-key encryption
// included), keygen_s, encrypt_keys_s, encrypt_input_s, total_s (all rounds), total_cpu_s
// (the rounds' process CPU time, all threads),
// decrypt_s, wall_s (from the backend's construction), plan_s (the chain planner's share
// before it, ~0 from the plan cache), process_s (the whole process)}, per_round[{round, seconds, capacity_bits, ops{step: seconds},
// counts{mul, mul_plain, add, add_plain, automorph}}], ops (counts over the run),
// op_profile[{op, primes, dropped, count, seconds}] (BGV: each engine step's own wall
// time in the rounds, under the planner's names, lanes' times added: engine/bgv/op_profile.h), fresh_capacity_bits,
// plaintext_hex, input_hex, ciphertext_hex (the output block 0), expected_hex,
// key_fingerprint, wrong_blocks, correct, plan{bits, bits_per_round, round_capacity_bits,
// chain, op_counts[{op, primes, dropped, count, lanes}] (the rounds' engine operations at the
// chain op_counts_bits, the run's: PlanBackend::OpCount), seconds} (BGV).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iomanip>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "apps/catalog_json.h"
#include "apps/record_json.h"
#include "apps/ctr_run.h"
#include "apps/keystream_run.h"
#include "apps/security_target.h"
#include "apps/memory_json.h"
#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/plan_cache.h"
#include "backend/backend_json.h"
#include "backend/clear_backend.h"
#ifdef CB_HAVE_HELIB
#include "backend/helib_backend.h"
#endif
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "ciphers/reference/hex.h"
#include "engine/algebra/zmstar.h"
#include "engine/bgv/chain.h"
#include "engine/bgv/memory.h"
#include "engine/bgv/security_model.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb {
namespace {

using json = nlohmann::json;
using apps::finite;
using apps::fnv1a;
using apps::round_json;

struct Options {
  std::string cipher, instance, packing = "packed", backend = "bgv", key_hex, pt_hex, json_path;
  uint64_t p = 0;                   // --p: a prime-field instance's characteristic (0: GF(2^n))
  std::string linear = "separate";  // the affine maps evaluated apart, or fused with the linear layer
  std::string plan_cache;           // directory of plans kept between runs (empty: none; backend/plan_cache.h)
  std::string subkeys = "auto";     // up-front, per-round, or auto (per round when they would not fit)
  std::string encryption = "secret";  // BGV: the key and blocks encrypted with the secret or the public key
  long n = 0, s = 0, rounds = -1, m = 0, bits = 0, c = 3, hwt = 120, blocks = 0, threads = 0;
  long bits_hint = 0;               // the planner's first chain to try (0: from the rounds)
  bool hint_is_plan = false;        // bits_hint is this circuit's plan at other digits (chain_planner.h)
  double security_target = 0, max_memory_gb = 0;
  uint64_t seed = 1;
  bool decrypt = false, force = false, corrupt_output = false, plan = false, allow_insecure = false;
  bool measure_noise = false, list_ciphers = false;
  bool hwt_given = false;  // --hwt on the command line: --security-target keeps it
  std::vector<std::string> security_models{"helib"};  // --security-models (engine/bgv/security_model.h)
  uint64_t nonce = 0, counter = 0;  // a keystream entry's or CTR run's first block (apps/keystream_run.h, ctr_run.h)
  long depth_after = 0;             // products after the keystream the chain must hold
  std::string mode;                 // --mode: block or ctr (empty: the entry's own, block or keystream)
};

// The cipher instance of a run, in the clear: its catalog entry and constants.
struct Instance {
  const CipherEntry* entry = nullptr;
  const InstanceSpec* spec = nullptr;
  std::shared_ptr<const CipherInstance> ref;
  long n = 0, s = 0;   // field degree, elements per block
  uint64_t f_low = 0;
  long slot_n = 0;     // the backend's field GF(2^slot_n) mod x^slot_n + slot_f_low: the
  uint64_t slot_f_low = 0;  // instance's, or GF(2) for bit-sliced (slots hold bits)
  long rounds = 0;
  std::string name;    // "GF(2^8)^16"
  std::string display; // "AES-128 GF(2^8)^16", "Vision GF(2^8)^16" (messages)
};

Instance make_instance(const Options& o) {
  Instance in;
  if (!o.instance.empty()) {  // --instance ID: the entry and instance at once
    std::tie(in.entry, in.spec) = find_instance_id(o.instance);
    if (!o.cipher.empty() && o.cipher != in.entry->name)
      throw ParameterError(msg("--instance ", o.instance, " is ", in.entry->name, "'s, not --cipher ", o.cipher, "'s"));
    if (o.n || o.s || o.p)
      throw ParameterError(msg("--instance ", o.instance, " names the instance: drop --field-bits, --state-size and --p"));
  } else {
    in.entry = &find_cipher(o.cipher);
    in.spec = &find_instance(*in.entry, o.n, o.s, o.p);
  }
  in.ref = in.entry->make(*in.spec);
  in.n = in.spec->n, in.s = in.spec->s, in.f_low = in.spec->f_low, in.rounds = in.spec->rounds;
  const bool bits = packing_name(*in.entry, o.packing) == kBitSliced;
  in.slot_n = bits ? 1 : in.n, in.slot_f_low = bits ? 1 : in.f_low;
  in.name = CipherEntry::instance_label(*in.spec);
  in.display = in.entry->display + " " + in.name;
  if (in.spec->p != 2) in.slot_n = 1, in.slot_f_low = 0;  // F_p in the slots (no bits to slice: refused)
  if (o.rounds != -1) {
    if (o.rounds < 1 || o.rounds > in.rounds)
      throw ParameterError(msg("--rounds ", o.rounds, ": ", in.entry->name, " ", in.name, " has 1..", in.rounds));
    in.rounds = o.rounds;
  }
  return in;
}

const std::string& display(const Instance& in) { return in.display; }

// The ring must hold the cipher's field (bit-sliced: GF(2), any ring) and, packed, one
// block per ciphertext.
void check_ring(const Options& o, const Instance& in, const ZmStar& zm) {
  if (zm.d() % in.slot_n != 0)
    throw ParameterError(msg("m=", o.m, " has d=", zm.d(), " (slots GF(2^", zm.d(), ")): GF(2^", in.slot_n, ") needs ", in.slot_n,
                             " | d"));
  if (o.packing == "packed" && zm.ell() < in.s)
    throw ParameterError(msg("m=", o.m, " has ", zm.ell(), " slots: ", display(in), " packed needs ", in.s,
                             " per block"));
}

double peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) * 1024;  // Linux: kilobytes
}

// Peak resident memory once keys, subkeys and inputs are ready (before the rounds).
double peak_rss_setup = 0;

json params_json(const BackendInfo& i) {  // the record's "params": the backend's fields but its name
  json j = info_json(i);
  j.erase("name");
  return j;
}
template <class B>
json params_json(const B& b) {
  return params_json(b.info());
}
json params_json(const ChainPlan& p) { return params_json(p.info); }

template <class B>
double keygen_seconds(const B& b) {
  if constexpr (!std::is_same_v<B, ClearBackend>) return b.keygen_seconds();
  return 0;
}

// The run's circuit and workload on a backend.
// --key or --plaintext in the instance's byte codec (hex, or F_p's decimal elements).
std::vector<uint8_t> input_bytes(const Instance& in, const std::string& text, long count, const std::string& what) {
  if (text.empty()) return {};
  if (in.spec->p == 2) return from_hex(text, what);
  return in.ref->to_bytes(in.ref->parse(text, count, what));
}

template <class B, template <class> class Rep>
CipherHarness<B, Rep> make_harness(B& b, const Options& o, const Instance& in) {
  const auto key = input_bytes(in, o.key_hex, in.spec->key_elements, "--key");
  const auto pt = input_bytes(in, o.pt_hex, in.s, "--plaintext");
  return CipherHarness<B, Rep>(b, *in.ref, in.rounds, o.decrypt, o.linear == "fused", o.blocks, o.seed, key, pt,
                               display(in));
}

// process_cpu_seconds (round_record.h), the CPU time of the whole process: with one thread,
// the rounds' own cost even when other jobs share the cores (what the cost model, fitted on
// CPU time, predicts).

// The plans of this process: looked up and stored by plan_circuit (--plan-cache).
std::optional<PlanCache> plan_cache;

json plan_json(const ChainPlan& p, double seconds) {
  json ops = json::array();
  for (const auto& c : p.op_counts)
    ops.push_back({{"op", c.op}, {"primes", c.primes}, {"dropped", c.dropped}, {"count", c.count}, {"lanes", c.lanes}});
  return {{"bits", p.bits},
          {"bits_per_round", p.bits_per_round},
          {"fresh_capacity_bits", p.fresh_capacity},
          {"round_capacity_bits", p.round_capacity},
          {"min_capacity_bits", p.min_capacity},
          // The bounds' failure probability (noise.h): every random term of the run, and the
          // error bound of every key (the automorphism keys, relinearization, public key),
          // fails with probability at most 2^-kappa: a union bound over all of them.
          {"random_terms", p.random_terms},
          {"log2_failure_probability",
           std::log2(double(p.random_terms + p.keys + 2)) - double(bgv::NoiseModel::kKappa)},
          {"chain", p.chain},
          {"chains_tried", p.chains_tried},
          {"choice", p.choice},
          {"op_counts", ops},
          {"op_counts_bits", p.op_counts_bits},
          {"seconds", seconds},
          // hits: plans this process read from the cache (0: it planned; seconds is then the
          // planning's own time), misses: plans it computed and stored
          {"cache", plan_cache ? json{{"dir", plan_cache->dir()}, {"hits", plan_cache->hits()},
                                      {"misses", plan_cache->misses()}}
                               : json(nullptr)}};
}

// Everything a plan depends on (backend/plan_cache.h), as the cache's key; blocks: the
// run's count, 0 for all the ciphertexts hold (fixed by the instance, packing and ring, so
// that without --blocks a plan is found before the circuit is built).
std::string plan_key(const Options& o, const Instance& in, long blocks) {
  return msg("plan 2|", PlanCache::engine_identity(), "|instance=", in.spec->id, "|packing=", o.packing,
             "|linear=", o.linear, "|rounds=", in.rounds, "|direction=", o.decrypt ? "decrypt" : "encrypt",
             "|blocks=", blocks, "|key=", o.key_hex, "|plaintext=", o.pt_hex, "|m=", o.m, "|p=", in.spec->p, "|c=", o.c,
             "|hwt=", o.hwt, "|seed=", o.seed);
}

// The planner's backend for the run's ring and slot field (F_p at a prime-field instance).
PlanBackend plan_backend(const PlanParams& pp, const Instance& in) {
  if (in.spec->p != 2) return PlanBackend(pp, in.ref->element_field().prime());
  return PlanBackend(pp, in.slot_n, in.slot_f_low);
}

// The plans this process made or read, by plan_key: --security-target asks again for the
// plan it chose (at the digits and weight it first planned).
std::map<std::string, ChainPlan> plans_this_process;

// The planned chain for the run's circuit, ring, digits, key weight and seed (from this
// process's plans or the plan cache when they have it).
template <template <class> class Rep>
ChainPlan plan_circuit(const Options& o, const Instance& in) {
  std::string key;
  std::optional<ChainPlan> cached;
  auto look_up = [&](long blocks) {
    key = plan_key(o, in, blocks);
    if (const auto it = plans_this_process.find(key); it != plans_this_process.end()) cached = it->second;
    else if (plan_cache) cached = plan_cache->load(key);
    return cached && o.bits <= cached->bits;  // a plan covers any --bits up to its chain
  };
  // Without --blocks, the plan is looked up before the circuit is built (encoding its
  // constants on the planner's backend took 0.5 to 1.5 s of a run at the papers' rings).
  if (o.blocks == 0 && look_up(0)) {
    plans_this_process.emplace(key, *cached);
    return std::move(*cached);
  }
  PlanParams pp;
  pp.m = o.m, pp.bits = 1000, pp.c = o.c, pp.hwt = o.hwt, pp.seed = o.seed;
  PlanBackend b = plan_backend(pp, in);
  auto h = make_harness<PlanBackend, Rep>(b, o, in);
  // --blocks naming every block the ciphertexts hold is the same circuit as none.
  if (o.blocks != 0 && look_up(h.blocks == h.circ.max_blocks() ? 0 : h.blocks)) {
    plans_this_process.emplace(key, *cached);
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
    const long hint = o.bits_hint > 0 ? o.bits_hint : 150 * in.rounds + 100;
    p = plan_chain(b, run, hint, 40000, lanes, o.bits_hint > 0 && o.hint_is_plan);
    p.keys = long(h.autos.size()) + 1;  // the automorphisms' and the relinearization key
    // The operations the run will do: plan_chain's last run is at the planned chain.
    p.op_counts_bits = p.bits;
    p.op_counts = b.op_counts();
    if (plan_cache) plan_cache->store(key, p);
  }
  plans_this_process.emplace(key, p);
  // A longer --bits runs the circuit once more at that chain (more primes per operation).
  if (o.bits > p.bits) {
    b.set_bits(o.bits);
    run(b);
    p.op_counts_bits = o.bits;
    p.op_counts = b.op_counts();
  }
  return p;
}

ChainPlan plan_for(const Options& o, const Instance& in) {
  if (o.packing == "packed") return plan_circuit<PackedRep>(o, in);
  if (o.packing == kBitSliced) return plan_circuit<BitSlicedRep>(o, in);
  return plan_circuit<SlicedRep>(o, in);
}

// --security-target T: the digits c and, unless --hwt was given, the key weight of the
// cheapest run that reaches T by HElib's formula (apps/security_target.h says how), this
// circuit planned at each (c, hwt) asked; o.c and o.hwt become the choice.
ChainPlan choose_for_target(Options& o, const Instance& in) {
  TargetQuery q;
  q.m = o.m, q.phi = ZmStar(o.m, long(in.spec->p)).phi(), q.target = o.security_target, q.c = o.c;
  q.weights = o.hwt_given ? std::vector<long>{o.hwt} : std::vector<long>{120, 150, 200, 300};
  q.weight_given = o.hwt_given, q.bits_hint = o.bits_hint, q.hint_is_plan = o.hint_is_plan;
  q.models = o.security_models;
  // Each weight's planner, and the re-plan at other digits, build their backends on one
  // ring's slot CRT, encodings and permutations, made once, when a plan is first computed
  // (PlanRing::keep: none when every plan is cached).
  const auto keep_ring = PlanRing::keep(o.m, in.slot_n, in.slot_f_low, in.spec->p);
  auto plan = [&](long c, long hwt, long hint, bool hint_is_plan) {
    Options ow = o;
    ow.c = c, ow.hwt = hwt, ow.bits_hint = hint, ow.hint_is_plan = hint_is_plan;
    return plan_for(ow, in);
  };
  return choose_for_target(q, plan, &o.c, &o.hwt);
}

// MemAvailable of /proc/meminfo in bytes, 0 when unknown.
double available_memory_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  double kb;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

// The bytes a run may hold: --max-memory-gb, else the memory available (0 when unknown).
double memory_allowed(const Options& o) {
  return o.max_memory_gb > 0 ? o.max_memory_gb * 1e9 : available_memory_bytes();
}

// A fresh ciphertext's bytes at the run's chain (BGV; 0 when unknown), set by run().
double fresh_ciphertext_bytes = 0;

// Whether the subkeys are encrypted per round (circuit.h), and why: --subkeys, or (auto)
// per round when holding all of them would take more than a quarter of the memory
// available (the state, the keys and the temporaries need the rest).
std::pair<bool, std::string> subkey_policy(const Options& o, long ciphertexts) {
  if (o.subkeys == "up-front") return {false, "--subkeys up-front"};
  if (o.subkeys == "per-round") return {true, "--subkeys per-round"};
  const double bytes = double(ciphertexts) * fresh_ciphertext_bytes;
  const double avail = memory_allowed(o);
  const std::string size = msg(ciphertexts, " ciphertexts, about ", std::fixed, std::setprecision(1), bytes / 1e9,
                               " GB, against ", avail / 1e9, " GB ", o.max_memory_gb > 0 ? "allowed" : "available");
  if (bytes > 0 && avail > 0 && bytes > avail / 4) return {true, "all subkeys at once: " + size + " (over a quarter)"};
  if (bytes > 0 && avail > 0) return {false, "all subkeys at once: " + size};
  return {false, "default (memory not estimated for this backend)"};
}

// Builds the circuit, runs it and fills `out`; returns whether every block was right.
template <template <class> class Rep, class B>
bool run_circuit(B& b, const Options& o, const Instance& in, const Stopwatch& wall, double backend_s, json& out) {
  Stopwatch setup;
  auto h = make_harness<B, Rep>(b, o, in);
  auto* circ = &h.circ;
  const long blocks = h.blocks;
  const auto& autos = h.autos;
  const Workload& w = h.w;
  const auto& inputs = h.inputs();
  const auto& expected = h.expected();
  const auto [late_keys, subkeys_why] = subkey_policy(o, circ->subkey_ciphertexts());
  Stopwatch keys_watch;
  h.load_keys(late_keys);
  double encrypt_keys_s = keys_watch.seconds();
  const double setup_s = backend_s + setup.seconds();

  Stopwatch enc_watch;
  auto st = h.encrypt_inputs();
  const double encrypt_input_s = enc_watch.seconds();
  peak_rss_setup = peak_rss_bytes();
  const double fresh_capacity = circ->capacity(st);

  Evaluator<B> ev(b);
  if constexpr (std::is_same_v<B, BgvBackend>) b.reset_op_profile();  // the rounds' steps only
  const double eval_cpu0 = process_cpu_seconds();
  Stopwatch eval_watch;
  // --measure-noise: after each round, the state's noise computed exactly from the secret
  // key (BgvBackend::measured_root_noise) beside its bound; the time it takes is kept out
  // of total_s (the rounds' own seconds never include it).
  json noise_rounds = json::array();
  double measure_s = 0, measure_cpu_s = 0;
  ev.on_round = [&](const RoundRecord& r) {
    if constexpr (std::is_same_v<B, BgvBackend>) {
      if (o.measure_noise) {
        Stopwatch mw;
        const double cpu0 = process_cpu_seconds();
        double bound = -INFINITY, measured = -INFINITY;
        bool below = true;
        for (const auto& c : st) {
          const bgv::RootBound m = b.measured_root_noise(c);
          for (long t = 0; t < m.size(); ++t) below = below && m.log2_at(t) <= c.noise.log2_at(t) + 1e-9;
          bound = std::max(bound, c.noise.log2_max());
          measured = std::max(measured, m.log2_max());
        }
        noise_rounds.push_back({{"round", r.round}, {"noise_bound_bits", bound}, {"noise_measured_bits", measured},
                                {"slack_bits", bound - measured}, {"measured_within_bound", below}});
        std::fprintf(stderr, "run_cipher: round %ld noise: bound 2^%.2f, measured 2^%.2f (slack %.2f bits)%s\n",
                     r.round, bound, measured, bound - measured, below ? "" : " MEASURED ABOVE THE BOUND");
        measure_s += mw.seconds();
        measure_cpu_s += process_cpu_seconds() - cpu0;
      }
    }
    const double done = eval_watch.seconds() - measure_s;
    const double eta = done / double(r.round) * double(in.rounds - r.round);
    const std::string cap = std::isfinite(r.capacity_bits) ? msg(long(std::floor(r.capacity_bits))) : "inf";
    std::fprintf(stderr, "run_cipher: %s round %ld/%ld done in %.2f s, capacity %s bits, ETA %.0f s\n",
                 display(in).c_str(), r.round, in.rounds, r.seconds, cap.c_str(), eta);
    std::fflush(stderr);
  };
  std::vector<RoundRecord> recs;
  try {
    recs = circ->run(ev, st);
  } catch (const CapacityError& e) {
    throw CapacityError(msg(display(in), " ran out of modulus capacity during the rounds (", e.what(), "): use more --bits"));
  }
  // Subkeys encrypted per round are the key owner's work: out of the rounds, into encrypt_keys_s.
  const double total_s = eval_watch.seconds() - measure_s - circ->subkey_encrypt_seconds();
  if (o.measure_noise) out["noise_per_round"] = noise_rounds;
  const double total_cpu_s = process_cpu_seconds() - eval_cpu0 - measure_cpu_s - circ->subkey_encrypt_cpu_seconds();
  encrypt_keys_s += circ->subkey_encrypt_seconds();
  Stopwatch dec_watch;
  std::vector<Elements> got;
  try {
    got = h.decrypt_outputs(st);
  } catch (const CapacityError& e) {
    throw CapacityError(msg(display(in), " output cannot be decrypted (", e.what(), "): use more --bits"));
  }
  const double decrypt_s = dec_watch.seconds();
  if (o.corrupt_output) got[0][0] ^= 1;  // test hook: exercises the wrong-result path
  long wrong = 0;
  for (long k = 0; k < blocks; ++k) wrong += got[k] != expected[k];
  const bool correct = wrong == 0;

  out["cipher"] = in.entry->name;
  out["instance"] = in.name;
  out["instance_id"] = in.spec->id;
  out["packing"] = o.packing;
  out["linear"] = o.linear;
  out["direction"] = o.decrypt ? "decrypt" : "encrypt";
  out["rounds"] = in.rounds;
  out["rounds_spec"] = in.spec->rounds;
  out["backend"] = o.backend;
  // HElib's backend encrypts with PubKey::Encrypt; the clear backend not at all.
  out["encryption"] = o.backend == "bgv" ? o.encryption : o.backend == "helib" ? "public" : "none";
  out["params"] = params_json(b);
  out["blocks"] = blocks;
  out["blocks_per_run_max"] = circ->max_blocks();
  out["layout"] = circ->describe();
  out["automorphism_keys"] = autos.size();
  out["subkeys"] = {{"encrypted", late_keys ? "per round" : "up front"},
                    {"ciphertexts", circ->subkey_ciphertexts()},
                    {"why", subkeys_why}};
  out["seed"] = o.seed;
  out["threads"] = omp_get_max_threads();
  const CipherInstance& ref = *in.ref;
  out["key_fingerprint"] = msg(std::hex, fnv1a(ref.to_bytes(w.key)));
  // The blocks in the instance's text codec: hex, or F_p's decimal elements (no "_hex").
  const std::string sfx = in.spec->p == 2 ? "_hex" : "";
  if (in.spec->p != 2) out["p"] = in.spec->p;
  out["plaintext" + sfx] = ref.format(w.plain[0]);
  out["input" + sfx] = ref.format(inputs[0]);
  out["ciphertext" + sfx] = ref.format(got[0]);  // the circuit's output block 0 (plaintext with --decrypt)
  out["expected" + sfx] = ref.format(expected[0]);
  out["wrong_blocks"] = wrong;
  out["fresh_capacity_bits"] = std::isfinite(fresh_capacity) ? json(fresh_capacity) : json(nullptr);
  out["ops"] = ev.counts().as_map();
  if constexpr (std::is_same_v<B, BgvBackend>) {
    json prof = json::array();
    for (const auto& e : b.op_profile())
      prof.push_back({{"op", e.op}, {"primes", e.primes}, {"dropped", e.dropped}, {"count", e.count},
                      {"seconds", e.seconds}});
    out["op_profile"] = prof;
  }
  json timings = {{"setup_s", setup_s},
                  {"keygen_s", keygen_seconds(b)},
                  {"encrypt_keys_s", encrypt_keys_s},
                  {"encrypt_input_s", encrypt_input_s},
                  {"total_s", total_s},
                  {"total_cpu_s", total_cpu_s},
                  {"decrypt_s", decrypt_s},
                  {"wall_s", wall.seconds()}};
  json per_round = json::array();
  for (auto& r : recs) per_round.push_back(round_json(r));
  if (correct) {
    out["timings"] = timings;
    out["per_round"] = per_round;
  } else {
    out["invalid_timings"] = {{"timings", timings}, {"per_round", per_round}};
  }
  out["correct"] = correct;
  return correct;
}

template <class B>
bool run_with(B& b, const Options& o, const Instance& in, const Stopwatch& wall, double backend_s, json& out) {
  if (o.packing == "packed") return run_circuit<PackedRep>(b, o, in, wall, backend_s, out);
  if (o.packing == kBitSliced) return run_circuit<BitSlicedRep>(b, o, in, wall, backend_s, out);
  return run_circuit<SlicedRep>(b, o, in, wall, backend_s, out);
}

// Where the memory goes: the backend's long-lived data counted from its objects, the
// model's prediction of the same (engine/bgv/memory.h) and the peak resident memory.
json memory_json(const BgvBackend& b, const BgvParams& p) {
  const BgvMemory mem = b.memory();
  const bgv::Context& ctx = b.context();
  const bgv::MemoryModel mm(ctx.chain(), ctx.m(), ctx.phi(), size_t(p.keep_uniform_mib) << 20);
  return {{"transforms_bytes", mem.transforms},
          {"secret_key_bytes", mem.secret_key},
          {"public_key_bytes", mem.public_key},
          {"relin_key_bytes", mem.relin_key},
          {"automorphism_keys_bytes", mem.automorphism_keys},
          {"automorphism_keys", mem.n_automorphism_keys},
          {"compact_keys", mem.compact_keys},
          {"setup_bytes", mem.total()},
          {"model", apps::memory_model_json(mm, mem.n_automorphism_keys)},
          {"peak_rss_setup_bytes", peak_rss_setup},
          {"peak_rss_bytes", peak_rss_bytes()}};
}


// A keystream entry's run (apps/keystream_run.h), or none for a block cipher; the block
// ciphers' options a keystream entry has no use for are refused by name.
std::optional<KeystreamRunOptions> keystream_options(const Options& o) {
  const CipherEntry* e = nullptr;
  const InstanceSpec* sp = nullptr;
  if (!o.instance.empty()) std::tie(e, sp) = find_instance_id(o.instance);
  else e = &find_cipher(o.cipher);
  if (!e->keystream()) {
    if (o.mode != "ctr" && (o.nonce || o.counter || o.depth_after))
      throw ParameterError(msg("--nonce, --counter and --depth-after are for keystream entries and --mode ctr; ", e->name,
                               " is a block cipher"));
    return std::nullopt;
  }
  if (o.mode == "block")
    throw ParameterError(msg("--mode block: ", e->name, " is a keystream generator, it has no block mode (its blocks are ",
                             "(nonce, counter) pairs: use --mode ctr or no --mode)"));
  if (!sp) sp = &find_instance(*e, o.n, o.s, o.p);
  if (o.decrypt || !o.pt_hex.empty() || o.rounds != -1 || o.linear != "separate" || o.measure_noise ||
      (o.packing != "packed" && o.packing != "sliced" && o.packing != "state"))
    throw ParameterError(msg(e->name, " is a keystream generator (one block per slot, --nonce/--counter/--depth-after): ",
                             "--decrypt, --plaintext, --rounds, --linear, --packing and --measure-noise are the block ",
                             "ciphers'"));
  if (o.security_models != std::vector<std::string>{"helib"})
    throw ParameterError(msg("--security-models: ", e->name, "'s keystream runs meet --security-target by HElib's ",
                             "formula alone; the block ciphers' runs take other models"));
  KeystreamRunOptions k;
  k.entry = e, k.spec = sp, k.backend = o.backend, k.key_text = o.key_hex, k.json_path = o.json_path;
  k.encryption = o.encryption, k.m = o.m, k.bits = o.bits, k.c = o.c, k.hwt = o.hwt, k.blocks = o.blocks;
  k.depth_after = o.depth_after, k.bits_hint = o.bits_hint, k.seed = o.seed, k.nonce = o.nonce;
  k.counter = o.counter, k.plan_only = o.plan, k.force = o.force;
  k.security_target = o.security_target, k.hwt_given = o.hwt_given, k.plan_cache = o.plan_cache;
  k.packing = o.packing == "state" ? "state" : "blocks";
  return k;
}

// What the run's memory is known to be made of, for an allocation failure's message.
std::string memory_note;

// A block cipher in CTR mode (apps/ctr_run.h); the options it has no use for refused by name.
CtrRunOptions ctr_options(const Options& o, const Instance& in) {
  if (o.decrypt || !o.pt_hex.empty() || o.measure_noise || o.corrupt_output)
    throw ParameterError(msg("--mode ctr: the blocks are counter blocks (--nonce, --counter) and the direction is "
                             "encryption; --decrypt, --plaintext and --measure-noise are block mode's"));
  if (o.security_models != std::vector<std::string>{"helib"})
    throw ParameterError("--security-models: --mode ctr meets --security-target by HElib's formula alone; block "
                         "mode takes other models");
  CtrRunOptions k;
  k.entry = in.entry, k.spec = in.spec, k.packing = o.packing, k.linear = o.linear, k.backend = o.backend;
  k.json_path = o.json_path, k.encryption = o.encryption, k.plan_cache = o.plan_cache;
  k.key = input_bytes(in, o.key_hex, in.spec->key_elements, "--key");
  k.rounds = in.rounds, k.m = o.m, k.bits = o.bits, k.c = o.c, k.hwt = o.hwt, k.blocks = o.blocks;
  k.depth_after = o.depth_after, k.bits_hint = o.bits_hint, k.seed = o.seed, k.nonce = o.nonce, k.counter = o.counter;
  k.plan_only = o.plan, k.force = o.force;
  k.security_target = o.security_target, k.hwt_given = o.hwt_given;
  k.subkey_policy = [o, p = in.spec->p](long ciphertexts, long bits) {
    if (o.backend == "bgv" && bits > 0)
      fresh_ciphertext_bytes = double(bgv::MemoryModel(bgv::Chain(bgv::ChainParams{o.m, bits, o.c}), o.m,
                                                       ZmStar(o.m, long(p)).phi(), size_t(BgvParams{}.keep_uniform_mib) << 20)
                                          .ciphertext);
    return subkey_policy(o, ciphertexts);
  };
  return k;
}

int run(const Options& o_in) {
  const Stopwatch process;  // the whole run: checks, planning, setup, rounds, output
  Options o = o_in;
  if (o.list_ciphers) {
    std::ofstream f(o.json_path);
    if (!f) throw ParameterError(msg("--json ", o.json_path, ": cannot open for writing"));
    f << apps::catalog_json().dump(2) << "\n";
    if (!f) throw Error(msg("--json ", o.json_path, ": write failed"));
    return 0;
  }
  if (o.cipher.empty() && o.instance.empty())
    throw ParameterError("--cipher is required (run_cipher --list-ciphers --json F lists the catalog)");
  if (o.m == 0) throw ParameterError("--m is required (the cyclotomic index of the ring)");
  if (const auto ks = keystream_options(o)) return run_keystream(*ks);
  const Instance in = make_instance(o);
  o.packing = packing_name(*in.entry, o.packing);
  if (o.backend == "bgv" && o.hwt >= 1 && o.hwt < 120 && !o.allow_insecure)
    throw ParameterError(msg("--hwt ", o.hwt, ": HElib's security formula rates secret keys of weight 1..119 at 0 bits; "
                             "use 0 (dense) or >= 120, or --allow-insecure"));
  if (o.backend == "bgv" && o.c < 1) throw ParameterError(msg("--c ", o.c, ": key switching needs at least 1 digit"));
  if (o.hint_is_plan && o.bits_hint <= 0)
    throw ParameterError("--hint-is-plan needs --bits-hint (the plan's chain at other digits)");
  if (in.spec->p != 2) {  // key and block 0 as F_p's decimal elements, before any work
    input_bytes(in, o.key_hex, in.spec->key_elements, "--key");
    input_bytes(in, o.pt_hex, in.s, "--plaintext");
  } else {  // key and block 0 in the instance's byte codec, before any work
    const long eb = in.ref->element_bytes();
    if (!o.key_hex.empty()) {
      const auto k = from_hex(o.key_hex, "--key");
      if (long(k.size()) != eb * in.spec->key_elements)
        throw ParameterError(msg("--key has ", k.size(), " bytes: ", display(in), " needs ", eb * in.spec->key_elements));
      in.ref->from_bytes(k, in.spec->key_elements, "--key");
    }
    if (!o.pt_hex.empty()) {
      const auto p = from_hex(o.pt_hex, "--plaintext");
      if (long(p.size()) != eb * in.s)
        throw ParameterError(msg("--plaintext has ", p.size(), " bytes: ", display(in), " needs ", eb * in.s));
      in.ref->from_bytes(p, in.s, "--plaintext");
    }
  }
  if (in.spec->p == 2) check_ring(o, in, ZmStar(o.m));  // F_p: the backends check m against p (ZmStar(m, p))
  if (o.mode == "ctr") return run_ctr(ctr_options(o, in));  // the transciphering session (apps/ctr_run.h)
  // The output must be writable before any work starts.
  apps::check_writable(o.json_path);
  std::optional<ChainPlan> plan;
  double plan_s = 0;
  if (o.backend == "bgv") {
    Stopwatch pw;
    plan = o.security_target > 0 ? choose_for_target(o, in) : plan_for(o, in);
    plan_s = pw.seconds();
    std::fprintf(stderr, "run_cipher: planned chain %ld bits (%.1f bits per round, security %.1f) in %.1f s%s\n",
                 plan->bits, plan->bits_per_round, plan->info.security, plan_s,
                 plan_cache && plan_cache->misses() == 0 ? " (from the plan cache)" : "");
    if (o.plan) {
      json out;
      out["cipher"] = in.entry->name;
      out["instance"] = in.name;
      out["instance_id"] = in.spec->id;
      out["packing"] = o.packing;
      out["linear"] = o.linear;
      out["direction"] = o.decrypt ? "decrypt" : "encrypt";
      out["rounds"] = in.rounds;
      out["backend"] = "bgv";
      out["seed"] = o.seed;
      out["params"] = params_json(*plan);
      out["plan"] = plan_json(*plan, plan_s);
      std::ofstream f(o.json_path);
      f << out.dump(2) << "\n";
      if (!f) throw Error(msg("--json ", o.json_path, ": write failed"));
      return 0;
    }
    if (o.bits == 0) {
      o.bits = plan->bits;
    } else if (o.bits < plan->bits && !o.force) {
      throw ParameterError(msg("--bits ", o.bits, " is below the planned chain: ", in.rounds, " rounds of ", display(in),
                               " at m=", o.m, " need ", plan->bits, " bits (", std::fixed, std::setprecision(1),
                               plan->bits_per_round, " per round; --bits ", plan->bits,
                               ", or --force runs anyway)"));
    }
    // The key-switching keys alone, as stored (engine/bgv/memory.h).
    const bgv::Chain ch(bgv::ChainParams{o.m, o.bits, o.c});
    const bgv::MemoryModel mm(ch, o.m, ZmStar(o.m, long(in.spec->p)).phi(), size_t(BgvParams{}.keep_uniform_mib) << 20);
    const double key_bytes = double(plan->keys) * double(mm.key);
    const double avail = memory_allowed(o);
    if (avail > 0 && key_bytes > avail && !o.force)
      throw ParameterError(msg("m=", o.m, " with a ", o.bits, "-bit chain (c=", o.c, ", ", ch.num_primes() - ch.S(),
                               " primes) needs about ", std::fixed, std::setprecision(1), key_bytes / 1e9,
                               " GB for its ", plan->keys, " key-switching keys alone, more than the ",
                               avail / 1e9, " GB ", o.max_memory_gb > 0 ? "allowed (--max-memory-gb)" : "available",
                               ": use a smaller ring or chain, fewer digits c, or --force"));
    fresh_ciphertext_bytes = double(mm.ciphertext);
    memory_note = msg("m=", o.m, ", ", o.bits, "-bit chain (c=", o.c, "): the ", plan->keys,
                      " key-switching keys take about ", std::fixed, std::setprecision(1), key_bytes / 1e9, " GB");
  } else if (o.plan) {
    throw ParameterError("--plan needs --backend bgv (the clear backend has no noise)");
  }
  if (o.measure_noise && o.backend != "bgv")
    throw ParameterError(msg("--measure-noise needs --backend bgv (the ", o.backend, " backend's noise is not ours to measure)"));
  Stopwatch wall;
  json out;
  bool ok;
  if (o.backend == "clear" && in.spec->p != 2) {
    ClearBackend b(o.m, in.ref->element_field().prime());
    ok = run_with(b, o, in, wall, wall.seconds(), out);
  } else if (o.backend == "clear") {
    ClearBackend b(o.m, in.slot_n, in.slot_f_low);
    ok = run_with(b, o, in, wall, wall.seconds(), out);
#ifdef CB_HAVE_HELIB
  } else if (o.backend == "helib") {  // HElib's own chain for --bits; no engine noise planning
    const HelibParams hp{o.m, o.bits, o.c, o.hwt, o.seed};
    std::optional<HelibBackend> made;  // F_p instances at HElib's p (its R_p, F_p slots)
    if (in.spec->p != 2) made.emplace(hp, in.ref->element_field().prime());
    else made.emplace(hp, in.slot_n, in.slot_f_low);
    HelibBackend& b = *made;
    ok = run_with(b, o, in, wall, wall.seconds(), out);
    out.update(json::parse(b.report_json()));
#endif
  } else {
    BgvParams p;
    p.m = o.m, p.bits = o.bits, p.c = o.c, p.hwt = o.hwt, p.seed = o.seed;
    p.secret_key_encryption = o.encryption == "secret";
    std::optional<BgvBackend> made;
    if (in.spec->p != 2) made.emplace(p, in.ref->element_field().prime());
    else made.emplace(p, in.slot_n, in.slot_f_low);
    BgvBackend& b = *made;
    ok = run_with(b, o, in, wall, wall.seconds(), out);
    if (plan) out["plan"] = plan_json(*plan, plan_s);
    out["memory"] = memory_json(b, p);
    out["transforms"] = b.context().transform_algorithms();  // primes per transform algorithm
  }
  // wall_s counts from the backend's construction; the process also planned before it
  // (plan_s: milliseconds when the plan came from the cache, 0 without one) and checked its inputs.
  json& timings = ok ? out["timings"] : out["invalid_timings"]["timings"];
  timings["plan_s"] = plan_s;
  timings["process_s"] = process.seconds();
  std::ofstream f(o.json_path);
  if (!f) throw Error(msg("--json ", o.json_path, ": cannot open for writing"));
  f << out.dump(2) << "\n";
  if (!ok) {
    std::cerr << "run_cipher: WRONG RESULT: " << out["wrong_blocks"] << " of " << out["blocks"]
              << " blocks differ from the reference; timings are invalid (written under invalid_timings)\n";
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace cb

int main(int argc, char** argv) {
  cb::Options o;
  CLI::App app{"Evaluate a cipher of the catalog homomorphically (BGV, GF(2^n) or F_p slots) with per-round timings"};
  app.add_option("--cipher", o.cipher, "a cipher of the catalog (--list-ciphers)");
  app.add_flag("--list-ciphers", o.list_ciphers, "write the cipher catalog to --json and stop");
  app.add_option("--instance", o.instance, "an instance id of the catalog (mimc63, mimcp17, ...) instead of --cipher");
  app.add_option("--p", o.p, "the prime of a prime-field instance (F_p slots: the plaintext modulus; default: GF(2^n))");
  app.add_option("--field-bits", o.n, "the instance's field degree n (default: the cipher's first instance)");
  app.add_option("--state-size", o.s, "the instance's state size in field elements (default: any)");
  app.add_option("--rounds", o.rounds, "rounds (default: the cipher's; fewer = reduced-round, e.g. 13 for GF(2^64)^2)");
  app.add_option("--packing", o.packing,
                 "packed (blocks in slots), sliced (one ciphertext per element; AES calls it byte-sliced) or "
                 "bit-sliced (one ciphertext per state bit, where the cipher offers it); keystream entries: "
                 "blocks across slots (the default) or state (one block's state in the slots, rotations)")
      ->check(CLI::IsMember({"packed", "byte-sliced", "sliced", "bit-sliced", "state"}));
  app.add_option("--encryption", o.encryption,
                 "secret (default): the key and the blocks encrypted with the secret key, as their owner would "
                 "(a third of the public key's transforms, engine/bgv/encryptor.h); public: with the public key. "
                 "Either gives the same noise bounds and plan (BGV; HElib's backend uses the public key)")
      ->check(CLI::IsMember({"secret", "public"}));
  app.add_option("--linear", o.linear,
                 "separate (default): the S-box's affine maps and the linear layers evaluated apart, timed as the "
                 "paper's Table 1 columns; fused: each affine map with the linear layer next to it as one map, one "
                 "layer of constant products (a shorter chain, more key switches)")
      ->check(CLI::IsMember({"fused", "separate"}));
  app.add_option("--m", o.m, "cyclotomic index m (odd; a power of two for F_p instances too)");
  app.add_option("--bits", o.bits, "ciphertext-modulus bits (BGV; default: the planned chain)")->check(CLI::PositiveNumber);
  app.add_option("--c", o.c, "key-switching digits (BGV, default 3)");
  auto* hwt_opt = app.add_option("--hwt", o.hwt, "secret-key Hamming weight (BGV, default 120; 0 = dense)");
  app.add_option("--key", o.key_hex, "cipher key as hex, F_p: decimal elements, comma-separated (default: random from --seed)");
  app.add_option("--plaintext", o.pt_hex,
                 "plaintext of block 0 as hex, F_p: decimal elements, comma-separated (default: random from --seed)");
  app.add_option("--blocks", o.blocks, "blocks to process (default: all the ciphertexts hold)");
  app.add_option("--seed", o.seed, "seed of the random key and blocks, and of the BGV randomness (default 1)");
  app.add_flag("--decrypt", o.decrypt, "run the inverse cipher on the blocks' ciphertexts (transciphering)");
  app.add_option("--mode", o.mode,
                 "block (a block cipher's default: the key and the blocks encrypted) or ctr (transciphering: block j's "
                 "keystream E_k(counter block of nonce, counter + j), the counters public, the key encrypted, the "
                 "keystream subtracted from the public symmetric ciphertext; a keystream entry's only mode)")
      ->check(CLI::IsMember({"block", "ctr"}));
  app.add_option("--nonce", o.nonce, "keystream entries and --mode ctr: the public nonce (0..2^64-1, default 0)");
  app.add_option("--counter", o.counter,
                 "keystream entries and --mode ctr: the first block's counter (default 0; block j has counter + j)");
  app.add_option("--depth-after", o.depth_after,
                 "keystream entries and --mode ctr: products after the keystream the chain is planned for and the run "
                 "checks (0..1000, default 0)")
      ->check(CLI::NonNegativeNumber);
#ifdef CB_HAVE_HELIB
  app.add_option("--backend", o.backend, "bgv (default), clear (slot simulator, no noise) or helib (HElib 2.3.0)")
      ->check(CLI::IsMember({"bgv", "clear", "helib"}));
#else
  app.add_option("--backend", o.backend, "bgv (default) or clear (slot simulator, no noise)")
      ->check(CLI::IsMember({"bgv", "clear"}));
#endif
  app.add_option("--threads", o.threads, "OpenMP threads of the engine (default: OMP_NUM_THREADS or all cores)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--force", o.force, "run even when the chain is below the planned one");
  app.add_flag("--plan", o.plan, "plan the chain (BGV) and write it to --json without running");
  auto* cache_opt = app.add_option("--plan-cache", o.plan_cache,
                                   "directory of plans kept between runs, keyed by everything a plan depends on "
                                   "(default: $CB_PLAN_CACHE; '' for none)");
  app.add_option("--bits-hint", o.bits_hint,
                 "where the chain planner starts its search, e.g. an earlier plan's bits at this ring and another c "
                 "(default: 150 bits a round); the plan is still a chain that suffices with one bit less failing")
      ->check(CLI::PositiveNumber);
  app.add_flag("--hint-is-plan", o.hint_is_plan,
               "--bits-hint is this circuit's plan at other digits c: taken without a search when it holds at these "
               "digits and one bit less does not");
  app.add_option("--subkeys", o.subkeys,
                 "when the subkeys are encrypted: up-front (all before the rounds), per-round (each before the round "
                 "that adds it, its time counted in encrypt_keys_s, not the rounds'), or auto (default: per round when "
                 "all of them would take over a quarter of the memory available)")
      ->check(CLI::IsMember({"auto", "up-front", "per-round"}));
  app.add_option("--max-memory-gb", o.max_memory_gb,
                 "refuse a run whose keys alone exceed this many GB (default: the memory available)")
      ->check(CLI::PositiveNumber);
  app.add_option("--security-target", o.security_target,
                 "choose the key-switching digits c (from --c up) and, without --hwt, the key weight (120, 150, "
                 "200, 300) of the cheapest run whose planned chain reaches this security by HElib's formula")
      ->check(CLI::PositiveNumber);
  app.add_option("--security-models", o.security_models,
                 "with --security-target: the models whose lowest figure must reach it, comma-separated, met in "
                 "one search (engine/bgv/security_model.h: helib = HElib's formula, coresvp = core-SVP uSVP "
                 "[ADPS16]; default helib)")
      ->delimiter(',')
      ->check([](const std::string& name) {
        try {
          cb::bgv::security_model(name);
          return std::string();
        } catch (const cb::ParameterError& e) {
          return std::string(e.what());
        }
      })
      ->needs("--security-target");
  app.add_flag("--allow-insecure", o.allow_insecure, "accept key weights HElib's formula rates at 0 bits (1..119)");
  app.add_option("--json", o.json_path, "output JSON file")->required();
  app.add_flag("--measure-noise", o.measure_noise,
               "after each round, measure the noise from the secret key beside its bound (BGV; JSON noise_per_round)");
  app.add_flag("--corrupt-output", o.corrupt_output, "(tests) flip a bit of block 0's result before the check")
      ->group("");
  try {
    app.parse(argc, argv);
    o.hwt_given = hwt_opt->count() > 0;
    if (!cache_opt->count())
      if (const char* env = std::getenv("CB_PLAN_CACHE")) o.plan_cache = env;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return e.get_exit_code() == 0 ? 0 : 1;
  }
  if (o.backend == "helib" && o.bits <= 0) {
    std::cerr << "run_cipher: --bits is required with --backend helib (HElib builds its own chain for it)\n";
    return 1;
  }
  if (o.threads > 0) omp_set_num_threads(int(o.threads));
  try {
    if (!o.plan_cache.empty() && o.backend == "bgv") cb::plan_cache.emplace(o.plan_cache);
    return cb::run(o);
  } catch (const std::bad_alloc&) {
    std::cerr << "run_cipher: out of memory"
              << (cb::memory_note.empty() ? std::string() : " (" + cb::memory_note + ")")
              << ": use a smaller ring or chain, or a machine with more memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "run_cipher: " << e.what() << "\n";
    return 1;
  }
}
