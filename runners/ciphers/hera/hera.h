// hera.h: the HERA-5 keystream over F_p in the clear (Cho, Ha, Kim, Lee, Lee, Lee, Moon,
// Yoon, "Transciphering Framework for Approximate Homomorphic Encryption", ASIACRYPT 2021,
// ePrint 2020/1335), over F_p as IAIK's hybrid-HE framework runs it (README.md), the
// reference the catalog entry's program and every run are checked against.
//
// The state x is 16 elements of F_p, a 4 x 4 matrix stored column by column (column j is
// x[4j .. 4j+3], row i is x[i], x[i+4], x[i+8], x[i+12]). With the key k (16 elements) and
// the round constants rc_0 .. rc_5 of the block, the keystream of block (nonce, counter) is
//     x = ic = (1, 2, ..., 16);              x <- ARK_0(x)
//     rounds i = 1..4:                       x <- ARK_i(Cube(MixRows(MixColumns(x))))
//     final round 5:                         x <- ARK_5(MixRows(MixColumns(Cube(MixRows(MixColumns(x))))))
// where
//     ARK_i(x)_j = x_j + k_j rc_i,j          (the paper's randomized key schedule)
//     MixColumns: each column times circ(2, 3, 1, 1), MixRows: each row times it,
//                 circ(2, 3, 1, 1) = [[2 3 1 1] [1 2 3 1] [1 1 2 3] [3 1 1 2]]
//     Cube(x)_j = x_j^3                      (a permutation of F_p when 3 does not divide p - 1)
// The round constants are public and drawn per block from SHAKE128(nonce || counter), the
// nonce and the counter 8 bytes big-endian each (Shake128::for_block): rc_0,0 .. rc_0,15,
// rc_1,0, ..., rc_5,15 in order, each element the next 8 output bytes read big-endian with
// the bits at and above p's bit length cleared, drawn again while it is >= p (rejection),
// so 96 elements per block. Under FHE the key is the only secret: ARK is a product of the
// encrypted key by public constants, the mixing layers are additions, the cube is a square
// and a product (depth 2), so the keystream has depth 10 (5 cubes) plus ARK's constant
// products.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ciphers/reference/prime_field.h"

namespace cb {

class Shake128;

class Hera {
 public:
  static constexpr long kN = 16;       // state, key and keystream elements per block
  static constexpr long kRounds = 5;   // HERA-5: 4 rounds and a final round after ARK_0

  // ParameterError naming p and the constraint when excluded(p) says why.
  explicit Hera(uint64_t p);
  // Why HERA's definition excludes F_p ("" when it does not): p not an odd prime below
  // 2^61, 3 | p - 1 (x^3 is then no permutation), p = 3 (x^3 = x on F_3), or p = 5 or 7
  // (circ(2, 3, 1, 1) has determinant -35: the mixing layers are singular).
  static std::string excluded(uint64_t p);
  // The primes of IAIK's known-answer tests, the catalog's instances, in catalog order.
  static std::vector<uint64_t> primes() { return {65537, 8088322049ull, 1096486890805657601ull}; }

  const PrimeField& field() const { return F_; }
  uint64_t p() const { return F_.p(); }

  // rc_0 .. rc_5 of block (nonce, counter): 6 vectors of 16 elements.
  std::vector<std::vector<uint64_t>> round_constants(uint64_t nonce, uint64_t counter) const;
  // The 16 keystream elements of block (nonce, counter); ParameterError naming a key of
  // the wrong length or an element >= p.
  std::vector<uint64_t> keystream(const std::vector<uint64_t>& key, uint64_t nonce, uint64_t counter) const;

 private:
  // The next element of F_p from the stream: masked to p's bit length, rejected while >= p.
  uint64_t draw(Shake128& xof) const;
  PrimeField F_;
  uint64_t mask_;  // 2^bits(p) - 1
};

}  // namespace cb
