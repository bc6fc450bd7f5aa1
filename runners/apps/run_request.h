// run_request.h: what run_cipher is asked to do, before any work: the command line's
// options as parsed (Options, never changed afterwards), the cipher instance they name
// (Instance: the catalog entry, its constants, the packing by its catalog name and the
// rounds run), the ring (RunRing: Z_m^*/<p> built once per run, on first use), and the
// checks that refuse bad input by name (check_request) before a plan or a key is made.
//
// A keystream entry (Pasta, HERA, Rasta) and a block cipher in CTR mode run elsewhere
// (apps/keystream_run.h, apps/ctr_run.h): keystream_options and ctr_options turn the
// options into theirs, refusing by name what those runs have no use for.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/ctr_run.h"
#include "apps/keystream_run.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "engine/algebra/zmstar.h"
#include "engine/bgv/memory.h"

namespace cb {

// The command line, as parsed (run_cipher.cpp's main says what each option means).
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
  std::string estimator_table;      // --estimator-table: the estimator model's table (engine/bgv/estimator_table.h)
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
  std::string packing; // --packing by its catalog name (catalog.h packing_name: byte-sliced is sliced)
  std::string name;    // "GF(2^8)^16"
  std::string display; // "AES-128 GF(2^8)^16", "Vision GF(2^8)^16" (messages)
};

// The run's ring Z_m^*/<p>, built once, on first use: where the run needs it (the ring
// check at p = 2, the security formula's phi, the memory model, CTR mode's slots) and
// never where it does not (an F_p instance on HElib, which checks its own rings).
// ParameterError from ZmStar for a ring the engine does not take at p.
class RunRing {
 public:
  RunRing(long m, long p) : m_(m), p_(p) {}
  const ZmStar& zmstar() const {
    if (!zm_) zm_.emplace(m_, p_);
    return *zm_;
  }

 private:
  long m_, p_;
  mutable std::optional<ZmStar> zm_;
};

// ParameterError unless a cipher (--cipher or --instance) and a ring (--m) are named.
void require_cipher_and_ring(const Options& o);

// The security models' inputs, before any work: with `estimator` among --security-models,
// --estimator-table is read and made the table the model answers from
// (bgv::use_estimator_table); --estimator-table without it is refused, as is the model
// without its table. ParameterError naming the option and the constraint.
void load_security_models(const Options& o);

// A keystream entry's run, or none for a block cipher; the block ciphers' options a
// keystream entry has no use for are refused by name.
std::optional<KeystreamRunOptions> keystream_options(const Options& o);

// The instance --cipher/--instance, --field-bits, --state-size, --p and --rounds name.
Instance make_instance(const Options& o);

// The checks of a block cipher's run before any work: key weight and digits (BGV), the
// planner's hint, --key and --plaintext in the instance's codec and size, and (GF(2^n))
// the ring's slots against the instance (check_ring_holds_instance).
void check_request(const Options& o, const Instance& in, const RunRing& ring);

// The field-vs-ring check: the ring must hold the cipher's field (bit-sliced: GF(2), any
// ring) and, packed, one block per ciphertext. (bgv_backend.cpp has the same check.)
void check_ring_holds_instance(const Options& o, const Instance& in, const ZmStar& zm);

// --key or --plaintext in the instance's byte codec (hex, or F_p's decimal elements).
std::vector<uint8_t> input_bytes(const Instance& in, const std::string& text, long count, const std::string& what);

// The bytes a run may hold: --max-memory-gb, else the memory available (MemAvailable of
// /proc/meminfo; 0 when unknown).
double memory_allowed(const Options& o);

// The engine's memory model at the run's ring, chain and digits (engine/bgv/memory.h).
bgv::MemoryModel memory_model(const Options& o, const RunRing& ring, long bits, long c);

// Whether the subkeys are encrypted per round (circuit.h), and why: --subkeys, or (auto)
// per round when holding all of them (fresh ciphertexts of ciphertext_bytes each; 0 when
// unknown) would take more than a quarter of the memory allowed.
std::pair<bool, std::string> subkey_policy(const Options& o, long ciphertexts, double ciphertext_bytes);

// Whether the subkeys are encrypted per round and why, for this many subkey ciphertexts
// on a chain of this many bits (0: unknown): CTR mode's form of subkey_policy.
using SubkeyPolicy = std::function<std::pair<bool, std::string>(long ciphertexts, long bits)>;

// A block cipher in CTR mode (apps/ctr_run.h); the options it has no use for refused by
// name. ring must outlive the run.
CtrRunOptions ctr_options(const Options& o, const Instance& in, const RunRing& ring, SubkeyPolicy policy);

// The run's circuit and workload on a backend (the planner's or the run's).
template <class B, template <class> class Rep>
CipherHarness<B, Rep> make_harness(B& b, const Options& o, const Instance& in) {
  const auto key = input_bytes(in, o.key_hex, in.spec->key_elements, "--key");
  const auto pt = input_bytes(in, o.pt_hex, in.s, "--plaintext");
  return CipherHarness<B, Rep>(b, *in.ref, in.rounds, o.decrypt, o.linear == "fused", o.blocks, o.seed, key, pt,
                               in.display);
}

}  // namespace cb
