// permute.cpp: grouping a slot permutation by the automorphism that realizes each move.
#include "backend/permute.h"

#include <algorithm>
#include <unordered_map>

namespace cb {

SlotPermutation::SlotPermutation(const ZmStar& zm, std::vector<long> src_of)
    : m_(zm.m()), src_of_(std::move(src_of)) {
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
    auto [it, fresh] = index_of_k.emplace(k, groups_.size());
    if (fresh) groups_.push_back({k, {}});
    groups_[it->second].dsts.push_back(dst);
  }
  std::sort(groups_.begin(), groups_.end(), [](const Group& a, const Group& b) { return a.k < b.k; });
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
