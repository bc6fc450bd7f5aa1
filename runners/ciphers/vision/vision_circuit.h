// vision_circuit.h: Vision (Aly et al., ToSC 2020) on encrypted data, as in the FHE
// comparison of Vision and AES (Toprakhisar, Mahzoun, Ashur), for the four instances
// GF(2^n)^m of docs/vision.md.
//
// The state is m elements of GF(2^n) per block, in GF(2^d) slots (n | d), packed (one
// ciphertext, floor(ell/m) blocks; the MDS product by automorphisms and masks) or sliced
// (m ciphertexts, ell blocks; the MDS product by constant products only); see packing.h.
// The key schedule runs in the clear and the subkeys k_0..k_2R are encrypted.
//
// A round is two steps s = 2r-1, 2r; step s on the data state d:
//   inversion  y = d^(2^(n-1) - 1) by the chain of inversion.h (depth ceil(log2(n-1)));
//              inv(d) = y^2, and the square folds into the affine map
//   affine1    (odd s)  B^-1(y^2): n+1 terms, as c0 + sum_j c_(j+1)' y^(2^j)
//   affine2    (even s) B(y^2): 4 terms
//   matmul     d <- MDS d
//   keyadd     d <- d + k_s (round 1 also adds k_0, the whitening)
// Decryption undoes step s = 2R..1: keyadd k_s, matmul by MDS^-1, the affine map A_s^-1
// (B for odd s, B^-1 for even s) with the first squaring of the inversion folded in, then
// the chain; the last step adds k_0. The op names follow the affine polynomial: affine1
// is always a B^-1 evaluation, affine2 a B evaluation.
//
// Fused (run_cipher --linear fused): the affine map and the matmul next to it run as one
// linear map (packing.h, slot_linear.h), one layer of constant products instead of two,
// which saves a constant's worth of noise per step (8 to 11 bits a round on the test
// rings), for more key switches when the matmul moves slots (packed); the steps are then
// timed together as "affine1+matmul" and "affine2+matmul". Apart (the default) they are
// timed as the paper's Table 1 columns.
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
#include "ciphers/reference/vision.h"
#include "engine/errors.h"

namespace cb {

// The m x m matrix (row-major) as a block map.
inline BlockMap vision_matrix_map(const std::vector<uint64_t>& M, long m) {
  BlockMap t;
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < m; ++j)
      if (M[i * m + j]) t.push_back({i, j, M[i * m + j]});
  return t;
}

template <class B, template <class> class Rep>
class VisionCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using State = std::vector<Ctxt>;

  // Throws ParameterError unless the backend's field is the instance's field and
  // 1 <= rounds <= the instance's round count.
  VisionCircuit(const B& b, const Vision& ref, long rounds, bool decrypt, bool fused = false)
      : b_(b),
        ref_(ref),
        n_(ref.n()),
        rounds_(check(b, ref, rounds)),
        decrypt_(decrypt),
        rep_(b, ref.m(), {},
             {vision_matrix_map(decrypt ? ref.mds_inverse_matrix() : ref.params().MDS, ref.m())}) {
    // Only the circuits the run evaluates: each encodes its constants.
    const Linearized binv = fold(b.field(), binv_poly(ref), decrypt), bfwd = fold(b.field(), b_poly(ref), decrypt);
    if (fused) {
      fused_binv_.emplace(rep_.fuse(0, binv, !decrypt));
      fused_bfwd_.emplace(rep_.fuse(0, bfwd, !decrypt));
    } else {
      binv_.emplace(b, binv, rep_.active());
      bfwd_.emplace(b, bfwd, rep_.active());
    }
  }
  bool fused() const { return fused_binv_.has_value(); }

  static const char* packing() { return Rep<B>::kName; }
  long rounds() const { return rounds_; }
  long max_blocks() const { return rep_.max_blocks(); }
  const Rep<B>& rep() const { return rep_; }
  std::string describe() const { return rep_.describe(); }

  std::vector<long> automorphisms() const {
    std::vector<long> ks;
    if (fused()) {
      ks = fused_binv_->automorphisms();
      for (long k : fused_bfwd_->automorphisms()) ks.push_back(k);
    } else {
      ks = rep_.automorphisms();
      for (long k : binv_->automorphisms()) ks.push_back(k);
      for (long k : bfwd_->automorphisms()) ks.push_back(k);
    }
    for (long j : inverse_frobenius_powers(n_)) ks.push_back(b_.zmstar().power(2, j));
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    ks.erase(std::remove(ks.begin(), ks.end(), 1L), ks.end());
    return ks;
  }

  // Encrypts the subkeys k_0..k_2R of the clear key schedule.
  void load_subkeys(const std::vector<Vision::State>& subkeys) {
    keys_.clear();
    for (long s = 0; s <= 2 * rounds_; ++s) keys_.push_back(rep_.encrypt_replicated(subkeys.at(s)));
  }
  State encrypt_input(const std::vector<Vision::State>& blocks) const { return rep_.encrypt(blocks); }
  std::vector<Vision::State> decrypt_output(const State& st, long blocks) const { return rep_.decrypt(st, blocks); }

  std::vector<RoundRecord> run(Evaluator<B>& ev, State& st) const {
    if (long(keys_.size()) != 2 * rounds_ + 1) throw ParameterError("Vision circuit: subkeys not loaded");
    std::vector<RoundRecord> recs;
    for (long r = 1; r <= rounds_; ++r) {
      RoundTimer<B> t(ev, r);
      if (!decrypt_) {
        if (r == 1) t.step("keyadd", [&] { add_key(ev, st, 0); });
        for (long s = 2 * r - 1; s <= 2 * r; ++s) {
          t.step("inversion", [&] {
            for (auto& c : st) c = power_2e_minus_1(ev, c, n_ - 1, n_);
          });
          const bool odd = s % 2 == 1;
          if (fused()) {
            t.step(odd ? "affine1+matmul" : "affine2+matmul", [&] { (odd ? fused_binv_ : fused_bfwd_)->apply(ev, st); });
          } else {
            t.step(odd ? "affine1" : "affine2", [&] {
              for (auto& c : st) (odd ? binv_ : bfwd_)->apply(ev, c);
            });
            t.step("matmul", [&] { rep_.linear(ev, st, 0); });
          }
          t.step("keyadd", [&] { add_key(ev, st, s); });
        }
      } else {
        const long R = rounds_ + 1 - r;  // the encryption round undone
        for (long s = 2 * R; s >= 2 * R - 1; --s) {
          t.step("keyadd", [&] { add_key(ev, st, s); });
          const bool odd = s % 2 == 1;  // A_s^-1 = B for odd s
          if (fused()) {
            t.step(odd ? "affine2+matmul" : "affine1+matmul", [&] { (odd ? fused_bfwd_ : fused_binv_)->apply(ev, st); });
          } else {
            t.step("matmul", [&] { rep_.linear(ev, st, 0); });
            t.step(odd ? "affine2" : "affine1", [&] {
              for (auto& c : st) (odd ? bfwd_ : binv_)->apply(ev, c);
            });
          }
          t.step("inversion", [&] {
            for (auto& c : st) c = power_2e_minus_1(ev, c, n_ - 1, n_);
          });
        }
        if (R == 1) t.step("keyadd", [&] { add_key(ev, st, 0); });
      }
      recs.push_back(t.finish(capacity(st)));
    }
    return recs;
  }

  double capacity(const State& st) const { return min_capacity(b_, st); }

 private:
  static long check(const B& b, const Vision& ref, long rounds) {
    if (!is_field(b.field(), ref.n(), ref.params().modulus_low))
      throw ParameterError(msg("Vision GF(2^", ref.n(), ")^", ref.m(), " needs its field in the slots: the backend has GF(2^",
                               b.field().n(), ")"));
    if (rounds < 1 || rounds > ref.rounds())
      throw ParameterError(msg("Vision GF(2^", ref.n(), ")^", ref.m(), " rounds=", rounds, ": must be 1..", ref.rounds()));
    return rounds;
  }
  static Linearized binv_poly(const Vision& ref) {
    const auto& c = ref.params().B_inv;  // c0, c1..cn
    return Linearized{c[0], std::vector<uint64_t>(c.begin() + 1, c.end())};
  }
  static Linearized b_poly(const Vision& ref) {
    const auto& b = ref.params().B;
    Linearized L{b[0], std::vector<uint64_t>(ref.n(), 0)};
    L.gamma[0] = b[1], L.gamma[1] = b[2], L.gamma[2] = b[3];
    return L;
  }
  // Encryption applies the map to y with inv(x) = y^2: L(y^2). Decryption applies it
  // before the inversion, whose chain then starts from (L(.))^2.
  static Linearized fold(const GF2n& F, const Linearized& L, bool decrypt) {
    return decrypt ? postcompose_frobenius(F, L, 1) : precompose_frobenius(L, 1);
  }
  void add_key(Evaluator<B>& ev, State& st, long s) const {
    for (size_t i = 0; i < st.size(); ++i) ev.add(st[i], keys_[s][i]);
  }

  const B& b_;
  const Vision& ref_;
  long n_;
  long rounds_;
  bool decrypt_;
  Rep<B> rep_;
  std::optional<LinearizedCircuit<B>> binv_, bfwd_;                // apart
  std::optional<typename Rep<B>::Fused> fused_binv_, fused_bfwd_;  // with the matmul
  std::vector<State> keys_;
};

}  // namespace cb
