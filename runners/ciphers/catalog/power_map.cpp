#include "ciphers/catalog/power_map.h"

#include <algorithm>

#include "engine/errors.h"

namespace cb {
namespace {

using u128 = unsigned __int128;

uint64_t order_mask(long n) { return n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; }

}  // namespace

std::vector<long> PowerProgram::frobenius_powers() const {
  std::vector<long> js;
  for (const auto& in : instrs)
    if (in.j % n) js.push_back(in.j % n);
  std::sort(js.begin(), js.end());
  js.erase(std::unique(js.begin(), js.end()), js.end());
  return js;
}

PowerProgram compile_power(uint64_t e, long n) {
  if (n < 1 || n > 64) throw ParameterError(msg("power map: n=", n, ": fields GF(2^n) with 1 <= n <= 64"));
  const uint64_t q1 = order_mask(n);  // 2^n - 1, the order of GF(2^n)^*
  const uint64_t er = q1 == ~uint64_t(0) ? (e == q1 ? 0 : e) : e % q1;
  if (er == 0)
    throw ParameterError(msg("power map x^", e, " in GF(2^", n, "): e = 0 mod 2^n - 1 is constant on the units, not a ",
                             "permutation"));
  PowerProgram p;
  p.e = er, p.n = n;
  // The runs of ones of er: (length L, position of the lowest bit).
  std::vector<std::pair<long, long>> runs;
  for (long i = 0; i < n;) {
    if (!((er >> i) & 1)) {
      ++i;
      continue;
    }
    long L = 0;
    while (i + L < n && ((er >> (i + L)) & 1)) ++L;
    runs.push_back({L, i});
    i += L;
  }
  long Lmax = 0;
  for (auto& r : runs) Lmax = std::max(Lmax, r.first);
  std::vector<long> depth{0};
  auto emit = [&](long a, long j, long b) {
    p.instrs.push_back({a, j, b});
    depth.push_back(std::max(depth[a], depth[b]) + 1);
    return long(depth.size()) - 1;
  };
  // The doubling chain: y[i] = y_(2^i), as inversion.h's power_2e_minus_1.
  std::vector<long> y{0};
  while ((2L << (y.size() - 1)) <= Lmax) {
    const long h = 1L << (y.size() - 1);
    y.push_back(emit(y.back(), h % n, y.back()));
  }
  // y_L for each run length, the set bits of L from the lowest up.
  auto run_value = [&](long L) {
    long acc = -1;
    for (long i = 0; i < long(y.size()); ++i) {
      if (!((L >> i) & 1)) continue;
      acc = acc < 0 ? y[i] : emit(acc, (1L << i) % n, y[i]);
    }
    return acc;
  };
  std::vector<std::pair<long, long>> terms;  // (value, shift)
  std::vector<std::pair<long, long>> made;   // (L, value): runs of equal length share y_L
  for (auto& [L, pos] : runs) {
    long v = -1;
    for (auto& [l, val] : made)
      if (l == L) v = val;
    if (v < 0) made.push_back({L, v = run_value(L)});
    terms.push_back({v, pos});
  }
  // Balanced product tree; each product keeps its right operand's shift.
  while (terms.size() > 1) {
    std::vector<std::pair<long, long>> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) {
      const auto& [a, pa] = terms[i + 1];  // the higher shift is Frobenius-moved onto the lower
      const auto& [b, pb] = terms[i];
      next.push_back({emit(a, (pa - pb) % n, b), pb});
    }
    if (terms.size() % 2) next.push_back(terms.back());
    terms = std::move(next);
  }
  p.out = terms[0].first, p.shift = terms[0].second;
  p.depth = depth[p.out];
  return p;
}

PowerProgram compile_power_prime(uint64_t e, uint64_t p) {
  if (p <= 2) throw ParameterError(msg("power map x^", e, " in F_p: p=", p, " is not an odd prime"));
  const uint64_t er = e % (p - 1);
  if (er == 0)
    throw ParameterError(msg("power map x^", e, " in F_", p, ": e = 0 mod p - 1 is constant on the units, not a ",
                             "permutation"));
  PowerProgram pr;
  pr.e = er, pr.n = 1, pr.p = p;
  std::vector<long> depth{0};
  auto emit = [&](long a, long b) {
    pr.instrs.push_back({a, 0, b});
    depth.push_back(std::max(depth[a], depth[b]) + 1);
    return long(depth.size()) - 1;
  };
  // x^(2^i) for every bit of er, by squaring; the set bits' values are the leaves.
  std::vector<long> leaves;
  long sq = 0;  // the value x^(2^i)
  for (long i = 0; (er >> i) != 0; ++i) {
    if (i > 0) sq = emit(sq, sq);
    if ((er >> i) & 1) leaves.push_back(sq);
  }
  // Multiply the two shallowest leaves until one is left (ties: the lower power first).
  while (leaves.size() > 1) {
    std::stable_sort(leaves.begin(), leaves.end(), [&](long a, long b) { return depth[a] < depth[b]; });
    const long v = emit(leaves[1], leaves[0]);
    leaves.erase(leaves.begin(), leaves.begin() + 2);
    leaves.push_back(v);
  }
  pr.out = leaves[0], pr.shift = 0, pr.depth = depth[pr.out];
  return pr;
}

std::optional<uint64_t> inverse_exponent_prime(uint64_t e, uint64_t p) {
  const uint64_t q1 = p - 1;
  __int128 r0 = __int128(q1), r1 = __int128(e % q1), t0 = 0, t1 = 1;
  while (r1 != 0) {
    const __int128 qt = r0 / r1;
    __int128 tmp = r0 - qt * r1;
    r0 = r1, r1 = tmp;
    tmp = t0 - qt * t1;
    t0 = t1, t1 = tmp;
  }
  if (r0 != 1) return std::nullopt;
  if (t0 < 0) t0 += __int128(q1);
  return uint64_t(t0);
}

std::optional<uint64_t> inverse_exponent(uint64_t e, long n) {
  const u128 q1 = (u128(1) << n) - 1;
  // Extended Euclid on (e, 2^n - 1) over signed 128-bit integers.
  __int128 r0 = __int128(q1), r1 = __int128(u128(e) % q1), t0 = 0, t1 = 1;
  while (r1 != 0) {
    const __int128 qt = r0 / r1;
    __int128 tmp = r0 - qt * r1;
    r0 = r1, r1 = tmp;
    tmp = t0 - qt * t1;
    t0 = t1, t1 = tmp;
  }
  if (r0 != 1) return std::nullopt;
  if (t0 < 0) t0 += __int128(q1);
  return uint64_t(t0);
}

}  // namespace cb
