// mimc.h: plaintext MiMC over GF(2^n) (Albrecht, Grassi, Rechberger, Roy, Tiessen,
// "MiMC: Efficient Encryption and Cryptographic Hashing with Minimal Multiplicative
// Complexity", ASIACRYPT 2016, ePrint 2016/492), the reference the catalog entry is
// checked against.
//
// A block is one element x of GF(2^n) = GF(2)[x]/f, the key one element k. With round
// functions F_i(x) = (x + k + c_i)^3,
//     E_k(x) = F_(r-1) o ... o F_0 (x) + k,      c_0 = 0,
// r = ceil(n / log2 3) rounds (the paper's count for MiMC-n/n: 40 for n = 63, 20 for n = 31).
// x -> x^3 is a permutation of GF(2^n) exactly when gcd(3, 2^n - 1) = 1, i.e. n odd; its
// inverse is x -> x^s with s = 3^-1 mod 2^n - 1 = (2^(n+1) - 1) / 3 (n bits, binary
// 1010...101: (n + 1) / 2 set bits, 0x5555555555555555 of weight 32 for n = 63, 0x55555555
// of weight 16 for n = 31), which is why MiMC is deep but cheap to encrypt and costly to decrypt
// under FHE. The R-round variant (R < r) is F_(R-1) o ... o F_0 (x) + k.
// Instances: n = 63 with f = x^63 + x + 1, n = 31 with f = x^31 + x^3 + 1 (trinomials,
// irreducible); the constants c_1..c_(r-1) come from SHAKE-256 (mimc_constants.py,
// generated into mimc_params.inc).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/algebra/subfield.h"

namespace cb {

class Mimc {
 public:
  // n = 63 or 31; ParameterError otherwise.
  explicit Mimc(long n);
  static std::vector<long> degrees();  // the instances' n, largest first

  const GF2n& field() const { return F_; }
  long n() const { return F_.n(); }
  uint64_t modulus_low() const { return f_low_; }
  long rounds() const { return long(c_.size()); }
  const std::vector<uint64_t>& constants() const { return c_; }  // c_0..c_(r-1), c_0 = 0

  // rounds = 0: all r; else 1 <= rounds <= r (ParameterError outside); elements < 2^n.
  uint64_t encrypt(uint64_t key, uint64_t x, long rounds = 0) const;
  uint64_t decrypt(uint64_t key, uint64_t y, long rounds = 0) const;
  // The state after each round's cube, rounds 1..R (the ciphertext is the last plus k).
  std::vector<uint64_t> round_states(uint64_t key, uint64_t x, long rounds = 0) const;
  uint64_t inverse_cube_exponent() const;  // s = 3^-1 mod 2^n - 1

 private:
  long checked(long rounds) const;
  void check_element(uint64_t v, const char* what) const;
  uint64_t f_low_;
  GF2n F_;
  std::vector<uint64_t> c_;
};

}  // namespace cb
