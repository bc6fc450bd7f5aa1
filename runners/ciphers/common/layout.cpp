#include "ciphers/common/layout.h"

#include <algorithm>
#include <numeric>

#include "engine/errors.h"

namespace cb {

std::vector<bool> BlockLayout::active(long ell) const {
  std::vector<bool> a(ell, false);
  for (auto& b : slot)
    for (long x : b) a[x] = true;
  return a;
}

std::vector<uint64_t> BlockLayout::scatter(long ell, const std::vector<std::vector<uint64_t>>& blocks) const {
  if (long(blocks.size()) > this->blocks())
    throw ParameterError(msg(blocks.size(), " blocks given: the layout holds ", this->blocks()));
  std::vector<uint64_t> v(ell, 0);
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (long(blocks[b].size()) != s)
      throw ParameterError(msg("block ", b, " has ", blocks[b].size(), " elements: the layout needs ", s));
    for (long i = 0; i < s; ++i) v[slot[b][i]] = blocks[b][i];
  }
  return v;
}

std::vector<std::vector<uint64_t>> BlockLayout::gather(const std::vector<uint64_t>& slots) const {
  std::vector<std::vector<uint64_t>> out(slot.size(), std::vector<uint64_t>(s));
  for (size_t b = 0; b < slot.size(); ++b)
    for (long i = 0; i < s; ++i) out[b][i] = slots[slot[b][i]];
  return out;
}

std::vector<SlotTerm> BlockLayout::terms(const std::vector<SlotTerm>& block_terms) const {
  std::vector<SlotTerm> t;
  t.reserve(block_terms.size() * slot.size());
  for (auto& b : slot)
    for (auto& bt : block_terms) t.push_back({b[bt.out], b[bt.in], bt.coeff});
  return t;
}

namespace {

// Slots in row-major order of the coordinates with dimension `fast` varying fastest
// (fast = -1: the plain slot order).
std::vector<long> slot_order(const ZmStar& zm, long fast) {
  const long ell = zm.ell(), D = zm.dims();
  std::vector<long> order(ell);
  std::iota(order.begin(), order.end(), 0);
  if (fast < 0 || D == 0) return order;
  std::vector<long> dims;
  for (long i = 0; i < D; ++i)
    if (i != fast) dims.push_back(i);
  dims.push_back(fast);
  std::vector<std::vector<long>> co(ell);
  for (long s = 0; s < ell; ++s) co[s] = zm.coords(s);
  std::sort(order.begin(), order.end(), [&](long a, long b) {
    for (long i : dims)
      if (co[a][i] != co[b][i]) return co[a][i] < co[b][i];
    return false;
  });
  return order;
}

BlockLayout make_layout(const std::vector<long>& order, long s, const std::vector<long>& inner,
                        long max_blocks, std::string name) {
  BlockLayout L;
  L.s = s, L.name = std::move(name);
  const long blocks = std::min(long(order.size()) / s, max_blocks);
  for (long b = 0; b < blocks; ++b) {
    std::vector<long> sl(s);
    for (long i = 0; i < s; ++i) sl[i] = order[b * s + inner[i]];
    L.slot.push_back(std::move(sl));
  }
  return L;
}

}  // namespace

BlockLayout choose_layout(const ZmStar& zm, const GF2n& F, long s, const std::vector<std::vector<long>>& orders_in,
                          const std::vector<std::vector<SlotTerm>>& maps) {
  const long ell = zm.ell();
  if (ell < s)
    throw ParameterError(msg("m=", zm.m(), " has ", ell, " slots: a block of ", s, " elements needs ", s));
  std::vector<std::vector<long>> orders = orders_in;
  if (orders.empty()) {
    orders.emplace_back(s);
    std::iota(orders[0].begin(), orders[0].end(), 0);
  }
  // Compare candidates on a few blocks (the plan is per-block periodic in good layouts).
  const long probe = std::min(ell / s, 4L);
  long best_cost = -1, best_fast = -1, best_order = 0;
  for (long fast = -1; fast < zm.dims(); ++fast) {
    const auto order = slot_order(zm, fast);
    for (size_t o = 0; o < orders.size(); ++o) {
      const BlockLayout L = make_layout(order, s, orders[o], probe, "");
      long cost = 0;
      for (auto& mp : maps) cost += plan_slot_map(zm, F, L.terms(mp)).automorphisms();
      if (best_cost < 0 || cost < best_cost) best_cost = cost, best_fast = fast, best_order = long(o);
    }
  }
  return make_layout(slot_order(zm, best_fast), s, orders[best_order], ell / s,
                     msg(best_fast < 0 ? std::string("slot order") : msg("dimension ", best_fast, " fastest"),
                         ", element order ", best_order));
}

BlockLayout slot_order_layout(long ell, long s, const std::vector<std::vector<long>>& orders) {
  if (ell < s) throw ParameterError(msg("the ring has ", ell, " slots: a block of ", s, " elements needs ", s));
  std::vector<long> order(ell), inner(s);
  std::iota(order.begin(), order.end(), 0);
  std::iota(inner.begin(), inner.end(), 0);
  return make_layout(order, s, orders.empty() ? inner : orders[0], ell / s, "slot order, element order 0");
}

}  // namespace cb
