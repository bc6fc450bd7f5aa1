// mimc_prime.h: plaintext MiMC over the prime field F_p (Albrecht, Grassi, Rechberger, Roy,
// Tiessen, ASIACRYPT 2016, ePrint 2016/492, the prime-field variant MiMC-p/p), the
// reference the catalog's F_p instances are checked against.
//
// A block is one element x of F_p, the key one element k. With round functions
// F_i(x) = (x + k + c_i)^3 (mod p),
//     E_k(x) = F_(r-1) o ... o F_0 (x) + k,      c_0 = 0,
// r = ceil(log_3 p) rounds (the least r with 3^r >= p: 11 for p = 65537, 21 for
// p = 8088322049), as the GF(2^n) entry (mimc.h) with additions mod p. x -> x^3 permutes
// F_p exactly when gcd(3, p - 1) = 1, i.e. p = 2 mod 3 (p > 3); a p with 3 | p - 1 is
// refused (excluded()). The inverse is x -> x^s, s = 3^-1 mod p - 1 = (2 (p - 1) + 1) / 3:
// decryption by the reference only (under FHE x^s has depth about log2 p). Under FHE a
// round costs a square and a product (x^3 = x^2 x: no free Frobenius over F_p), so depth 2
// per round. The R-round variant (R < r) is F_(R-1) o ... o F_0 (x) + k. The constants
// come from SHAKE-256 (mimc_constants.py, generated into mimc_prime_params.inc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ciphers/reference/prime_field.h"

namespace cb {

class MimcPrime {
 public:
  // p one of primes(); ParameterError naming p and the constraint otherwise (excluded(p)
  // first: 3 | p - 1, p not prime).
  explicit MimcPrime(uint64_t p);
  static std::vector<uint64_t> primes();  // the instances' p, in catalog order
  // Why MiMC's definition excludes F_p ("" when it does not): p not an odd prime < 2^61,
  // or 3 | p - 1 (x^3 is then no permutation).
  static std::string excluded(uint64_t p);

  const PrimeField& field() const { return F_; }
  uint64_t p() const { return F_.p(); }
  long rounds() const { return long(c_.size()); }
  const std::vector<uint64_t>& constants() const { return c_; }  // c_0..c_(r-1), c_0 = 0

  // rounds = 0: all r; else 1 <= rounds <= r (ParameterError outside); elements < p.
  uint64_t encrypt(uint64_t key, uint64_t x, long rounds = 0) const;
  uint64_t decrypt(uint64_t key, uint64_t y, long rounds = 0) const;
  // The state after each round's cube, rounds 1..R (the ciphertext is the last plus k).
  std::vector<uint64_t> round_states(uint64_t key, uint64_t x, long rounds = 0) const;
  uint64_t inverse_cube_exponent() const;  // s = 3^-1 mod p - 1

 private:
  long checked(long rounds) const;
  void check_element(uint64_t v, const char* what) const;
  PrimeField F_;
  std::vector<uint64_t> c_;
};

}  // namespace cb
