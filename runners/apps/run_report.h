// run_report.h: the JSON record of a block cipher's run (run_cipher --mode block), and of
// its plan alone (--plan). CTR and keystream runs write theirs (apps/ctr_run.h,
// apps/keystream_run.h) with the same pieces (apps/record_json.h).
//
// A run's record: cipher, instance ("GF(2^8)^16"), instance_id (the catalog's id, e.g.
// vision8), packing, linear, direction, rounds (rounds_spec: the cipher's own count),
// backend, encryption (secret, public; none on the clear backend), threads, params{p, m,
// phi, d, slots, bits, c, hwt, log2_q, log2_q_ct, log2_p, security}, blocks,
// blocks_per_run_max, layout, automorphism_keys, subkeys{encrypted ("up front" or "per
// round"), ciphertexts, why}, timings{setup_s (backend and circuit setup, key generation
// and round-key encryption included), keygen_s, encrypt_keys_s, encrypt_input_s, total_s
// (all rounds), total_cpu_s (the rounds' process CPU time, all threads), decrypt_s, wall_s
// (from the backend's construction), plan_s (the chain planner's share before it, ~0 from
// the plan cache), process_s (the whole process)}, per_round[{round, seconds,
// capacity_bits, ops{step: seconds}, counts{mul, mul_plain, add, add_plain, automorph}}],
// ops (counts over the run), op_profile[{op, primes, dropped, count, seconds}] (BGV: each
// engine step's own wall time in the rounds, under the planner's names, lanes' times
// added: engine/bgv/op_profile.h), fresh_capacity_bits, plaintext_hex, input_hex,
// ciphertext_hex (the output block 0), expected_hex, key_fingerprint, wrong_blocks,
// correct, plan{bits, bits_per_round, round_capacity_bits, chain, op_counts[{op, primes,
// dropped, count, lanes}] (the rounds' engine operations at the chain op_counts_bits, the
// run's: PlanBackend::OpCount), seconds} (BGV), memory (BGV), transforms (BGV),
// noise_per_round (--measure-noise). A prime-field instance has plaintext, input,
// ciphertext, expected (decimal) and p in place of the *_hex fields. When any block
// differs, the timings and per_round move under invalid_timings. Neither the cipher key
// nor any FHE secret is written: key_fingerprint is FNV-1a (64 bits) of the key's bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "apps/run_request.h"
#include "backend/backend.h"
#include "backend/bgv_backend.h"
#include "backend/chain_planner.h"
#include "backend/plan_cache.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/round_record.h"

namespace cb {

// The record's "params": the backend's fields but its name.
nlohmann::json params_json(const BackendInfo& i);

// The record's "plan": the chain, its capacities and operation counts, why it was chosen,
// the seconds it took and the plan cache's hits and misses (null without a cache).
nlohmann::json plan_json(const ChainPlan& p, double seconds, const PlanCache* cache);

// --plan's record: the run's identity, params as a run would report them, and the plan.
nlohmann::json plan_record(const Options& o, const Instance& in, const ChainPlan& p, double plan_s,
                           const PlanCache* cache);

// Peak resident memory of the process so far, in bytes.
double peak_rss_bytes();

// Where a BGV run's memory goes: the backend's long-lived data counted from its objects,
// the model's prediction of the same (engine/bgv/memory.h), the peak resident memory once
// keys, subkeys and inputs were ready (peak_rss_setup) and now.
nlohmann::json memory_json(const BgvBackend& b, const BgvParams& p, double peak_rss_setup);

// The rounds' engine steps of a BGV run: [{op, primes, dropped, count, seconds}].
nlohmann::json op_profile_json(const BgvBackend& b);

// The timings of a block run (seconds; see the header).
struct BlockTimings {
  double setup_s = 0, keygen_s = 0, encrypt_keys_s = 0, encrypt_input_s = 0, total_s = 0, total_cpu_s = 0,
         decrypt_s = 0, wall_s = 0;
};

// What a block run did and found, for its record.
struct BlockRunFacts {
  nlohmann::json params;  // params_json of the run's backend
  long blocks = 0, max_blocks = 0, automorphism_keys = 0;
  std::string layout;
  bool subkeys_per_round = false;
  long subkey_ciphertexts = 0;
  std::string subkeys_why;
  std::vector<uint8_t> key_bytes;              // the cipher key (only its fingerprint is written)
  Elements plain0, input0, output0, expected0;  // block 0: plaintext, circuit input, output, reference
  long wrong_blocks = 0;
  double fresh_capacity = 0;
  OpCounts ops;
  std::optional<nlohmann::json> op_profile, noise_per_round;  // op_profile_json (BGV); --measure-noise
  BlockTimings timings;
  std::vector<RoundRecord> rounds;
  double peak_rss_setup = 0;  // peak resident bytes once keys, subkeys and inputs were ready (memory_json)
};

// The run's record (correct when no block is wrong).
nlohmann::json block_record(const Options& o, const Instance& in, const BlockRunFacts& f);

// The process's own timings, added where the run's are (timings, or invalid_timings' when
// a block was wrong): plan_s (0 without a plan) and process_s.
void add_process_timings(nlohmann::json& record, bool correct, double plan_s, double process_s);

// Writes a record to path. Error naming the path when it cannot be written.
void write_record(const std::string& path, const nlohmann::json& record);

}  // namespace cb
