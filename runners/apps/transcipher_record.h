// transcipher_record.h: the record of a transciphering session, the same for keystream
// entries (keystream_run.h) and block ciphers in CTR mode (ctr_run.h): the stages'
// measurements, and the fields built from them (capacity, throughput, the FHE.org shape,
// the check's outcome), written once.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "apps/record_json.h"
#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/common/round_record.h"
#include "engine/errors.h"

namespace cb::apps {

// What one session measured on a backend.
struct SessionStages {
  std::vector<RoundRecord> rounds;
  double material_s = 0, encrypt_key_s = 0, keystream_s = 0, keystream_cpu_s = 0, subtract_s = 0, work_after_s = 0,
         decrypt_s = 0;
  double fresh = 0, after_keystream = 0, after_subtract = 0, after_work = 0;  // capacities (bits)
  long wrong_keystream = 0, wrong_msgs = 0, wrong_work = 0;
  Elements keystream0;    // block 0's keystream as decrypted
  nlohmann::json sizes;   // apps/record_sizes.h: the keys, a fresh and an output ciphertext
};

// The session's shape: blocks of s elements of element_bits (log2 p, or n) and
// element_bytes each; the ciphertexts of the encrypted key and of the results.
struct SessionShape {
  long blocks = 0, s = 0, key_cts = 0, result_cts = 0, element_bytes = 0;
  double element_bits = 0;
  long depth_after = 0, depth_left = -1;  // -1: not computed (no planner)
  std::string wrong_unit = "blocks";      // what wrong_work counts ("slots" in a packed CTR run)
};

// capacity, throughput, fheorg, wrong_blocks, correct and timings (invalid_timings when a
// check failed) into out, written to path; 0, or 2 with the message when a check failed.
// The server's time is material + keystream + subtraction. fheorg: the FHE.org
// transciphering workload's shape, "Timing" per stage in seconds and "Bandwidth" in bytes
// (keys, the encrypted symmetric key, the symmetric ciphertext sent in the clear, the
// results), so a record stands beside that workload's published measurements.
inline int finish_session_record(nlohmann::json& out, const SessionStages& s, const SessionShape& n,
                                 nlohmann::json timings, const std::string& path) {
  using json = nlohmann::json;
  json rounds = json::array();
  for (const auto& r : s.rounds) rounds.push_back(round_json(r));
  out["per_round"] = rounds;
  out["sizes"] = s.sizes;
  out["capacity"] = {{"fresh_bits", finite(s.fresh)},
                     {"after_keystream_bits", finite(s.after_keystream)},
                     {"after_subtract_bits", finite(s.after_subtract)},
                     {"after_work_bits", finite(s.after_work)},
                     {"depth_after", n.depth_after},
                     {"depth_left", n.depth_left >= 0 ? json(n.depth_left) : json(nullptr)}};
  const double server_s = s.material_s + s.keystream_s + s.subtract_s;
  const double pt_bits = double(n.blocks) * double(n.s) * n.element_bits;
  out["throughput"] = {{"plaintext_bits", pt_bits},
                       {"server_s", server_s},
                       {"bits_per_second", pt_bits / server_s},
                       {"seconds_per_block", server_s / double(n.blocks)}};
  json bw = nullptr;
  if (s.sizes.is_object()) {
    const double ct = s.sizes.value("output_ciphertext_bytes", 0.0), fresh = s.sizes.value("fresh_ciphertext_bytes", 0.0);
    bw = {{"Public and evaluation keys", s.sizes.value("public_key_bytes", 0.0) + s.sizes.value("eval_key_bytes", 0.0)},
          {"Encrypted symmetric key", fresh * double(n.key_cts)},
          {"Symmetric ciphertext", double(n.blocks) * double(n.s) * double(n.element_bytes)},
          {"Encrypted results", ct * double(n.result_cts)}};
  }
  out["fheorg"] = {{"Timing",
                    {{"Key generation", timings.value("keygen_s", 0.0)},
                     {"Key encryption", s.encrypt_key_s},
                     {"Transciphering", server_s},
                     {"Workload", s.work_after_s},
                     {"Decryption", s.decrypt_s}}},
                   {"Bandwidth", bw},
                   {"plaintext_bits", pt_bits}};
  timings["material_s"] = s.material_s, timings["encrypt_key_s"] = s.encrypt_key_s;
  timings["keystream_s"] = s.keystream_s, timings["keystream_cpu_s"] = s.keystream_cpu_s;
  timings["subtract_s"] = s.subtract_s, timings["work_after_s"] = s.work_after_s, timings["decrypt_s"] = s.decrypt_s;
  const long wrong = s.wrong_keystream + s.wrong_msgs + s.wrong_work;
  out["wrong_blocks"] = {{"keystream", s.wrong_keystream}, {"messages", s.wrong_msgs}, {"work_after", s.wrong_work}};
  out["correct"] = wrong == 0;
  if (wrong == 0) out["timings"] = timings;
  else out["invalid_timings"] = {{"timings", timings}};
  std::ofstream f(path);
  if (!f) throw Error(msg("--json ", path, ": cannot open for writing"));
  f << out.dump(2) << "\n";
  if (wrong) {
    std::fprintf(stderr, "run_cipher: WRONG RESULT: %ld keystream, %ld message and %ld work-after %s of %ld blocks differ\n",
                 s.wrong_keystream, s.wrong_msgs, s.wrong_work, n.wrong_unit.c_str(), n.blocks);
    return 2;
  }
  return 0;
}

}  // namespace cb::apps
