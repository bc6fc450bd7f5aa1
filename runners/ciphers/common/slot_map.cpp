#include "ciphers/common/slot_map.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_set>

#include "engine/errors.h"

namespace cb {

long SlotMapPlan::automorphisms() const {
  long a = 0;
  for (auto& s : steps) a += s.k != 1;
  return a;
}

SlotMapPlan plan_slot_map(const ZmStar& zm, const std::vector<SlotTerm>& terms) {
  const long ell = zm.ell(), m = zm.m();
  std::map<std::pair<long, long>, uint64_t> merged;
  for (auto& t : terms) {
    if (t.out < 0 || t.out >= ell || t.in < 0 || t.in >= ell)
      throw ParameterError(msg("slot term (", t.out, ", ", t.in, ") outside the ", ell, " slots of m=", m));
    merged[{t.out, t.in}] ^= t.coeff;
  }
  std::vector<SlotTerm> T;
  for (auto& [pq, c] : merged)
    if (c) T.push_back({pq.first, pq.second, c});

  SlotMapPlan plan;
  if (T.empty()) {
    plan.steps.push_back({1, std::vector<uint64_t>(ell, 0)});
    return plan;
  }
  // Candidates: for each term the k with k * t_p = t_q exactly.
  std::vector<long> cand;
  {
    std::unordered_set<long> seen;
    for (auto& t : T) {
      const long k = long((__int128)zm.rep(t.in) * zm.inverse(zm.rep(t.out)) % m);
      if (seen.insert(k).second) cand.push_back(k);
    }
  }
  std::sort(cand.begin(), cand.end());
  // covers[c] = indices of the terms candidate c carries untwisted.
  std::vector<std::vector<long>> covers(cand.size());
  for (size_t c = 0; c < cand.size(); ++c) {
    const auto act = zm.automorphism_action(cand[c]);
    for (size_t i = 0; i < T.size(); ++i) {
      const auto& mv = act[T[i].out];
      if (mv.src == T[i].in && mv.frob == 0) covers[c].push_back(long(i));
    }
  }
  // Lazy greedy set cover; ties go to k = 1 (no key switch), then to the smaller k.
  std::vector<bool> covered(T.size(), false);
  size_t left = T.size();
  auto gain = [&](size_t c) {
    long g = 0;
    for (long i : covers[c]) g += !covered[i];
    return g;
  };
  using Entry = std::tuple<long, int, long, size_t>;  // gain, k==1, -k, candidate
  std::priority_queue<Entry> pq;
  for (size_t c = 0; c < cand.size(); ++c)
    pq.emplace(long(covers[c].size()), cand[c] == 1, -cand[c], c);
  std::vector<SlotMapPlan::Step> chosen;
  while (left > 0) {
    auto [g, one, negk, c] = pq.top();
    pq.pop();
    const long now = gain(c);
    if (now != g) {
      if (now > 0) pq.emplace(now, one, negk, c);
      continue;
    }
    SlotMapPlan::Step s{cand[c], std::vector<uint64_t>(ell, 0)};
    for (long i : covers[c]) {
      if (covered[i]) continue;
      covered[i] = true, --left;
      s.coeff[T[i].out] = T[i].coeff;
    }
    chosen.push_back(std::move(s));
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const SlotMapPlan::Step& a, const SlotMapPlan::Step& b) { return (a.k == 1) > (b.k == 1); });
  plan.steps = std::move(chosen);
  return plan;
}

}  // namespace cb
