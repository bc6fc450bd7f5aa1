// zmstar.h: the Galois structure of the plaintext slots, Z_m^* / <2>.
//
// For odd m the cyclotomic polynomial Phi_m(X) splits mod 2 into ell = phi(m)/d
// irreducible factors of degree d = ord_m(2). Over the slot field GF(2^d) its roots are
// zeta^j for j in Z_m^*, and the factors correspond to the cosets of <2> in Z_m^*: the
// factor F_t has the roots zeta^(t*2^i), i = 0..d-1. So the slots are indexed by
// Z_m^*/<2>, and the automorphism X -> X^k of the ring permutes them: the new value of
// the slot with representative t is the old value of the slot containing k*t. When
// k*t = t' * 2^f, the value arrives Frobenius-twisted: new_t = (old_t')^(2^f).
//
// As in HElib (PAlgebra), we write Z_m^*/<2> as a hypercube: generators g_0..g_{D-1}
// with orders ord_i such that every coset has exactly one representative
//     t(e) = prod_i g_i^(e_i) mod m,   0 <= e_i < ord_i.
// The generators are chosen greedily: g_i has the largest order in
// Z_m^* / <2, g_0, ..., g_{i-1}>, and among those an element whose ord_i-th power lies in
// <2> (so the cosets <g_i> form a direct factor and a rotation along dimension i never
// spills into other dimensions), preferring one with g_i^ord_i = 1 exactly. Dimension i
// is "good" when g_i^ord_i = 1 mod m (its order in Z_m^* equals its order in the
// quotient): then X -> X^(g_i^-r) rotates dimension i by r with no twist. Otherwise
// g_i^ord_i = 2^f_i mod m with f_i != 0, and slots that wrap around arrive twisted by
// 2^(-f_i): a rotation then needs two automorphisms and masks (HElib's "bad dimension").
//
// Slots are numbered in row-major order of the exponent vector: dimension 0 varies
// slowest, slot = sum_i e_i * stride_i with stride_{D-1} = 1.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cb {

// The cheap facts of Z_m^* without its hypercube: what a sweep over many m asks first.
struct ZmStarBasics {
  long m;                                      // odd cyclotomic index, 3 <= m <= kMaxM
  std::vector<std::pair<long, long>> factors;  // m = prod p^e, primes increasing
  long phi;                                    // phi = |Z_m^*| = prod p^(e-1) (p - 1)
  long d;                                      // d = ord_m(2), from the factors of lambda(m)
  long ell() const { return phi / d; }         // ell = phi / d, the number of slots
};

// Largest m ZmStar accepts (2^20: slot and Frobenius tables of m entries each).
constexpr long kMaxM = 1L << 20;

// The basics of m; throws ParameterError unless m is odd and 3 <= m <= kMaxM (as ZmStar).
ZmStarBasics zmstar_basics(long m);

class ZmStar {
 public:
  // Throws ParameterError unless m is odd and 3 <= m <= kMaxM (zmstar_basics), and Error
  // when no generator of maximal order has its power in <2> (the hypercube does not split).
  explicit ZmStar(long m);

  long m() const { return m_; }
  long phi() const { return phi_; }  // phi = |Z_m^*|
  long d() const { return d_; }      // d = ord_m(2), degree of each slot's field GF(2^d)
  long ell() const { return ell_; }  // ell = phi / d, the number of slots
  // Prime factorization of m as (prime, exponent) pairs, primes increasing.
  const std::vector<std::pair<long, long>>& factors() const { return factors_; }

  long dims() const { return long(gens_.size()); }  // D
  long gen(long i) const { return gens_[i]; }        // g_i
  long ord(long i) const { return ords_[i]; }        // ord_i, order of g_i modulo <2, g_0..g_{i-1}>
  bool good(long i) const { return twists_[i] == 0; }
  long twist(long i) const { return twists_[i]; }    // f_i in [0, d) with g_i^ord_i = 2^f_i mod m
  long stride(long i) const { return strides_[i]; }  // prod_{j>i} ord_j

  // Representative t of slot s, t = prod g_i^(e_i) mod m.
  long rep(long slot) const { return reps_[slot]; }
  std::vector<long> coords(long slot) const;             // e_0..e_{D-1}
  long slot_of(const std::vector<long>& coords) const;   // inverse of coords()

  // For x in Z_m^*: the slot s and f in [0, d) with x = rep(s) * 2^f mod m.
  // Throws ParameterError when gcd(x, m) != 1.
  std::pair<long, long> locate(long x) const;

  bool in_zmstar(long x) const;  // gcd(x mod m, m) == 1
  long inverse(long x) const;    // x^-1 mod m; x in Z_m^*
  long power(long x, long e) const;  // x^e mod m, e may be negative for x in Z_m^*

  // What X -> X^k does to the slots: after the automorphism, slot s holds
  // frob^(moves[s].frob) of the value slot moves[s].src held before, where frob is the
  // slot-wise squaring x -> x^2. moves has ell entries. k must lie in Z_m^*.
  struct SlotMove {
    long src;
    long frob;
  };
  std::vector<SlotMove> automorphism_action(long k) const;

  // GHS's order-16 condition [GHS12]: some t in Z_m^* with t^16 = 1 whose coset has order
  // 16 in Z_m^*/<2> (t^8 not in <2>). One pass over [1, m).
  bool ghs16() const;

 private:
  long m_, phi_, d_, ell_;
  std::vector<std::pair<long, long>> factors_;
  std::vector<long> gens_, ords_, twists_, strides_, reps_;
  // For x in [0, m): slot index and Frobenius exponent of x (slot -1 when gcd(x, m) != 1).
  std::vector<int32_t> slot_of_x_;
  std::vector<int32_t> frob_of_x_;
};

}  // namespace cb
