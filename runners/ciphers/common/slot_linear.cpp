#include "ciphers/common/slot_linear.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "ciphers/common/slot_map.h"
#include "engine/errors.h"

namespace cb {

std::vector<long> SlotLinear::babies() const {
  std::set<long> ks;
  for (auto& t : terms)
    if (t.baby != 1) ks.insert(t.baby);
  return {ks.begin(), ks.end()};
}

std::vector<long> SlotLinear::giants() const {
  std::set<long> ks;
  for (auto& t : terms)
    if (t.giant != 1) ks.insert(t.giant);
  return {ks.begin(), ks.end()};
}

namespace {

long mulmod(long a, long b, long m) { return long((__int128)a * b % m); }

bool is_zero(const std::vector<uint64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](uint64_t x) { return x == 0; });
}

// Automorphisms on vectors of slot values in the clear, with their slot actions cached.
class Mover {
 public:
  Mover(const ZmStar& zm, const GF2n& F) : zm_(zm), F_(F) {}

  // The representative of k's class: the automorphism acting on GF(2^n) values as k does.
  long canon(long k) const {
    const auto [s, f] = zm_.locate(k);
    return mulmod(zm_.rep(s), zm_.power(2, f % F_.n()), zm_.m());
  }
  // sigma_k(v): slot s receives frob^f of slot src's value.
  std::vector<uint64_t> move(long k, const std::vector<uint64_t>& v) {
    if (canon(k) == 1) return v;
    auto it = acts_.find(k);
    if (it == acts_.end()) it = acts_.emplace(k, zm_.automorphism_action(k)).first;
    std::vector<uint64_t> r(v.size(), 0);
    for (size_t s = 0; s < v.size(); ++s) {
      const auto& mv = it->second[s];
      if (v[mv.src]) r[s] = F_.frob(v[mv.src], mv.frob);
    }
    return r;
  }
  std::vector<uint64_t> unmove(long k, const std::vector<uint64_t>& v) { return move(zm_.inverse(k), v); }

 private:
  const ZmStar& zm_;
  const GF2n& F_;
  std::map<long, std::vector<ZmStar::SlotMove>> acts_;
};

void xor_into(std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  if (a.empty()) a.assign(b.size(), 0);
  for (size_t i = 0; i < b.size(); ++i) a[i] ^= b[i];
}

// Terms keyed by (giant, baby), summed; zero sums dropped.
SlotLinear collect(const std::map<std::pair<long, long>, std::vector<uint64_t>>& acc, std::vector<uint64_t> c) {
  SlotLinear A;
  for (auto& [gb, d] : acc)
    if (!is_zero(d)) A.terms.push_back({gb.first, gb.second, d});
  A.c = std::move(c);
  return A;
}

// Fewer automorphisms first, then fewer giants (they are not hoisted).
bool cheaper(const SlotLinear& a, const SlotLinear& b) {
  const long ca = a.automorphisms(), cb = b.automorphisms();
  if (ca != cb) return ca < cb;
  return a.giants().size() < b.giants().size();
}

}  // namespace

SlotLinear slot_linear(const SlotMapPlan& plan) {
  std::map<std::pair<long, long>, std::vector<uint64_t>> acc;
  for (auto& g : plan.groups)
    for (auto& s : g.steps) xor_into(acc[{g.a, s.k}], s.coeff);
  return collect(acc, {});
}

SlotLinear slot_linear(const ZmStar& zm, const GF2n& F, const Linearized& L, const std::vector<bool>& active,
                       long t) {
  const long n = F.n(), ell = zm.ell();
  if (long(L.gamma.size()) != n) throw ParameterError(msg("affine map with ", L.gamma.size(), " terms on GF(2^", n, ")"));
  if (t < 1 || t > n) throw ParameterError(msg("baby steps t=", t, ": must be 1..", n));
  if (!active.empty() && long(active.size()) != ell)
    throw ParameterError(msg("active flags for ", active.size(), " slots on a ring with ", ell));
  auto slots = [&](uint64_t v) {
    std::vector<uint64_t> s(ell, v);
    if (!active.empty())
      for (long i = 0; i < ell; ++i)
        if (!active[i]) s[i] = 0;
    return s;
  };
  Mover mv(zm, F);
  std::map<std::pair<long, long>, std::vector<uint64_t>> acc;
  for (long j = 0; j < n; ++j) {
    if (!L.gamma[j]) continue;
    const long a = j / t, b = j % t;
    xor_into(acc[{mv.canon(zm.power(2, a * t)), mv.canon(zm.power(2, b))}], slots(F.frob(L.gamma[j], -a * t)));
  }
  return collect(acc, L.c ? slots(L.c) : std::vector<uint64_t>{});
}

std::vector<uint64_t> apply(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const std::vector<uint64_t>& v) {
  Mover mv(zm, F);
  std::vector<uint64_t> out(v.size(), 0);
  for (auto& t : A.terms) {
    auto x = mv.move(t.baby, v);
    for (size_t s = 0; s < x.size(); ++s) x[s] = F.mul(x[s], t.coeff[s]);
    xor_into(out, mv.move(t.giant, x));
  }
  if (!A.c.empty()) xor_into(out, A.c);
  return out;
}

SlotLinear compose(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const SlotLinear& B) {
  const long m = zm.m();
  Mover mv(zm, F);
  struct Flat {
    long G, b;
    std::vector<uint64_t> E;  // sigma_G(D)
  };
  auto flat = [&](const SlotLinear& X) {
    std::vector<Flat> f;
    for (auto& t : X.terms) f.push_back({t.giant, t.baby, mv.move(t.giant, t.coeff)});
    return f;
  };
  const auto fa = flat(A), fb = flat(B);
  // The constant: c_A + A_0(c_B).
  std::vector<uint64_t> c = A.c;
  if (!B.c.empty() && !is_zero(B.c)) {
    SlotLinear A0{A.terms, {}};
    xor_into(c, apply(zm, F, A0, B.c));
  }
  constexpr int kSplits = 4;
  std::map<std::pair<long, long>, std::vector<uint64_t>> acc[kSplits];
  for (auto& t1 : fa) {
    const long e1 = mulmod(t1.G, t1.b, m);
    for (auto& t2 : fb) {
      std::vector<uint64_t> E = mv.move(e1, t2.E);
      for (size_t s = 0; s < E.size(); ++s) E[s] = F.mul(E[s], t1.E[s]);
      if (is_zero(E)) continue;
      const long e = mulmod(e1, mulmod(t2.G, t2.b, m), m);
      const long babies[kSplits] = {mulmod(t1.b, t2.b, m), t2.b, t1.b, e};
      for (int k = 0; k < kSplits; ++k) {
        const long b = mv.canon(babies[k]);
        const long G = mv.canon(mulmod(e, zm.inverse(babies[k]), m));
        xor_into(acc[k][{G, b}], mv.unmove(G, E));
      }
    }
  }
  std::optional<SlotLinear> best;
  for (int k = 0; k < kSplits; ++k) {
    SlotLinear cand = collect(acc[k], c);
    if (!best || cheaper(cand, *best)) best = std::move(cand);
  }
  return std::move(*best);
}

namespace {
std::vector<long> baby_counts(long n) {
  const long r = std::max(1L, long(std::ceil(std::sqrt(double(n)))));
  return r == n ? std::vector<long>{n} : std::vector<long>{r, n};
}
}  // namespace

SlotLinear compose_after(const ZmStar& zm, const GF2n& F, const SlotLinear& A, const Linearized& L,
                         const std::vector<bool>& active) {
  std::optional<SlotLinear> best;
  for (long t : baby_counts(F.n())) {
    SlotLinear cand = compose(zm, F, A, slot_linear(zm, F, L, active, t));
    if (!best || cheaper(cand, *best)) best = std::move(cand);
  }
  return std::move(*best);
}

SlotLinear compose_before(const ZmStar& zm, const GF2n& F, const Linearized& L, const SlotLinear& A,
                          const std::vector<bool>& active) {
  std::optional<SlotLinear> best;
  for (long t : baby_counts(F.n())) {
    SlotLinear cand = compose(zm, F, slot_linear(zm, F, L, active, t), A);
    if (!best || cheaper(cand, *best)) best = std::move(cand);
  }
  return std::move(*best);
}

}  // namespace cb
