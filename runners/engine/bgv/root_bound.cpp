#include "engine/bgv/root_bound.h"

#include <algorithm>
#include <numeric>

#include "engine/errors.h"

namespace cb::bgv {

RootBound RootBound::from_values(std::vector<double> values) {
  RootBound r;
  double mx = 0;
  for (double x : values) {
    if (!(x >= 0) || std::isinf(x)) throw ParameterError(msg("RootBound: value ", x, " is not finite and >= 0"));
    mx = std::max(mx, x);
  }
  if (mx == 0) return r;
  r.v_ = std::move(values);
  r.e_ = 0;
  r.normalize();
  return r;
}

RootBound RootBound::flat(long phi, double log2_value) {
  RootBound r;
  if (std::isinf(log2_value) && log2_value < 0) return r;
  r.v_.assign(size_t(phi), 1.0);
  r.e_ = log2_value;
  return r;
}

void RootBound::normalize() {
  // max over the roots with eight independent partial maxima (one chain of dependent
  // max operations does not vectorize; the values are finite and >= 0, so the order of
  // the comparisons does not matter)
  double part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const size_t n = v_.size();
  size_t t = 0;
  for (; t + 8 <= n; t += 8)
    for (int l = 0; l < 8; ++l) part[l] = v_[t + l] > part[l] ? v_[t + l] : part[l];
  double mx = 0;
  for (; t < n; ++t) mx = std::max(mx, v_[t]);
  for (double p : part) mx = std::max(mx, p);
  if (mx == 0) {
    v_.clear();
    e_ = -INFINITY;
    return;
  }
  const double inv = 1.0 / mx;
  for (double& x : v_) x *= inv;
  e_ += std::log2(mx);
}

RootBound& RootBound::operator+=(const RootBound& b) {
  if (b.is_zero()) return *this;
  if (is_zero()) return *this = b;
  if (b.size() != size()) throw ParameterError(msg("RootBound: sizes ", size(), " and ", b.size(), " differ"));
  const double e = std::max(e_, b.e_);
  const double fa = std::exp2(e_ - e), fb = std::exp2(b.e_ - e);
  for (size_t t = 0; t < v_.size(); ++t) v_[t] = fa * v_[t] + fb * b.v_[t];
  e_ = e;
  normalize();
  return *this;
}

RootBound& RootBound::operator*=(const RootBound& b) {
  if (is_zero()) return *this;
  if (b.is_zero()) return *this = RootBound();
  if (b.size() != size()) throw ParameterError(msg("RootBound: sizes ", size(), " and ", b.size(), " differ"));
  for (size_t t = 0; t < v_.size(); ++t) v_[t] *= b.v_[t];
  e_ += b.e_;
  normalize();
  return *this;
}

RootBound& RootBound::scale(double log2_factor) {
  if (!is_zero()) e_ += log2_factor;
  return *this;
}

RootBound RootBound::permuted(const std::vector<int>& perm) const {
  if (is_zero()) return *this;
  if (long(perm.size()) != size()) throw ParameterError(msg("RootBound: permutation of ", perm.size(), " for ", size()));
  RootBound r;
  r.e_ = e_;
  r.v_.resize(v_.size());
  for (size_t t = 0; t < v_.size(); ++t) r.v_[t] = v_[perm[t]];
  return r;
}

std::vector<int> root_permutation(long m, long k) {
  k %= m;
  if (k < 0) k += m;
  if (std::gcd(k, m) != 1)
    throw ParameterError(msg("automorphism X -> X^", k, ": k must be a unit modulo m=", m));
  std::vector<long> pos(m, -1);
  std::vector<long> units;
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) pos[j] = long(units.size()), units.push_back(j);
  std::vector<int> perm(units.size());
  for (size_t t = 0; t < units.size(); ++t) perm[t] = int(pos[(units[t] * k) % m]);
  return perm;
}

}  // namespace cb::bgv
