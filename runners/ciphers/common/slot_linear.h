// slot_linear.h: GF(2)-linear maps of the slot vector as sums of automorphisms, and their
// composition, so that an affine map of the slot values and the linear layer next to it
// cost one layer of constant products instead of two.
//
// Every map here has the form
//     A(x) = c + sum_(G, b) sigma_G( D_(G,b) * sigma_b(x) ),
// sigma_k the automorphism X -> X^k, D and c vectors of GF(2^n) values, one per slot, and
// * the slot-wise product. The baby steps sigma_b(x) all come from x (one hoisted
// key-switching decomposition, evaluator.h); each giant step G costs one key switch on
// its group's sum. Both linear pieces of the circuits have this form:
// - a slot map (slot_map.h), out = sum_a sigma_a( sum_k coeff_k * sigma_k(in) ): G = a,
//   b = k, D = coeff;
// - an affine map c + sum_j gamma_j x^(2^j) of GF(2^n) applied in every active slot
//   (linearized_eval.h): with j = a t + b', G = 2^(a t), b = 2^b' and
//   D = F^(-a t)(gamma_j) in the active slots, 0 elsewhere.
//
// Composition. Write a map flat, A(x) = c_A + sum_e E_e * sigma_e(x) with e = G b and
// E = sigma_G(D). Since sigma_e(u * v) = sigma_e(u) * sigma_e(v) and
// sigma_e sigma_f = sigma_(e f),
//     A(B(x)) = c_A + A_0(c_B) + sum_(e1 in A, e2 in B) E1 * sigma_e1(E2) * sigma_(e1 e2)(x),
// A_0 the linear part of A, evaluated in the clear. Each product term goes back to the
// grouped form as sigma_G( sigma_G^-1(E) * sigma_b(x) ) for a split of
// e1 e2 = G1 b1 G2 b2 into a giant G and a baby b. We try b = b1 b2, b2, b1 and e1 e2, with
// the giant the rest, and keep the split with the fewest automorphisms (distinct babies
// plus distinct giants other than the identity; automorphisms that act alike on GF(2^n)
// values, i.e. same slot move and Frobenius power mod n, are one).
//
// Why it pays. A constant product multiplies the noise at every root by the constant's
// embedding, about 2^9 to 2^11 for a dense constant on the papers' rings (plaintext.h),
// so a circuit that applies the affine map and then the linear layer spends two such
// factors per step; the composed map spends one, times the number of its terms. For
// Vision GF(2^64)^2 that is about 10 bits of modulus per step, two steps per round. The
// price is key switching: the composed map has more giants than the two maps had
// automorphisms together when the slot map moves slots (the chain planner's op counts
// show it).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/linearized.h"
#include "engine/algebra/subfield.h"
#include "engine/algebra/zmstar.h"

namespace cb {

struct SlotMapPlan;  // slot_map.h

struct SlotLinear {
  struct Term {
    long giant, baby;              // automorphism exponents in Z_m^* (1: none)
    std::vector<uint64_t> coeff;   // D, one GF(2^n) value per slot
  };
  std::vector<Term> terms;         // at most one per (giant, baby)
  std::vector<uint64_t> c;         // the constant, one value per slot (empty: zero)

  std::vector<long> babies() const;  // distinct b != 1
  std::vector<long> giants() const;  // distinct G != 1
  long automorphisms() const { return long(babies().size() + giants().size()); }
};

// The slot map plan as a map of this form.
SlotLinear slot_linear(const SlotMapPlan& plan);

// c + sum_j gamma_j x^(2^j) in the slots flagged active (all when active is empty), 0 in
// the others, with t baby steps (1 <= t <= n; t = n: no giants).
SlotLinear slot_linear(const ZmStar& zm, const GF2n& F, const Linearized& L, const std::vector<bool>& active, long t);

// x -> A(B(x)), grouped with the cheapest split.
SlotLinear compose(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const SlotLinear& B);

// x -> A(B(x)) with B the affine map L (active slots), over the baby counts t = ceil(sqrt n)
// and t = n; and x -> L(A(x)). The cheapest result.
SlotLinear compose_after(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const Linearized& L,
                         const std::vector<bool>& active);
SlotLinear compose_before(const ZmStar& zm, const GF2n& F, const Linearized& L, const SlotLinear& A,
                          const std::vector<bool>& active);

// A(v) for a vector of slot values, in the clear (tests, and the constants of compose).
std::vector<uint64_t> apply(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const std::vector<uint64_t>& v);

// Encoded map, evaluated on ciphertexts: the babies hoisted from x, each group's sum
// moved by its giant, the constant added last.
template <class B>
class SlotLinearCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;

  SlotLinearCircuit(const B& b, const SlotLinear& A) : babies_(A.babies()), giants_(A.giants()) {
    for (auto& t : A.terms) {
      Group* g = nullptr;
      for (auto& h : groups_)
        if (h.giant == t.giant) g = &h;
      if (!g) g = &groups_.emplace_back(Group{t.giant, {}});
      g->steps.push_back({t.baby, b.encode(t.coeff)});
    }
    bool zero = true;
    for (uint64_t v : A.c) zero = zero && !v;
    if (!zero) c_ = b.encode(A.c);
    if (groups_.empty()) zero_ = b.encode(std::vector<uint64_t>(b.slot_count(), 0));
  }

  std::vector<long> automorphisms() const {
    std::vector<long> ks = babies_;
    ks.insert(ks.end(), giants_.begin(), giants_.end());
    return ks;
  }

  void apply(Evaluator<B>& ev, Ctxt& x) const {
    if (groups_.empty()) {  // the zero linear part
      ev.mul_plain(x, *zero_);
    } else {
      const std::vector<Ctxt> moved = ev.automorph_many(x, babies_);
      auto baby = [&](long k) -> const Ctxt& {
        for (size_t i = 0; i < babies_.size(); ++i)
          if (babies_[i] == k) return moved[i];
        return x;  // k = 1
      };
      std::optional<Ctxt> out;
      for (auto& g : groups_) {
        std::optional<Ctxt> inner;
        for (auto& s : g.steps) {
          Ctxt y = baby(s.baby);
          ev.mul_plain(y, s.coeff);
          if (inner)
            ev.add(*inner, y);
          else
            inner = std::move(y);
        }
        ev.automorph(*inner, g.giant);
        if (out)
          ev.add(*out, *inner);
        else
          out = std::move(inner);
      }
      x = std::move(*out);
    }
    if (c_) ev.add_plain(x, *c_);
  }

 private:
  struct Step {
    long baby;
    Ptxt coeff;
  };
  struct Group {
    long giant;
    std::vector<Step> steps;
  };
  std::vector<long> babies_, giants_;
  std::vector<Group> groups_;
  std::optional<Ptxt> c_, zero_;
};

}  // namespace cb
