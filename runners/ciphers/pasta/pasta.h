// pasta.h: the clear reference of Pasta-3 and Pasta-4 (Dobraunig, Grassi, Helminger,
// Rechberger, Schofnegger, Walch, "Pasta: A Case for Hybrid Homomorphic Encryption",
// TCHES 2023(3), ePrint 2021/731), keystream generators over F_p.
//
// The state is 2t elements of F_p, two halves x = (x_L, x_R) of t elements; it starts as
// the key (2t elements). Block (nonce, counter) is the permutation
//     pi = A_r o S_cube o A_(r-1) o S_feistel o ... o S_feistel o A_0
// applied to the key and truncated to its left half, t elements:
//     A_j(x)       = mix(M_(j,L) x_L + c_(j,L), M_(j,R) x_R + c_(j,R)),   j = 0..r,
//     mix(L, R)    = (2L + R, L + 2R),
//     S_feistel(x) = on each half: y_0 = x_0, y_i = x_i + x_(i-1)^2 (i >= 1), rounds 1..r-1,
//     S_cube(x)    = x_i^3 in every element, round r,
// with Pasta-3: t = 128, r = 3 and Pasta-4: t = 32, r = 4. x^3 permutes F_p only when
// 3 does not divide p - 1 (excluded()).
//
// Everything but the key is public and differs per block: SHAKE128 seeded with the nonce
// and the counter (8 bytes big-endian each) is read as F_p elements by rejection sampling
// (8 bytes big-endian, masked to the bit length of p, taken when below p), in this order
// for each layer A_j: the row defining M_(j,L), the one defining M_(j,R) (both with zero
// rejected as well), then c_(j,L), then c_(j,R). A matrix is the t-th power of the
// companion matrix C of its row a (ones above the diagonal, a as the last row): row 0 of
// M = C^t is a and row i + 1 is (row i) C, i.e. (row i shifted right by one) + (row i)[t-1] a.
// This reading is IAIK's hybrid-HE framework's (ciphers/pasta_{3,4}/plain), whose
// known-answer tests the entry's tests check (README.md; docs/references.md §10).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ciphers/reference/prime_field.h"
#include "ciphers/reference/shake128.h"

namespace cb {

// The public randomness of one block: SHAKE128(nonce || counter) read as F_p elements.
class PastaXof {
 public:
  // expect: the bytes likely to be read (Shake128's first prefix).
  PastaXof(const PrimeField& F, uint64_t nonce, uint64_t counter, size_t expect = 0);
  // The next element: 8 bytes big-endian masked to p's bit length, redrawn while >= p
  // (and while 0 when nonzero).
  uint64_t element(bool nonzero);
  // The next k elements.
  std::vector<uint64_t> vector(long k, bool nonzero);

 private:
  PrimeField F_;
  uint64_t mask_;  // 2^bits(p) - 1
  Shake128 xof_;
};

// Row i + 1 of the sequential matrix C^t from row i: (row C)_j = row_(j-1) + row_(t-1) a_j
// (row_(-1) = 0), C the companion matrix of a.
std::vector<uint64_t> pasta_next_row(const PrimeField& F, const std::vector<uint64_t>& row,
                                     const std::vector<uint64_t>& a);

class Pasta {
 public:
  // A variant of the paper: Pasta-3 (t = 128, r = 3) and Pasta-4 (t = 32, r = 4).
  struct Variant {
    std::string name;  // "Pasta-3"
    long t;            // keystream elements per block; the state has 2t, the key 2t
    long r;            // rounds
  };
  static const std::vector<Variant>& variants();
  // The primes IAIK's known-answer tests use: 65537 (17 bits), 8088322049 (33 bits),
  // 1096486890805657601 (60 bits).
  static const std::vector<uint64_t>& primes();
  // Why p is not a Pasta field ("" when it is): 3 | p - 1 (x^3 is not a permutation).
  static std::string excluded(uint64_t p);

  // ParameterError for t < 2, r < 2, a p that is not an odd prime below 2^61 or excluded.
  Pasta(long t, long r, uint64_t p);

  long t() const { return t_; }
  long rounds() const { return r_; }
  const PrimeField& field() const { return F_; }
  // SHAKE128 bytes one block reads, about (without rejections: 8 (r + 1) 4t).
  size_t xof_bytes() const { return size_t(8 * (r_ + 1) * 4 * t_); }

  // The t keystream elements of block (nonce, counter); ParameterError for a key that is
  // not 2t elements below p.
  std::vector<uint64_t> keystream(const std::vector<uint64_t>& key, uint64_t nonce, uint64_t counter) const;

 private:
  long t_, r_;
  PrimeField F_;
};

}  // namespace cb
