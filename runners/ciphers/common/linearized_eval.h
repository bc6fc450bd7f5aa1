// linearized_eval.h: an affine map c + sum_j gamma_j x^(2^j) on ciphertexts.
//
// x^(2^j) is the Frobenius automorphism X -> X^(2^j), one key switch each; products by
// the gamma_j are constant multiplications. Evaluating all n terms directly costs n-1
// automorphisms. With k = ceil(sqrt(n)) baby steps, write j = a*k + b and use
//     gamma_j x^(2^j) = F^(ak)( F^(-ak)(gamma_j) x^(2^b) ),   F = Frobenius,
// so the map is sum_a F^(ak)( sum_b F^(-ak)(gamma_{ak+b}) x^(2^b) ): k-1 baby-step and
// ceil(n/k)-1 giant-step automorphisms (HElib's and the Vision paper's maps pay n-1).
// Zero coefficients are skipped; the cheaper of the two schedules is used. The constants
// are the same in every active slot (all slots share one field, slot_ring.h) and zero in
// inactive ones, so unused slots stay zero.
#pragma once

#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/slot_linear.h"

namespace cb {

// The map as a slot_linear.h map (babies 2^b, giants 2^(ak), linearized_baby_steps) and its
// circuit.
template <class B>
class LinearizedCircuit {
 public:
  using Ctxt = typename B::Ctxt;

  // active: one flag per slot (empty = all slots active).
  LinearizedCircuit(const B& b, const Linearized& L, const std::vector<bool>& active = {})
      : circ_(b, slot_linear(b.zmstar(), b.field(), L, active, linearized_baby_steps(L))) {}

  // Automorphism exponents k (X -> X^k) the map uses.
  std::vector<long> automorphisms() const { return circ_.automorphisms(); }

  // x <- c + sum_j gamma_j x^(2^j).
  void apply(Evaluator<B>& ev, Ctxt& x) const { circ_.apply(ev, x); }

 private:
  SlotLinearCircuit<B> circ_;
};

}  // namespace cb
