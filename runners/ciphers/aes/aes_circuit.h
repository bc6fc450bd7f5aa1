// aes_circuit.h: AES-128 on encrypted data, as Gentry, Halevi and Smart (CRYPTO 2012).
//
// The state lives in GF(2^8) slots (n = 8 embedded in GF(2^d), 8 | d), packed (one
// ciphertext, floor(ell/16) blocks) or byte-sliced (16 ciphertexts, ell blocks); see
// packing.h. One cipher key per run: the round keys are expanded in the clear and
// encrypted, replicated over the blocks, as the papers did.
//
// Round r = 1..R (R = 10 is AES-128; R < 10 stops after round R's AddRoundKey, which is
// round_states[R-1] of the vectors; only round 10 omits MixColumns):
//   subbytes              S(x) = A(x^254). x^254 = (x^127)^2 and x^127 = y_7 by the
//                         depth-3 chain of inversion.h (4 multiplications); the square
//                         folds into A, evaluated as sum_j gamma_j' y^(2^j) + 0x63 with
//                         gamma' = gamma rotated by one (linearized_eval.h).
//   shiftrows_mixcolumns  one linear map per block, SR then MC (SR alone in round 10):
//                         packed by automorphisms and masks carrying the constants 1, X,
//                         X+1 (slot_map.h); sliced by constant products, SR a renaming.
//   addroundkey           one addition per ciphertext (round 1 also adds round key 0).
//
// Decryption (the transciphering direction: AES ciphertexts in, FHE-encrypted plaintexts
// out) undoes round r = R..1: addroundkey r, then InvMixColumns and InvShiftRows as one
// map (InvShiftRows alone for r = 10), then InvSubBytes S^-1(y) = (A^-1(y))^254, with the
// first squaring folded into A^-1, i.e. z = (A^-1(y))^2 and z^127 by the chain; the last
// round adds round key 0.
//
// Fused (run_cipher --linear fused): the S-box's affine map and the linear layer next to
// it run as one map (packing.h, slot_linear.h), one layer of constant products instead of
// two, which saves a constant's worth of noise per round (m=53261: 639 bits planned
// instead of 716) for more key switches (29 automorphisms a round instead of 17); the
// steps are then timed as "inversion" (the chain) and "affine+shiftrows_mixcolumns".
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/inversion.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/linearized_eval.h"
#include "ciphers/common/packing.h"
#include "ciphers/common/round_record.h"
#include "ciphers/reference/aes128.h"
#include "engine/errors.h"

namespace cb {

// The linear layer of an AES round on one block's byte indices (FIPS-197 order):
// MixColumns∘ShiftRows (mix) or ShiftRows alone.
inline BlockMap aes_linear_map(bool mix) {
  const auto src = aes128::shift_rows_source();
  BlockMap t;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      if (!mix) {
        t.push_back({r + 4 * c, src[r + 4 * c], 1});
        continue;
      }
      for (int j = 0; j < 4; ++j) t.push_back({r + 4 * c, src[j + 4 * c], aes128::kMixColumns[r][j]});
    }
  return t;
}

// InvShiftRows∘InvMixColumns (mix) or InvShiftRows alone.
inline BlockMap aes_inverse_linear_map(bool mix) {
  const auto src = aes128::shift_rows_source();
  const auto& imc = aes128::sbox_pieces().inv_mix_columns;
  BlockMap t;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      // InvShiftRows moves byte i to src[i].
      if (!mix) {
        t.push_back({src[r + 4 * c], r + 4 * c, 1});
        continue;
      }
      for (int j = 0; j < 4; ++j) t.push_back({src[r + 4 * c], j + 4 * c, imc[r][j]});
    }
  return t;
}

// Byte orders inside a block tried by the packed layout: FIPS order and the transpose.
inline std::vector<std::vector<long>> aes_byte_orders() {
  std::vector<long> id(16), tr(16);
  for (long i = 0; i < 16; ++i) id[i] = i, tr[i] = 4 * (i % 4) + i / 4;
  return {id, tr};
}

template <class B, template <class> class Rep>
class AesCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using State = std::vector<Ctxt>;

  // Throws ParameterError unless the backend's field is AES's GF(2^8) and 1 <= rounds <= 10.
  AesCircuit(const B& b, long rounds, bool decrypt, bool fused = false)
      : b_(b),
        rounds_(check(b, rounds)),
        decrypt_(decrypt),
        rep_(b, 16, aes_byte_orders(),
             decrypt ? std::vector<BlockMap>{aes_inverse_linear_map(true), aes_inverse_linear_map(false)}
                     : std::vector<BlockMap>{aes_linear_map(true), aes_linear_map(false)}) {
    // Only the circuits the run evaluates: each encodes its constants.
    if (fused)
      for (long i : {0, 1}) fused_.push_back(rep_.fuse(i, affine_map(b.field(), decrypt), !decrypt));
    else
      affine_.emplace(b, affine_map(b.field(), decrypt), rep_.active());
  }
  bool fused() const { return !fused_.empty(); }

  static const char* packing() { return Rep<B>::kName; }
  long rounds() const { return rounds_; }
  long max_blocks() const { return rep_.max_blocks(); }
  const Rep<B>& rep() const { return rep_; }
  std::string describe() const { return rep_.describe(); }

  // Every automorphism exponent the circuit applies (pass to require_automorphisms).
  std::vector<long> automorphisms() const {
    std::vector<long> ks;
    if (fused()) {
      for (auto& f : fused_)
        for (long k : f.automorphisms()) ks.push_back(k);
    } else {
      ks = rep_.automorphisms();
      for (long k : affine_->automorphisms()) ks.push_back(k);
    }
    for (long j : inverse_frobenius_powers(8)) ks.push_back(b_.zmstar().power(2, j));
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    ks.erase(std::remove(ks.begin(), ks.end(), 1L), ks.end());
    return ks;
  }

  // Encrypts round keys 0..rounds (16 bytes each, the clear key expansion).
  void load_round_keys(const std::vector<aes128::Block>& rk) {
    keys_.clear();
    for (long r = 0; r <= rounds_; ++r) keys_.push_back(rep_.encrypt_replicated(elements(rk.at(r))));
  }
  State encrypt_input(const std::vector<aes128::Block>& blocks) const {
    std::vector<std::vector<uint64_t>> v;
    for (auto& bl : blocks) v.push_back(elements(bl));
    return rep_.encrypt(v);
  }
  std::vector<aes128::Block> decrypt_output(const State& st, long blocks) const {
    std::vector<aes128::Block> out;
    for (auto& v : rep_.decrypt(st, blocks)) {
      aes128::Block bl;
      for (int i = 0; i < 16; ++i) bl[i] = uint8_t(v[i]);
      out.push_back(bl);
    }
    return out;
  }

  // Runs all rounds on st; one record per round.
  std::vector<RoundRecord> run(Evaluator<B>& ev, State& st) const {
    if (long(keys_.size()) != rounds_ + 1) throw ParameterError("AES circuit: round keys not loaded");
    std::vector<RoundRecord> recs;
    for (long i = 1; i <= rounds_; ++i) {
      RoundTimer<B> t(ev, i);
      if (!decrypt_) {
        if (i == 1) t.step("addroundkey", [&] { add_key(ev, st, 0); });
        if (fused()) {
          t.step("inversion", [&] {
            for (auto& c : st) c = power_2e_minus_1(ev, c, 7, 8);
          });
          t.step("affine+shiftrows_mixcolumns", [&] { fused_[i == 10 ? 1 : 0].apply(ev, st); });
        } else {
          t.step("subbytes", [&] {
            for (auto& c : st) {
              c = power_2e_minus_1(ev, c, 7, 8);
              affine_->apply(ev, c);
            }
          });
          t.step("shiftrows_mixcolumns", [&] { rep_.linear(ev, st, i == 10 ? 1 : 0); });
        }
        t.step("addroundkey", [&] { add_key(ev, st, i); });
      } else {
        const long r = rounds_ + 1 - i;  // the encryption round undone
        t.step("addroundkey", [&] { add_key(ev, st, r); });
        if (fused()) {
          t.step("affine+shiftrows_mixcolumns", [&] { fused_[r == 10 ? 1 : 0].apply(ev, st); });
          t.step("inversion", [&] {
            for (auto& c : st) c = power_2e_minus_1(ev, c, 7, 8);
          });
        } else {
          t.step("shiftrows_mixcolumns", [&] { rep_.linear(ev, st, r == 10 ? 1 : 0); });
          t.step("subbytes", [&] {
            for (auto& c : st) {
              affine_->apply(ev, c);
              c = power_2e_minus_1(ev, c, 7, 8);
            }
          });
        }
        if (r == 1) t.step("addroundkey", [&] { add_key(ev, st, 0); });
      }
      recs.push_back(t.finish(capacity(st)));
    }
    return recs;
  }

  double capacity(const State& st) const { return min_capacity(b_, st); }

 private:
  static long check(const B& b, long rounds) {
    if (!is_field(b.field(), 8, aes128::kModulusLow))
      throw ParameterError(msg("AES needs the field GF(2^8) mod 0x11b: the backend has GF(2^", b.field().n(), ")"));
    if (rounds < 1 || rounds > aes128::kRounds)
      throw ParameterError(msg("AES-128 rounds=", rounds, ": must be 1..", aes128::kRounds));
    return rounds;
  }
  // Encryption: y -> A(y^2) (the square ending x^254 folded in).
  // Decryption: y -> (A^-1(y))^2 (the square starting x^254 folded in).
  static Linearized affine_map(const GF2n& F, bool decrypt) {
    const auto& sp = aes128::sbox_pieces();
    Linearized L;
    L.c = decrypt ? sp.inv_affine_constant : aes128::kAffineConstant;
    for (int j = 0; j < 8; ++j) L.gamma.push_back(decrypt ? sp.inv_affine_gamma[j] : sp.affine_gamma[j]);
    return decrypt ? postcompose_frobenius(F, L, 1) : precompose_frobenius(L, 1);
  }
  static std::vector<uint64_t> elements(const aes128::Block& bl) { return {bl.begin(), bl.end()}; }
  void add_key(Evaluator<B>& ev, State& st, long r) const {
    for (size_t i = 0; i < st.size(); ++i) ev.add(st[i], keys_[r][i]);
  }

  const B& b_;
  long rounds_;
  bool decrypt_;
  Rep<B> rep_;
  std::optional<LinearizedCircuit<B>> affine_;  // apart
  std::vector<typename Rep<B>::Fused> fused_;  // with linear layer 0 (mix) and 1
  std::vector<State> keys_;  // encrypted round keys 0..rounds
};

}  // namespace cb
