// bluestein.h: evaluation at the primitive m-th roots of unity modulo one RNS prime, by
// Bluestein's algorithm (any odd m; cyclotomic_transform.h chooses between it and
// prime_factor.h).
//
// Double-CRT stores an element a of Z[X]/Phi_m(X), for each prime q, as its phi(m)
// values a(zeta^j), j in Z_m^*, where zeta is a primitive m-th root of unity mod q: the
// roots of Phi_m mod q are exactly those zeta^j, so the values determine a mod (Phi_m, q).
//
// Forward. For a polynomial a of degree < m, A_j = sum_i a_i zeta^(ij). With
// h = zeta^((m+1)/2) we have h^2 = zeta (m is odd) and h^m = 1, and
//     ij = (i^2 + j^2 - (j-i)^2) / 2  gives  zeta^(ij) = h^(i^2) h^(j^2) h^(-(j-i)^2),
// so A_j = h^(j^2) * sum_i (a_i h^(i^2)) c_(j-i) with the chirp c_k = h^(-k^2)
// (Bluestein). For 0 <= i, j < m the differences j - i lie in (-m, m), so the sum is a
// cyclic convolution of length N >= 2m - 1, N = 2^k, evaluated with two power-of-two
// NTTs (ntt.h) against the precomputed transform of c. Only m-th and N-th roots of
// unity occur, hence the requirement q = 1 (mod m*N).
//
// Inverse. Given values v_j on Z_m^*, put v_j = 0 for gcd(j, m) > 1 and return the m
// coefficients b_i = (1/m) sum_j v_j zeta^(-ij). Then b(zeta^k) = v_k for every k in
// [0, m) by orthogonality of the characters, so b(zeta^j) = v_j on Z_m^* and b vanishes
// at the non-primitive roots: b is congruent to the element modulo Phi_m, though of
// degree up to m-1 and not reduced. (The engine uses b as is: key switching and
// modulus switching only need some representative.) Since zeta^(-ij) = zeta^(i(m-j))
// the inverse reuses the forward chirp: it is the forward sum read at index m - i, and
// the chirp factor h^((m-i)^2) = h^(i^2).
//
// Cost per transform: two length-N NTTs (levels 1..k-1 only: in the forward NTT the
// upper half of the input is zero, and only the lower half of the output is read) and
// about N + 2m Shoup products. Memory per prime: 16N + 48m bytes (2.9 MB at m = 53261).
//
// Fast moduli. For q < 2^50 in a build with AVX-512 IFMA (fast(), see ifma.h and
// max_fast_prime_bits() in primes.h) every product above is a 52-bit Shoup product:
// the Ntt's twiddles and the kernel, and the chirp multipliers here, all carry
// shoup52 companions. Values stay lazy in [0, 2q) between the steps: the pre-chirp gives
// [0, 2q) (level 0 of the forward NTT keeps that, inside the [0, 4q) the NTT accepts),
// the convolution returns [0, 2q), level 0 of the inverse NTT adds two of them (< 4q, a
// valid 52-bit multiplicand), and the post-chirp reduces once to [0, q). Input words of
// 2^52 or more (never residues, even lazy ones) are reduced by a division first.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/util/modarith.h"
#include "engine/util/ntt.h"

namespace cb::util {

class BluesteinTransform {
 public:
  // Precomputes for the odd m >= 3 and the prime q < 2^61 with q = 1 (mod m*N),
  // N = bluestein_length(m). zeta = primitive_root_of_unity(m, q). Throws ParameterError
  // otherwise.
  BluesteinTransform(long m, uint64_t q);
  // The same checks alone; returns log2(N).
  static int check(long m, uint64_t q);

  // values[t] = a(zeta^j_t) for t < phi, j_t = zmstar()[t], where a has the ncoeffs
  // coefficients coeffs[0..ncoeffs), 0 <= ncoeffs <= m. Outputs in [0, q). Inputs may be
  // any words (e.g. residues in [0, 2q) left lazy): the first step is a Shoup product,
  // which reduces them. values must not alias coeffs.
  void forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const;

  // coeffs[0..m) = b with b(zeta^j_t) = values[t] on Z_m^* and b(zeta^j) = 0 for the
  // other j (so b = the element mod Phi_m). Outputs in [0, q); inputs may be any words,
  // as for forward. No aliasing.
  void inverse(const uint64_t* values, uint64_t* coeffs) const;

  uint64_t q() const { return q_; }
  uint64_t zeta() const { return zeta_; }  // the primitive m-th root of unity used
  long m() const { return m_; }
  long phi() const { return phi_; }        // phi = |Z_m^*|
  long n() const { return ntt_.n(); }      // N = bluestein_length(m)
  bool fast() const { return ntt_.fast(); }  // the IFMA kernels (q < 2^50, IFMA compiled)
  // Z_m^* = {j in [1, m) : gcd(j, m) = 1}, increasing: the order of the values.
  const std::vector<long>& zmstar() const { return zmstar_; }

  // Bytes of the tables this transform keeps: the Ntt's 32 N, the kernel and its
  // companions 16 N, the six chirp arrays 48 m, Z_m^* as longs 8 phi and the unit mask
  // m/8. At m = 164737 (N = 2^19, phi = 163840): 26.4 MB per prime.
  size_t bytes() const;
  static size_t table_bytes(long m, long phi, long n);

 private:
  long m_, phi_;
  uint64_t q_, zeta_;
  std::vector<long> zmstar_;
  std::vector<uint8_t> unit_;  // bit j%8 of unit[j/8] set iff j in Z_m^* (masks for IFMA)
  Ntt ntt_;
  // Fixed multipliers for j < m, each with its Shoup companion (suffix _p):
  std::vector<uint64_t> pre_, pre_p_;      // pre[j] = h^(j^2)
  std::vector<uint64_t> post_, post_p_;    // post[j] = h^(j^2) / N
  std::vector<uint64_t> ipost_, ipost_p_;  // ipost[j] = h^(j^2) / (m N)
  std::vector<uint64_t> kernel_, kernel_p_;  // NTT of the chirp c_k = h^(-k^2), length N
};

}  // namespace cb::util
