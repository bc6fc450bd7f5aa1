// prime_factor.h: evaluation at the primitive m-th roots of unity for squarefree m, by
// the prime-factor algorithm (Good-Thomas) with Rader's convolutions, split by
// Agarwal-Cooley where their length is not a power of two (docs/references.md §7).
//
// The task is bluestein.h's: for a polynomial a of degree < m and zeta a primitive m-th
// root of unity mod q, the values A_j = sum_i a_i zeta^(ij) at j in Z_m^* (forward), and
// the interpolation back (inverse). Bluestein pads the length-m DFT to a power-of-two
// convolution of length N >= 2m - 1 (N = 3.75 m at m = 4369). When m = p_1 ... p_k is a
// product of distinct primes there is a shorter road.
//
// Good-Thomas. Let e_d be the CRT idempotents of m (e_d = 1 mod p_d, e_d = 0 mod p_d'
// for d' != d) and write i_d = i mod p_d. Then ij = sum_d e_d i_d j_d (mod m), so
//     zeta^(ij) = prod_d omega_d^(i_d j_d),   omega_d = zeta^(e_d), of order p_d,
// and the length-m DFT is a k-dimensional DFT of the array a[i_1, ..., i_k] with no
// twiddles between the dimensions. Only j in Z_m^* is wanted, i.e. j_d != 0 in every
// dimension, so each one-dimensional pass of the forward transform keeps only its p_d - 1
// nonzero outputs (and the inverse pass reads only nonzero inputs): the array shrinks from
// m to phi(m) entries on the way.
//
// Rader. For a prime p with generator g of Z_p^*, L = p - 1, the nonzero outputs of a
// length-p DFT with root omega are, writing i = g^(-r) and j = g^s,
//     X_(g^s) = x_0 + sum_(r < L) x_(g^(-r)) omega^(g^(s - r)),
// x_0 plus a cyclic convolution of length L of u_r = x_(g^(-r)) with w_t = omega^(g^t).
// The inverse pass, from values v_j at j != 0 to all outputs y_i = sum_j v_j omega^(-ij),
// is y_0 = sum_j v_j and y_(g^s) = (u * w')_s with u_r = v_(g^(-r)), w'_t = omega^(-g^t).
// The convolution runs on power-of-two NTTs, in one of three ways (scheme() in the .cpp
// takes the one cost() counts cheaper, per p):
//  - L a power of two (p = 3, 5, 17, 257, 65537): an NTT of length N_p = L.
//  - Agarwal-Cooley split, L = N_p r with N_p = 2^a and r odd > 1. Z_L = Z_(2^a) x Z_r by
//    t -> (t mod 2^a, t mod r) (CRT; gcd(2^a, r) = 1), and a cyclic convolution only adds
//    indices, so it becomes a 2^a x r two-dimensional cyclic convolution. Stored with
//    t mod 2^a outermost (row pos(t) = (t mod 2^a) r + t mod r), a length-2^a NTT on rows
//    of r * wp words diagonalizes the first axis; at each of its 2^a frequencies remains
//    a cyclic convolution of length r with that frequency's r kernel values, computed
//    directly (short_convolution.h: r^2 products by constants, no roots of order r
//    needed); then the inverse NTT. 240 = 16 x 15 (p = 241), 12 = 4 x 3 (p = 13),
//    640 = 128 x 5 (p = 641), 672 = 32 x 21 (p = 673), 96 = 32 x 3 (p = 97).
//  - Padded: N_p the power of two >= 2L - 1 with the kernel wrapped (w at t and at
//    N_p - t, as in Bluestein), where the split would cost more (p = 103: 2 x 51).
// The kernel's transform, times 1/N_p, is precomputed (split: each frequency's slice
// becomes its short convolution's constants). Every N_p divides the Bluestein length N,
// so the chain's primes (q = 1 mod m N) serve both algorithms and give identical values.
//
// Layout. A pass along dimension d sees the array as rows indexed by i_d (in Rader's
// order, row 0 for i_d = 0) and columns indexed by the other coordinates. All the
// columns' convolutions run at once: an NTT whose butterflies act on whole rows, so the
// vector lanes run along the columns and a block of rows is contiguous. Between passes a
// gather table (int32, per m, shared by every prime) moves each word to its place in the
// next pass' rows (at the convolution's rows pos(t)); the first table reads the
// coefficients, the last writes the values in Z_m^* order. At m = 4369 = 17 * 257: a pass
// of 16-point convolutions over 257 columns, then one of 256-point convolutions over 16
// columns, about a third of Bluestein's work. At m = 53261 = 13 * 17 * 241: 4 x 3 split
// convolutions over 4097 columns, 16-point ones over 2892, 16 x 15 split ones over 192;
// about half of Bluestein's time (BENCHMARKS.md, "Transforms").
//
// Arithmetic. For q < 2^50 with IFMA compiled (ifma.h) the butterflies are 52-bit Shoup
// products with the NTT's lazy ranges (forward [0, 4q), inverse [0, 2q), ntt.h; the short
// convolutions take [0, 4q) to [0, 2q)). Row 0 (x_0, or sum_t u_t) is folded into the
// convolution at the NTT's frequency 0: added to its r rows before the inverse NTT
// (every output gains it, since that frequency's inverse twiddles are 1), or summed from
// them after the forward NTT; the passes end in [0, 2q) and the last gather reduces.
// Otherwise scalar 64-bit Shoup products with full reductions, row 0 in a sweep of its
// own.
// Inputs may be any words: the first gather reduces them (a product by 1 forward, by
// 1/m inverse).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/util/short_convolution.h"

namespace cb::util {

class PrimeFactorTransform {
 public:
  // m odd, >= 3 and squarefree; q a prime < 2^61 with q = 1 mod m and mod every
  // conv_lengths(m); zeta a primitive m-th root of unity mod q. Throws ParameterError.
  PrimeFactorTransform(long m, uint64_t q, uint64_t zeta);

  // True when the algorithm applies: m odd, >= 3, squarefree (and at most 2^24).
  static bool applies(long m);
  // The prime factors p of m in the order of the forward passes (increasing), and the
  // NTT length N_p of each one's Rader convolution.
  static std::vector<long> factors(long m);
  static std::vector<long> conv_lengths(long m);
  // Per factor, the odd length r of the short convolutions when the Rader convolution is
  // split (L = N_p r, Agarwal-Cooley), else 1 (L = N_p a power of two, or padded).
  static std::vector<long> short_lengths(long m);
  // Word operations of one transform (butterflies, products, sums and gathered words):
  // the unit of CyclotomicTransform's choice (cyclotomic_transform.h).
  static double cost(long m);
  // Bytes per prime (twiddles and kernels) and bytes of the index tables, which all the
  // primes of one m share.
  static size_t table_bytes(long m);
  static size_t shared_bytes(long m);

  // As CyclotomicTransform::forward / inverse (bluestein.h), with identical results.
  void forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const;
  void inverse(const uint64_t* values, uint64_t* coeffs) const;

  bool fast() const { return fast_; }  // the IFMA kernels (q < 2^50, IFMA compiled)
  size_t bytes() const;                // this prime's tables (not the shared ones)
  size_t plan_bytes() const;           // the shared index tables (= shared_bytes(m))

  struct Plan;  // per m: the factors, generators and gather tables (prime_factor.cpp)

 private:
  // Per factor p and this prime: the length-N_p NTT's twiddles (tw[2^l + b] as in ntt.h)
  // and inverse twiddles, and the transformed kernels w (forward) and w' (inverse) times
  // 1/N_p, each with its Shoup companion (shoup52 for fast moduli, else shoup).
  struct Dim {
    long n = 0, r = 1;
    std::vector<uint64_t> tw, twp, itw, itwp, kf, kfp, ki, kip;
    std::shared_ptr<const ShortConvolution> sc;  // r > 1: the length-r convolutions
  };
  // The convolutions of one pass (forward kernels, or inverse with inv), in place: scalar
  // kernels, and the IFMA ones with row 0 folded in (forward: added; inverse: written).
  void convolve_pass(const Dim& D, uint64_t* rows, long L, long wp, bool inv) const;
  void convolve_pass52(const Dim& D, uint64_t* rows, long L, long wp, bool inv, uint64_t* row0) const;
  long m_;
  uint64_t q_;
  bool fast_;
  std::shared_ptr<const Plan> plan_;
  std::vector<Dim> dims_;
  uint64_t one_p_, minv_, minv_p_;  // companions of 1 and m^-1 mod q (first gathers)
};

}  // namespace cb::util
