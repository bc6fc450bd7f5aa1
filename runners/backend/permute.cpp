// permute.cpp: grouping a slot permutation by the automorphism that realizes each move.
#include "backend/permute.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace cb {

SlotPermutation::SlotPermutation(const ZmStar& zm, std::vector<long> src_of)
    : m_(zm.m()), d_(zm.d()), p_(zm.p()), src_of_(std::move(src_of)), k_of_(src_of_.size(), 0) {
  const long ell = zm.ell();
  if (long(src_of_.size()) != ell)
    throw ParameterError(msg("the permutation lists ", src_of_.size(), " slots: the ring m=", zm.m(), " has ell=", ell));
  // rep(dst)^-1 for the listed dsts, then k = rep(src) * rep(dst)^-1, grouped.
  std::unordered_map<long, size_t> index_of_k;
  for (long dst = 0; dst < ell; ++dst) {
    const long src = src_of_[dst];
    if (src == kDontCare) continue;
    if (src < 0 || src >= ell)
      throw ParameterError(msg("slot ", dst, " takes its value from slot ", src, ", outside [0, ell=", ell, ")"));
    ++listed_;
    const long k = long((unsigned long long)zm.rep(src) * (unsigned long long)zm.inverse(zm.rep(dst)) % (unsigned long long)m_);
    // sigma_k must carry src to dst untwisted: k * rep(dst) = rep(src) * 2^0.
    const auto [s, f] = zm.locate(long((unsigned long long)k * (unsigned long long)zm.rep(dst) % (unsigned long long)m_));
    if (s != src || f != 0)
      throw Error(msg("m=", m_, ": k=", k, " moves slot ", s, " (twist ", f, ") to slot ", dst, ", expected slot ", src));
    k_of_[dst] = k;
    auto [it, fresh] = index_of_k.emplace(k, groups_.size());
    if (fresh) groups_.push_back({k, {}});
    groups_[it->second].dsts.push_back(dst);
  }
  std::sort(groups_.begin(), groups_.end(), [](const Group& a, const Group& b) { return a.k < b.k; });
}

std::vector<SlotPermutation::Group> SlotPermutation::cover(long n) const {
  if (n < 1 || d_ % n != 0)
    throw ParameterError(msg("n=", n, " does not divide d=", d_, " (m=", m_, "): slot values must lie in GF(", p_, "^n) inside GF(", p_, "^d)"));
  if (n == d_) return groups_;
  const long q = d_ / n;
  const auto mulmod = [this](long a, long b) { return long((unsigned long long)a * (unsigned long long)b % (unsigned long long)m_); };
  long two_n = 1;  // p^n mod m (2^n at p = 2): the twists that fix GF(p^n)
  for (long i = 0; i < n; ++i) two_n = mulmod(two_n, p_ % m_);
  // Candidates: dst -> its q k's; k -> the dsts it can serve.
  const long ell = long(src_of_.size());
  std::vector<std::vector<long>> cands(ell);
  std::unordered_map<long, std::vector<long>> serves;
  for (long dst = 0; dst < ell; ++dst) {
    if (k_of_[dst] == 0) continue;
    long k = k_of_[dst];
    for (long j = 0; j < q; ++j, k = mulmod(k, two_n)) {
      cands[dst].push_back(k);
      serves[k].push_back(dst);
    }
  }
  std::vector<char> done(ell, 0);
  std::unordered_map<long, long> open;  // k -> number of unserved dsts it serves
  for (const auto& [k, dsts] : serves) open[k] = long(dsts.size());
  std::vector<Group> out;
  const auto take = [&](long k) {
    Group g{k, {}};
    for (long dst : serves[k]) {
      if (done[dst]) continue;
      done[dst] = 1;
      g.dsts.push_back(dst);
      for (long c : cands[dst]) --open[c];
    }
    if (!g.dsts.empty()) out.push_back(std::move(g));
  };
  if (serves.count(1)) take(1);
  // Greedy by size with a lazy max-heap of (count, -k): stale entries are re-pushed.
  std::priority_queue<std::pair<long, long>> heap;
  for (const auto& [k, c] : open)
    if (c > 0) heap.push({c, -k});
  while (!heap.empty()) {
    const auto [c, negk] = heap.top();
    heap.pop();
    const long now = open[-negk];
    if (now <= 0) continue;
    if (now != c) {
      heap.push({now, negk});
      continue;
    }
    take(-negk);
  }
  for (auto& g : out) std::sort(g.dsts.begin(), g.dsts.end());
  return out;
}

SlotPermutation SlotPermutation::from_pairs(const ZmStar& zm, const std::vector<std::pair<long, long>>& dst_src) {
  std::vector<long> src_of(zm.ell(), kDontCare);
  for (const auto& [dst, src] : dst_src) {
    if (dst < 0 || dst >= zm.ell())
      throw ParameterError(msg("destination slot ", dst, " is outside [0, ell=", zm.ell(), ")"));
    if (src_of[dst] != kDontCare)
      throw ParameterError(msg("destination slot ", dst, " is listed twice (sources ", src_of[dst], " and ", src, ")"));
    if (src < 0) throw ParameterError(msg("destination slot ", dst, " has source ", src, ": sources are slots >= 0"));
    src_of[dst] = src;
  }
  return SlotPermutation(zm, std::move(src_of));
}

SlotPermutation SlotPermutation::rotate_dim(const ZmStar& zm, long dim, long r) {
  if (dim < 0 || dim >= zm.dims())
    throw ParameterError(msg("dimension ", dim, " is outside [0, ", zm.dims(), ") (m=", zm.m(), ")"));
  const long ord = zm.ord(dim), stride = zm.stride(dim);
  const long shift = ((r % ord) + ord) % ord;
  std::vector<long> src_of(zm.ell());
  for (long dst = 0; dst < zm.ell(); ++dst) {
    const long e = (dst / stride) % ord;
    const long e_src = (e - shift + ord) % ord;
    src_of[dst] = dst + (e_src - e) * stride;
  }
  return SlotPermutation(zm, std::move(src_of));
}

SlotPermutation SlotPermutation::rotate(const ZmStar& zm, long r) {
  const long ell = zm.ell();
  const long shift = ((r % ell) + ell) % ell;
  std::vector<long> src_of(ell);
  for (long dst = 0; dst < ell; ++dst) src_of[dst] = (dst - shift + ell) % ell;
  return SlotPermutation(zm, std::move(src_of));
}

std::vector<uint64_t> SlotPermutation::apply_clear(const std::vector<uint64_t>& v) const {
  if (v.size() != src_of_.size())
    throw ParameterError(msg("vector has ", v.size(), " slots, the permutation ", src_of_.size()));
  std::vector<uint64_t> out(v.size(), 0);
  for (size_t dst = 0; dst < v.size(); ++dst)
    if (src_of_[dst] != kDontCare) out[dst] = v[src_of_[dst]];
  return out;
}

}  // namespace cb
