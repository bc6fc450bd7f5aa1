// slot_map.h: a sparse GF(2^n)-linear map between slots, by automorphisms and masks.
//
// A map  out[p] = sum_q M[p][q] in[q]  whose non-zero entries are given as terms
// (p, q, M[p][q]) is evaluated as
//     out = sum_k  mask_k * sigma_k(in),
// where sigma_k is the automorphism X -> X^k and mask_k is a per-slot constant vector.
// sigma_k delivers the old value of slot q into slot p unchanged exactly when
// automorphism_action(k)[p] = {q, f} with f a multiple of n: the slot values lie in
// GF(2^n), on which x -> x^(2^f) is then the identity (so a bad dimension whose twist is
// a multiple of n rotates with one automorphism, like a good one). Then mask_k[p] =
// M[p][q] carries the term. For every term k = t_q * t_p^-1 mod m (t = slot
// representatives) works, so the map is always realizable; the planner picks a small set
// of k covering all terms greedily (set cover: the k carrying the most uncovered terms
// first; k = 1, no automorphism, carries the diagonal).
//
// Baby-step giant-step (Halevi-Shoup's trick for the diagonal method): when the chosen
// k factor as k = a * g^b over a few giants a and baby steps g^b (g a hypercube generator,
// b < t), then
//     sum_k mask_k sigma_k(x) = sum_a sigma_a( sum_b sigma_a^-1(mask_(a g^b)) sigma_(g^b)(x) ),
// since sigma_a(c y) = sigma_a(c) sigma_a(y) and sigma_a sigma_b = sigma_ab. The masks are
// moved by sigma_a^-1 in the clear. That costs (#babies - 1) + (#giants - 1) automorphisms
// instead of #k - 1; the planner uses it when it is cheaper (for the 16 diagonals of
// AES's ShiftRows∘MixColumns along a cyclic dimension: 3 + 3 instead of 15).
//
// ShiftRows∘MixColumns of AES and the MDS product of Vision are such maps; this
// generalizes a slot permutation (one source per output, coefficient 1) to several
// sources with constants, so one set of automorphisms serves the whole linear layer.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/slot_linear.h"
#include "engine/algebra/subfield.h"
#include "engine/algebra/zmstar.h"

namespace cb {

struct SlotTerm {
  long out, in;    // slot indices
  uint64_t coeff;  // GF(2^n) element
};

struct SlotMapPlan {
  struct Step {
    long k;                       // baby step: automorphism X -> X^k (1 = none)
    std::vector<uint64_t> coeff;  // one GF(2^n) element per slot
  };
  struct Group {
    long a;                       // giant step applied to the group's sum (1 = none)
    std::vector<Step> steps;
  };
  // out = sum over groups of sigma_a( sum over steps of coeff * sigma_k(in) ).
  std::vector<Group> groups;
  std::vector<long> babies() const;  // distinct k != 1
  std::vector<long> giants() const;  // distinct a != 1
  long automorphisms() const { return long(babies().size() + giants().size()); }
};

// Plans the map on a ring with zm.ell() slots, values in the field F. Terms with the same
// (out, in) add up.
SlotMapPlan plan_slot_map(const ZmStar& zm, const GF2n& F, const std::vector<SlotTerm>& terms);

// Encoded plan, evaluated on ciphertexts (slot_linear.h: the babies hoisted from x, each
// group's sum moved by its giant).
template <class B>
class SlotMapCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  SlotMapCircuit(const B& b, const SlotMapPlan& plan) : circ_(b, slot_linear(plan)) {}
  std::vector<long> automorphisms() const { return circ_.automorphisms(); }
  void apply(Evaluator<B>& ev, Ctxt& x) const { circ_.apply(ev, x); }

 private:
  SlotLinearCircuit<B> circ_;
};

}  // namespace cb
