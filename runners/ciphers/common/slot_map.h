// slot_map.h: a sparse GF(2^n)-linear map between slots, by automorphisms and masks.
//
// A map  out[p] = sum_q M[p][q] in[q]  whose non-zero entries are given as terms
// (p, q, M[p][q]) is evaluated as
//     out = sum_k  mask_k * sigma_k(in),
// where sigma_k is the automorphism X -> X^k and mask_k is a per-slot constant vector.
// sigma_k delivers the old value of slot q into slot p untwisted exactly when
// automorphism_action(k)[p] = {q, 0}; then mask_k[p] = M[p][q] carries the term. For
// every term there is such a k, namely t_q * t_p^-1 mod m (t = slot representatives), so
// the map is always realizable; the planner picks a small set of k covering all terms
// greedily (set cover: the k covering the most uncovered terms first). k = 1 (no
// automorphism) covers the diagonal. ShiftRows∘MixColumns of AES and the MDS product of
// Vision are such maps; their cost is the number of automorphisms, one key switch each.
//
// This generalizes a slot permutation (all coefficients 1, one term per output) to
// several sources per output with constants, so one set of automorphisms serves the
// whole linear layer instead of one permutation per summand.
#pragma once

#include <cstdint>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "engine/algebra/zmstar.h"

namespace cb {

struct SlotTerm {
  long out, in;    // slot indices
  uint64_t coeff;  // GF(2^n) element
};

struct SlotMapPlan {
  struct Step {
    long k;                       // automorphism X -> X^k (1 = none)
    std::vector<uint64_t> coeff;  // mask_k, one GF(2^n) element per slot
  };
  std::vector<Step> steps;
  long automorphisms() const;     // steps with k != 1
};

// Plans the map on a ring with zm.ell() slots. Terms with the same (out, in) add up.
SlotMapPlan plan_slot_map(const ZmStar& zm, const std::vector<SlotTerm>& terms);

// Encoded plan, evaluated on ciphertexts.
template <class B>
class SlotMapCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;

  SlotMapCircuit(const B& b, const SlotMapPlan& plan) {
    for (auto& s : plan.steps) steps_.push_back({s.k, b.encode(s.coeff)});
  }
  std::vector<long> automorphisms() const {
    std::vector<long> ks;
    for (auto& s : steps_)
      if (s.k != 1) ks.push_back(s.k);
    return ks;
  }
  long size() const { return long(steps_.size()); }

  // x <- sum_k mask_k * sigma_k(x).
  void apply(Evaluator<B>& ev, Ctxt& x) const {
    Ctxt acc = x;
    ev.automorph(acc, steps_[0].k);
    ev.mul_plain(acc, steps_[0].mask);
    for (size_t i = 1; i < steps_.size(); ++i) {
      Ctxt y = x;
      ev.automorph(y, steps_[i].k);
      ev.mul_plain(y, steps_[i].mask);
      ev.add(acc, y);
    }
    x = std::move(acc);
  }

 private:
  struct Step {
    long k;
    Ptxt mask;
  };
  std::vector<Step> steps_;
};

}  // namespace cb
