// layout.h: where the elements of each cipher block sit in the slots (packed circuits).
//
// A block of s elements (16 bytes for AES, m elements for Vision) occupies s slots; a
// ciphertext holds floor(ell / s) blocks. The cost of the block's linear layer
// (ShiftRows∘MixColumns, the MDS product) is the number of automorphisms its slot map
// needs (slot_map.h), and that depends on the placement: when a block lies along one
// dimension of the hypercube of Z_m^*/<2> whose size is a multiple of s, every block is a
// translate of block 0 and the same few automorphisms serve all of them (GHS place the
// 16 bytes along a dimension of size 16). choose_layout tries the slot orders "each
// dimension fastest" and the plain slot order, with the given element orders inside the
// block, and keeps the one whose plan has the fewest automorphisms.
#pragma once

#include <string>
#include <vector>

#include "ciphers/common/slot_map.h"
#include "engine/algebra/zmstar.h"

namespace cb {

struct BlockLayout {
  long s = 0;                           // elements per block
  std::vector<std::vector<long>> slot;  // slot[b][i]: slot of element i of block b
  std::string name;                     // how it was built, e.g. "dim 0 fastest, order 1"

  long blocks() const { return long(slot.size()); }
  std::vector<bool> active(long ell) const;  // slots holding some element
  // One value per slot: block b's element i at slot[b][i], zero elsewhere.
  std::vector<uint64_t> scatter(long ell, const std::vector<std::vector<uint64_t>>& blocks) const;
  std::vector<std::vector<uint64_t>> gather(const std::vector<uint64_t>& slots) const;
  // The block map (out_i, in_i, coeff) applied in every block, as slot terms.
  std::vector<SlotTerm> terms(const std::vector<SlotTerm>& block_terms) const;
};

// Throws ParameterError when ell < s.
// orders: candidate element orders within a block (order[i] = position of element i in the
// block's run of s slots); empty = identity only.
// maps: the block maps that must be cheap (their automorphism counts add up); F: the
// field of the slot values (slot_map.h).
BlockLayout choose_layout(const ZmStar& zm, const GF2n& F, long s, const std::vector<std::vector<long>>& orders,
                          const std::vector<std::vector<SlotTerm>>& maps);

// The plain slot order (block b in slots b s .. b s + s - 1, its elements in orders[0], or
// in index order when orders is empty) on ell slots, for slots of F_p (choose_layout's
// slot maps are planned over GF(2^n)): what choose_layout picks when no map constrains it.
// Throws ParameterError when ell < s.
BlockLayout slot_order_layout(long ell, long s, const std::vector<std::vector<long>>& orders);

}  // namespace cb
