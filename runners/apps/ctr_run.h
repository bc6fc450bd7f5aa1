// ctr_run.h: run_cipher --mode ctr, a block cipher of the catalog (AES-128, Vision,
// Chaghri, MiMC over GF(2^n) and F_p) on the transciphering path, as the keystream
// entries run (keystream_run.h): the counters public, the key encrypted.
//
// Block j's keystream is E_k(ctr_j), ctr_j the counter block of (nonce, counter + j)
// (harness.h: T = nonce 2^64 + counter + j, big-endian digits of the instance's field;
// AES-128: SP 800-38A's nonce || counter, OpenSSL's AES-128-CTR IV). A session: the
// client's key schedule is encrypted (encrypt_key_s, the subkeys as block mode encrypts
// them, --subkeys); the server encodes the counter blocks in the representation's layout
// (material_s), evaluates the rounds from subkey 0 plus those constants (circuit.h's
// run_public: round 1's whitening AddKey is a constant addition, the counter blocks are
// never encrypted; keystream_s, per round), subtracts the keystream from the symmetric
// ciphertext c_j = m_j + KS_j it holds in the clear (GF(2^n): a constant addition; F_p:
// a constant product by -1 and a constant addition; subtract_s) and runs the work after:
// --depth-after L products y = m_0 m_1 ... m_L over the state's ciphertexts, cyclically
// (work_after_s). Every stage is checked: the keystream against the reference's
// encryptions of the counter blocks, the subtraction against the client's messages, the
// products slot by slot against their clear values (the slots the blocks use). The chain
// (BGV) is planned for all of it (the planner runs the same session); capacity after the
// subtraction is what the transciphered data has left, depth_left the further products
// it takes at the run's chain.
//
// JSON: the keystream record's fields (keystream_run.h) with mode "ctr": cipher, instance,
// instance_id, mode, packing, linear, direction ("encrypt"), rounds, rounds_spec, backend,
// encryption, threads, params, blocks, blocks_per_run_max, layout, automorphism_keys,
// subkeys{encrypted, ciphertexts, why}, nonce, counter, counter_block (block 0's, in the
// instance's text codec), depth_after, seed, key_fingerprint, keystream (block 0),
// timings{keygen_s (the backend's keys, automorphism keys included), material_s,
// encrypt_key_s, keystream_s, keystream_cpu_s, subtract_s, work_after_s, decrypt_s, wall_s,
// plan_s, process_s}, per_round, ops (the keystream's counts), capacity{fresh_bits,
// after_keystream_bits, after_subtract_bits, after_work_bits, depth_after, depth_left},
// throughput{plaintext_bits, server_s (material, keystream, subtraction),
// bits_per_second, seconds_per_block}, sizes (apps/record_sizes.h; the output
// ciphertext's plaintext bits: the blocks' elements it holds), wrong_blocks{keystream,
// messages (blocks), work_after (slots)}, correct, plan (BGV), fheorg{Timing, Bandwidth}
// (the FHE.org transciphering workload's shape, as keystream records; the encrypted
// symmetric key is the subkeys' ciphertexts).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ciphers/catalog/cipher_spec.h"

namespace cb {

class RunRing;  // apps/run_request.h

struct CtrRunOptions {
  const CipherEntry* entry = nullptr;
  const InstanceSpec* spec = nullptr;
  std::string packing = "packed";  // packed, sliced or bit-sliced (catalog.h packing_name)
  std::string linear = "separate", backend = "bgv", json_path, encryption = "secret", plan_cache;
  std::vector<uint8_t> key;  // the cipher key in the byte codec (empty: drawn from seed, as block mode)
  long rounds = 0;           // the rounds run (the instance's when 0)
  long m = 0, bits = 0, c = 3, hwt = 120, blocks = 0, depth_after = 0, bits_hint = 0;
  uint64_t seed = 1, nonce = 0, counter = 0;
  bool plan_only = false, force = false;
  double security_target = 0;  // > 0: c and the key weight chosen (apps/security_target.h)
  bool hwt_given = false;      // --hwt given: --security-target keeps it
  std::vector<std::string> security_models{"helib"};  // --security-models: met in the one search
  const RunRing* ring = nullptr;  // the run's Z_m^*/<p> (required: one per run, apps/run_request.h)
  // Whether the subkeys are encrypted per round, and why, for this many ciphertexts on a
  // chain of this many bits (run_cipher's --subkeys policy); none: up front.
  std::function<std::pair<bool, std::string>(long ciphertexts, long bits)> subkey_policy;
};

// ParameterError (before any work) when the entry cannot run in CTR mode: a keystream
// entry, round 1 not starting with AddKey(0), the counter blocks not encodable
// (harness.h's ctr_refusal), --depth-after beyond 1000.
void check_ctr(const CtrRunOptions& o);

// Runs the session and writes the JSON record; returns 0, or 2 when a block was wrong
// (the timings then move under invalid_timings).
int run_ctr(const CtrRunOptions& o);

}  // namespace cb
