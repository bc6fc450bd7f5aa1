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
// The chain (BGV; apps/plan_choice.h): the planner (backend/chain_planner.h) runs the same
// circuit on clear slots with the engine's noise bounds beside them and finds the least
// chain on which no bound reaches its modulus. --plan writes that plan (params as a run
// would report them, the planned bits per round and capacity after each round) and stops;
// without --bits the run uses the planned chain; a --bits below the plan is refused with the plan's figure
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
// The job is split by kind: apps/run_request.h reads the request (options, instance,
// checks), apps/plan_choice.h chooses the plan and parameters, apps/run_report.h writes
// the record (its fields are listed there); this file has the command line and the run.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "apps/catalog_json.h"
#include "apps/ctr_run.h"
#include "apps/keystream_run.h"
#include "apps/plan_choice.h"
#include "apps/record_json.h"
#include "apps/run_report.h"
#include "apps/run_request.h"
#include "backend/bgv_backend.h"
#include "backend/clear_backend.h"
#ifdef CB_HAVE_HELIB
#include "backend/helib_backend.h"
#endif
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "engine/bgv/security_model.h"
#include "engine/errors.h"

namespace cb {
namespace {

using json = nlohmann::json;

// What the run's memory is known to be made of, for an allocation failure's message.
std::string memory_note;

template <class B>
double keygen_seconds(const B& b) {
  if constexpr (!std::is_same_v<B, ClearBackend>) return b.keygen_seconds();
  return 0;
}

// --measure-noise after a round: the state's noise computed exactly from the secret key
// (BgvBackend::measured_root_noise) beside its bound.
template <class State>
json measured_noise(const BgvBackend& b, const State& st, long round) {
  double bound = -INFINITY, measured = -INFINITY;
  bool below = true;
  for (const auto& c : st) {
    const bgv::RootBound m = b.measured_root_noise(c);
    for (long t = 0; t < m.size(); ++t) below = below && m.log2_at(t) <= c.noise.log2_at(t) + 1e-9;
    bound = std::max(bound, c.noise.log2_max());
    measured = std::max(measured, m.log2_max());
  }
  std::fprintf(stderr, "run_cipher: round %ld noise: bound 2^%.2f, measured 2^%.2f (slack %.2f bits)%s\n", round, bound,
               measured, bound - measured, below ? "" : " MEASURED ABOVE THE BOUND");
  return {{"round", round}, {"noise_bound_bits", bound}, {"noise_measured_bits", measured},
          {"slack_bits", bound - measured}, {"measured_within_bound", below}};
}

// Builds the circuit on b, runs it, decrypts and checks every block.
template <template <class> class Rep, class B>
BlockRunFacts run_circuit(B& b, const Options& o, const Instance& in, const Stopwatch& wall, double backend_s,
                          double ciphertext_bytes) {
  BlockRunFacts f;
  BlockTimings& t = f.timings;
  Stopwatch setup;
  auto h = make_harness<B, Rep>(b, o, in);
  auto* circ = &h.circ;
  std::tie(f.subkeys_per_round, f.subkeys_why) = subkey_policy(o, circ->subkey_ciphertexts(), ciphertext_bytes);
  Stopwatch keys_watch;
  h.load_keys(f.subkeys_per_round);
  t.encrypt_keys_s = keys_watch.seconds();
  t.setup_s = backend_s + setup.seconds();

  Stopwatch enc_watch;
  auto st = h.encrypt_inputs();
  t.encrypt_input_s = enc_watch.seconds();
  f.peak_rss_setup = peak_rss_bytes();
  f.fresh_capacity = circ->capacity(st);

  Evaluator<B> ev(b);
  if constexpr (std::is_same_v<B, BgvBackend>) b.reset_op_profile();  // the rounds' steps only
  const double eval_cpu0 = process_cpu_seconds();
  Stopwatch eval_watch;
  // --measure-noise: its time is kept out of total_s (the rounds' own seconds never include it).
  json noise_rounds = json::array();
  double measure_s = 0, measure_cpu_s = 0;
  ev.on_round = [&](const RoundRecord& r) {
    if constexpr (std::is_same_v<B, BgvBackend>) {
      if (o.measure_noise) {
        Stopwatch mw;
        const double cpu0 = process_cpu_seconds();
        noise_rounds.push_back(measured_noise(b, st, r.round));
        measure_s += mw.seconds();
        measure_cpu_s += process_cpu_seconds() - cpu0;
      }
    }
    const double done = eval_watch.seconds() - measure_s;
    const double eta = done / double(r.round) * double(in.rounds - r.round);
    const std::string cap = std::isfinite(r.capacity_bits) ? msg(long(std::floor(r.capacity_bits))) : "inf";
    std::fprintf(stderr, "run_cipher: %s round %ld/%ld done in %.2f s, capacity %s bits, ETA %.0f s\n",
                 in.display.c_str(), r.round, in.rounds, r.seconds, cap.c_str(), eta);
    std::fflush(stderr);
  };
  try {
    f.rounds = circ->run(ev, st);
  } catch (const CapacityError& e) {
    throw CapacityError(msg(in.display, " ran out of modulus capacity during the rounds (", e.what(), "): use more --bits"));
  }
  // Subkeys encrypted per round are the key owner's work: out of the rounds, into encrypt_keys_s.
  t.total_s = eval_watch.seconds() - measure_s - circ->subkey_encrypt_seconds();
  if (o.measure_noise) f.noise_per_round = noise_rounds;
  t.total_cpu_s = process_cpu_seconds() - eval_cpu0 - measure_cpu_s - circ->subkey_encrypt_cpu_seconds();
  t.encrypt_keys_s += circ->subkey_encrypt_seconds();
  Stopwatch dec_watch;
  std::vector<Elements> got;
  try {
    got = h.decrypt_outputs(st);
  } catch (const CapacityError& e) {
    throw CapacityError(msg(in.display, " output cannot be decrypted (", e.what(), "): use more --bits"));
  }
  t.decrypt_s = dec_watch.seconds();
  if (o.corrupt_output) got[0][0] ^= 1;  // test hook: exercises the wrong-result path
  for (long k = 0; k < h.blocks; ++k) f.wrong_blocks += got[k] != h.expected()[k];

  f.params = params_json(b.info());
  f.blocks = h.blocks;
  f.max_blocks = circ->max_blocks();
  f.layout = circ->describe();
  f.automorphism_keys = long(h.autos.size());
  f.subkey_ciphertexts = circ->subkey_ciphertexts();
  f.key_bytes = in.ref->to_bytes(h.w.key);
  f.plain0 = h.w.plain[0], f.input0 = h.inputs()[0], f.output0 = got[0], f.expected0 = h.expected()[0];
  f.ops = ev.counts();
  if constexpr (std::is_same_v<B, BgvBackend>) f.op_profile = op_profile_json(b);
  t.keygen_s = keygen_seconds(b);
  t.wall_s = wall.seconds();
  return f;
}

template <class B>
BlockRunFacts run_with(B& b, const Options& o, const Instance& in, const Stopwatch& wall, double ciphertext_bytes) {
  const double backend_s = wall.seconds();
  if (in.packing == "packed") return run_circuit<PackedRep>(b, o, in, wall, backend_s, ciphertext_bytes);
  if (in.packing == kBitSliced) return run_circuit<BitSlicedRep>(b, o, in, wall, backend_s, ciphertext_bytes);
  return run_circuit<SlicedRep>(b, o, in, wall, backend_s, ciphertext_bytes);
}

int run(const Options& o, PlanChooser& chooser) {
  const Stopwatch process;  // the whole run: checks, planning, setup, rounds, output
  if (o.list_ciphers) {
    write_record(o.json_path, apps::catalog_json());
    return 0;
  }
  require_cipher_and_ring(o);
  load_security_models(o);
  if (const auto ks = keystream_options(o)) return run_keystream(*ks);
  const Instance in = make_instance(o);
  const RunRing ring(o.m, long(in.spec->p));  // Z_m^*/<p>, built once, when first asked
  check_request(o, in, ring);
  if (o.mode == "ctr") {  // the transciphering session (apps/ctr_run.h)
    return run_ctr(ctr_options(o, in, ring, [&o, &ring](long ciphertexts, long bits) {
      const double bytes = o.backend == "bgv" && bits > 0 ? double(memory_model(o, ring, bits, o.c).ciphertext) : 0;
      return subkey_policy(o, ciphertexts, bytes);
    }));
  }
  // The output must be writable before any work starts.
  apps::check_writable(o.json_path);
  std::optional<ChosenParams> chosen;
  double plan_s = 0, ciphertext_bytes = 0;
  if (o.backend == "bgv") {
    Stopwatch pw;
    chosen = chooser.choose(o, in, ring);
    const ChainPlan& plan = chosen->plan;
    plan_s = pw.seconds();
    const PlanCache* cache = chooser.cache();
    std::fprintf(stderr, "run_cipher: planned chain %ld bits (%.1f bits per round, security %.1f) in %.1f s%s\n",
                 plan.bits, plan.bits_per_round, plan.info.security, plan_s,
                 cache && cache->misses() == 0 ? " (from the plan cache)" : "");
    if (o.plan) {
      write_record(o.json_path, plan_record(o, in, plan, plan_s, cache));
      return 0;
    }
    chosen->bits = run_bits(o, in, plan);
    const ChainMemory mem = check_memory(o, ring, *chosen);
    ciphertext_bytes = mem.ciphertext_bytes;
    memory_note = mem.note;
  } else if (o.plan) {
    throw ParameterError("--plan needs --backend bgv (the clear backend has no noise)");
  }
  if (o.measure_noise && o.backend != "bgv")
    throw ParameterError(msg("--measure-noise needs --backend bgv (the ", o.backend, " backend's noise is not ours to measure)"));
  Stopwatch wall;
  json out;
  if (o.backend == "clear" && in.spec->p != 2) {
    ClearBackend b(o.m, in.ref->element_field().prime());
    out = block_record(o, in, run_with(b, o, in, wall, ciphertext_bytes));
  } else if (o.backend == "clear") {
    ClearBackend b(o.m, in.slot_n, in.slot_f_low);
    out = block_record(o, in, run_with(b, o, in, wall, ciphertext_bytes));
#ifdef CB_HAVE_HELIB
  } else if (o.backend == "helib") {  // HElib's own chain for --bits; no engine noise planning
    const HelibParams hp{o.m, o.bits, o.c, o.hwt, o.seed};
    std::optional<HelibBackend> made;  // F_p instances at HElib's p (its R_p, F_p slots)
    if (in.spec->p != 2) made.emplace(hp, in.ref->element_field().prime());
    else made.emplace(hp, in.slot_n, in.slot_f_low);
    HelibBackend& b = *made;
    out = block_record(o, in, run_with(b, o, in, wall, ciphertext_bytes));
    out.update(json::parse(b.report_json()));
#endif
  } else {
    BgvParams p;
    p.m = o.m, p.bits = chosen->bits, p.c = chosen->c, p.hwt = chosen->hwt, p.seed = o.seed;
    p.secret_key_encryption = o.encryption == "secret";
    std::optional<BgvBackend> made;
    if (in.spec->p != 2) made.emplace(p, in.ref->element_field().prime());
    else made.emplace(p, in.slot_n, in.slot_f_low);
    BgvBackend& b = *made;
    const BlockRunFacts f = run_with(b, o, in, wall, ciphertext_bytes);
    out = block_record(o, in, f);
    out["plan"] = plan_json(chosen->plan, plan_s, chooser.cache());
    out["memory"] = memory_json(b, p, f.peak_rss_setup);
    out["transforms"] = b.context().transform_algorithms();  // primes per transform algorithm
  }
  // wall_s counts from the backend's construction; the process also planned before it
  // (plan_s: milliseconds when the plan came from the cache, 0 without one) and checked its inputs.
  const bool ok = out["correct"].get<bool>();
  add_process_timings(out, ok, plan_s, process.seconds());
  write_record(o.json_path, out);
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
                 "[ADPS16], estimator = the lattice estimator's table, --estimator-table; default helib)")
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
  app.add_option("--estimator-table", o.estimator_table,
                 "with --security-models ...,estimator: the lattice estimator's figures as a CSV table "
                 "(engine/bgv/estimator_table.h; written by python -m cbparams.estimator_table)");
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
    cb::PlanChooser chooser(o.backend == "bgv" ? o.plan_cache : std::string());
    return cb::run(o, chooser);
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
