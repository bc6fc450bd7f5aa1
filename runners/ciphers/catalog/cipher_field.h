// cipher_field.h: the field a catalog instance's elements live in, by its characteristic.
//
// A field kind is the one place that knows how elements add and multiply:
//     p = 2    GF(2^n) = GF(2)[x]/f (GF2n, subfield.h): an element is the integer whose
//              bit i is the coefficient of x^i; addition is XOR, so subtraction and
//              negation are addition; x -> x^2 is the Frobenius map (free under FHE);
//     p > 2    F_p (PrimeField, prime_field.h), n = 1: an element is 0 <= x < p; addition
//              mod p, so subtraction and negation differ from it; x^p = x, so a power map
//              is products only.
// The order of the unit group, q - 1 (2^n - 1, p - 1), reduces power-map exponents and
// decides which are permutations (gcd(e, q - 1) = 1). Everything that computes on a
// cipher's elements in the clear (the description's inversion and clear evaluation,
// program.h; the references' codecs, cipher_spec.h) goes through this class, so a new
// field kind (GF(p^d)) is added here and in the backends' slot arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ciphers/reference/prime_field.h"
#include "engine/algebra/subfield.h"
#include "engine/errors.h"

namespace cb {

class CipherField {
 public:
  // GF(2^n) (implicit: every GF2n is a cipher field).
  CipherField(const GF2n& F) : p_(2), bin_(F) {}  // NOLINT(google-explicit-constructor)
  // F_p, p > 2.
  CipherField(const PrimeField& F) : p_(F.p()), prime_(F) {}  // NOLINT(google-explicit-constructor)

  uint64_t p() const { return p_; }             // the characteristic
  bool is_prime() const { return p_ != 2; }     // F_p (else GF(2^n))
  long n() const { return bin_ ? bin_->n() : 1; }  // the degree over F_p
  // The GF(2^n) or F_p arithmetic itself; Error naming the field when it is the other kind.
  const GF2n& binary() const {
    if (!bin_) throw Error(msg(name(), " is a prime field: no GF(2^n) arithmetic"));
    return *bin_;
  }
  const PrimeField& prime() const {
    if (!prime_) throw Error(msg(name(), " is a binary field: no F_p arithmetic"));
    return *prime_;
  }
  // q - 1, the order of the unit group (2^n - 1, p - 1; n <= 64).
  uint64_t unit_order() const {
    if (prime_) return p_ - 1;
    return bin_->n() == 64 ? ~uint64_t(0) : (uint64_t(1) << bin_->n()) - 1;
  }
  // "GF(2^8)", "F_65537"
  std::string name() const { return prime_ ? prime_->name() : msg("GF(2^", bin_->n(), ")"); }
  bool contains(uint64_t x) const { return prime_ ? x < p_ : (bin_->n() == 64 || (x >> bin_->n()) == 0); }

  uint64_t add(uint64_t a, uint64_t b) const { return prime_ ? prime_->add(a, b) : a ^ b; }
  uint64_t sub(uint64_t a, uint64_t b) const { return prime_ ? prime_->sub(a, b) : a ^ b; }
  uint64_t neg(uint64_t a) const { return prime_ ? prime_->neg(a) : a; }
  uint64_t mul(uint64_t a, uint64_t b) const { return prime_ ? prime_->mul(a, b) : bin_->mul(a, b); }
  uint64_t pow(uint64_t a, uint64_t e) const { return prime_ ? prime_->pow(a, e) : bin_->pow(a, e); }
  // a^-1 (ParameterError for 0 in F_p; GF2n::inv maps 0 to 0).
  uint64_t inv(uint64_t a) const { return prime_ ? prime_->inv(a) : bin_->inv(a); }

 private:
  uint64_t p_;
  std::optional<GF2n> bin_;
  std::optional<PrimeField> prime_;
};

}  // namespace cb
