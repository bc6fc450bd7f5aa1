// prime_field.h: arithmetic in the prime field F_p, 2 < p < 2^61, on uint64_t elements.
//
// An element is its integer representative 0 <= x < p. Sums stay below 2^62 before the
// reduction (p < 2^61), so add and sub are one comparison; a product is the 128-bit
// x y reduced mod p (the compiler's 128-by-64 division). Unlike GF(2^n), subtraction and
// negation differ from addition (-x = p - x), and there is no Frobenius to lean on:
// x^p = x on F_p, so a power map x^e is products only (power_map.h), its exponent taken
// mod p - 1 (Fermat), and x^e permutes F_p exactly when gcd(e, p - 1) = 1.
//
// The catalog's prime-field instances (cipher_spec.h: InstanceSpec::p > 2) compute with
// this class in their references, the clear evaluation of compiled programs and the clear
// backend; cipherbench's GF(2^n) instances keep GF2n (subfield.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb {

class PrimeField {
 public:
  static constexpr uint64_t kMaxP = uint64_t(1) << 61;  // p < 2^61

  // ParameterError unless p is an odd prime below 2^61 (p = 2 is GF(2^n)'s: subfield.h).
  explicit PrimeField(uint64_t p) : p_(p) {
    if (p <= 2 || p >= kMaxP || !util::is_prime(p))
      throw ParameterError(msg("p=", p, ": a prime field F_p needs an odd prime p < 2^61",
                               p == 2 ? " (p = 2: the fields GF(2^n))" : p >= kMaxP ? "" : " (p is not prime)"));
  }

  uint64_t p() const { return p_; }
  long bits() const { return 64 - __builtin_clzll(p_); }  // bit length of p
  bool contains(uint64_t x) const { return x < p_; }

  uint64_t add(uint64_t a, uint64_t b) const { return a + b >= p_ ? a + b - p_ : a + b; }
  uint64_t sub(uint64_t a, uint64_t b) const { return a >= b ? a - b : a + p_ - b; }
  uint64_t neg(uint64_t a) const { return a ? p_ - a : 0; }
  uint64_t mul(uint64_t a, uint64_t b) const { return uint64_t((unsigned __int128)(a)*b % p_); }
  uint64_t sqr(uint64_t a) const { return mul(a, a); }
  // a^e for a plain integer e (0^0 = 1).
  uint64_t pow(uint64_t a, uint64_t e) const {
    uint64_t x = 1;
    for (; e; e >>= 1, a = mul(a, a))
      if (e & 1) x = mul(x, a);
    return x;
  }
  // a^-1 = a^(p-2); ParameterError for 0.
  uint64_t inv(uint64_t a) const {
    if (a % p_ == 0) throw ParameterError(msg("0 has no inverse in F_", p_));
    return pow(a, p_ - 2);
  }
  // "F_65537"
  std::string name() const { return msg("F_", p_); }

 private:
  uint64_t p_;
};

// A^-1 for a k x k matrix over F_p (row-major), by Gauss-Jordan; ParameterError when A is
// singular or not square.
inline std::vector<uint64_t> mat_inverse(const PrimeField& F, std::vector<uint64_t> A) {
  size_t k = 0;
  while (k * k < A.size()) ++k;
  if (k * k != A.size()) throw ParameterError(msg("matrix over ", F.name(), " with ", A.size(), " entries is not square"));
  std::vector<uint64_t> I(k * k, 0);
  for (size_t i = 0; i < k; ++i) I[i * k + i] = 1;
  for (size_t c = 0; c < k; ++c) {
    size_t r = c;
    while (r < k && A[r * k + c] == 0) ++r;
    if (r == k) throw ParameterError(msg(k, " x ", k, " matrix over ", F.name(), " is singular"));
    for (size_t j = 0; j < k; ++j) std::swap(A[r * k + j], A[c * k + j]), std::swap(I[r * k + j], I[c * k + j]);
    const uint64_t s = F.inv(A[c * k + c]);
    for (size_t j = 0; j < k; ++j) A[c * k + j] = F.mul(A[c * k + j], s), I[c * k + j] = F.mul(I[c * k + j], s);
    for (size_t r2 = 0; r2 < k; ++r2) {
      const uint64_t f = A[r2 * k + c];
      if (r2 == c || f == 0) continue;
      for (size_t j = 0; j < k; ++j) {
        A[r2 * k + j] = F.sub(A[r2 * k + j], F.mul(f, A[c * k + j]));
        I[r2 * k + j] = F.sub(I[r2 * k + j], F.mul(f, I[c * k + j]));
      }
    }
  }
  return I;
}

}  // namespace cb
