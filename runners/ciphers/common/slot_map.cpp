#include "ciphers/common/slot_map.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_set>

#include "engine/errors.h"

namespace cb {

std::vector<long> SlotMapPlan::babies() const {
  std::vector<long> ks;
  for (auto& g : groups)
    for (auto& st : g.steps)
      if (st.k != 1) ks.push_back(st.k);
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

std::vector<long> SlotMapPlan::giants() const {
  std::vector<long> ks;
  for (auto& g : groups)
    if (g.a != 1) ks.push_back(g.a);
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

namespace {

long mulmod(long a, long b, long m) { return long((__int128)a * b % m); }

// r with sigma_a(r) = v, in the clear: sigma_a(r)[s] = frob^f(r[src]) for (src, f) =
// automorphism_action(a)[s].
std::vector<uint64_t> unmove(const ZmStar& zm, const GF2n& F, long a, const std::vector<uint64_t>& v) {
  const auto act = zm.automorphism_action(a);
  std::vector<uint64_t> r(v.size());
  for (size_t s = 0; s < v.size(); ++s) r[act[s].src] = F.frob(v[s], -act[s].frob);
  return r;
}

// Regroups the steps k -> (giant a, baby g^b) along the dimension and baby count that
// minimize the automorphisms, when that beats the plain form.
SlotMapPlan factor(const ZmStar& zm, const GF2n& F, std::vector<SlotMapPlan::Step> steps) {
  const long m = zm.m(), n = F.n();
  // The action of k on GF(2^n) values: (slot of k, f mod n); classes that act alike.
  auto cls = [&](long k) {
    const auto [s, f] = zm.locate(k);
    return std::pair<long, long>(s, f % n);
  };
  std::vector<std::pair<long, long>> plain;
  for (auto& st : steps)
    if (cls(st.k) != cls(1)) plain.push_back(cls(st.k));
  std::sort(plain.begin(), plain.end());
  plain.erase(std::unique(plain.begin(), plain.end()), plain.end());
  long best = long(plain.size()), best_dim = -1, best_t = 0;
  for (long i = 0; i < zm.dims(); ++i) {
    for (long t = 2; t < zm.ord(i); ++t) {
      std::vector<long> bs;
      std::vector<std::pair<long, long>> as;
      for (auto& st : steps) {
        const long e = zm.coords(zm.locate(st.k).first)[i], b = e % t;
        if (b) bs.push_back(b);
        const long a = mulmod(st.k, zm.inverse(zm.power(zm.gen(i), b)), m);
        if (cls(a) != cls(1)) as.push_back(cls(a));
      }
      std::sort(bs.begin(), bs.end()), std::sort(as.begin(), as.end());
      const long cost = long(std::unique(bs.begin(), bs.end()) - bs.begin()) +
                        long(std::unique(as.begin(), as.end()) - as.begin());
      if (cost < best) best = cost, best_dim = i, best_t = t;
    }
  }
  SlotMapPlan plan;
  if (best_dim < 0) {
    plan.groups.push_back({1, std::move(steps)});
    return plan;
  }
  const long g = zm.gen(best_dim);
  std::vector<std::pair<std::pair<long, long>, long>> reps;  // class -> canonical giant
  for (auto& st : steps) {
    const long b = zm.coords(zm.locate(st.k).first)[best_dim] % best_t;
    const long kb = zm.power(g, b);
    long a = mulmod(st.k, zm.inverse(kb), m);
    const auto c = cls(a);
    if (c == cls(1)) a = 1;
    for (auto& [rc, ra] : reps)
      if (rc == c) a = ra;
    if (std::none_of(reps.begin(), reps.end(), [&](auto& r) { return r.first == c; })) reps.push_back({c, a});
    auto it = std::find_if(plan.groups.begin(), plan.groups.end(), [&](auto& gr) { return gr.a == a; });
    if (it == plan.groups.end()) it = plan.groups.insert(plan.groups.end(), {a, {}});
    it->steps.push_back({kb, a == 1 ? st.coeff : unmove(zm, F, a, st.coeff)});
  }
  return plan;
}

}  // namespace

SlotMapPlan plan_slot_map(const ZmStar& zm, const GF2n& F, const std::vector<SlotTerm>& terms) {
  const long ell = zm.ell(), m = zm.m(), n = F.n();
  std::map<std::pair<long, long>, uint64_t> merged;
  for (auto& t : terms) {
    if (t.out < 0 || t.out >= ell || t.in < 0 || t.in >= ell)
      throw ParameterError(msg("slot term (", t.out, ", ", t.in, ") outside the ", ell, " slots of m=", m));
    merged[{t.out, t.in}] ^= t.coeff;
  }
  std::vector<SlotTerm> T;
  for (auto& [pq, c] : merged)
    if (c) T.push_back({pq.first, pq.second, c});

  if (T.empty()) {
    SlotMapPlan plan;
    plan.groups.push_back({1, {{1, std::vector<uint64_t>(ell, 0)}}});
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
      if (mv.src == T[i].in && mv.frob % n == 0) covers[c].push_back(long(i));
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
  return factor(zm, F, std::move(chosen));
}

}  // namespace cb
