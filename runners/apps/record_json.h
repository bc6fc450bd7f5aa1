// record_json.h: what every run's record is written with (run_cipher's block, CTR and
// keystream runs): the key's fingerprint, a round's JSON, non-finite numbers as null, and
// the output checked writable before any work.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ciphers/common/round_record.h"
#include "engine/errors.h"

namespace cb::apps {

// FNV-1a (64 bits) of the cipher key's bytes: tells runs apart without writing the key.
inline uint64_t fnv1a(const std::vector<uint8_t>& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

// A number, or null where it is not finite (capacity of the clear backend: infinite).
inline nlohmann::json finite(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// {round, seconds, capacity_bits, ops{step: seconds}, counts{...}}
inline nlohmann::json round_json(const RoundRecord& r) {
  nlohmann::json ops = nlohmann::json::object();
  for (auto& [k, v] : r.ops) ops[k] = v;
  return {{"round", r.round},
          {"seconds", r.seconds},
          {"capacity_bits", finite(r.capacity_bits)},
          {"ops", ops},
          {"counts", r.counts.as_map()}};
}

// ParameterError unless --json PATH can be written; a file that was not there is not left.
inline void check_writable(const std::string& path) {
  const bool existed = std::ifstream(path).good();
  std::ofstream probe(path, std::ios::app);
  if (!probe) throw ParameterError(msg("--json ", path, ": cannot open for writing"));
  probe.close();
  if (!existed) std::remove(path.c_str());
}

}  // namespace cb::apps
