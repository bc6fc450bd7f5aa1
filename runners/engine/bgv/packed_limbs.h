// packed_limbs.h: double-CRT limbs stored at their primes' bit widths.
//
// A residue modulo q_i < 2^w_i needs w_i bits, not 64: the engine's primes have 50 bits
// (38-45 for the small ladder primes), so a limb packed bit by bit takes 50/64 of a word
// array. Key-switching keys of large rings keep their b_j this way (keys.h); a key product
// unpacks one limb at a time into scratch.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {

// Limbs of residues stored at their prime's bit width: limb i of phi values < 2^w_i,
// w_i = bit length of q_i, in ceil(phi w_i / 64) + 1 words (one spare word so every value
// is read by one unaligned 128-bit window). Widths of 64 are stored as is.
class PackedLimbs {
 public:
  PackedLimbs() = default;
  explicit PackedLimbs(const DCRTPoly& x);
  // Limb of prime index p: a pointer to stored words when its width is 64, else unpacked
  // into scratch (phi words) and scratch returned. ParameterError for an absent prime.
  const uint64_t* limb(int p, uint64_t* scratch) const;
  // Whether limb(p, ...) needs scratch (width below 64).
  bool packed(int p) const;
  size_t bytes() const { return words_.capacity() * sizeof(uint64_t); }
  // Bytes PackedLimbs(x) takes for limbs of the given widths and phi values each.
  static size_t packed_bytes(const std::vector<int>& widths, long phi);
  static size_t limb_words(int width, long phi) { return width >= 64 ? size_t(phi) : (size_t(phi) * width + 63) / 64 + 1; }

 private:
  long index(int p) const;
  std::vector<int> primes_;
  std::vector<int> width_;
  std::vector<size_t> offset_;
  long phi_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace cb::bgv
