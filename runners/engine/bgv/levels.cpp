#include "engine/bgv/levels.h"

#include <algorithm>
#include <iterator>
#include <climits>
#include <map>
#include <optional>
#include <tuple>

#include "engine/bgv/dominant_roots.h"
#include "engine/errors.h"

namespace cb::bgv {

namespace {
bool includes(const PrimeSet& big, const PrimeSet& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// max_u (fa a_u + ga r_u)(fb b_u + gb r_u) over [lo, hi) (product) and max_u (fa a_u +
// fb b_u + g r_u) (sum): vector loops, a max being exact in any order.
double max_product(const double* pa, const double* pb, const double* pr, double fa, double ga, double fb,
                   double gb, size_t lo, size_t hi) {
  double best = 0;
#pragma omp simd reduction(max : best)
  for (size_t u = lo; u < hi; ++u) best = std::max(best, (fa * pa[u] + ga * pr[u]) * (fb * pb[u] + gb * pr[u]));
  return best;
}

double max_sum(const double* pa, const double* pb, const double* pr, double fa, double fb, double g, size_t lo,
               size_t hi) {
  double best = 0;
  if (g != 0) {
#pragma omp simd reduction(max : best)
    for (size_t u = lo; u < hi; ++u) best = std::max(best, fa * pa[u] + fb * pb[u] + g * pr[u]);
  } else {
#pragma omp simd reduction(max : best)
    for (size_t u = lo; u < hi; ++u) best = std::max(best, fa * pa[u] + fb * pb[u]);
  }
  return best;
}

// A decision's normalized vectors a, b, r at their dominant roots (dominant_roots.h): every
// maximum below over these few values is the maximum over all the roots, bit for bit.
struct AtDominant {
  DominantRoots roots;
  std::vector<double> a, b, r;
  AtDominant(const RootBound& A, const RootBound& B, const RootBound& R)
      : roots({A.normalized().data(), B.normalized().data(), R.normalized().data()}, A.normalized().size()),
        a(roots.at(A.normalized().data())),
        b(roots.at(B.normalized().data())),
        r(roots.at(R.normalized().data())) {}
};

// log2 max_u (2^al a_u + ra 2^rho r_u) (2^be b_u + rb 2^rho r_u) for normalized vectors
// (max 1) a, b, r; ra, rb in {0, 1}. Factors are scaled to at most 1 to stay in range.
double log2_max_product(const AtDominant& v, double al, double be, double rho, bool ra, bool rb) {
  const double ma = ra ? std::max(al, rho) : al, mb = rb ? std::max(be, rho) : be;
  const double fa = std::exp2(al - ma), fb = std::exp2(be - mb);
  const double ga = ra ? std::exp2(rho - ma) : 0, gb = rb ? std::exp2(rho - mb) : 0;
  return ma + mb + std::log2(max_product(v.a.data(), v.b.data(), v.r.data(), fa, ga, fb, gb, 0, v.a.size()));
}

// max_u a_u b_u: log2_max_product's value without rounding terms (al, be factored out).
double max_product_at(const AtDominant& v) {
  return max_product(v.a.data(), v.b.data(), v.a.data(), 1.0, 0.0, 1.0, 0.0, 0, v.a.size());
}

// log2 max_u (2^al a_u + 2^be b_u + k 2^rho r_u), k in {0, 1, 2}, over n values.
double log2_max_sum(const double* a, const double* b, const double* r, size_t n, double al, double be, double rho,
                    int k) {
  double mx = std::max(al, be);
  if (k) mx = std::max(mx, rho);
  const double fa = std::exp2(al - mx), fb = std::exp2(be - mx), g = k ? k * std::exp2(rho - mx) : 0;
  return mx + std::log2(max_sum(a, b, r, fa, fb, g, 0, n));
}
double log2_max_sum(const AtDominant& v, double al, double be, double rho, int k) {
  return log2_max_sum(v.a.data(), v.b.data(), v.r.data(), v.a.size(), al, be, rho, k);
}
}  // namespace

std::vector<PrimeSet> Levels::switch_targets(const PrimeSet& primes) const {
  const long S = chain_.S();
  std::vector<int> big;
  for (int p : primes)
    if (p >= S) big.push_back(p);
  std::vector<PrimeSet> out;
  for (long keep_big = long(big.size()); keep_big >= 0; --keep_big) {
    for (long mask = (1L << S) - 1; mask >= 0; --mask) {
      PrimeSet t;
      for (long i = 0; i < S; ++i)
        if (mask >> i & 1) t.push_back(int(i));
      t.insert(t.end(), big.begin(), big.begin() + keep_big);
      if (!t.empty()) out.push_back(std::move(t));
    }
  }
  return out;
}

PrimeSet Levels::common_set(const std::vector<PrimeSet>& sets) const {
  if (sets.empty()) return {};
  const long S = chain_.S();
  auto big = [&](const PrimeSet& s) {
    PrimeSet b;
    for (int p : s)
      if (p >= S) b.push_back(p);
    return b;
  };
  const PrimeSet* low = &sets[0];
  for (const auto& s : sets)
    if (chain_.log2_Q(s) < chain_.log2_Q(*low)) low = &s;
  // Reachable from s: its big primes a prefix of s's (switch_targets drops big primes from
  // the top and takes any small ones).
  const PrimeSet lb = big(*low);
  for (const auto& s : sets) {
    const PrimeSet sb = big(s);
    if (sb.size() < lb.size() || !std::equal(lb.begin(), lb.end(), sb.begin())) return {};
  }
  return *low;
}

RootBound Levels::switched(const PrimeSet& have, const RootBound& a, const PrimeSet& target) const {
  if (target == have) return a;
  RootBound r = a;
  r.scale(chain_.log2_Q(target) - chain_.log2_Q(have));
  if (!includes(target, have)) r += noise_.rounding();
  return r;
}

double Levels::capacity(const PrimeSet& primes, const RootBound& a) const {
  return chain_.log2_Q(primes) - 1 - a.log2_max();
}

PrimeSet Levels::common_with_small(const PrimeSet& ta, const PrimeSet& tb) const {
  PrimeSet common;
  std::set_intersection(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(common));
  for (long i = 0; i < chain_.S(); ++i)  // small primes may be added back to either
    if (!std::binary_search(common.begin(), common.end(), int(i))) common.insert(common.begin() + i, int(i));
  return common;
}

PrimeSet Levels::Targets::set(const Target& t) const {
  PrimeSet out;
  for (int i = 0; i < 32; ++i)
    if (t.small_mask >> i & 1) out.push_back(i);
  out.insert(out.end(), big.begin(), big.begin() + t.keep_big);
  return out;
}

const Levels::Targets& Levels::targets(const PrimeSet& ta, const PrimeSet& tb) const {
  std::lock_guard<std::mutex> lock(targets_mu_);
  if (const auto it = targets_.find(std::pair<const PrimeSet&, const PrimeSet&>(ta, tb)); it != targets_.end())
    return *it->second;
  std::optional<OpProfile::Scope> step;
  if (profile_) step.emplace(*profile_, "targets", long(std::max(ta.size(), tb.size())));
  auto ts = std::make_unique<Targets>();
  const long S = chain_.S();
  if (S > 31) throw Error(msg("levels: ", S, " small primes (at most 31)"));
  for (int p : common_with_small(ta, tb))
    if (p >= S) ts->big.push_back(p);
  const long nb = long(ts->big.size());
  // A target's set is its small primes (mask) and big[0, keep_big), in increasing order:
  // log2 Q of it is summed in that order (as Chain::log2_Q does, so the same bits): the
  // small primes' sum for each mask (lowest bit first), then big prefixes one by one.
  std::vector<double> small_sum(size_t(1) << S, 0.0);
  for (size_t mask = 1; mask < small_sum.size(); ++mask) {
    const int high = 63 - __builtin_clzll(mask);
    small_sum[mask] = small_sum[mask & ~(size_t(1) << high)] + chain_.log2_q(high);
  }
  // It includes an operand's primes when it has the operand's small ones and keep_big
  // reaches past the operand's big ones (none beyond `big`: never).
  auto needs = [&](const PrimeSet& t, uint32_t& small_mask) {
    small_mask = 0;
    long need = 0;
    for (int p : t) {
      if (p < S) {
        small_mask |= uint32_t(1) << p;
        continue;
      }
      const auto it = std::find(ts->big.begin(), ts->big.end(), p);
      if (it == ts->big.end()) return LONG_MAX;
      need = std::max(need, long(it - ts->big.begin()) + 1);
    }
    return need;
  };
  uint32_t small_a, small_b;
  const long need_a = needs(ta, small_a), need_b = needs(tb, small_b);
  // switch_targets' order (most big primes first, masks decreasing): the first target of
  // each modulus x (within 1e-9 bits) is the one kept, as the concave part's bisection and
  // ties expect.
  std::vector<Targets::Target> both;  // dropping primes of both operands, in that order
  for (long keep_big = nb; keep_big >= 0; --keep_big) {
    for (long mask = (1L << S) - 1; mask >= 0; --mask) {
      if (mask == 0 && keep_big == 0) continue;  // the empty set
      Targets::Target t{0, uint32_t(mask), int32_t(keep_big), false, false};
      double x = small_sum[size_t(mask)];
      for (long k = 0; k < keep_big; ++k) x += chain_.log2_q(ts->big[size_t(k)]);
      t.x = x;
      t.out_a = (small_a & ~uint32_t(mask)) != 0 || keep_big < need_a;
      t.out_b = (small_b & ~uint32_t(mask)) != 0 || keep_big < need_b;
      (t.out_a && t.out_b ? both : ts->others).push_back(t);
    }
  }
  // Distinct prime sets' moduli lie more than 1e-9 bits apart but by coincidence: then
  // sorting by x keeps every target, as taking them in order does; where two come that
  // close, they are taken in order (the first of each x kept).
  std::stable_sort(both.begin(), both.end(), [](const Targets::Target& u, const Targets::Target& v) { return u.x < v.x; });
  bool close = false;
  for (size_t k = 1; k < both.size() && !close; ++k) close = both[k].x - both[k - 1].x <= 2e-9;
  if (!close) {
    ts->concave = std::move(both);
  } else {
    std::stable_sort(both.begin(), both.end(), [](const Targets::Target& u, const Targets::Target& v) {
      return std::tie(v.keep_big, v.small_mask) < std::tie(u.keep_big, u.small_mask);  // back to their order
    });
    std::map<double, Targets::Target> by_x;
    for (const auto& t : both) {
      auto it = by_x.lower_bound(t.x - 1e-9);
      if (it == by_x.end() || it->first > t.x + 1e-9) by_x.emplace(t.x, t);
    }
    for (auto& [x, t] : by_x) ts->concave.push_back(t);
  }
  std::stable_sort(ts->others.begin(), ts->others.end(), [](const Targets::Target& u, const Targets::Target& v) {
    return std::tie(u.out_a, u.out_b, u.x) < std::tie(v.out_a, v.out_b, v.x);
  });
  return *targets_.emplace(std::make_pair(ta, tb), std::move(ts)).first->second;
}

template <class Cap>
PrimeSet Levels::best_target(const Targets& ts, Cap cap, bool others_rise) const {
  // The least index in [lo, hi] whose value reaches `floor`, for values non-decreasing there.
  auto first_reaching = [](size_t lo, size_t hi, double floor, auto&& value) {
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (value(mid) >= floor) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const auto& sorted = ts.concave;
  std::vector<double> memo(sorted.size(), NAN);
  auto cap_at = [&](size_t i) {
    if (std::isnan(memo[i])) memo[i] = cap(sorted[i].x, sorted[i].out_a, sorted[i].out_b);
    return memo[i];
  };
  // The best capacity: the concave part's peak by bisection, the others one by one or,
  // where they rise with x, at the top of each run of equal (out_a, out_b).
  double best_cap = -INFINITY;
  size_t peak = 0;
  if (!sorted.empty()) {
    size_t lo = 0, hi = sorted.size() - 1;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (cap_at(mid + 1) > cap_at(mid)) lo = mid + 1;
      else hi = mid;
    }
    peak = lo;
    best_cap = cap_at(lo);
  }
  const auto& others = ts.others;
  std::vector<double> other_memo(others.size(), NAN);
  auto other_at = [&](size_t i) {
    if (std::isnan(other_memo[i])) other_memo[i] = cap(others[i].x, others[i].out_a, others[i].out_b);
    return other_memo[i];
  };
  std::vector<std::pair<size_t, size_t>> runs;  // [first, last] of each run (others_rise)
  for (size_t i = 0; i < others.size();) {
    size_t e = i;
    if (others_rise)
      while (e + 1 < others.size() && others[e + 1].out_a == others[i].out_a && others[e + 1].out_b == others[i].out_b) ++e;
    runs.emplace_back(i, e);
    for (size_t k = i; k <= e; ++k)
      if (k == e || !others_rise) best_cap = std::max(best_cap, other_at(k));
    i = e + 1;
  }
  // Among the targets within kLadderTieBits of it, the smallest modulus (cheapest): on
  // the concave part the least x at or below the peak (capacity rises up to it, so by
  // bisection; past the peak x only grows), in a rising run its least qualifying x.
  const double floor = best_cap - kLadderTieBits;
  const Targets::Target* best = nullptr;
  double best_x = INFINITY;
  auto consider = [&](const Targets::Target& t, double c) {
    if (c < floor) return;
    if (t.x < best_x) best_x = t.x, best = &t;
  };
  if (!sorted.empty() && cap_at(peak) >= floor) {
    const size_t i = first_reaching(0, peak, floor, cap_at);
    consider(sorted[i], cap_at(i));
  }
  for (const auto& [first, last] : runs) {
    if (!others_rise) {
      consider(others[first], other_at(first));
      continue;
    }
    if (other_at(last) < floor) continue;
    const size_t i = first_reaching(first, last, floor, other_at);
    consider(others[i], other_at(i));
  }
  if (!best) throw Error("levels: no target prime set");
  return ts.set(*best);
}

PrimeSet Levels::product_set(const PrimeSet& ta, const RootBound& a, const PrimeSet& tb, const RootBound& b) const {
  const double qa = chain_.log2_Q(ta), qb = chain_.log2_Q(tb);
  const RootBound& R = noise_.rounding();
  // At the targets that keep both operands' primes (no rounding), the maximum over the
  // roots is max_u a_u b_u whatever x: computed once, the same number every time.
  double max_ab = NAN;
  std::optional<AtDominant> v;  // found at the first candidate that needs it
  auto cap = [&](double x, bool out_a, bool out_b) {
    if (a.is_zero() || b.is_zero()) return x;
    if (!v) v.emplace(a, b, R);
    if (out_a || out_b)
      return x - log2_max_product(*v, a.exponent() + x - qa, b.exponent() + x - qb, R.exponent(), out_a, out_b);
    if (std::isnan(max_ab)) max_ab = std::log2(max_product_at(*v));
    return x - ((a.exponent() + x - qa) + (b.exponent() + x - qb) + max_ab);
  };
  return best_target(targets(ta, tb), cap, /*others_rise=*/false);
}

PrimeSet Levels::sum_set(const PrimeSet& ta, const RootBound& a, const PrimeSet& tb, const RootBound& b) const {
  if (a.is_zero() && b.is_zero()) {
    PrimeSet common;
    std::set_intersection(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(common));
    if (!common.empty()) return common;
  }
  const double qa = chain_.log2_Q(ta), qb = chain_.log2_Q(tb);
  const RootBound& R = noise_.rounding();
  // x - log2 max_u (2^(x-qa) a_u + 2^(x-qb) b_u) does not depend on x: at the targets
  // that keep both operands' primes (k = 0) it is computed once.
  double cap_kept = NAN;
  std::optional<AtDominant> v;  // found at the first candidate
  auto cap = [&](double x, bool out_a, bool out_b) {
    const int k = int(out_a) + int(out_b);
    if (k == 0 && !std::isnan(cap_kept)) return cap_kept;
    if (!v) v.emplace(a.is_zero() ? R : a, b.is_zero() ? R : b, R);
    const double c = x - log2_max_sum(*v, a.is_zero() ? -INFINITY : a.exponent() + x - qa,
                                      b.is_zero() ? -INFINITY : b.exponent() + x - qb, R.exponent(), k);
    if (k == 0) cap_kept = c;
    return c;
  };
  // x - log2 max_u(2^(x-qa) a_u + 2^(x-qb) b_u + k 2^rho R_u) rises with x at fixed k.
  return best_target(targets(ta, tb), cap, /*others_rise=*/true);
}

PrimeSet Levels::prefix_for_key_switch(const PrimeSet& ta, const RootBound& a, const RootBound& R,
                                       double tolerance) const {
  const auto big = chain_.ciphertext_primes();
  const long J = long(big.size());
  const double qa = chain_.log2_Q(ta);
  auto prefix = [&](long j) { return PrimeSet(big.begin(), big.begin() + j); };
  std::vector<double> memo(J + 1, NAN);
  // Each prefix's key-switch bound is flat plus rounding() (NoiseModel::key_switch): its
  // values a non-decreasing function of rounding()'s. So the roots dominant in (a,
  // rounding(), R) are dominant in (a, key_switch(t), R) for every prefix t: found once,
  // with each prefix's values taken at them.
  std::optional<AtDominant> v;
  auto cap = [&](long j) {
    if (!std::isnan(memo[j])) return memo[j];
    const PrimeSet t = prefix(j);
    const double x = chain_.log2_Q(t);
    const bool drop = !includes(t, ta);
    const RootBound& ks = key_switch(t);
    if (!v) v.emplace(a.is_zero() ? noise_.rounding() : a, noise_.rounding(), R);
    const std::vector<double> k = v->roots.at(ks.normalized().data());
    double c;
    if (a.is_zero()) c = x - log2_max_sum(k.data(), v->r.data(), v->r.data(), k.size(), ks.exponent(), -INFINITY, R.exponent(), drop ? 1 : 0);
    else c = x - log2_max_sum(v->a.data(), k.data(), v->r.data(), k.size(), a.exponent() + x - qa, ks.exponent(), R.exponent(), drop ? 1 : 0);
    return memo[j] = c;
  };
  // The peak over j = 1..J by bisection on the increments; where ta is itself a prefix
  // (no rounding there) that prefix is a candidate too.
  long lo = 1, hi = J;
  while (lo < hi) {
    const long mid = (lo + hi) / 2;
    if (cap(mid + 1) > cap(mid)) lo = mid + 1;
    else hi = mid;
  }
  long peak = lo;
  long home = 0;
  if (!ta.empty() && ta.front() >= chain_.S() && ta == prefix(long(ta.size()))) home = long(ta.size());
  if (home && cap(home) > cap(peak)) peak = home;
  const double best = cap(peak);
  // The smallest j within tolerance: cap rises up to the peak (bisection below it).
  long a_lo = 1, a_hi = peak;
  while (a_lo < a_hi) {
    const long mid = (a_lo + a_hi) / 2;
    if (cap(mid) >= best - tolerance) a_hi = mid;
    else a_lo = mid + 1;
  }
  return prefix(a_lo);
}

PrimeSet Levels::key_switch_set(const PrimeSet& ta, const RootBound& a) const {
  return prefix_for_key_switch(ta, a, noise_.rounding(), kKeySwitchLossBits);
}

PrimeSet Levels::relin_set(const PrimeSet& tp, const RootBound& n) const {
  if (tp.empty() || tp.front() >= chain_.S()) return tp;
  return prefix_for_key_switch(tp, n, noise_.rounding2(), kKeySwitchLossBits);
}

const RootBound& Levels::key_switch(const PrimeSet& at) const {
  std::vector<double> log2_digits;
  for (const auto& d : chain_.digits()) {
    double bits = 0;
    bool any = false;
    for (int i : d)
      if (std::binary_search(at.begin(), at.end(), i)) bits += chain_.log2_q(i), any = true;
    if (any) log2_digits.push_back(bits);
  }
  // A function of the digits' sizes alone, met at every key switch of a run: kept.
  std::lock_guard<std::mutex> lock(key_switch_mu_);
  auto it = key_switch_.find(log2_digits);
  if (it == key_switch_.end()) it = key_switch_.emplace(log2_digits, noise_.key_switch(log2_digits, chain_.log2_P())).first;
  return it->second;
}

RootBound Levels::product(const RootBound& a, const RootBound& b, const PrimeSet& tp, const PrimeSet& tr) const {
  RootBound r = a;
  r *= b;
  if (tr != tp) {
    r.scale(chain_.log2_Q(tr) - chain_.log2_Q(tp));
    if (!includes(tr, tp)) r += noise_.rounding2();
  }
  r += key_switch(tr);
  return r;
}

RootBound Levels::automorphism(const RootBound& a, const std::vector<int>& perm, const PrimeSet& at) const {
  RootBound r = a.permuted(perm);
  r += key_switch(at);
  return r;
}

}  // namespace cb::bgv
