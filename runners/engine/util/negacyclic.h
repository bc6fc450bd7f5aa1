// negacyclic.h: evaluation at the primitive m-th roots of unity modulo one RNS prime for
// the power-of-two rings m = 2^k (cyclotomic_transform.h takes it for every such m).
//
// For m = 2^k, Phi_m = X^phi + 1 with phi = m/2, and its roots modulo q are the zeta^j
// for the odd j < m (Z_m^* is the odd residues), zeta a primitive m-th root of unity mod q:
// the primitive 2phi-th roots. So the double-CRT values of a in Z[X]/(X^phi + 1) are a
// length-phi negacyclic NTT: with psi = zeta (psi^phi = -1), the negacyclic Ntt
// (ntt.h, Ntt::negacyclic) gives A[i] = a(zeta^(2 bitrev(i) + 1)); value t of the engine's
// order (j_t = 2t + 1, increasing) is A[bitrev(t)]. One transform of length phi: about
// (phi/2) log2 phi butterflies, the same AVX-512 and IFMA kernels as every other transform
// here, no chirps, no padding. Primes need q = 1 (mod m) only.
//
// Forward. The callers' convention (cyclotomic_transform.h) is a polynomial of degree < m:
// since zeta^(j phi) = -1 at every odd j, a(zeta^j) = sum_(i<phi) (a_i - a_(i+phi)) zeta^(ij),
// so the input is first folded modulo X^phi + 1 (exactly: it is the same element).
//
// Inverse. It returns b with b(zeta^j) = v_j for the odd j and b_i = 0 for phi <= i < m:
// the element's own reduced coefficients, padded to the callers' m words. For odd m the
// inverse instead returns the polynomial of degree < m that vanishes at the m-th roots
// outside Z_m^* (bluestein.h); its counterpart here, c (1 - X^phi)/2 for the reduced c,
// would vanish at the even powers of zeta but halve c modulo q (c_i/2 is no small
// integer) and split every coefficient into a +- pair whose roundings (rns_rounding.h) are
// not independent: (delta_i, delta_(i+phi)) = (d, -d) puts 4 d^2 where the noise bounds
// (noise.h) count 2 d^2. The reduced form is congruent to the element modulo Phi_m as both
// conventions promise, has half the coefficients, and makes the reduction modulo Phi_m
// (bgv/phi_reduction.h) the identity on it.
//
// Input words may be any 64-bit words (lazy residues are reduced by one comparison, others
// by a division); outputs are in [0, q).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/util/ntt.h"

namespace cb::util {

class NegacyclicTransform {
 public:
  // Precomputes for m = 2^k, 4 <= m <= 2^24, and the prime q < 2^61 with q = 1 (mod m).
  // zeta = primitive_root_of_unity(m, q). Throws ParameterError otherwise.
  NegacyclicTransform(long m, uint64_t q);
  // The same checks alone.
  static void check(long m, uint64_t q);
  // Whether m is a power of two >= 4 (the rings this transform serves).
  static bool applies(long m) { return m >= 4 && (m & (m - 1)) == 0; }

  // values[t] = a(zeta^(2t+1)) for t < phi, a the ncoeffs coefficients coeffs[0..ncoeffs),
  // 0 <= ncoeffs <= m. Outputs in [0, q). values must not alias coeffs.
  void forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const;
  // coeffs[0..phi) = the b of degree < phi with b(zeta^(2t+1)) = values[t], coeffs[phi..m)
  // = 0. Outputs in [0, q). No aliasing.
  void inverse(const uint64_t* values, uint64_t* coeffs) const;

  uint64_t q() const { return q_; }
  uint64_t zeta() const { return ntt_.psi(); }  // the primitive m-th root of unity used
  long m() const { return m_; }
  long phi() const { return ntt_.n(); }        // phi = m/2, the NTT length
  bool fast() const { return ntt_.fast(); }    // the IFMA kernels (q < 2^50, IFMA compiled)
  // Z_m^* = the odd j in [1, m), increasing: the order of the values.
  const std::vector<long>& zmstar() const { return zmstar_; }
  // Operation count in the unit of CyclotomicTransform::bluestein_cost (butterflies and
  // per-coefficient passes): (phi/2) log2 phi + 2 phi.
  static double cost(long m);

  // Bytes of the tables: the Ntt's 32 phi, the bit-reversal 4 phi, Z_m^* as longs 8 phi.
  size_t bytes() const;
  static size_t table_bytes(long m);

 private:
  long m_;
  uint64_t q_;
  Ntt ntt_;                       // negacyclic, length phi, psi = zeta
  std::vector<uint32_t> bitrev_;  // bitrev_[t] = bitrev(t) over log2 phi bits
  std::vector<long> zmstar_;
  ShoupMul phi_inv_;              // phi^-1 mod q
};

}  // namespace cb::util
