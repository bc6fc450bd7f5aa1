#include "engine/bgv/dominant_roots.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "engine/bgv/root_bound.h"
#include "engine/errors.h"

namespace cb::bgv {

namespace {
template <size_t K>
struct Point {
  std::array<double, K> x;
  uint32_t u;
  bool at_least(const Point& o) const {  // dominates or equals o
    for (size_t i = 0; i < K; ++i)
      if (x[i] < o.x[i]) return false;
    return true;
  }
};

// The roots of [lo, hi) that no pivot met before them dominates or equals, appended to
// cand. Pivots: for each direction (a non-empty subset of the vectors) the root met so far
// where its sum is largest. A dominated root exceeds no direction's best, so only the roots
// kept can change a pivot; the flags of a block are computed by a vector loop against the
// pivots of its start.
template <size_t K>
void filter(const std::array<const double*, K>& x, size_t lo, size_t hi, std::vector<Point<K>>& cand) {
  constexpr size_t D = (size_t(1) << K) - 1;
  std::array<double, D> top;
  top.fill(-1.0);
  double P[K][D];  // the pivots' coordinates; -1 (no pivot yet) dominates no value >= 0
  for (size_t i = 0; i < K; ++i)
    for (size_t d = 0; d < D; ++d) P[i][d] = -1.0;
  constexpr size_t kBlock = 256;
  uint8_t out[kBlock];
  for (size_t b = lo; b < hi; b += kBlock) {
    const size_t e = std::min(hi, b + kBlock);
#pragma omp simd
    for (size_t u = b; u < e; ++u) {
      int dominated = 0;
      for (size_t d = 0; d < D; ++d) {
        int all = 1;
        for (size_t i = 0; i < K; ++i) all &= int(x[i][u] <= P[i][d]);
        dominated |= all;
      }
      out[u - b] = uint8_t(dominated ^ 1);  // 1: kept
    }
    for (size_t u = b; u < e; ++u) {
      if ((u - b) % 8 == 0 && u + 8 <= e) {  // most roots are dropped: skip 8 flags at once
        uint64_t w;
        std::memcpy(&w, out + (u - b), 8);
        if (w == 0) {
          u += 7;
          continue;
        }
      }
      if (!out[u - b]) continue;
      Point<K> p{{}, uint32_t(u)};
      for (size_t i = 0; i < K; ++i) p.x[i] = x[i][u];
      cand.push_back(p);
      for (size_t d = 0; d < D; ++d) {
        double sum = 0;
        for (size_t i = 0; i < K; ++i)
          if ((d + 1) >> i & 1) sum += p.x[i];
        if (sum > top[d]) {
          top[d] = sum;
          for (size_t i = 0; i < K; ++i) P[i][d] = p.x[i];
        }
      }
    }
  }
}

template <size_t K>
std::vector<uint32_t> pareto(const std::array<const double*, K>& x, size_t n) {
  // The filter over each thread's share of the roots (split_roots), then the survivors
  // against each other: each against the points kept so far (the one that last dominated
  // a point moves to the front: it is likely to dominate the next).
  std::vector<Point<K>> cand;
  if (!split_roots(n)) {
    filter(x, 0, n, cand);
  } else {
    std::vector<std::vector<Point<K>>> part(static_cast<size_t>(omp_get_max_threads()));
#pragma omp parallel
    {
      const size_t t = size_t(omp_get_thread_num()), T = size_t(omp_get_num_threads());
      filter(x, n * t / T, n * (t + 1) / T, part[t]);
    }
    for (const auto& v : part) cand.insert(cand.end(), v.begin(), v.end());
  }
  std::vector<Point<K>> kept;
  for (const Point<K>& p : cand) {
    bool dominated = false;
    for (size_t j = 0; j < kept.size(); ++j)
      if (kept[j].at_least(p)) {
        std::swap(kept[j], kept[0]);
        dominated = true;
        break;
      }
    if (dominated) continue;
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](const Point<K>& q) { return p.at_least(q); }), kept.end());
    kept.push_back(p);
  }
  std::vector<uint32_t> index;
  index.reserve(kept.size());
  for (const auto& p : kept) index.push_back(p.u);
  std::sort(index.begin(), index.end());
  return index;
}
}  // namespace

DominantRoots::DominantRoots(const std::vector<const double*>& xs, size_t n) {
  std::vector<const double*> v;
  for (const double* x : xs)
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  if (v.empty() || v.size() > 3) throw Error(msg("DominantRoots: ", v.size(), " distinct vectors (1 to 3)"));
  if (n > std::numeric_limits<uint32_t>::max()) throw Error(msg("DominantRoots: ", n, " roots"));
  if (n == 0) return;
  if (v.size() == 1) index_ = pareto<1>({v[0]}, n);
  else if (v.size() == 2) index_ = pareto<2>({v[0], v[1]}, n);
  else index_ = pareto<3>({v[0], v[1], v[2]}, n);
}

std::vector<double> DominantRoots::at(const double* x) const {
  std::vector<double> out(index_.size());
  for (size_t j = 0; j < index_.size(); ++j) out[j] = x[index_[j]];
  return out;
}

}  // namespace cb::bgv
