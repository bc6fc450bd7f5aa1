// packing.h: how cipher blocks map to ciphertexts, and the linear layer in each way.
//
// A cipher state is s elements of GF(2^n) per block (s = 16 bytes for AES, m elements for
// Vision). Two representations of elements in slots, both holding a circuit state as
// std::vector<Ctxt> (a third, bit_sliced.h, puts one bit of an element in a slot):
//
//   Packed     one ciphertext; block b's element i in slot layout.slot[b][i], so a
//              ciphertext holds floor(ell / s) blocks (GHS's packed AES). A linear layer
//              out_p = sum_q M[p][q] in_q acts across slots: automorphisms and masks
//              (slot_map.h), planned once per map.
//   Sliced     s ciphertexts, ciphertext i holding element i of block b in slot b, so ell
//              blocks at once (GHS's byte-sliced AES). A linear layer is free of key
//              switching: out_p = sum_q M[p][q] in_q with constant products and additions,
//              and a pure permutation (ShiftRows) is a renaming. The s ciphertexts (the
//              element-wise steps, encryption) and a layer's s outputs run side by side, one
//              thread each (backend/lanes.h).
//
// Element-wise steps (inversion, affine maps, key addition) act on every ciphertext of
// the state the same way in both. An affine map of the slot values next to a linear layer
// can also be evaluated with it as one map (fuse(): one layer of constant products instead
// of two, see slot_linear.h): packed as a composed slot map, sliced as
//     out_p = c_p + sum_q sum_j C_pqj x_q^(2^j),
// C_pqj = M[p][q] gamma_j when the affine map comes first, gamma_j M[p][q]^(2^j) when the
// linear layer does (c_p = (sum_q M[p][q]) c, resp. c), with the same baby-step giant-step
// split as linearized_eval.h, so the same key switches as the affine map alone. Subkeys are encrypted in the same representation as the
// data, replicated over the blocks (one cipher key per run).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/layout.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/slot_linear.h"
#include "ciphers/common/slot_map.h"
#include "engine/errors.h"

namespace cb {

// A linear map on one block's s elements: terms (out, in, coeff) with element indices.
using BlockMap = std::vector<SlotTerm>;

template <class B>
class PackedRep {
 public:
  using Ctxt = typename B::Ctxt;
  using State = std::vector<Ctxt>;
  static constexpr const char* kName = "packed";
  static constexpr bool kBits = false;  // elements in slots (bit_sliced.h: bits)

  // orders: candidate element orders inside a block (layout.h); maps: the linear layers.
  // Over F_p (slot_characteristic(b) > 2) the blocks lie in the plain slot order and a
  // linear layer is refused (slot_map.h plans slot maps over GF(2^n) only, for now).
  PackedRep(const B& b, long s, const std::vector<std::vector<long>>& orders, const std::vector<BlockMap>& maps)
      : b_(b), s_(s), layout_(make_layout_for(b, s, orders, maps)) {
    for (auto& mp : maps) {
      plans_.push_back(plan_slot_map(b.zmstar(), b.field(), layout_.terms(mp)));
      circuits_.emplace_back(b, plans_.back());
    }
  }

  long max_blocks() const { return layout_.blocks(); }
  long ciphertexts() const { return 1; }
  const BlockLayout& layout() const { return layout_; }
  std::vector<bool> active() const { return layout_.active(b_.slot_count()); }
  std::string describe() const { return msg("packed, ", layout_.blocks(), " blocks per ciphertext, ", layout_.name); }
  // Automorphisms of linear layer i (for reports).
  long map_automorphisms(long i) const { return plans_[i].automorphisms(); }

  std::vector<long> automorphisms() const {
    std::vector<long> ks;
    for (auto& c : circuits_)
      for (long k : c.automorphisms()) ks.push_back(k);
    return ks;
  }

  // The slot vectors of the state holding these blocks, one per ciphertext (encrypt's, and
  // the constants a public block is added as: circuit.h's CTR start).
  std::vector<std::vector<uint64_t>> block_slots(const std::vector<std::vector<uint64_t>>& blocks) const {
    return {layout_.scatter(b_.slot_count(), blocks)};
  }
  State encrypt(const std::vector<std::vector<uint64_t>>& blocks) const { return {b_.encrypt(block_slots(blocks)[0])}; }
  // The slot vectors of the state holding the same block in every block position (a
  // subkey), one per ciphertext, and that state.
  std::vector<std::vector<uint64_t>> replicated_slots(const std::vector<uint64_t>& block) const {
    return {layout_.scatter(b_.slot_count(), std::vector<std::vector<uint64_t>>(layout_.blocks(), block))};
  }
  State encrypt_replicated(const std::vector<uint64_t>& block) const { return encrypt_all(b_, replicated_slots(block)); }
  std::vector<std::vector<uint64_t>> decrypt(const State& st, long blocks) const {
    auto all = layout_.gather(b_.decrypt(st[0]));
    all.resize(blocks);
    return all;
  }
  void linear(Evaluator<B>& ev, State& st, long i) const { circuits_[i].apply(ev, st[0]); }

 private:
  static BlockLayout make_layout_for(const B& b, long s, const std::vector<std::vector<long>>& orders,
                                     const std::vector<BlockMap>& maps) {
    if (const uint64_t p = slot_characteristic(b); p != 2) {
      if (!maps.empty())
        throw ParameterError(msg("packed over F_", p, ": a linear layer across the slots is planned over GF(2^n) ",
                                 "only for now (slot_map.h): use --packing sliced"));
      return slot_order_layout(b.slot_count(), s, orders);
    }
    return choose_layout(b.zmstar(), b.field(), s, orders, maps);
  }

 public:

  // Linear layer i and the affine map L (in every active slot) as one map: L first when
  // affine_first (encryption's S-box, then the layer), else the layer first.
  class Fused {
   public:
    Fused(const B& b, const SlotLinear& A) : circ_(b, A) {}
    void apply(Evaluator<B>& ev, State& st) const { circ_.apply(ev, st[0]); }
    std::vector<long> automorphisms() const { return circ_.automorphisms(); }

   private:
    SlotLinearCircuit<B> circ_;
  };
  Fused fuse(long i, const Linearized& L, bool affine_first) const {
    const SlotLinear M = slot_linear(plans_.at(i));
    const auto act = active();
    return Fused(b_, affine_first ? compose_after(b_.zmstar(), b_.field(), M, L, act)
                                  : compose_before(b_.zmstar(), b_.field(), L, M, act));
  }

 private:
  const B& b_;
  long s_;
  BlockLayout layout_;
  std::vector<SlotMapPlan> plans_;
  std::vector<SlotMapCircuit<B>> circuits_;
};

template <class B>
class SlicedRep {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;
  using State = std::vector<Ctxt>;
  static constexpr const char* kName = "sliced";
  static constexpr bool kBits = false;

  SlicedRep(const B& b, long s, const std::vector<std::vector<long>>& /*orders*/, const std::vector<BlockMap>& maps)
      : b_(b), s_(s), maps_(maps) {
    for (auto& mp : maps)
      for (auto& t : mp)
        if (t.coeff != 1 && !consts_.count(t.coeff))
          consts_.emplace(t.coeff, b.encode(std::vector<uint64_t>(b.slot_count(), t.coeff)));
  }

  long max_blocks() const { return b_.slot_count(); }
  long ciphertexts() const { return s_; }
  std::vector<bool> active() const { return {}; }
  std::string describe() const { return msg("sliced, ", s_, " ciphertexts, ", b_.slot_count(), " blocks"); }
  long map_automorphisms(long) const { return 0; }
  std::vector<long> automorphisms() const { return {}; }

  // Element i of block k in slot k of ciphertext i.
  std::vector<std::vector<uint64_t>> block_slots(const std::vector<std::vector<uint64_t>>& blocks) const {
    if (long(blocks.size()) > max_blocks())
      throw ParameterError(msg(blocks.size(), " blocks given: ", b_.slot_count(), " slots hold ", max_blocks()));
    std::vector<std::vector<uint64_t>> vs(size_t(s_), std::vector<uint64_t>(b_.slot_count(), 0));
    for (long i = 0; i < s_; ++i)
      for (size_t k = 0; k < blocks.size(); ++k) vs[size_t(i)][k] = blocks[k].at(i);
    return vs;
  }
  State encrypt(const std::vector<std::vector<uint64_t>>& blocks) const { return encrypt_all(b_, block_slots(blocks)); }
  std::vector<std::vector<uint64_t>> replicated_slots(const std::vector<uint64_t>& block) const {
    std::vector<std::vector<uint64_t>> vs;
    for (long i = 0; i < s_; ++i) vs.emplace_back(b_.slot_count(), block.at(i));
    return vs;
  }
  State encrypt_replicated(const std::vector<uint64_t>& block) const { return encrypt_all(b_, replicated_slots(block)); }
  std::vector<std::vector<uint64_t>> decrypt(const State& st, long blocks) const {
    std::vector<std::vector<uint64_t>> out(blocks, std::vector<uint64_t>(s_));
    for (long i = 0; i < s_; ++i) {
      auto v = b_.decrypt(st[i]);
      for (long k = 0; k < blocks; ++k) out[k][i] = v[k];
    }
    return out;
  }

  // Linear layer i and the affine map L (in every slot) as one map, see the header.
  class Fused {
   public:
    Fused(const B& b, long s, const BlockMap& M, const Linearized& L, bool affine_first) {
      const GF2n& F = b.field();
      const long n = F.n(), ell = b.slot_count();
      const long t = linearized_baby_steps(L);  // as linearized_eval.h
      std::map<long, bool> babies;
      out_.resize(s);
      std::vector<uint64_t> rowsum(s, 0);
      for (auto& term : M) {
        rowsum.at(term.out) ^= term.coeff;
        for (long j = 0; j < n; ++j) {
          if (!L.gamma[j]) continue;
          const uint64_t C = affine_first ? F.mul(term.coeff, L.gamma[j]) : F.mul(L.gamma[j], F.frob(term.coeff, j));
          if (!C) continue;
          const long a = j / t, bj = j % t;
          babies[bj] = true;
          out_[term.out][a].push_back(
              {term.in, bj, b.encode(std::vector<uint64_t>(ell, F.frob(C, -a * t)))});
        }
      }
      for (long p = 0; p < s; ++p) {
        const uint64_t c = affine_first ? F.mul(rowsum[p], L.c) : L.c;
        if (c) consts_[p] = b.encode(std::vector<uint64_t>(ell, c));
        if (out_[p].empty()) throw ParameterError(msg("linear map leaves element ", p, " undefined"));
      }
      for (auto& [bj, _] : babies) baby_j_.push_back(bj);
      for (long bj : baby_j_) baby_k_.push_back(b.zmstar().power(2, bj));
      t_ = t;
      zm_ = &b.zmstar();
    }
    void apply(Evaluator<B>& ev, State& st) const {
      std::vector<std::vector<Ctxt>> moved(st.size());  // moved[q][i] = x_q^(2^baby_j_[i])
      ev.lanes(long(st.size()), [&](Evaluator<B>& e, long q) { moved[size_t(q)] = e.automorph_many(st[size_t(q)], baby_k_); });
      auto baby = [&](long q, long bj) -> const Ctxt& {
        return moved[q][std::find(baby_j_.begin(), baby_j_.end(), bj) - baby_j_.begin()];
      };
      std::vector<std::optional<Ctxt>> out(out_.size());
      ev.lanes(long(out_.size()), [&](Evaluator<B>& ev, long pl) {
        const size_t p = size_t(pl);
        std::optional<Ctxt> acc;
        for (auto& [a, terms] : out_[p]) {
          std::optional<Ctxt> inner;
          for (auto& tm : terms) {
            Ctxt y = baby(tm.in, tm.bj);
            ev.mul_plain(y, tm.coeff);
            if (inner)
              ev.add(*inner, y);
            else
              inner = std::move(y);
          }
          ev.frobenius(*inner, a * t_);
          if (acc)
            ev.add(*acc, *inner);
          else
            acc = std::move(inner);
        }
        if (auto it = consts_.find(long(p)); it != consts_.end()) ev.add_plain(*acc, it->second);
        out[p] = std::move(acc);
      });
      st.clear();
      for (auto& x : out) st.push_back(std::move(*x));
    }
    std::vector<long> automorphisms() const {
      std::vector<long> ks;
      for (long bj : baby_j_)
        if (bj) ks.push_back(zm_->power(2, bj));
      for (auto& row : out_)
        for (auto& [a, _] : row)
          if (a) ks.push_back(zm_->power(2, a * t_));
      std::sort(ks.begin(), ks.end());
      ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
      return ks;
    }

   private:
    struct Term {
      long in, bj;
      Ptxt coeff;  // F^(-a t)(C) in every slot
    };
    std::vector<std::map<long, std::vector<Term>>> out_;  // p -> giant a -> terms
    std::map<long, Ptxt> consts_;
    std::vector<long> baby_j_, baby_k_;
    long t_ = 1;
    const ZmStar* zm_ = nullptr;
  };
  Fused fuse(long i, const Linearized& L, bool affine_first) const { return Fused(b_, s_, maps_.at(i), L, affine_first); }

  // out_p = sum_q M[p][q] in_q; a term with coefficient 1 costs an addition only, and a
  // permutation is a renaming.
  void linear(Evaluator<B>& ev, State& st, long i) const {
    std::vector<std::vector<const SlotTerm*>> rows(s_);
    for (auto& t : maps_[i]) rows[t.out].push_back(&t);
    for (long p = 0; p < s_; ++p)
      if (rows[p].empty()) throw ParameterError(msg("linear map leaves element ", p, " undefined"));
    std::vector<std::optional<Ctxt>> out(static_cast<size_t>(s_));
    ev.lanes(s_, [&](Evaluator<B>& e, long p) {  // the outputs side by side (backend/lanes.h)
      Ctxt acc = term(e, st, *rows[p][0]);
      for (size_t j = 1; j < rows[p].size(); ++j) e.add(acc, term(e, st, *rows[p][j]));
      out[size_t(p)] = std::move(acc);
    });
    st.clear();
    for (auto& x : out) st.push_back(std::move(*x));
  }

 private:
  Ctxt term(Evaluator<B>& ev, const State& st, const SlotTerm& t) const {
    Ctxt c = st[t.in];
    if (t.coeff != 1) ev.mul_plain(c, consts_.at(t.coeff));
    return c;
  }
  const B& b_;
  long s_;
  std::vector<BlockMap> maps_;
  std::map<uint64_t, Ptxt> consts_;
};

}  // namespace cb
