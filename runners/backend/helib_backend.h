// helib_backend.h: HElib 2.3.0 (BGV, r = 1, p = 2 or an odd prime p) behind the circuit
// interface of backend.h.
//
// Built only when CMake is given -DCB_HELIB_DIR=<HElib install prefix> (`make helib`);
// then CB_HAVE_HELIB is defined for the executables.
//
// Slots. The circuits see slots in the engine's order (ZmStar's hypercube, zmstar.h) with
// GF(2^n) embedded in GF(2^d) as Subfield does. HElib's EncryptedArray numbers its slots
// by its own generators and represents each slot in GF(2)[X]/F_i with its own choice of
// factor ordering; instead of translating between the two slot numberings, this backend
// never uses HElib's slot encoding: encode() maps the slot vector to the plaintext
// polynomial a(X) in GF(2)[X]/Phi_m(X) through the engine's own CRT (SlotRing::encode,
// the same map BgvBackend uses), and HElib encrypts that polynomial as it is; decrypt()
// reduces HElib's decrypted polynomial mod 2 and applies SlotRing::decode. Multiplication,
// addition and X -> X^k are ring operations, independent of any slot numbering, so on
// HElib every operation acts on the slots exactly as on the engine and on ClearBackend:
// automorph(k) moves them as zmstar().automorphism_action(k) says (checked by
// helib_backend_test against ClearBackend). HElib's own hypercube (its generators and
// orders) is reported in report_json() for comparison, not used.
//
// At an odd prime p (the second constructor) the same holds with the engine's
// PrimeSlotRing: F_p slot values go through its CRT to the plaintext polynomial in R_p,
// lifted to (-p/2, p/2], which HElib encrypts with plaintext space p (its context built
// with .p(p)); decrypt() reduces HElib's decryption (its intFactor removed by HElib) mod p
// and decodes, refusing a slot outside F_p.
//
// Keys: the constructor generates the secret key (HElib's context carries its Hamming
// weight), the public key, and the relinearization key s^2 -> s only (maxDegKswitch = 2,
// as the engine). require_automorphisms(ks) generates HElib's key-switching matrix
// s(X^k) -> s for each k (GenKeySWmatrix(1, k, 0, 0)); automorph(k) applies X -> X^k and
// key-switches with exactly that matrix, and throws KeyError when it is missing. HElib
// has no public hoisted form for a list of arbitrary k, so automorph_many is one
// automorphism per k (report_json says "hoisting": false).
//
// Modulus bookkeeping is HElib's: its chain (primes it chooses for `bits`), its lazy
// modulus switching before products, its noise bound; capacity_bits() is Ctxt::capacity()
// and decrypt() throws CapacityError when Ctxt::isCorrect() is false.
//
// Threads: evaluation is const, but HElib's safety for concurrent operations on distinct
// ciphertexts is not established here, so every HElib call holds one mutex: with OpenMP
// threads the circuits stay correct on HElib but its operations run one at a time (no
// speed-up). The comparisons in BENCHMARKS.md use one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "ciphers/reference/prime_field.h"

namespace helib {
class Ctxt;
}

namespace cb {

struct HelibParams {
  long m = 0;         // cyclotomic index, odd
  long bits = 0;      // ContextBuilder::bits: HElib's ciphertext-modulus bits
  long c = 3;         // key-switching digits (ContextBuilder::c)
  long hwt = 120;     // secret-key Hamming weight (ContextBuilder::skHwt); 0 = dense
  uint64_t seed = 0;  // NTL's PRG seed (HElib's randomness); 0 = NTL's default seeding
};

class HelibBackend {
 public:
  // A copyable handle to a HElib ciphertext (HElib's Ctxt has no default constructor).
  class Ctxt {
   public:
    Ctxt();
    Ctxt(const Ctxt& o);
    Ctxt& operator=(const Ctxt& o);
    Ctxt(Ctxt&&) noexcept;
    Ctxt& operator=(Ctxt&&) noexcept;
    ~Ctxt();
    helib::Ctxt& get();
    const helib::Ctxt& get() const;
    explicit Ctxt(std::unique_ptr<helib::Ctxt> c);

   private:
    std::unique_ptr<helib::Ctxt> c_;
  };
  // An encoded constant: its polynomial in double-CRT over all ciphertext primes and
  // HElib's size bound for it (what FatEncodedPtxt_BGV holds).
  struct Ptxt {
    struct Data;
    std::shared_ptr<const Data> data;
  };

  // n, f_low: the cipher's field GF(2^n) = GF(2)[x]/f (see subfield.h). Throws
  // ParameterError when m, n or f is invalid (checked before HElib builds anything).
  HelibBackend(const HelibParams& params, long n, uint64_t f_low);
  // F_p slots at the odd prime F.p() (ParameterError as ZmStar(m, p) refuses m).
  HelibBackend(const HelibParams& params, const PrimeField& F);
  ~HelibBackend();

  const ZmStar& zmstar() const;
  // The characteristic: 2 (GF(2^n) slots) or the odd prime p (F_p slots).
  uint64_t characteristic() const;
  const GF2n& field() const;              // ParameterError at p > 2
  const PrimeField& prime_field() const;  // ParameterError at p = 2
  long slot_count() const;
  BackendInfo info() const;
  double keygen_seconds() const;  // wall time spent generating keys so far

  Ptxt encode(const std::vector<uint64_t>& v) const;
  Ctxt encrypt(const std::vector<uint64_t>& v) const;
  std::vector<uint64_t> decrypt(const Ctxt& c) const;
  void add(Ctxt& a, const Ctxt& b) const;
  void add_plain(Ctxt& a, const Ptxt& p) const;
  void mul(Ctxt& a, const Ctxt& b) const;
  void mul_plain(Ctxt& a, const Ptxt& p) const;
  void square(Ctxt& a) const;
  void automorph(Ctxt& a, long k) const;
  std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) const;
  void require_automorphisms(const std::vector<long>& ks);
  double capacity_bits(const Ctxt& c) const;

  // Sizes (the optional members of backend.h), as HElib's own binary serialization
  // (writeTo into a string stream) counts them. Each key-switching matrix: KeySwitch::
  // writeTo (its b_j in HElib's double-CRT over every prime, 8 bytes a residue; the a_j
  // only as their PRG seed); the relinearization key is the matrix from s^2, the
  // automorphism keys those from s(X^k). The public key: HElib's public key file
  // (PubKey::writeTo of the secret-key-free PubKey part) less the Context's own writeTo
  // and the matrices, measured at construction: the encryption key (b, a) and a few words
  // of HElib's bookkeeping (noise bounds, an empty key-switch map and recryption key).
  KeySizes key_sizes() const;
  // Ctxt::writeTo: both parts at the ciphertext's primes and its header. HElib leaves the
  // special primes on a ciphertext after a key switch and divides by them lazily, before
  // the next operation: those are divided out first, on a copy (Ctxt::modDownToSet), so
  // the count is the ciphertext at its level, as the engine holds it.
  size_t ciphertext_bytes(const Ctxt& c) const;

  // What HElib does differently, as a JSON object (string): helib_version (the pinned
  // tag and the version HElib's header states), ntl_version (NTL's header) and
  // ntl_library (the libntl file actually loaded), ntl_route (from the build record),
  // helib_chain (prime counts and bits of HElib's own chain), helib_hypercube (HElib's
  // generators and orders), key counts, and how the slots are mapped.
  std::string report_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cb
