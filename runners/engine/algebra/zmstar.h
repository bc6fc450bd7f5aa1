// zmstar.h: the Galois structure of the plaintext slots, Z_m^* / <p>.
//
// For a prime p not dividing m the cyclotomic polynomial Phi_m(X) splits mod p into
// ell = phi(m)/d irreducible factors of degree d = ord_m(p). Over the slot field GF(p^d)
// its roots are zeta^j for j in Z_m^*, and the factors correspond to the cosets of <p> in
// Z_m^*: the factor F_t has the roots zeta^(t*p^i), i = 0..d-1. So the slots are indexed
// by Z_m^*/<p>, and the automorphism X -> X^k of the ring permutes them: the new value of
// the slot with representative t is the old value of the slot containing k*t. When
// k*t = t' * p^f, the value arrives Frobenius-twisted: new_t = (old_t')^(p^f). The seed
// papers (GHS12, the AES and Vision circuits) are the case p = 2, slots GF(2^d).
//
// Rings: every odd m, and at odd p also m = 2^k (k >= 2), where Phi_m = X^(m/2) + 1 and
// Z_m^* = <-1> x <5> has order m/2; for p = 1 mod m, d = 1 and the m/2 slots are F_p. At
// p = 2 a power-of-two m has no slots (X^(m/2) + 1 = (X + 1)^(m/2) mod 2) and is refused.
//
// As in HElib (PAlgebra), we write Z_m^*/<p> as a hypercube: generators g_0..g_{D-1}
// with orders ord_i such that every coset has exactly one representative
//     t(e) = prod_i g_i^(e_i) mod m,   0 <= e_i < ord_i.
// The generators are chosen greedily: g_i has the largest order in
// Z_m^* / <p, g_0, ..., g_{i-1}>, and among those an element whose ord_i-th power lies in
// <p> (so the cosets <g_i> form a direct factor and a rotation along dimension i never
// spills into other dimensions), preferring one with g_i^ord_i = 1 exactly, and the
// smallest such integer. Dimension i is "good" when g_i^ord_i = 1 mod m (its order in
// Z_m^* equals its order in the quotient): then X -> X^(g_i^-r) rotates dimension i by r
// with no twist. Otherwise g_i^ord_i = p^f_i mod m with f_i != 0, and slots that wrap
// around arrive twisted by p^(-f_i): a rotation then needs two automorphisms and masks
// (HElib's "bad dimension"). For m = 2^k (k >= 4) and p = 1 mod m the greedy choice is
// g_0 = 3 (order m/4, good) and g_1 = m/2 - 1 (order 2, good), which generate the same
// group as <5> x <-1>; for p != 1 mod m the first dimension may be bad (m = 2^20,
// p = 65537: <p> has order 16, g_0 = 3 with ord_0 = 2^14 and 3^(2^14) = p^13).
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
  long m;                                      // cyclotomic index: odd, or 2^k at odd p; m <= kMaxM
  long p;                                      // plaintext modulus, a prime not dividing m
  std::vector<std::pair<long, long>> factors;  // m = prod q^e, primes increasing
  long phi;                                    // phi = |Z_m^*| = prod q^(e-1) (q - 1)
  long d;                                      // d = ord_m(p), from the factors of lambda(m)
  long ell() const { return phi / d; }         // ell = phi / d, the number of slots
};

// Largest m ZmStar accepts (2^20: slot and Frobenius tables of m entries each).
constexpr long kMaxM = 1L << 20;
// Plaintext moduli are primes p < kMaxP = 2^61 (a residue fits a 64-bit word with room to
// spare; whether a modulus chain suits p is the BGV context's check, not this one's).
constexpr long kMaxP = 1L << 61;

// The basics of m at p; throws ParameterError (as ZmStar) unless the ring is one the
// engine takes, see ZmStar(m, p).
ZmStarBasics zmstar_basics(long m, long p = 2);

class ZmStar {
 public:
  // Throws ParameterError, before any work, unless p is a prime 2 <= p < 2^61, m <= kMaxM
  // is odd (m >= 3) or a power of two 2^k (k >= 2) with p odd, and p does not divide m;
  // throws Error when no generator of maximal order has its power in <p> (the hypercube
  // does not split).
  explicit ZmStar(long m, long p = 2);

  long m() const { return m_; }
  long p() const { return p_; }      // the plaintext modulus, prime
  long phi() const { return phi_; }  // phi = |Z_m^*|
  long d() const { return d_; }      // d = ord_m(p), degree of each slot's field GF(p^d)
  long ell() const { return ell_; }  // ell = phi / d, the number of slots
  // Prime factorization of m as (prime, exponent) pairs, primes increasing.
  const std::vector<std::pair<long, long>>& factors() const { return factors_; }

  long dims() const { return long(gens_.size()); }  // D
  long gen(long i) const { return gens_[i]; }        // g_i
  long ord(long i) const { return ords_[i]; }        // ord_i, order of g_i modulo <p, g_0..g_{i-1}>
  bool good(long i) const { return twists_[i] == 0; }
  long twist(long i) const { return twists_[i]; }    // f_i in [0, d) with g_i^ord_i = p^f_i mod m
  long stride(long i) const { return strides_[i]; }  // prod_{j>i} ord_j

  // Representative t of slot s, t = prod g_i^(e_i) mod m.
  long rep(long slot) const { return reps_[slot]; }
  std::vector<long> coords(long slot) const;             // e_0..e_{D-1}
  long slot_of(const std::vector<long>& coords) const;   // inverse of coords()

  // For x in Z_m^*: the slot s and f in [0, d) with x = rep(s) * p^f mod m.
  // Throws ParameterError when gcd(x, m) != 1.
  std::pair<long, long> locate(long x) const;

  bool in_zmstar(long x) const;  // gcd(x mod m, m) == 1
  long inverse(long x) const;    // x^-1 mod m; x in Z_m^*
  long power(long x, long e) const;  // x^e mod m, e may be negative for x in Z_m^*

  // What X -> X^k does to the slots: after the automorphism, slot s holds
  // frob^(moves[s].frob) of the value slot moves[s].src held before, where frob is the
  // slot-wise Frobenius x -> x^p (squaring at p = 2). moves has ell entries. k must lie in
  // Z_m^*.
  struct SlotMove {
    long src;
    long frob;
  };
  std::vector<SlotMove> automorphism_action(long k) const;

  // GHS's order-16 condition [GHS12]: some t in Z_m^* with t^16 = 1 whose coset has order
  // 16 in Z_m^*/<2> (t^8 not in <2>). One pass over [1, m). The condition is about p = 2
  // (AES's GF(2^8) in 16 slots); at any other p it is false by definition.
  bool ghs16() const;

 private:
  long m_, p_, phi_, d_, ell_;
  std::vector<std::pair<long, long>> factors_;
  std::vector<long> gens_, ords_, twists_, strides_, reps_;
  // For x in [0, m): slot index and Frobenius exponent of x (slot -1 when gcd(x, m) != 1).
  std::vector<int32_t> slot_of_x_;
  std::vector<int32_t> frob_of_x_;
};

}  // namespace cb
