// backend.h: what a cipher circuit needs from an FHE backend.
//
// The circuits (AES, Vision) are templates over a backend type B, so the same code runs
// on the project's BGV engine (BgvBackend), on HElib when it is installed, and on the
// clear-text slot simulator (ClearBackend) that checks circuit logic in milliseconds.
// A backend evaluates over vectors of GF(2^n) elements, one per slot (ell slots), with
// the slot structure of the ring Z[X]/Phi_m(X) mod 2 described by ZmStar.
//
// Required members of B (duck-typed; see ClearBackend for the simplest model):
//
//   using Ctxt;                       copyable ciphertext
//   using Ptxt;                       an encoded constant vector, reusable
//   const ZmStar& zmstar() const;     slot hypercube and the action of X -> X^k
//   const GF2n& field() const;        the cipher's field GF(2^n)
//   long slot_count() const;          ell
//   uint64_t characteristic() const;  (optional) 2, or the odd prime p of F_p slots (the
//                                     clear and BGV backends at p: field() then throws and
//                                     prime_field() is F_p; slot_characteristic(b) below)
//
//   Ptxt encode(const std::vector<uint64_t>& v) const;   v.size() == ell, in GF(2^n)
//   Ctxt encrypt(const std::vector<uint64_t>& v) const;
//   std::vector<uint64_t> decrypt(const Ctxt& c) const;  throws CapacityError when the
//                                                        noise estimate exceeds the modulus
//   void add(Ctxt& a, const Ctxt& b) const;               a += b (= a - b over GF(2))
//   void add_plain(Ctxt& a, const Ptxt& p) const;         a += p
//   void mul(Ctxt& a, const Ctxt& b) const;               a *= b, relinearized
//   void mul_plain(Ctxt& a, const Ptxt& p) const;         a *= p slot-wise
//   void square(Ctxt& a) const;                           a *= a
//   void automorph(Ctxt& a, long k) const;                X -> X^k, k in Z_m^*: slots move
//                                                        as zmstar().automorphism_action(k);
//                                                        k = 2^j mod m is x -> x^(2^j)
//   void require_automorphisms(const std::vector<long>& ks);   generate the key-switching
//                                                        keys for these k now (setup time);
//                                                        automorph(k) without a key throws
//                                                        KeyError
//   double capacity_bits(const Ctxt& c) const;            log2(modulus / noise), estimated
//   std::string op_counters() const;  (optional) engine counters for reports
//   std::vector<Ctxt> encrypt_many(const std::vector<std::vector<uint64_t>>& vs) const;
//                                     (optional) encrypt(v) of each v, the same ciphertexts
//                                     as calls in turn, faster (BGV: side by side)
//   std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) const;
//                                     (optional) X -> X^k for each k on the same input;
//                                     BGV shares the key-switching digits ("hoisting"),
//                                     so use it whenever one value needs several
//                                     automorphisms (conjugates, permutation terms)
//   KeySizes key_sizes() const;       (optional) bytes of the public key and of every
//                                     evaluation key made so far (relinearization, each
//                                     automorphism key), counted from the backend's own
//                                     objects; never the secret key (KeySizes below)
//   size_t ciphertext_bytes(const Ctxt& c) const;   (optional) bytes of c as the backend
//                                     holds it at its current primes (KeySizes::counted
//                                     says how: stored words, or the library's own
//                                     serialization); apps/record_sizes.h reports both
//   void align(const std::vector<Ctxt*>& cs) const;
//                                     (optional) the operands of a layer of sums switched
//                                     once to one modulus they all reach (BGV and its
//                                     planner: Levels::common_set), so each sum is a plain
//                                     addition
//
// Everything above is const on the backend except require_automorphisms: evaluation
// never mutates backend state, so independent ciphertexts may be processed in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/algebra/subfield.h"
#include "engine/algebra/zmstar.h"

#include <string>

namespace cb {

// The characteristic of B's slots: b.characteristic() where B has it (the clear and BGV
// backends at an odd prime p: F_p slots), else 2 (GF(2^n) slots, every backend before prime fields).
template <class B, class = void>
struct HasCharacteristic : std::false_type {};
template <class B>
struct HasCharacteristic<B, std::void_t<decltype(std::declval<const B&>().characteristic())>> : std::true_type {};
template <class B>
uint64_t slot_characteristic(const B& b) {
  if constexpr (HasCharacteristic<B>::value)
    return b.characteristic();
  else
    return 2;
}

// What a backend reports about its parameters (JSON "params" of the runners).
struct BackendInfo {
  std::string name;      // "bgv", "clear", "helib"
  uint64_t p = 2;        // plaintext modulus: the slots' characteristic (GF(2^d) slots at 2, GF(p^d) above)
  long m = 0, phi = 0, d = 0, slots = 0;
  long bits = 0;         // requested ciphertext-modulus bits
  long c = 0;            // key-switching digits
  long hwt = 0;          // secret-key Hamming weight (0 = dense)
  double log2_q = 0;     // log2 of ciphertext primes * special primes (what HElib counts)
  double log2_q_ct = 0;  // log2 of the ciphertext primes alone
  double log2_p = 0;     // log2 of the special primes P (not of the plaintext modulus p)
  double security = 0;   // HElib's formula (0 for the clear backend)
};

// Bytes of a backend's public key material (key_sizes(), above): what a client hands a
// server, counted from the backend's objects. Secret keys never appear here.
struct KeySizes {
  size_t public_key = 0;         // the encryption key (b, a)
  size_t relin_key = 0;          // the relinearization key s^2 -> s (0 where none)
  size_t automorphism_keys = 0;  // every automorphism key X -> X^k generated so far
  long n_relin_keys = 0;         // 1 where a relinearization key exists
  long n_automorphism_keys = 0;  // how many automorphism keys (k = 1 needs none)
  std::string counted;           // how the bytes were counted (engine words, HElib's serialization, ...)
  size_t eval_key_bytes() const { return relin_key + automorphism_keys; }
  long eval_keys() const { return n_relin_keys + n_automorphism_keys; }
};

}  // namespace cb
