// slot_ring.h: the plaintext ring R_2 = GF(2)[X]/Phi_m(X) as ell copies of GF(2^d).
//
// Fix an irreducible G(Y) of degree d over GF(2); the slot field is K = GF(2)[Y]/G(Y),
// one field shared by every slot. Let zeta in K be a primitive m-th root of unity
// (m | 2^d - 1 because d = ord_m(2)). For each slot s with representative t_s
// (see zmstar.h) the factor
//     F_s(X) = prod_{i<d} (X - zeta^(t_s * 2^i))
// lies in GF(2)[X], and Phi_m = prod_s F_s mod 2. The CRT isomorphism
//     R_2  ->  K^ell,   a(X)  |->  ( a(zeta^(t_s)) )_s
// is "decode"; its inverse is "encode". Working with a(zeta^t_s) instead of a mod F_s
// puts every slot in the same field K, so a constant c in K means the same thing in
// every slot; GHS call this projecting constants onto each slot's encoding.
//
// Both choices are deterministic, so the same m always gives the same ring: G is the
// irreducible trinomial Y^d + Y^k + 1 with the smallest k, or, when there is none (e.g.
// 8 | d), the irreducible pentanomial Y^d + Y^a + Y^b + Y^c + 1 smallest as an integer;
// zeta = c(Y)^((2^d - 1)/m) mod G for the first c = 2, 3, 4, ... (bit i of c = coefficient
// of Y^i) giving exact order m. Construction throws ParameterError when d > kMaxSlotDegree (1024).
//
// encode and decode only read precomputed data (a subproduct tree over the slots and a
// d x d bit matrix per slot) and never touch NTL's global GF2E modulus: they are safe to
// call from several threads at once.
//
// With this choice the automorphism X -> X^k acts exactly as ZmStar::automorphism_action
// says (slot values move between slots and get Frobenius-twisted), and X -> X^2 squares
// every slot.
#pragma once

#include <NTL/GF2X.h>

#include <memory>
#include <vector>

#include "engine/algebra/zmstar.h"

namespace cb {

// Largest slot degree d the CRT is built for: it keeps two d x d bit matrices per slot
// (2 d phi bits in all) and builds each factor from d roots in GF(2^d).
constexpr long kMaxSlotDegree = 1024;

class SlotRing {
 public:
  // Builds G, zeta and the factors F_s. Deterministic: the same m always gives the
  // same G and zeta. Keeps a reference to zm, which must outlive this object.
  explicit SlotRing(const ZmStar& zm);

  const ZmStar& zmstar() const { return zm_; }
  long d() const { return zm_.d(); }
  long ell() const { return zm_.ell(); }
  const NTL::GF2X& G() const { return G_; }          // modulus of the slot field K
  const NTL::GF2X& zeta() const { return zeta_; }    // primitive m-th root of unity in K
  const NTL::GF2X& Phi() const { return Phi_; }      // Phi_m(X) mod 2, degree phi
  const NTL::GF2X& factor(long s) const { return F_[s]; }  // F_s, degree d

  // Slot values (elements of K as polynomials in Y of degree < d) -> a(X) of degree <
  // phi with a(zeta^t_s) = v[s]. Throws ParameterError if v.size() != ell.
  NTL::GF2X encode(const std::vector<NTL::GF2X>& v) const;
  // a(X) (any degree; reduced mod Phi_m first) -> its ell slot values.
  std::vector<NTL::GF2X> decode(const NTL::GF2X& a) const;

 private:
  const ZmStar& zm_;
  NTL::GF2X G_, zeta_, Phi_;
  std::vector<NTL::GF2X> F_;
  struct Impl;                       // CRT precomputation, free to choose
  std::shared_ptr<const Impl> impl_;
};

}  // namespace cb
