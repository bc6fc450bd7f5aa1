#include "apps/run_request.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <iomanip>
#include <tuple>

#include "ciphers/reference/hex.h"
#include "backend/bgv_backend.h"
#include "engine/algebra/ring_fit.h"
#include "engine/bgv/chain.h"
#include "engine/bgv/security_model.h"
#include "engine/errors.h"

namespace cb {

void require_cipher_and_ring(const Options& o) {
  if (o.cipher.empty() && o.instance.empty())
    throw ParameterError("--cipher is required (run_cipher --list-ciphers --json F lists the catalog)");
  if (o.m == 0) throw ParameterError("--m is required (the cyclotomic index of the ring)");
}

void load_security_models(const Options& o) {
  const bool named = std::find(o.security_models.begin(), o.security_models.end(), "estimator") !=
                     o.security_models.end();
  if (!named && !o.estimator_table.empty())
    throw ParameterError(msg("--estimator-table ", o.estimator_table, " is the estimator model's table: name it with ",
                             "--security-models ...,estimator"));
  if (!named) return;
  if (o.security_target <= 0)
    throw ParameterError("--security-models ...,estimator is met by the target search: give --security-target");
  if (o.estimator_table.empty())
    throw ParameterError("--security-models ...,estimator needs --estimator-table PATH: the lattice estimator's "
                         "figures, written by `python -m cbparams.estimator_table write --table PATH`");
  bgv::use_estimator_table(std::make_shared<bgv::EstimatorTable>(bgv::EstimatorTable::read(o.estimator_table)));
}

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
  KeystreamRunOptions k;
  k.entry = e, k.spec = sp, k.backend = o.backend, k.key_text = o.key_hex, k.json_path = o.json_path;
  k.encryption = o.encryption, k.m = o.m, k.bits = o.bits, k.c = o.c, k.hwt = o.hwt, k.blocks = o.blocks;
  k.depth_after = o.depth_after, k.bits_hint = o.bits_hint, k.seed = o.seed, k.nonce = o.nonce;
  k.counter = o.counter, k.plan_only = o.plan, k.force = o.force;
  k.security_target = o.security_target, k.hwt_given = o.hwt_given, k.plan_cache = o.plan_cache;
  k.security_models = o.security_models;
  k.packing = o.packing == "state" ? "state" : "blocks";
  return k;
}

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
  in.packing = packing_name(*in.entry, o.packing);
  const bool bits = in.packing == kBitSliced;
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

void check_ring_holds_instance(const Options& o, const Instance& in, const ZmStar& zm) {
  if (zm.d() % in.slot_n != 0)
    throw ParameterError(msg("m=", o.m, " has d=", zm.d(), " (slots GF(2^", zm.d(), ")): GF(2^", in.slot_n, ") needs ", in.slot_n,
                             " | d; ", rings_holding_hint(2, in.slot_n, o.m)));
  if (in.packing == "packed" && zm.ell() < in.s)
    throw ParameterError(msg("m=", o.m, " has ", zm.ell(), " slots: ", in.display, " packed needs ", in.s,
                             " per block"));
}

std::vector<uint8_t> input_bytes(const Instance& in, const std::string& text, long count, const std::string& what) {
  if (text.empty()) return {};
  if (in.spec->p == 2) return from_hex(text, what);
  return in.ref->to_bytes(in.ref->parse(text, count, what));
}

void check_request(const Options& o, const Instance& in, const RunRing& ring) {
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
        throw ParameterError(msg("--key has ", k.size(), " bytes: ", in.display, " needs ", eb * in.spec->key_elements));
      in.ref->from_bytes(k, in.spec->key_elements, "--key");
    }
    if (!o.pt_hex.empty()) {
      const auto p = from_hex(o.pt_hex, "--plaintext");
      if (long(p.size()) != eb * in.s)
        throw ParameterError(msg("--plaintext has ", p.size(), " bytes: ", in.display, " needs ", eb * in.s));
      in.ref->from_bytes(p, in.s, "--plaintext");
    }
  }
  // F_p: the backends check m against p (ZmStar(m, p)) when they are built.
  if (in.spec->p == 2) check_ring_holds_instance(o, in, ring.zmstar());
}

namespace {

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

}  // namespace

// The bytes a run may hold: --max-memory-gb, else the memory available (0 when unknown).
double memory_allowed(const Options& o) {
  return o.max_memory_gb > 0 ? o.max_memory_gb * 1e9 : available_memory_bytes();
}

// The engine's memory model at the run's ring, chain and digits (engine/bgv/memory.h).
bgv::MemoryModel memory_model(const Options& o, const RunRing& ring, long bits, long c) {
  return bgv::MemoryModel(bgv::Chain(bgv::ChainParams{o.m, bits, c}), o.m, ring.zmstar().phi(),
                          size_t(BgvParams{}.keep_uniform_mib) << 20);
}

// Whether the subkeys are encrypted per round (circuit.h), and why: --subkeys, or (auto)
// per round when holding all of them (fresh ciphertexts of ciphertext_bytes each; 0 when
// unknown) would take more than a quarter of the memory available (the state, the keys
// and the temporaries need the rest).
std::pair<bool, std::string> subkey_policy(const Options& o, long ciphertexts, double ciphertext_bytes) {
  if (o.subkeys == "up-front") return {false, "--subkeys up-front"};
  if (o.subkeys == "per-round") return {true, "--subkeys per-round"};
  const double bytes = double(ciphertexts) * ciphertext_bytes;
  const double avail = memory_allowed(o);
  const std::string size = msg(ciphertexts, " ciphertexts, about ", std::fixed, std::setprecision(1), bytes / 1e9,
                               " GB, against ", avail / 1e9, " GB ", o.max_memory_gb > 0 ? "allowed" : "available");
  if (bytes > 0 && avail > 0 && bytes > avail / 4) return {true, "all subkeys at once: " + size + " (over a quarter)"};
  if (bytes > 0 && avail > 0) return {false, "all subkeys at once: " + size};
  return {false, "default (memory not estimated for this backend)"};
}

CtrRunOptions ctr_options(const Options& o, const Instance& in, const RunRing& ring, SubkeyPolicy policy) {
  if (o.decrypt || !o.pt_hex.empty() || o.measure_noise || o.corrupt_output)
    throw ParameterError(msg("--mode ctr: the blocks are counter blocks (--nonce, --counter) and the direction is "
                             "encryption; --decrypt, --plaintext and --measure-noise are block mode's"));
  CtrRunOptions k;
  k.entry = in.entry, k.spec = in.spec, k.packing = in.packing, k.linear = o.linear, k.backend = o.backend;
  k.json_path = o.json_path, k.encryption = o.encryption, k.plan_cache = o.plan_cache;
  k.key = input_bytes(in, o.key_hex, in.spec->key_elements, "--key");
  k.rounds = in.rounds, k.m = o.m, k.bits = o.bits, k.c = o.c, k.hwt = o.hwt, k.blocks = o.blocks;
  k.depth_after = o.depth_after, k.bits_hint = o.bits_hint, k.seed = o.seed, k.nonce = o.nonce, k.counter = o.counter;
  k.plan_only = o.plan, k.force = o.force;
  k.security_target = o.security_target, k.hwt_given = o.hwt_given, k.security_models = o.security_models;
  k.ring = &ring;
  k.subkey_policy = std::move(policy);
  return k;
}

}  // namespace cb
