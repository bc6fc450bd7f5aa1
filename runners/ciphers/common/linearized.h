// linearized.h: affine maps of GF(2^n) as linearized polynomials, in the clear.
//
// Every GF(2)-linear map of GF(2^n) is a unique linearized polynomial
// sum_{j<n} gamma_j x^(2^j) (the reference's field_linalg.h finds the gamma_j), and an
// affine map adds a constant c. Under FHE, x^(2^j) is a Frobenius automorphism, so an
// affine map costs automorphisms and constant products (linearized_eval.h). A Frobenius
// power next to the map is free: it only rotates the coefficients, which lets a circuit
// fold the final squaring of an inversion into the affine map that follows it, or the
// squaring that starts an inversion into the map before it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/algebra/subfield.h"

namespace cb {

struct Linearized {
  uint64_t c = 0;               // constant term
  std::vector<uint64_t> gamma;  // gamma_j, j = 0..n-1: coefficient of x^(2^j)
};

// Whether F is GF(2)[x]/f with deg f = n and f = x^n + f_low (x^n mod f = f_low).
inline bool is_field(const GF2n& F, long n, uint64_t f_low) {
  return F.n() == n && F.mul(uint64_t(1) << (n - 1), 2) == f_low;
}

// c + sum_j gamma_j x^(2^j).
uint64_t evaluate(const GF2n& F, const Linearized& L, uint64_t x);

// x -> L(x^(2^s)).
Linearized precompose_frobenius(const Linearized& L, long s);

// x -> L(x)^(2^s).
Linearized postcompose_frobenius(const GF2n& F, const Linearized& L, long s);

// Baby steps t for evaluating L under FHE (linearized_eval.h): with j = a t + b, t - 1 baby
// and ceil(n / t) - 1 giant automorphisms for t = ceil(sqrt n), unless the direct form
// (t = n: one automorphism per non-zero gamma_j, j > 0) costs no more.
long linearized_baby_steps(const Linearized& L);

}  // namespace cb
