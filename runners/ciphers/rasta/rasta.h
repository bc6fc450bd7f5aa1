// rasta.h: the clear Rasta keystream (Dobraunig, Eichlseder, Grassi, Lallemand, Leander,
// List, Mendel, Rechberger, "Rasta: A Cipher with Low ANDdepth and Few ANDs per Bit",
// CRYPTO 2018, ePrint 2018/181) as IAIK's hybrid-HE framework instantiates it; the
// reference the catalog entry (entry.cpp) and its program are checked against.
//
// Rasta is a keystream generator over GF(2) on an n-bit state with r rounds. For block
// (nonce, counter) it draws invertible matrices M_1..M_(r+1) in GF(2)^(n x n) and constants
// c_1..c_(r+1) in GF(2)^n, and with the n-bit key k computes
//     x_0 = k,   x_i = S(M_i x_(i-1) + c_i)  (i = 1..r),   KS = M_(r+1) x_r + c_(r+1) + k,
// S the chi map on the state read as a cycle:
//     S(x)_j = x_j + (x_(j+1) + 1) x_(j+2) = x_j + x_(j+2) + x_(j+1) x_(j+2)   (indices mod n),
// one AND per bit per round: AND-depth r. IAIK's instances: Rasta-5 (n = 525, r = 5) and
// Rasta-6 (n = 351, r = 6), both for 128-bit security.
//
// The instance generation ("all_new" in IAIK's code, its default): a Keccak sponge
// (keccak.h) of rate 1088 bits started from a 200-byte state laid out as
//     bytes 0..7    r as a 32-bit little-endian word, twice
//           8..15   n the same
//           24..31  the nonce, 64-bit little-endian
//           32      0x1F
//           40..47  the counter, 64-bit little-endian
//           135     0x80          (all other bytes zero)
// permuted once, then read 1088 bits (136 bytes) per permutation, stream bit 8 i + b being
// bit b of byte i. With counter 0 the state is SHAKE256's of the 32 bytes 0..31; any other
// counter sits past SHAKE's padding byte (0x1F at 32), so the stream is no standard XOF's.
// The stream fills M_1, ..., M_(r+1) in turn, row by row (bit j of row i, the coefficient
// of input bit j in output bit i, is the row's j-th stream bit), a matrix drawn again from
// the bits that follow until it is invertible (about 3.5 draws each: a random GF(2) matrix
// is invertible with probability 0.289); then c_1, ..., c_(r+1), n bits each.
//
// Here a vector of GF(2)^n is packed, bit j in word j / 64 (Bits), the bits above n zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cb {

class Rasta {
 public:
  using Bits = std::vector<uint64_t>;  // ceil(n / 64) words, bit j = bit j % 64 of word j / 64
  struct Instance {
    std::vector<std::vector<Bits>> M;  // M_1..M_(r+1), n rows each
    std::vector<Bits> c;               // c_1..c_(r+1)
  };

  // (n, r) = (525, 5) or (351, 6); ParameterError otherwise.
  Rasta(long n, long rounds);
  // IAIK's instances as (n, r), Rasta-5 first.
  static std::vector<std::pair<long, long>> instances();

  long n() const { return n_; }
  long rounds() const { return rounds_; }
  long words() const { return (n_ + 63) / 64; }

  // The 200 bytes before the first permutation.
  std::vector<uint8_t> initial_state(uint64_t nonce, uint64_t counter) const;
  // The first `count` bytes of the stream of block (nonce, counter).
  std::vector<uint8_t> stream(uint64_t nonce, uint64_t counter, size_t count) const;
  // The matrices and constants of block (nonce, counter).
  Instance instance(uint64_t nonce, uint64_t counter) const;
  // The n keystream bits of block (nonce, counter) under the n-bit key.
  Bits keystream(const Bits& key, uint64_t nonce, uint64_t counter) const;

  // Rank over GF(2) of packed rows of n bits.
  static long rank(std::vector<Bits> rows, long n);
  // S, the chi map.
  Bits chi(const Bits& x) const;
  // M x.
  Bits mul(const std::vector<Bits>& M, const Bits& x) const;

 private:
  long n_, rounds_;
};

}  // namespace cb
