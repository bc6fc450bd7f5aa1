// inversion.h: x -> x^(2^n - 2) = x^-1 (0 -> 0) in GF(2^n) slots, in depth ceil(log2(n-1)).
//
// Write y_e = x^(2^e - 1) (e ones in binary). Squaring is free of depth under FHE (the
// Frobenius automorphism X -> X^2), and
//     y_(a+b) = y_a^(2^b) * y_b,
// one multiplication of depth max(depth y_a, depth y_b) + 1. We build y_1, y_2, y_4, ...
// by doubling (y_(2^i) has depth i), then add the set bits of e = n-1 from the lowest
// upwards, which keeps the depth at ceil(log2(n-1)): 3 for GF(2^8) (GHS's x^254 with 4
// multiplications), 4, 5, 6 for GF(2^16), GF(2^32), GF(2^64). Finally x^(2^n-2) = y_(n-1)^2,
// one more Frobenius map, which a following affine map can absorb
// (precompose_frobenius in linearized.h).
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "ciphers/common/evaluator.h"

namespace cb {

// Multiplications and automorphisms of power_2e_minus_1(e) (for planning and tests).
struct ChainCost {
  long mul = 0, automorph = 0, depth = 0;
};
inline ChainCost chain_cost(long e) {
  ChainCost c;
  long top = 0;
  while ((2L << top) <= e) ++top;
  c.mul = top, c.automorph = top;  // doublings y_(2^i), i = 1..top
  long depth = -1;
  for (long i = 0; i <= top; ++i) {
    if (!((e >> i) & 1)) continue;
    if (depth < 0) {
      depth = i;
    } else {
      depth = std::max(depth, i) + 1, ++c.mul, ++c.automorph;
    }
  }
  c.depth = depth;
  return c;
}

// x^(2^e - 1) for e >= 1; the values lie in GF(2^n), so Frobenius exponents reduce mod n.
template <class B>
typename B::Ctxt power_2e_minus_1(Evaluator<B>& ev, const typename B::Ctxt& x, long e, long n) {
  using Ctxt = typename B::Ctxt;
  std::vector<Ctxt> y{x};  // y[i] = y_(2^i)
  while ((2L << (y.size() - 1)) <= e) {
    const long h = 1L << (y.size() - 1);
    Ctxt t = y.back();
    ev.frobenius(t, h % n);
    ev.mul(t, y.back());
    y.push_back(std::move(t));
  }
  std::optional<Ctxt> acc;  // y_(e mod 2^i)
  for (long i = 0; i < long(y.size()); ++i) {
    if (!((e >> i) & 1)) continue;
    if (!acc) {
      acc = y[i];
      continue;
    }
    // y_(ones + 2^i) = y_ones^(2^(2^i)) * y_(2^i)
    ev.frobenius(*acc, (1L << i) % n);
    ev.mul(*acc, y[i]);
  }
  return std::move(*acc);
}

// x^(2^n - 2); with final_square = false returns x^(2^(n-1) - 1) (the caller squares later).
template <class B>
typename B::Ctxt inverse(Evaluator<B>& ev, const typename B::Ctxt& x, long n, bool final_square = true) {
  auto y = power_2e_minus_1(ev, x, n - 1, n);
  if (final_square) ev.frobenius(y, 1 % n);
  return y;
}

// The automorphism exponents (as Frobenius powers j, X -> X^(2^j)) that inverse() uses.
inline std::vector<long> inverse_frobenius_powers(long n) {
  std::vector<long> js;
  const long e = n - 1;
  for (long h = 1; 2 * h <= e; h *= 2) js.push_back(h % n);
  for (long i = 1; (1L << i) <= e; ++i)
    if ((e >> i) & 1) js.push_back((1L << i) % n);
  js.push_back(1 % n);
  return js;
}

}  // namespace cb
