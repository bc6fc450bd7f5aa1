// phi_reduction.h: a polynomial of degree < m reduced modulo Phi_m over Z_q, by two cyclic
// NTT products.
//
// The inverse double-CRT transform (util/cyclotomic_transform.h) returns, per prime, a
// polynomial b of degree < m congruent to the element modulo Phi_m; decryption needs the
// element's own coefficients, the remainder r = b mod Phi_m of degree < phi. Division by
// the monic Phi_m of degree phi, b = t Phi_m + r with deg t < k = m - phi, is a product
// with a power series (Sieveking-Kung; von zur Gathen and Gerhard, "Modern Computer
// Algebra", section 9.1). Reversing the coefficients, rev(f) = X^deg f f(1/X):
//     rev(b) = rev(t) rev(Phi_m) + X^k rev(r),
// so, modulo X^k,
//     rev(t) = rev(b) I mod X^k,   I = rev(Phi_m)^-1 mod X^k
// (rev(Phi_m) has constant term 1 because Phi_m is monic), where rev(b) mod X^k is b's top
// k coefficients in reverse order. Then r = (b - t Phi_m) mod X^phi.
//
// Both products are cyclic convolutions with a fixed kernel, taken by the power-of-two
// NTT (util/ntt.h, convolve_levels: forward, pointwise product, inverse in one pass):
// rev(b) I, of degree < 2k - 1, at length N1 >= 2k - 1, and t Phi_m, of degree < m, at
// length N2 >= m. Each is exact (nothing wraps around). The kernels are stored
// transformed and multiplied by 1/N. The chain's primes are 1 mod m N, N a power of two
// at least 2m - 1 (chain.h), so they hold the roots of both lengths. I is computed once
// per prime by NTL's InvTrunc (Newton iteration).
//
// The remainder is unique, so the result is word for word what NTL's rem by a
// zz_pXModulus gives, which the test checks. Cost per reduction: two transforms of
// length N1 and two of N2 (at m = 53261, 2^14 and 2^16) where NTL's rem takes its
// multi-modular FFTs with a CRT (a 50-bit prime is not an FFT prime of NTL's).
//
// Power-of-two m = 2^k. Phi_m = X^phi + 1 with phi = m/2, so X^(phi+i) = -X^i and
//     r_i = b_i - b_(phi+i)  (mod q),   i < phi:
// one subtraction per coefficient, no tables, any q (the same unique remainder, which the
// test checks against NTL too). The inverse transform of these rings already returns the
// reduced coefficients (util/negacyclic.h: b_(phi+i) = 0), for which this is a copy.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/util/ntt.h"

namespace cb::bgv {

class PhiReduction {
 public:
  // phi_coeffs: Phi_m's integer coefficients (cyclotomic_coeffs(m), degree phi < m); q a
  // prime with q = 1 (mod N2), N2 the least power of two >= m. Throws ParameterError
  // naming the prime when it lacks those roots. For m = 2^k (Phi_m = X^(m/2) + 1) any
  // prime q: the reduction is a fold.
  PhiReduction(long m, const std::vector<long>& phi_coeffs, uint64_t q);

  long m() const { return m_; }
  bool is_fold() const { return !ntt1_; }  // m = 2^k: r_i = b_i - b_(phi+i)
  long phi() const { return phi_; }
  uint64_t q() const { return q_; }

  // r[0..phi) = b mod Phi_m for b[0..m) in [0, q); r in [0, q). r may alias b. Const and
  // allocation-per-call only, so threads may share one PhiReduction.
  void reduce(const uint64_t* b, uint64_t* r) const;

 private:
  long m_, phi_, k_;
  uint64_t q_;
  std::optional<util::Ntt> ntt1_, ntt2_;  // lengths N1 >= 2k - 1 and N2 >= m (empty: the fold)
  std::vector<uint64_t> inv_hat_, inv_hatp_;  // NTT_N1(I) / N1 and its Shoup companions
  std::vector<uint64_t> phi_hat_, phi_hatp_;  // NTT_N2(Phi_m) / N2 and its Shoup companions
};

}  // namespace cb::bgv
