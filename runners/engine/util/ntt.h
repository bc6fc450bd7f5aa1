// ntt.h: the cyclic number-theoretic transform of length N = 2^k modulo a prime q.
//
// With omega a primitive N-th root of unity mod q, the transform maps a polynomial
// a(X) mod X^N - 1 to its N values a(omega^e). We compute it as a descent through the
// factor tree of X^N - 1: a block at level l (2^l blocks of size N/2^l) holds a reduced
// modulo X^(N/2^l) - c, and splitting it with s^2 = c,
//     X^(2t) - c = (X^t - s)(X^t + s),   lo + X^t hi  ->  (lo + s*hi, lo - s*hi),
// is one Cooley-Tukey butterfly per coefficient pair with the same twiddle s for the
// whole block. Starting from c = 1 and always taking s = omega^(bitrev_l(b) * N/2^(l+1))
// for block b, the leaf i ends up holding
//     A[i] = a(omega^bitrev_k(i)),
// i.e. the output is in bit-reversed order. Only pointwise products between a forward
// and an inverse transform are ever taken, so the order never matters to callers; the
// inverse climbs the same tree with Gentleman-Sande butterflies
//     (u, v) -> (u + v, (u - v) * s^-1),
// which return N*a, and the 1/N is folded into the last step (or left to the caller).
// The twiddles of level l sit at tw[2^l + b], so each level reads them sequentially.
//
// Lazy reduction (Harvey, "Faster arithmetic for number-theoretic transforms", 2014):
// values are never fully reduced inside the transform. The forward butterfly reduces its
// x input once (to [0, 4q)), adds and subtracts the twiddle product (a Shoup product in
// [0, 2q) in scalar code, [0, 4q) in vector code) and so keeps values in [0, 8q); the
// inverse butterfly keeps them in [0, 4q). Full reduction happens once at the end. This
// needs 8q < 2^64, hence q < 2^61.
//
// Level 0 has the trivial twiddle s = 1. The *_levels entry points let Bluestein's
// algorithm skip it when half the input is known to be zero (forward) or half the
// output is not needed (inverse).
//
// Schedule (AVX-512 build; a portable scalar version computes the same values):
//  - eight lanes per register; the Shoup quotient is built from 32-bit partial products
//    (ntt.cpp explains the bound), so a vector twiddle product costs ~15 operations;
//  - levels are taken in pairs (radix 4) so each pass loads and stores data once per
//    two levels;
//  - depth first: a block does its two levels, then its four sub-blocks are finished
//    one by one while they sit in cache (the inverse levels follow on the way back);
//    blocks of 4096 words (32 KiB) run all their remaining levels in L1;
//  - the last three levels (half-blocks 4, 2, 1) are done inside registers on 16-word
//    chunks, and convolve_levels also does the pointwise product and the first three
//    inverse levels there, so the data makes one trip for six levels.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/util/modarith.h"

namespace cb::util {

class Ntt {
 public:
  // Length N = 2^log_n modulo the prime q < 2^61 with q = 1 (mod N), using the
  // primitive N-th root of unity omega (or primitive_root_of_unity(N, q) when omega = 0).
  // Throws ParameterError for a bad q, log_n or omega.
  Ntt(int log_n, uint64_t q, uint64_t omega = 0);

  long n() const { return n_; }          // N = 2^k
  int log_n() const { return log_n_; }   // k
  uint64_t q() const { return q_; }
  uint64_t omega() const { return omega_; }  // primitive N-th root of unity

  // In place: a[0..N) in [0, q) -> A[i] = a(omega^bitrev(i)) in [0, q).
  void forward(uint64_t* a) const;
  // In place: the inverse of forward, including the factor 1/N; in and out in [0, q).
  void inverse(uint64_t* a) const;

  // Forward levels from_level..k-1 only, input in [0, 8q), output in [0, 8q), unreduced.
  // With from_level = 1 the caller has done level 0 itself, i.e. written
  // (lo + hi, lo - hi) into the two halves.
  void forward_levels(uint64_t* a, int from_level = 0) const;
  // Inverse levels k-1 down to to_level only, WITHOUT the factor 1/N; input in [0, 4q),
  // output in [0, 4q). With to_level = 1 the caller finishes level 0 itself: the result
  // is N * a[i] = x[i] + x[i + N/2] for i < N/2 (and x[i] - x[i + N/2] above).
  void inverse_levels(uint64_t* a, int to_level = 0) const;

  // Cyclic convolution with a fixed, already transformed kernel K (entries in [0, q),
  // Shoup companions kp): forward_levels(a, from_level), then a[i] *= K[i], then
  // inverse_levels(a, to_level), fused so the innermost levels stay in registers.
  // Input in [0, 8q), output in [0, 4q), without the factor 1/N.
  void convolve_levels(uint64_t* a, const uint64_t* k, const uint64_t* kp, int from_level,
                       int to_level) const;

  // True when the AVX-512 kernels are compiled in (else portable scalar code).
  static bool vectorized();

 private:
  long n_;
  int log_n_;
  uint64_t q_, omega_;
  std::vector<uint64_t> tw_, twp_;    // tw[2^l + b] = omega^(bitrev_l(b) * N/2^(l+1)), Shoup
  std::vector<uint64_t> itw_, itwp_;  // itw[j] = tw[j]^-1, Shoup
  ShoupMul n_inv_;                    // N^-1 mod q
};

}  // namespace cb::util
