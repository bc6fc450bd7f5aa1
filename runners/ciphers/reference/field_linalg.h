// field_linalg.h: small dense linear algebra over GF(2^n), and linearized polynomials.
//
// Matrices are k x k, row-major, entries in the uint64_t encoding of GF2n. Used to derive
// cipher constants (the inverse of a MixColumns or MDS matrix) and to write a
// GF(2)-linear map L of GF(2^n) as a linearized polynomial
//     L(x) = sum_{j<n} gamma_j x^(2^j),   gamma_j in GF(2^n),
// which is how the homomorphic circuits evaluate it (one Frobenius map per j).
//
// The gamma_j follow from L's values on the basis 1, x, ..., x^(n-1): with the Moore
// matrix M[i][j] = (x^i)^(2^j), which is invertible because the x^i are independent
// over GF(2), L(x^i) = sum_j M[i][j] gamma_j, so gamma = M^-1 (L(x^i))_i.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/algebra/subfield.h"

namespace cb {

// y = A x for a k x k matrix A (k = x.size()).
std::vector<uint64_t> mat_vec(const GF2n& F, const std::vector<uint64_t>& A, const std::vector<uint64_t>& x);

// A^-1 by Gauss-Jordan elimination; throws ParameterError when A is singular or not square.
std::vector<uint64_t> mat_inverse(const GF2n& F, const std::vector<uint64_t>& A);

// The gamma_0..gamma_{n-1} of a GF(2)-linear map L (L must be additive: L(a+b) = L(a)+L(b)).
std::vector<uint64_t> linearized_coefficients(const GF2n& F, const std::function<uint64_t(uint64_t)>& L);

// sum_j gamma[j] x^(2^j).
uint64_t eval_linearized(const GF2n& F, const std::vector<uint64_t>& gamma, uint64_t x);

}  // namespace cb
