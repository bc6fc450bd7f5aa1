// power_map.h: x -> x^e in GF(2^n) slots as Frobenius maps and products.
//
// Squaring is free of depth under FHE (the Frobenius automorphism X -> X^2), so the cost
// of x^e is the number of products a chain needs when doublings are free. Write
// e mod 2^n - 1 in binary as runs of ones,
//     e = sum_i (2^(L_i) - 1) 2^(p_i),
// and y_L = x^(2^L - 1). inversion.h builds y_L in depth ceil(log2 L) from
//     y_(a+b) = y_a^(2^b) y_b
// (y_1, y_2, y_4, ... by doubling, then the set bits of L from the lowest up); the runs
// share that doubling chain. The terms y_(L_i)^(2^(p_i)) are then multiplied pairwise in
// a balanced tree, each product taking the Frobenius shift of its left operand relative to
// its right. The lowest shift p_0 is left over as a trailing Frobenius map, which the
// circuit folds into an adjacent affine map when there is one (linearized.h), so
//     x^(2^n - 2) = (y_(n-1))^2    inversion: the chain of inversion.h, the square folded;
//     x^(2^k + 1) = x^(2^k) x      a Gold map (Chaghri's S-box): one product, depth 1;
//     x^3 = x^2 x                  MiMC: one product, depth 1.
// A single run is exactly inversion.h's power_2e_minus_1 (the same products in the same
// order, so plans made before the catalog are unchanged). For e with w runs the count is
// (the doubling chain up to the longest run) + (the runs' set bits beyond the first) +
// (w - 1), which is the fewest products for the catalog's maps (one run, or runs of
// length 1); for other e it is an upper bound, and the planner measures what it costs.
//
// Over F_p (p > 2) there is no Frobenius to lean on (x^p = x on F_p, and a slot's
// Frobenius does not square), so every squaring is a product: e mod p - 1 is computed as
// the squarings x^(2^i) up to its top bit, then the set bits' powers multiplied two at a
// time, the two shallowest first (which gives the least depth for those leaves), so
//     x^3 = x^2 x                  MiMC over F_p: one square and one product, depth 2;
//     x^5 = x^4 x                  two squares and a product, depth 3.
// An instruction with a = b is then a square (PowerProgram::p > 2: j is always 0).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ciphers/common/evaluator.h"

namespace cb {

struct PowerProgram {
  // v_(k+1) = v_a^(2^j) * v_b, with v_0 = x.
  struct Instr {
    long a, j, b;
  };
  uint64_t e = 0;              // the exponent, reduced mod 2^n - 1 (F_p: mod p - 1)
  long n = 0;                  // GF(2^n)'s n (F_p: 1)
  uint64_t p = 2;              // the characteristic: p > 2 is products only, a = b a square
  std::vector<Instr> instrs;
  long out = 0;                // the value holding x^(e / 2^shift)
  long shift = 0;              // the trailing Frobenius power: x^e = v_out^(2^shift)
  long depth = 0;              // multiplicative depth of v_out
  long products() const { return long(instrs.size()); }
  // The Frobenius powers j != 0 (mod n) the products use (shift excluded).
  std::vector<long> frobenius_powers() const;
};

// e mod 2^n - 1 (0 < that, else ParameterError): the program described above.
PowerProgram compile_power(uint64_t e, long n);
// The same in F_p: e mod p - 1 (0 < that, else ParameterError), squarings and products.
PowerProgram compile_power_prime(uint64_t e, uint64_t p);

// e^-1 mod 2^n - 1, when x^e is a permutation of GF(2^n) (gcd(e, 2^n - 1) = 1).
std::optional<uint64_t> inverse_exponent(uint64_t e, long n);
// e^-1 mod p - 1, when x^e is a permutation of F_p (gcd(e, p - 1) = 1).
std::optional<uint64_t> inverse_exponent_prime(uint64_t e, uint64_t p);

// v_out of the program on a ciphertext (the caller applies or folds the shift).
template <class B>
typename B::Ctxt evaluate_power(Evaluator<B>& ev, const PowerProgram& p, const typename B::Ctxt& x) {
  using Ctxt = typename B::Ctxt;
  std::vector<Ctxt> v{x};
  v.reserve(p.instrs.size() + 1);
  for (const auto& in : p.instrs) {
    Ctxt t = v[in.a];
    if (p.p != 2) {  // F_p: products only
      if (in.a == in.b)
        ev.square(t);
      else
        ev.mul(t, v[in.b]);
    } else {
      ev.frobenius(t, in.j);
      ev.mul(t, v[in.b]);
    }
    v.push_back(std::move(t));
  }
  return std::move(v[p.out]);
}

}  // namespace cb
