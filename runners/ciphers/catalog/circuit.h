// circuit.h: any catalog entry on encrypted data, over any backend, in either packing.
//
// The circuit is the compiled program of program.h on a backend B (backend.h) with the
// state in a representation Rep (packing.h: PackedRep, one ciphertext holding
// floor(ell / s) blocks; SlicedRep, s ciphertexts holding ell blocks; bit_sliced.h:
// BitSlicedRep, s n ciphertexts of bits holding ell blocks, which runs the program on the
// elements' bits, see there: additions, and products for the ANDs of Boolean steps). Each
// compiled operation maps to the building blocks the papers' circuits use:
//     Power       power_map.h's products and Frobenius maps, on every ciphertext;
//     Frobenius   one automorphism X -> X^(2^j) per ciphertext;
//     Affine      linearized_eval.h (baby-step giant-step Frobenius maps, constants in the
//                 active slots), on every ciphertext;
//     Linear      the representation's linear layer: packed by automorphisms and masks
//                 (slot_map.h, planned once per distinct map), sliced by constant products;
//     Fused       the representation's fuse(): the affine map and the layer as one map;
//     AddKey      one addition per ciphertext of the encrypted subkey.
// One cipher key per run: the subkeys come from the entry's clear key schedule and are
// encrypted replicated over the blocks, as the papers did: all before the rounds (up
// front), or each just before the round that adds it (per round), when the subkeys of
// every round would not fit in memory (bit-sliced AES-128 at m=60787 holds 11 x 128
// ciphertexts of 17 MB: 24 GB). Per round, a subkey's encryption is the key owner's work
// done late: its seconds are taken out of the round's (and of the AddKey step's) and
// reported apart (subkey_encrypt_seconds), so the rounds time the same evaluation either
// way. Every round is timed per step (round_record.h) under the step names of the entry.
//
// Over F_p (the instance's p > 2, on a backend whose slots hold F_p: slot_characteristic)
// the same circuit with F_p's operations: a power map is products and squares
// (power_map.h: x^3 is a square and a product), an affine map a x + c one constant product
// and one constant addition, a sliced linear layer constant products and additions, and
// decryption adds the negated subkeys (program.h's subtract_keys). Packed linear layers
// and --linear fused are refused at p with the reason: their slot maps and Frobenius
// circuits are planned over GF(2^n) only, for now (slot_map.h, slot_linear.h).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/catalog/program.h"
#include "ciphers/common/bit_sliced.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/linearized_eval.h"
#include "ciphers/common/packing.h"
#include "ciphers/common/round_record.h"
#include "engine/errors.h"

namespace cb {

// Why a compiled program cannot take public blocks (CTR mode: round 1 must start with the
// whitening AddKey(0), in the encryption direction), or "".
inline std::string ctr_program_refusal(const CompiledProgram& p) {
  if (p.rounds.empty() || p.rounds[0].empty() || p.rounds[0][0].kind != CompiledOp::kAddKey || p.rounds[0][0].key != 0)
    return "round 1 does not start with the whitening key addition AddKey(0): --mode ctr adds the public counter "
           "blocks to the encrypted subkey 0, which needs it";
  if (p.subtract_keys) return "--mode ctr runs the encryption direction only";
  return "";
}

// The representation's fused map type (none on bits: nothing is fused there).
template <class R, bool = R::kBits>
struct FusedOf {
  using type = typename R::Fused;
};
template <class R>
struct FusedOf<R, true> {
  struct type {};
};

template <class B, template <class> class Rep>
class CipherCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using State = std::vector<Ctxt>;
  static constexpr bool kBits = Rep<B>::kBits;

  // Throws ParameterError unless the backend's field is the instance's (on bits: any),
  // 1 <= rounds <= the instance's, and (decrypt) the description has a cheap inverse.
  CipherCircuit(const B& b, const CipherInstance& inst, long rounds, bool decrypt, bool fused = false)
      : b_(b), inst_(inst), prog_(compile(b, inst, rounds, decrypt, fused)), rep_(make_rep(b, inst, prog_.maps)) {
    if constexpr (!kBits) {
      for (const auto& r : prog_.rounds)
        for (const auto& c : r) {
          if (prime() && c.kind == CompiledOp::kFused)
            throw ParameterError(msg(inst.spec().id, " over F_", inst.spec().p, ": --linear fused is not offered over F_p ",
                                     "yet (use --linear separate)"));
          if (prime() && c.kind == CompiledOp::kAffine && !prime_affine_index(c.L)) {
            prime_affine_.push_back(PrimeAffine{c.L, constant_slots(c.L.gamma.at(0)), constant_slots(c.L.c)});
            continue;
          }
          if (c.kind == CompiledOp::kAffine && !prime() && !affine_index(c.L)) {
            affine_L_.push_back(c.L);
            affine_.emplace_back(b, c.L, rep_.active());
          }
          if (c.kind == CompiledOp::kFused && !fused_index(c)) {
            fused_key_.push_back({c.L, c.map, c.affine_first});
            fused_.push_back(rep_.fuse(c.map, c.L, c.affine_first));
          }
        }
    }
  }

  const CipherInstance& instance() const { return inst_; }
  long rounds() const { return long(prog_.rounds.size()); }
  long max_blocks() const { return rep_.max_blocks(); }
  const Rep<B>& rep() const { return rep_; }
  std::string describe() const { return rep_.describe(); }
  const CompiledProgram& program() const { return prog_; }
  // Whether an affine map runs fused with a linear layer (--linear fused).
  bool fused() const { return !fused_.empty(); }

  // Every automorphism exponent the circuit applies (pass to require_automorphisms).
  std::vector<long> automorphisms() const {
    if constexpr (kBits)
      return {};  // additions and products only
    else
      return element_automorphisms();
  }

  // Ciphertexts the encrypted subkeys take when all are held at once (up front).
  long subkey_ciphertexts() const { return prog_.subkeys * rep_.ciphertexts(); }
  // Encrypts the subkeys of the clear key schedule (replicated over the blocks): now, or
  // (per_round) each when its round adds it.
  void load_subkeys(const std::vector<Elements>& subkeys, bool per_round = false) {
    if (long(subkeys.size()) < prog_.subkeys)
      throw ParameterError(msg(inst_.spec().id, ": the key schedule gave ", subkeys.size(), " subkeys, the rounds add ",
                               prog_.subkeys));
    keys_.clear();
    clear_keys_.clear();
    per_round_ = per_round;
    // F_p decryption subtracts the subkeys: the circuit adds their negations.
    std::vector<Elements> added(subkeys.begin(), subkeys.begin() + prog_.subkeys);
    if (prog_.subtract_keys)
      for (auto& k : added)
        for (auto& x : k) x = inst_.element_field().neg(x);
    if (per_round_) {
      clear_keys_ = std::move(added);
      return;
    }
    // All subkeys' ciphertexts in one call, side by side where the backend encrypts so
    // (encrypt_many): the words of encrypting them one by one, in order.
    std::vector<std::vector<uint64_t>> vs;
    for (long i = 0; i < prog_.subkeys; ++i)
      for (auto& v : rep_.replicated_slots(added[i])) vs.push_back(std::move(v));
    auto cts = encrypt_all(b_, vs);
    const size_t w = vs.size() / size_t(prog_.subkeys);
    for (long i = 0; i < prog_.subkeys; ++i)
      keys_.emplace_back(std::make_move_iterator(cts.begin() + long(w) * i),
                         std::make_move_iterator(cts.begin() + long(w) * (i + 1)));
  }
  bool subkeys_per_round() const { return per_round_; }
  // Wall and process CPU seconds of the subkeys encrypted during run() (per round).
  double subkey_encrypt_seconds() const { return late_s_; }
  double subkey_encrypt_cpu_seconds() const { return late_cpu_s_; }
  State encrypt_input(const std::vector<Elements>& blocks) const { return rep_.encrypt(blocks); }
  std::vector<Elements> decrypt_output(const State& st, long blocks) const { return rep_.decrypt(st, blocks); }

  // Runs all rounds on st; one record per round.
  std::vector<RoundRecord> run(Evaluator<B>& ev, State& st) const { return run_rounds(ev, st, nullptr); }

  // CTR mode (apps/ctr_run.h): the blocks are public (counter blocks, harness.h), so round
  // 1's whitening AddKey(0) is the encrypted subkey 0 plus the blocks as a constant
  // addition (add_plain of the blocks' slot vectors in the representation's layout,
  // encoded by encode_public), never an encryption of them. st is replaced by that sum and
  // the rounds run on from there; the first step's time includes the constant addition.
  // ParameterError when round 1 does not start with AddKey(0) (ctr_program_refusal).
  std::vector<typename B::Ptxt> encode_public(const std::vector<Elements>& blocks) const {
    std::vector<typename B::Ptxt> out;
    for (const auto& v : rep_.block_slots(blocks)) out.push_back(b_.encode(v));
    return out;
  }
  std::vector<RoundRecord> run_public(Evaluator<B>& ev, const std::vector<typename B::Ptxt>& blocks, State& st) const {
    if (const std::string why = ctr_program_refusal(prog_); !why.empty()) throw ParameterError(msg(inst_.spec().id, ": ", why));
    if (long(blocks.size()) != rep_.ciphertexts())
      throw Error(msg("run_public: ", blocks.size(), " encoded slot vectors, the state has ", rep_.ciphertexts()));
    return run_rounds(ev, st, &blocks);
  }
 private:
  std::vector<RoundRecord> run_rounds(Evaluator<B>& ev, State& st, const std::vector<typename B::Ptxt>* pub) const {
    if (long(per_round_ ? clear_keys_.size() : keys_.size()) != prog_.subkeys)
      throw ParameterError(msg(inst_.spec().id, ": subkeys not loaded"));
    std::vector<RoundRecord> recs;
    for (size_t i = 0; i < prog_.rounds.size(); ++i) {
      RoundTimer<B> t(ev, long(i) + 1);
      const auto& ops = prog_.rounds[i];
      for (size_t k = 0; k < ops.size();) {  // consecutive operations of one label: one step
        size_t e = k;
        while (e < ops.size() && ops[e].label == ops[k].label) ++e;
        const double late0 = late_s_;
        t.step(ops[k].label, [&] {
          for (size_t j = k; j < e; ++j) {
            if (pub && i == 0 && j == 0) start_public(ev, st, *pub);
            else apply(ev, st, ops[j]);
          }
        });
        t.exclude(ops[k].label, late_s_ - late0);
        k = e;
      }
      recs.push_back(t.finish(capacity(st)));
    }
    return recs;
  }

 public:
  double capacity(const State& st) const { return min_capacity(b_, st); }

 private:
  static CompiledProgram compile(const B& b, const CipherInstance& inst, long rounds, bool decrypt, bool fused) {
    const auto& sp = inst.spec();
    if (const uint64_t p = slot_characteristic(b); !kBits && (p != 2 || sp.p != 2)) {
      if (p != sp.p)
        throw ParameterError(msg(sp.id, " needs ", CipherEntry::field_label(sp), " in the slots: the backend has ",
                                 p == 2 ? msg("GF(2^", b.field().n(), ")") : msg("F_", p)));
      return compile_program(inst, rounds, decrypt, fused, kBits);
    }
    if (!kBits && !is_field(b.field(), sp.n, sp.f_low))
      throw ParameterError(msg(sp.id, " needs GF(2^", sp.n, ") mod x^", sp.n, " + 0x", std::hex, sp.f_low, std::dec,
                               " in the slots: the backend has GF(2^", b.field().n(), ")"));
    return compile_program(inst, rounds, decrypt, fused, kBits);
  }
  static Rep<B> make_rep(const B& b, const CipherInstance& inst, const std::vector<BlockMap>& maps) {
    if constexpr (kBits)
      return Rep<B>(b, inst.field(), inst.spec().s, maps);
    else
      return Rep<B>(b, inst.spec().s, inst.packed_orders(), maps);
  }
  bool prime() const { return inst_.spec().p != 2; }
  // F_p: the constant v in the representation's active slots (every slot when it says none).
  typename B::Ptxt constant_slots(uint64_t v) const {
    const auto act = rep_.active();
    std::vector<uint64_t> slots(size_t(b_.slot_count()), 0);
    for (size_t i = 0; i < slots.size(); ++i)
      if (act.empty() || act[i]) slots[i] = v;
    return b_.encode(slots);
  }
  // F_p: an affine map x -> a x + c as one constant product and one constant addition.
  struct PrimeAffine {
    Linearized L;
    typename B::Ptxt a, c;
  };
  std::optional<size_t> prime_affine_index(const Linearized& L) const {
    for (size_t i = 0; i < prime_affine_.size(); ++i)
      if (prime_affine_[i].L.c == L.c && prime_affine_[i].L.gamma == L.gamma) return i;
    return std::nullopt;
  }
  std::optional<size_t> affine_index(const Linearized& L) const {
    for (size_t i = 0; i < affine_L_.size(); ++i)
      if (affine_L_[i].c == L.c && affine_L_[i].gamma == L.gamma) return i;
    return std::nullopt;
  }
  struct FusedKey {
    Linearized L;
    long map;
    bool affine_first;
  };
  std::optional<size_t> fused_index(const CompiledOp& c) const {
    for (size_t i = 0; i < fused_key_.size(); ++i) {
      const auto& f = fused_key_[i];
      if (f.map == c.map && f.affine_first == c.affine_first && f.L.c == c.L.c && f.L.gamma == c.L.gamma) return i;
    }
    return std::nullopt;
  }
  // AddKey: the subkey held, or (per round) encrypted now, its time counted apart.
  void add_key(Evaluator<B>& ev, State& st, long key) const {
    if (!per_round_) {
      ev.lanes(long(st.size()), [&](Evaluator<B>& e, long i) { e.add(st[size_t(i)], keys_[key][size_t(i)]); });
      return;
    }
    Stopwatch w;
    const double cpu0 = process_cpu_seconds();
    const State k = rep_.encrypt_replicated(clear_keys_.at(key));
    late_cpu_s_ += process_cpu_seconds() - cpu0;
    late_s_ += w.seconds();
    ev.lanes(long(st.size()), [&](Evaluator<B>& e, long i) { e.add(st[size_t(i)], k[size_t(i)]); });
  }
  // CTR's first operation: st = subkey 0 (encrypted; per round: now, its time apart) + the
  // public blocks.
  void start_public(Evaluator<B>& ev, State& st, const std::vector<typename B::Ptxt>& pub) const {
    if (!per_round_) {
      st = keys_.at(0);
    } else {
      Stopwatch w;
      const double cpu0 = process_cpu_seconds();
      st = rep_.encrypt_replicated(clear_keys_.at(0));
      late_cpu_s_ += process_cpu_seconds() - cpu0;
      late_s_ += w.seconds();
    }
    ev.lanes(long(st.size()), [&](Evaluator<B>& e, long i) { e.add_plain(st[size_t(i)], pub[size_t(i)]); });
  }
  void apply(Evaluator<B>& ev, State& st, const CompiledOp& c) const {
    if constexpr (kBits)
      apply_bits(ev, st, c);
    else
      apply_elements(ev, st, c);
  }
  // On the elements' bits (bit_sliced.h).
  void apply_bits(Evaluator<B>& ev, State& st, const CompiledOp& c) const {
    switch (c.kind) {
      case CompiledOp::kAffine:
        rep_.affine(ev, st, c.L);
        return;
      case CompiledOp::kLinear:
        rep_.linear(ev, st, c.map);
        return;
      case CompiledOp::kBoolean:
        rep_.boolean(ev, st, *c.circuit);
        return;
      case CompiledOp::kAddKey:
        add_key(ev, st, c.key);
        return;
      default:  // compile_program refuses the rest on bits
        throw Error(msg(inst_.spec().id, " bit-sliced: operation ", int(c.kind), " has no bit form"));
    }
  }
  // f(evaluator, x) on each ciphertext x of the state, side by side (backend/lanes.h).
  template <class F>
  static void each_element(Evaluator<B>& ev, State& st, F&& f) {
    ev.lanes(long(st.size()), [&](Evaluator<B>& e, long i) { f(e, st[size_t(i)]); });
  }
  void apply_elements(Evaluator<B>& ev, State& st, const CompiledOp& c) const {
    switch (c.kind) {
      case CompiledOp::kPower:
        each_element(ev, st, [&](Evaluator<B>& e, Ctxt& x) { x = evaluate_power(e, c.power, x); });
        break;
      case CompiledOp::kFrobenius:
        each_element(ev, st, [&](Evaluator<B>& e, Ctxt& x) { e.frobenius(x, c.shift % inst_.spec().n); });
        break;
      case CompiledOp::kAffine: {
        if (prime()) {
          const auto& pa = prime_affine_[*prime_affine_index(c.L)];
          each_element(ev, st, [&](Evaluator<B>& e, Ctxt& x) {
            e.mul_plain(x, pa.a);
            e.add_plain(x, pa.c);
          });
          break;
        }
        const auto& circ = affine_[*affine_index(c.L)];
        each_element(ev, st, [&](Evaluator<B>& e, Ctxt& x) { circ.apply(e, x); });
        break;
      }
      case CompiledOp::kLinear:
        rep_.linear(ev, st, c.map);
        break;
      case CompiledOp::kFused:
        fused_[*fused_index(c)].apply(ev, st);
        break;
      case CompiledOp::kAddKey:
        add_key(ev, st, c.key);
        break;
      case CompiledOp::kBoolean:  // compile_program refuses it off bits
        throw Error(msg(inst_.spec().id, ": a Boolean step needs the bit-sliced packing"));
    }
  }
  std::vector<long> element_automorphisms() const {
    std::vector<long> ks;
    bool linear = false;
    for (const auto& r : prog_.rounds)
      for (const auto& c : r) {
        if (c.kind == CompiledOp::kLinear) linear = true;
        if (c.kind == CompiledOp::kPower)
          for (long j : c.power.frobenius_powers()) ks.push_back(b_.zmstar().power(2, j));
        if (c.kind == CompiledOp::kFrobenius) ks.push_back(b_.zmstar().power(2, c.shift % inst_.spec().n));
      }
    if (linear)
      for (long k : rep_.automorphisms()) ks.push_back(k);
    for (const auto& a : affine_)
      for (long k : a.automorphisms()) ks.push_back(k);
    for (const auto& f : fused_)
      for (long k : f.automorphisms()) ks.push_back(k);
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    ks.erase(std::remove(ks.begin(), ks.end(), 1L), ks.end());
    return ks;
  }

  const B& b_;
  const CipherInstance& inst_;
  CompiledProgram prog_;
  Rep<B> rep_;
  std::vector<Linearized> affine_L_;
  std::vector<LinearizedCircuit<B>> affine_;
  std::vector<PrimeAffine> prime_affine_;  // F_p
  std::vector<FusedKey> fused_key_;
  std::vector<typename FusedOf<Rep<B>>::type> fused_;
  std::vector<State> keys_;
  bool per_round_ = false;
  std::vector<Elements> clear_keys_;     // per round: the subkeys, encrypted when added
  mutable double late_s_ = 0, late_cpu_s_ = 0;
};

}  // namespace cb
