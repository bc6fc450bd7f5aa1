// vecmod.h: element-wise arithmetic on arrays of residues modulo one prime q < 2^62.
//
// Double-CRT arithmetic is element-wise per RNS prime: products of values (tensoring),
// products with fixed multipliers (chirps, key-switching keys, constants), sums. These
// kernels run on n residues at a time; with AVX-512 the Shoup products process eight
// lanes per instruction (see ntt.cpp for the vector Shoup product: the quotient is
// assembled from 32-bit partial products, dropping carries, so the raw remainder lies in
// [0, 4q) and two conditional subtractions finish). Outputs are fully reduced to [0, q).
// out may alias any input (element i is read before it is written).
#pragma once

#include <cstdint>

#include "engine/util/modarith.h"

namespace cb::util {

// out[i] = x[i] * w[i] mod q, with wp[i] = shoup(w[i], q); x[i] may be any word.
void mul_shoup_array(uint64_t* out, const uint64_t* x, const uint64_t* w, const uint64_t* wp,
                     long n, uint64_t q);

// out[i] = x[i] * w mod q for one fixed multiplier; x[i] may be any word.
void mul_scalar_array(uint64_t* out, const uint64_t* x, ShoupMul w, long n, uint64_t q);

// Products of two variable residues (tensoring, plaintext products, decryption's c1 s):
// out[i] = a[i] * b[i] mod q and out[i] = (a[i] * b[i] + c[i]) mod q, for a[i], b[i], c[i]
// in [0, q), 2 <= q < 2^62. With IFMA and q < 2^50, the 52-bit Barrett product of ifma.h
// (four IFMA instructions per eight lanes, the last partial block masked); otherwise the
// 128-bit product and Barrett reduction (modarith.h), one element at a time.
void mul_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q);
void mul_add_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* c, long n,
                       uint64_t q);

// CRT basis extension: out[i] = (sum_{k < kx} x[k][i] * w[k] - v[i] * c) mod q in [0, q),
// for words x[k][i] < x_bound <= 2^61 (residues of other primes), fixed multipliers w[k],
// c in [0, q), small signed v[i] (|v[i]| < q) and kx < 63. With IFMA, q < 2^50 and
// x_bound <= 2^52, the products' 52-bit halves are summed exactly in blocks of terms and
// reduced once a block (two IFMA instructions a term; blocks of 15 or 16 for words below
// 2^50), or, where a block would hold under 4 terms, each term is a 52-bit Shoup product
// (ifma.h) with the running sum in [0, 2q); otherwise 128-bit sums reduced once (Barrett).
void crt_combine_array(uint64_t* out, const uint64_t* const* x, const uint64_t* w, long kx,
                       uint64_t x_bound, const int64_t* v, uint64_t c, long n, uint64_t q);

// Key product: out0[t] = sum_{j < k} x[j][src_t] * y0[j][t] mod q and out1[t] likewise
// with y1, src_t = perm[t] (perm == nullptr: t), for residues in [0, q). With IFMA,
// q < 2^50 and k < 16 the 104-bit products are summed as 52-bit halves and reduced once
// (two 52-bit Shoup products); otherwise 128-bit sums and Barrett.
void dot2_array(uint64_t* out0, uint64_t* out1, const uint64_t* const* x, const uint64_t* const* y0,
                const uint64_t* const* y1, long k, const int* perm, long n, uint64_t q);

// CRT quotient: v[i] = the nearest integer to f_i = sum_{k < ky} y[k][i] / t_k (inv_t[k] =
// 1.0 / t_k, f_i computed in double precision); with even_fix, moved by one toward f_i when
// sum_k y[k][i] + v[i] is odd (rns_rounding.h uses it to make the lift even).
void crt_quotient_array(int64_t* v, const uint64_t* const* y, const double* inv_t, long ky, bool even_fix,
                        long n);

// out[i] = a[i] + b[i] mod q and a[i] - b[i] mod q, for a[i], b[i] in [0, q).
void add_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q);
void sub_mod_array(uint64_t* out, const uint64_t* a, const uint64_t* b, long n, uint64_t q);

}  // namespace cb::util
