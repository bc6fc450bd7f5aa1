// keystream_run.h: run_cipher for a keystream entry of the catalog (Pasta, HERA, Rasta):
// the server's side of transciphering, timed by stage and checked end to end.
//
// A session (keystream_circuit.h): the client's key is encrypted once (key_elements
// ciphertexts); for the blocks (nonce, counter .. counter + blocks - 1), one per slot, the
// server derives the public matrices and constants (material_s), evaluates the keystream
// on the encrypted key (keystream_s, per round), subtracts it from the symmetric
// ciphertext, which it holds in the clear (subtract_s), and runs the work after it:
// --depth-after L products in a chain (work_after_s). Each stage is checked: the
// keystream against the clear reference, the subtraction against the client's message,
// the product chain against its clear value. The chain (BGV) is planned for all of it, so
// the record's capacity after the subtraction is what the transciphered data has left;
// depth_left counts the further products it takes (the planner's bounds at the run's
// chain), beyond the L it was planned for.
//
// --packing state (KeystreamRunOptions::packing) puts one block's state in the slots of one
// ciphertext instead, as many blocks per ciphertext as its rows fit, the matrices applied by
// rotations (keystream_state_circuit.h); the session and its checks are the same.
//
// JSON: cipher, instance, instance_id, mode ("keystream"), packing ("blocks" or "state"),
// backend, encryption, threads, params, blocks, blocks_per_run_max, layout, rotations (the
// keystream's automorphisms, all rounds) and rotation_keys (their distinct keys), nonce, counter, depth_after, seed,
// key_fingerprint, timings{setup_s, keygen_s, material_s, encrypt_key_s, keystream_s,
// keystream_cpu_s, subtract_s, work_after_s, decrypt_s, wall_s, plan_s, process_s},
// per_round[{round, seconds, capacity_bits, ops, counts}], capacity{fresh_bits,
// after_keystream_bits, after_subtract_bits, after_work_bits, depth_after, depth_left},
// throughput{plaintext_bits, bits_per_second, seconds_per_block}, keystream (block 0,
// the instance's text codec), sizes (apps/record_sizes.h: the keys, a fresh ciphertext, the
// key's, and an output one, the message's after the subtraction, whose expansion counts
// the blocks' bits, one per used slot), wrong_blocks{keystream, messages, work_after},
// correct, plan and op_profile (BGV: the keystream's engine steps, as run_cipher's), fheorg{Timing, Bandwidth} (the same session in the FHE.org
// transciphering workload's shape: Timing per stage in seconds, Bandwidth in bytes).
#pragma once

#include <cstdint>
#include <string>

#include "ciphers/catalog/cipher_spec.h"

namespace cb {

struct KeystreamRunOptions {
  const CipherEntry* entry = nullptr;
  const InstanceSpec* spec = nullptr;
  std::string backend = "bgv", key_text, json_path, encryption = "secret";
  std::string plan_cache;  // directory of plans kept between runs (backend/plan_cache.h; empty: none)
  // blocks: one ciphertext per state element, block j in slot j (keystream_circuit.h);
  // state: one block's state in the slots of one ciphertext, rotations (keystream_state_circuit.h)
  std::string packing = "blocks";
  long m = 0, bits = 0, c = 3, hwt = 120, blocks = 0, depth_after = 0, bits_hint = 0;
  uint64_t seed = 1, nonce = 0, counter = 0;
  bool plan_only = false, force = false;
  double security_target = 0;  // > 0: c and the key weight chosen (apps/security_target.h)
  bool hwt_given = false;      // --hwt given: --security-target keeps it
  std::vector<std::string> security_models{"helib"};  // --security-models: met in the one search
};

// Runs the session and writes the JSON record; returns 0, or 2 when a block was wrong
// (the timings then move under invalid_timings). ParameterError before any work for bad
// input: the key's length or elements, the ring, the blocks, counters passing 2^64 - 1.
int run_keystream(const KeystreamRunOptions& o);

}  // namespace cb
