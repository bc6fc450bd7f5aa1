// memory_json.h: the memory model's figures (engine/bgv/memory.h) as the JSON object that
// chain_info reports per chain and run_cipher reports beside what it measured, so both
// name the fields alike.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/bgv/memory.h"

namespace cb::apps {

// Bytes of a limb, the transform tables, the secret and public key, one key-switching key
// as stored and in full (and whether stored compact), a fresh ciphertext and one key
// switch's temporaries; with n_automorphism_keys >= 0 also the set-up total for that many
// automorphism keys (MemoryModel::setup).
inline nlohmann::json memory_model_json(const bgv::MemoryModel& mm, long n_automorphism_keys = -1) {
  nlohmann::json j = {{"limb_bytes", mm.limb},           {"transforms_bytes", mm.transforms},
                      {"secret_key_bytes", mm.secret_key}, {"public_key_bytes", mm.public_key},
                      {"key_bytes", mm.key},              {"key_full_bytes", mm.key_full},
                      {"key_compact", mm.key_compact},    {"ciphertext_bytes", mm.ciphertext},
                      {"key_switch_bytes", mm.key_switch}};
  if (n_automorphism_keys >= 0) j["setup_bytes"] = mm.setup(n_automorphism_keys);
  return j;
}

}  // namespace cb::apps
