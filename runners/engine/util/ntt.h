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
// Fast moduli. When the build has AVX-512 IFMA (ifma.h) and q < 2^50, the twiddle products
// are 52-bit Shoup products (vpmadd52luq/huq, companions floor(w 2^52 / q)), whose inputs
// must stay below 2^52. The butterflies then run one notch tighter: forward values in
// [0, 4q), inverse values in [0, 2q) (4q < 2^52 is what needs q < 2^50). fast() tells
// which arithmetic a modulus uses; forward_bound() and inverse_bound() give the lazy ranges
// [0, F q) and [0, I q) of the *_levels entry points: (F, I) = (8, 4) for the 64-bit
// arithmetic and (4, 2) for fast moduli. The scalar fallback keeps the same ranges.
//
// Level 0 has the trivial twiddle s = 1. The *_levels entry points let Bluestein's
// algorithm skip it when half the input is known to be zero (forward) or half the
// output is not needed (inverse).
//
// Negacyclic. The same descent started from c = -1 instead of 1 evaluates a(X) mod
// X^N + 1 at the N roots of X^N + 1, the odd powers of a primitive 2N-th root of unity
// psi (negacyclic(), for the rings m = 2^k, negacyclic.h). Only the twiddle tables
// change: X^N + 1 = X^N - psi^N, and a block b at level l, reduced modulo
// X^(N/2^l) - psi^(e N/2^l) with e = 2 bitrev_l(b) + 1, splits with
//     s = psi^((2 bitrev_l(b) + 1) N/2^(l+1)),
// its children 2b and 2b+1 getting c = s and -s = psi^(N + ...), which is the same rule one
// level down (bitrev_(l+1)(2b) = bitrev_l(b), bitrev_(l+1)(2b+1) = 2^l + bitrev_l(b)). The
// leaf i ends up holding A[i] = a(psi^(2 bitrev_k(i) + 1)). The inverse butterflies undo
// any split (u + v = 2 lo, (u - v) s^-1 = 2 hi), so inverse() returns a again (1/N
// included), and every kernel, range and schedule above is unchanged: the merged twist
// of Longa and Naehrig (CANS 2016), with no separate pass of psi^i products.
//
// Schedule (AVX-512 build; a portable scalar version computes the same values):
//  - eight lanes per register; the Shoup quotient is built from 32-bit partial products
//    (ntt.cpp explains the bound), so a vector twiddle product costs ~15 operations, or
//    four (three IFMA multiplies and an AND) for fast moduli;
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
  // The negacyclic transform of length N = 2^log_n (see the header comment): modulo the
  // prime q < 2^61 with q = 1 (mod 2N), with the primitive 2N-th root of unity psi (or
  // primitive_root_of_unity(2N, q) when psi = 0). forward() gives
  // A[i] = a(psi^(2 bitrev(i) + 1)) for a mod X^N + 1; omega() is then psi^2.
  static Ntt negacyclic(int log_n, uint64_t q, uint64_t psi = 0);

  long n() const { return n_; }          // N = 2^k
  int log_n() const { return log_n_; }   // k
  uint64_t q() const { return q_; }
  uint64_t omega() const { return omega_; }  // primitive N-th root of unity
  bool is_negacyclic() const { return psi_ != 0; }
  uint64_t psi() const { return psi_; }  // negacyclic: the primitive 2N-th root (else 0)

  // In place: a[0..N) in [0, q) -> A[i] = a(omega^bitrev(i)) in [0, q).
  void forward(uint64_t* a) const;
  // In place: the inverse of forward, including the factor 1/N; in and out in [0, q).
  void inverse(uint64_t* a) const;

  // The lazy ranges below are [0, F q) and [0, I q), F = forward_bound(), I = inverse_bound():
  // F = 8, I = 4 in general, F = 4, I = 2 for fast moduli (see the header comment).
  int forward_bound() const { return fast_ ? 4 : 8; }
  int inverse_bound() const { return fast_ ? 2 : 4; }
  // True when q takes the IFMA (52-bit) kernels: IFMA compiled in and q < 2^50.
  bool fast() const { return fast_; }
  // The Shoup companion the kernels of this modulus expect for a fixed multiplier w in
  // [0, q): shoup52(w, q) for fast moduli, else shoup(w, q) (kernels for convolve_levels).
  uint64_t companion(uint64_t w) const;

  // Forward levels from_level..k-1 only, input in [0, F q), output in [0, F q), unreduced.
  // With from_level = 1 the caller has done level 0 itself, i.e. written
  // (lo + hi, lo - hi) into the two halves.
  void forward_levels(uint64_t* a, int from_level = 0) const;
  // Inverse levels k-1 down to to_level only, WITHOUT the factor 1/N; input in [0, I q),
  // output in [0, I q). With to_level = 1 the caller finishes level 0 itself: the result
  // is N * a[i] = x[i] + x[i + N/2] for i < N/2 (and x[i] - x[i + N/2] above).
  void inverse_levels(uint64_t* a, int to_level = 0) const;

  // Cyclic convolution with a fixed, already transformed kernel K (entries in [0, q),
  // companions kp[i] = companion(K[i])): forward_levels(a, from_level), then
  // a[i] *= K[i], then inverse_levels(a, to_level), fused so the innermost levels stay in
  // registers. Input in [0, F q), output in [0, I q), without the factor 1/N.
  void convolve_levels(uint64_t* a, const uint64_t* k, const uint64_t* kp, int from_level,
                       int to_level) const;

  // True when the AVX-512 kernels are compiled in (else portable scalar code).
  static bool vectorized();

  // Bytes of the precomputed tables: four length-N word arrays (twiddles, inverse
  // twiddles and their companions), 32 N in all.
  size_t bytes() const;
  static size_t table_bytes(long n) { return 4 * size_t(n) * sizeof(uint64_t); }

 private:
  long n_;
  int log_n_;
  uint64_t q_, omega_, psi_ = 0;
  // tw[2^l + b] = omega^(bitrev_l(b) * N/2^(l+1)) (cyclic) or
  // psi^((2 bitrev_l(b) + 1) * N/2^(l+1)) (negacyclic), and companion
  std::vector<uint64_t> tw_, twp_;
  std::vector<uint64_t> itw_, itwp_;  // itw[j] = tw[j]^-1, companion
  ShoupMul n_inv_;                    // N^-1 mod q
  bool fast_;                         // IFMA kernels (q < 2^50, IFMA compiled in)
  struct Negacyclic {};
  Ntt(Negacyclic, int log_n, uint64_t q, uint64_t psi);
  void check(int log_n, uint64_t q, uint64_t order);  // sets n_; throws for a bad log_n or q
  // The tables from powers w^e, e < 2N/f, of the root w: exponent (f * bitrev_l(b) + g) *
  // N/2^(l+1) at twiddle 2^l + b ((f, g) = (1, 0) cyclic with w = omega, (2, 1)
  // negacyclic with w = psi).
  void build_tables(uint64_t w, long f, long g);
  // Forward levels [from, k), the pointwise product by (k, kp) if k != nullptr, inverse
  // levels k-1 down to `to`, each part optional; vector kernels where they apply.
  void run(uint64_t* a, int from, int to, const uint64_t* k, const uint64_t* kp,
           bool do_forward, bool do_inverse) const;
};

}  // namespace cb::util
