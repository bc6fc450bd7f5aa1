// clear_backend.h: the clear-text slot simulator behind the circuit interface (backend.h).
//
// A ciphertext is just its vector of ell slot values in GF(2^n) (uint64_t encoding, see
// subfield.h). Every operation acts on the slot vectors exactly as the BGV backend acts
// on what its ciphertexts decrypt to:
//   add / add_plain        slot-wise XOR
//   mul / mul_plain / square  slot-wise product in GF(2^n)
//   automorph(k)           X -> X^k: slot s receives frob^f(old value of slot src) with
//                          (src, f) = zmstar().automorphism_action(k)[s]; the Frobenius
//                          twist f is what bad dimensions (and k in 2^j <t>) produce. The
//                          cipher's field GF(2^n) is a subfield of every slot's GF(2^d)
//                          (n | d) and stable under Frobenius, so frob^f on the embedded
//                          value is GF2n::frob(value, f).
// So a circuit that is correct here is correct on BGV up to noise: this is the fast
// functional model used to test circuits (same slot permutation semantics, same key
// requirements), in milliseconds instead of minutes.
//
// Modelled key management: X -> X^k needs a key-switching key. Like BgvBackend, only
// k = 1 (the identity) is free; every other k, Frobenius maps k = 2^j mod m included,
// must be announced with require_automorphisms() first, otherwise automorph throws
// KeyError. This catches circuits that forget to request their keys.
//
// automorph_many(a, ks) is BGV's hoisted form (one key-switching decomposition for
// several k); here it is just automorph per k, counted as such (and in automorph_many).
//
// No noise: capacity_bits() is +infinity and decrypt never throws CapacityError. Instead
// each Ctxt carries its multiplicative depth (ciphertext-ciphertext products and squarings
// on the longest path; plaintext products and automorphisms count 0), and the backend
// counts operations (op_counters()), both useful to check a circuit's cost.
//
// Over F_p (the second constructor, an odd prime p < 2^61): slots hold elements of F_p
// (0 <= x < p) inside the slot field GF(p^d), d = ord_m(p), on the rings ZmStar(m, p)
// takes (odd m, or m = 2^k; p not dividing m): add is addition mod p and the products
// multiply mod p (128-bit products, prime_field.h). X -> X^k moves the slots as
// zmstar().automorphism_action(k) says; its Frobenius twist y -> y^(p^f) fixes F_p, so the
// values arrive unchanged. field() (a GF(2^n)) throws there.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "ciphers/reference/prime_field.h"

namespace cb {

class ClearBackend {
 public:
  struct Ctxt {
    std::vector<uint64_t> slots;  // ell values in GF(2^n)
    long depth = 0;               // multiplicative depth of the computation so far
  };
  struct Ptxt {
    std::vector<uint64_t> slots;  // ell values in GF(2^n)
  };

  // Counts of the operations performed so far (all threads).
  struct OpCounts {
    long encrypt = 0, add = 0, add_plain = 0, mul = 0, mul_plain = 0, square = 0, automorph = 0;
    long automorph_many = 0;  // hoisted calls (their automorphisms count in automorph)
  };

  // The ring Z[X]/Phi_m(X) mod 2 (odd m, see ZmStar) and the cipher's field
  // GF(2^n) = GF(2)[x]/f (f_low = f without x^n). Throws ParameterError when m or f is
  // invalid or n does not divide d = ord_m(2).
  ClearBackend(long m, long n, uint64_t f_low);
  // The ring Z[X]/Phi_m(X) mod p with F_p in its slots: ParameterError as ZmStar(m, p)
  // (odd m, or a power of two; p not dividing m).
  ClearBackend(long m, const PrimeField& F);

  // The characteristic: 2 (GF(2^n) slots) or the odd prime p (F_p slots).
  uint64_t characteristic() const { return Fp_ ? Fp_->p() : 2; }
  const ZmStar& zmstar() const { return zm_; }  // Z_m^*/<p>
  const GF2n& field() const;                     // ParameterError at p > 2
  const PrimeField& prime_field() const;  // ParameterError at p = 2
  long slot_count() const { return ell_; }
  BackendInfo info() const;

  Ptxt encode(const std::vector<uint64_t>& v) const;  // ParameterError unless v.size() == ell, v[i] < 2^n
  Ctxt encrypt(const std::vector<uint64_t>& v) const;
  std::vector<uint64_t> decrypt(const Ctxt& c) const;
  void add(Ctxt& a, const Ctxt& b) const;
  void add_plain(Ctxt& a, const Ptxt& p) const;
  void mul(Ctxt& a, const Ctxt& b) const;
  void mul_plain(Ctxt& a, const Ptxt& p) const;
  void square(Ctxt& a) const;
  // ParameterError when k is not in Z_m^*, KeyError when no key for k was required.
  void automorph(Ctxt& a, long k) const;
  // sigma_k(a) for each k of ks (same errors as automorph).
  std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) const;
  void require_automorphisms(const std::vector<long>& ks);
  bool has_automorphism_key(long k) const;
  double capacity_bits(const Ctxt& c) const;  // +infinity
  long depth(const Ctxt& c) const { return c.depth; }
  // Sizes (the optional members of backend.h): no keys exist, so every key size is 0
  // (n_automorphism_keys counts the keys required, k = 1 aside); a ciphertext is its slot
  // vector, 8 bytes a slot: the plaintext as held, no encryption (expansion 64 / bits
  // per element, not an FHE figure).
  KeySizes key_sizes() const;
  size_t ciphertext_bytes(const Ctxt& c) const { return c.slots.size() * sizeof(uint64_t); }

  OpCounts op_counts() const;
  // "encrypt=.. add=.. add_plain=.. mul=.. mul_plain=.. square=.. automorph=.. automorph_many=.."
  std::string op_counters() const;
  void reset_op_counts() const;

 private:
  void check_slots(const std::vector<uint64_t>& v, const char* what) const;
  long normalize(long k) const;  // k mod m in [0, m)

  ZmStar zm_;
  long ell_;                        // zm_.ell()
  std::optional<GF2n> F_;           // p = 2
  std::optional<PrimeField> Fp_;    // p > 2
  std::vector<char> has_key_;  // indexed by k mod m
  struct Counters {
    std::atomic<long> encrypt{0}, add{0}, add_plain{0}, mul{0}, mul_plain{0}, square{0}, automorph{0},
        automorph_many{0};
  };
  std::unique_ptr<Counters> counts_;
};

}  // namespace cb
