#include "apps/run_report.h"

#include <omp.h>
#include <sys/resource.h>

#include <cmath>
#include <fstream>

#include "apps/memory_json.h"
#include "apps/record_json.h"
#include "backend/backend_json.h"
#include "engine/bgv/memory.h"
#include "engine/bgv/noise.h"
#include "engine/errors.h"

namespace cb {

using json = nlohmann::json;

json params_json(const BackendInfo& i) {
  json j = info_json(i);
  j.erase("name");
  return j;
}

json plan_json(const ChainPlan& p, double seconds, const PlanCache* cache) {
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
          {"cache", cache ? json{{"dir", cache->dir()}, {"hits", cache->hits()}, {"misses", cache->misses()}}
                          : json(nullptr)}};
}

json plan_record(const Options& o, const Instance& in, const ChainPlan& p, double plan_s, const PlanCache* cache) {
  json out;
  out["cipher"] = in.entry->name;
  out["instance"] = in.name;
  out["instance_id"] = in.spec->id;
  out["packing"] = in.packing;
  out["linear"] = o.linear;
  out["direction"] = o.decrypt ? "decrypt" : "encrypt";
  out["rounds"] = in.rounds;
  out["backend"] = "bgv";
  out["seed"] = o.seed;
  out["params"] = params_json(p.info);
  out["plan"] = plan_json(p, plan_s, cache);
  return out;
}

double peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) * 1024;  // Linux: kilobytes
}

json memory_json(const BgvBackend& b, const BgvParams& p, double peak_rss_setup) {
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

json op_profile_json(const BgvBackend& b) {
  json prof = json::array();
  for (const auto& e : b.op_profile())
    prof.push_back({{"op", e.op}, {"primes", e.primes}, {"dropped", e.dropped}, {"count", e.count},
                    {"seconds", e.seconds}});
  return prof;
}

json block_record(const Options& o, const Instance& in, const BlockRunFacts& f) {
  json out;
  out["cipher"] = in.entry->name;
  out["instance"] = in.name;
  out["instance_id"] = in.spec->id;
  out["packing"] = in.packing;
  out["linear"] = o.linear;
  out["direction"] = o.decrypt ? "decrypt" : "encrypt";
  out["rounds"] = in.rounds;
  out["rounds_spec"] = in.spec->rounds;
  out["backend"] = o.backend;
  // HElib's backend encrypts with PubKey::Encrypt; the clear backend not at all.
  out["encryption"] = o.backend == "bgv" ? o.encryption : o.backend == "helib" ? "public" : "none";
  out["params"] = f.params;
  out["blocks"] = f.blocks;
  out["blocks_per_run_max"] = f.max_blocks;
  out["layout"] = f.layout;
  out["automorphism_keys"] = f.automorphism_keys;
  out["subkeys"] = {{"encrypted", f.subkeys_per_round ? "per round" : "up front"},
                    {"ciphertexts", f.subkey_ciphertexts},
                    {"why", f.subkeys_why}};
  out["seed"] = o.seed;
  out["threads"] = omp_get_max_threads();
  const CipherInstance& ref = *in.ref;
  out["key_fingerprint"] = msg(std::hex, apps::fnv1a(f.key_bytes));
  // The blocks in the instance's text codec: hex, or F_p's decimal elements (no "_hex").
  const std::string sfx = in.spec->p == 2 ? "_hex" : "";
  if (in.spec->p != 2) out["p"] = in.spec->p;
  out["plaintext" + sfx] = ref.format(f.plain0);
  out["input" + sfx] = ref.format(f.input0);
  out["ciphertext" + sfx] = ref.format(f.output0);  // the circuit's output block 0 (plaintext with --decrypt)
  out["expected" + sfx] = ref.format(f.expected0);
  out["wrong_blocks"] = f.wrong_blocks;
  out["fresh_capacity_bits"] = std::isfinite(f.fresh_capacity) ? json(f.fresh_capacity) : json(nullptr);
  out["ops"] = f.ops.as_map();
  if (f.op_profile) out["op_profile"] = *f.op_profile;
  if (f.noise_per_round) out["noise_per_round"] = *f.noise_per_round;
  const BlockTimings& t = f.timings;
  json timings = {{"setup_s", t.setup_s},
                  {"keygen_s", t.keygen_s},
                  {"encrypt_keys_s", t.encrypt_keys_s},
                  {"encrypt_input_s", t.encrypt_input_s},
                  {"total_s", t.total_s},
                  {"total_cpu_s", t.total_cpu_s},
                  {"decrypt_s", t.decrypt_s},
                  {"wall_s", t.wall_s}};
  json per_round = json::array();
  for (auto& r : f.rounds) per_round.push_back(apps::round_json(r));
  const bool correct = f.wrong_blocks == 0;
  if (correct) {
    out["timings"] = timings;
    out["per_round"] = per_round;
  } else {
    out["invalid_timings"] = {{"timings", timings}, {"per_round", per_round}};
  }
  out["correct"] = correct;
  return out;
}

void add_process_timings(json& record, bool correct, double plan_s, double process_s) {
  json& timings = correct ? record["timings"] : record["invalid_timings"]["timings"];
  timings["plan_s"] = plan_s;
  timings["process_s"] = process_s;
}

void write_record(const std::string& path, const json& record) {
  std::ofstream f(path);
  if (!f) throw Error(msg("--json ", path, ": cannot open for writing"));
  f << record.dump(2) << "\n";
  if (!f) throw Error(msg("--json ", path, ": write failed"));
}

}  // namespace cb
