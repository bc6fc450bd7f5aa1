// prime_slot_ring.h: the plaintext ring R_p = F_p[X]/Phi_m(X) as ell copies of GF(p^d),
// for an odd prime p (slot_ring.h is the same ring at p = 2, on bit-packed GF(2)).
//
// The theory is slot_ring.h's with 2 replaced by p. Fix a monic irreducible G(Y) of
// degree d = ord_m(p) over F_p; the slot field is K = F_p[Y]/G(Y), shared by every slot.
// Let zeta in K be a primitive m-th root of unity (m | p^d - 1). For the slot s with
// representative t_s (zmstar.h, Z_m^*/<p>) the factor
//     F_s(X) = prod_{i<d} (X - zeta^(t_s p^i))
// lies in F_p[X] (its roots are closed under the Frobenius y -> y^p), and
// Phi_m = prod_s F_s mod p. The CRT isomorphism
//     R_p  ->  K^ell,   a(X)  |->  ( a(zeta^(t_s)) )_s
// is "decode", its inverse "encode". Every slot holds an element of the same field K, so
// an element of F_p (a constant polynomial in Y) means the same in every slot: that is
// how a prime-field cipher's state (d = 1 on the rings it is run on, or F_p inside
// GF(p^d)) sits in the slots. X -> X^k moves slots as ZmStar::automorphism_action says,
// with the Frobenius y -> y^p of K as the twist; X -> X^p is the Frobenius in every slot.
//
// For m = 2^k and p = 1 mod m, d = 1: K = F_p, G = Y, the slots are the values of a at
// the m/2 primitive m-th roots zeta^t in F_p (a negacyclic transform mod p), which is the
// layout of every F_p cipher implementation (IAIK's Pasta at m = 65536, p = 65537).
//
// Choices, deterministic so the same (m, p) always gives the same ring (the test checks
// that two builds agree): G = Y for d = 1, otherwise the first monic irreducible
// Y^d + sum_{i<d} c_i Y^i for c = 1, 2, ... with c_i the digits of c in base min(p, 256)
// (NTL's BuildIrred draws at random, so it is not used); zeta = c(Y)^((p^d - 1)/m) mod G for the first c = 2, 3, ... (the digits of c
// in base p at d = 1, in base min(p, 256) at d > 1, are the coefficients of Y^0, Y^1, ...)
// whose power has order exactly m.
//
// Elements of K are vectors of d coefficients in [0, p) (index i: coefficient of Y^i);
// polynomials in X are vectors of coefficients in [0, p) (index i: coefficient of X^i).
// encode and decode only read precomputed data and install the modulus p in NTL's
// thread-local context themselves: they are safe to call from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/algebra/zmstar.h"

namespace cb {

class PrimeSlotRing {
 public:
  using Element = std::vector<uint64_t>;  // an element of K: d coefficients of Y^i, in [0, p)

  // Builds G, zeta, the factors F_s and the CRT tree. Throws ParameterError, before any
  // work, when zm.p() is 2 (slot_ring.h serves p = 2), when p >= 2^NTL_SP_NBITS (NTL's
  // single-precision zz_p, 2^60 here, holds the slot arithmetic), or when d >
  // kMaxSlotDegree. Keeps a reference to zm, which must outlive this object.
  explicit PrimeSlotRing(const ZmStar& zm);

  const ZmStar& zmstar() const { return zm_; }
  long p() const { return zm_.p(); }
  long d() const { return zm_.d(); }
  long ell() const { return zm_.ell(); }
  long phi() const { return zm_.phi(); }
  const std::vector<uint64_t>& G() const { return G_; }        // d + 1 coefficients, monic
  const Element& zeta() const { return zeta_; }                // primitive m-th root in K
  const std::vector<uint64_t>& Phi() const { return Phi_; }    // Phi_m mod p, phi + 1 coefficients
  const std::vector<uint64_t>& factor(long s) const { return F_[s]; }  // F_s, d + 1 coefficients

  // Slot values -> a(X) of degree < phi (phi coefficients) with a(zeta^t_s) = v[s].
  // Throws ParameterError if v.size() != ell or an element is not d values in [0, p).
  std::vector<uint64_t> encode(const std::vector<Element>& v) const;
  // The same for slot values in the prime field F_p (x in slot s: the element (x, 0, ..., 0)
  // of K), without building ell Elements: a keystream's public constants are vectors of
  // F_p, one encoding per matrix entry, where the Elements' allocations cost more than the
  // transform (BENCHMARKS.md, "Transciphering"). Throws as encode does.
  std::vector<uint64_t> encode_fp(const std::vector<uint64_t>& v) const;
  // a(X) (any length, coefficients in [0, p); reduced mod Phi_m first) -> its ell slot
  // values. Throws ParameterError if a coefficient is >= p.
  std::vector<Element> decode(const std::vector<uint64_t>& a) const;
  // The same at d = 1 (K = F_p), one word per slot and no Element each: a decryption's
  // 32768 slots at m=65536, p=65537 allocated 32768 vectors, half of the decoding's time.
  // Throws as decode does, and ParameterError at d > 1 (slots of GF(p^d): decode).
  std::vector<uint64_t> decode_fp(const std::vector<uint64_t>& a) const;

  // The arithmetic of K for callers that check slot values (tests, the clear side):
  // x * y and x^e (e >= 0) in K, and the Frobenius x^p.
  Element mul(const Element& x, const Element& y) const;
  Element power(const Element& x, uint64_t e) const;

 private:
  const ZmStar& zm_;
  std::vector<uint64_t> G_, Phi_;
  Element zeta_;
  std::vector<std::vector<uint64_t>> F_;
  // Split p (d = 1, m = 2^k, the negacyclic transform mod p): value(s) the slot values.
  template <class Value>
  std::vector<uint64_t> encode_split(const Value& value) const;
  // Split p: a's values at the primitive roots, in the transform's order.
  std::vector<uint64_t> split_values(const std::vector<uint64_t>& a) const;
  struct Impl;  // the CRT tree and the leaf maps, in NTL's zz_pX
  std::shared_ptr<const Impl> impl_;
};

}  // namespace cb
