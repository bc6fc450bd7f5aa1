// short_convolution.h: cyclic convolutions of short odd length r by a fixed kernel,
// over many columns at once, with no roots of unity (docs/references.md §7).
//
// The prime-factor transform (prime_factor.h) reduces a Rader convolution of length
// L = 2^a r, r odd, by the Agarwal-Cooley map t -> (t mod 2^a, t mod r) to a
// 2^a x r two-dimensional cyclic convolution: a power-of-two NTT along the first axis
// diagonalizes it, leaving for each of the 2^a frequencies one cyclic convolution of
// length r along the second, with that frequency's slice of the transformed kernel. The
// RNS primes have roots of order 2^a but in general none of order 3, 5, 7, ..., so those
// length-r convolutions are computed directly:
//     y_s = sum_(i < r) x_i h_((s - i) mod r),   s < r,
// r^2 products by precomputed constants. For the lengths the papers' rings give (r = 3,
// 5, 15, 21) this is the cheapest form we counted on AVX-512 IFMA, where a product by a
// constant costs about what a reduced addition does: Winograd's short algorithms
// (Agarwal-Cooley 1977) trade products for additions (length 3: 4 products and 11
// additions against 9 products and 6 accumulations; not implemented), and a padded
// power-of-two convolution costs about 2 r log2(2r) butterflies.
//
// The IFMA kernel keeps a column's r inputs in registers (r <= 15) and accumulates each
// output's r products exactly, as the low and high 52-bit halves of the 104-bit
// products (vpmadd52luq / vpmadd52huq accumulate for free): with x < 4q, h < q < 2^50,
//     sum_i x_i h_i = H 2^52 + L',   H < r q,  L' < r 2^52,
// so one reduction per output, H 2^52 + L' = (H + L' >> 52) (2^52 mod q) + (L' & (2^52-1))
// (mod q), two Shoup products, instead of one per term. For r = 3 the per-term Shoup
// products are cheaper and are used.
#pragma once

#include <cstdint>
#include <vector>

namespace cb::util {

class ShortConvolution {
 public:
  // Length r >= 1 (odd in the transform; any r works) modulo the prime q < 2^61. Throws
  // ParameterError.
  ShortConvolution(long r, uint64_t q);

  // The constants apply() takes for the kernel k[0..r) (residues mod q): h[0..r) and
  // hp[0..r), the kernel and its companions (Shoup's, or shoup52 when fast()).
  void prepare(const uint64_t* k, uint64_t* h, uint64_t* hp) const;

  // Each of the wp columns of rows (rows[t * wp + c], t < r) replaced by its cyclic
  // convolution with the kernel that prepare() gave h, hp for. fast() (IFMA compiled,
  // q < 2^50): inputs in [0, 4q), outputs in [0, 2q), wp a multiple of 8; otherwise
  // inputs and outputs in [0, q).
  void apply(uint64_t* rows, long wp, const uint64_t* h, const uint64_t* hp) const;

  long length() const { return r_; }
  bool fast() const { return fast_; }
  // Operations of one column's convolution, in the unit of PrimeFactorTransform::cost()
  // (a butterfly or a Shoup product, three 52-bit multiplications): r <= 3, r^2 Shoup
  // products; else r^2 terms of two accumulating multiplications (2/3 each) and r
  // reductions of two Shoup products.
  static double cost(long r) {
    return r <= 3 ? double(r) * double(r) : 2.0 / 3.0 * double(r) * double(r) + 2.0 * double(r);
  }

 private:
  long r_;
  uint64_t q_;
  bool fast_;
  uint64_t c52_ = 0, c52p_ = 0, one_p_ = 0;  // fast: 2^52 mod q, shoup52 of it and of 1
};

}  // namespace cb::util
