#include "engine/bgv/root_bound.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>

#include "engine/errors.h"

namespace cb::bgv {

namespace {
// out[t] = fa x[t] + fb y[t] (sum) or x[t] y[t] (product) for t in [lo, hi), and the
// largest; out may be x or y. Locals only in the loop, so it vectorizes.
double sum_max(double* out, const double* x, const double* y, double fa, double fb, size_t lo, size_t hi) {
  double best = 0;
#pragma omp simd reduction(max : best)
  for (size_t t = lo; t < hi; ++t) {
    const double v = fa * x[t] + fb * y[t];
    out[t] = v;
    best = std::max(best, v);
  }
  return best;
}

double product_max(double* out, const double* x, const double* y, size_t lo, size_t hi) {
  double best = 0;
#pragma omp simd reduction(max : best)
  for (size_t t = lo; t < hi; ++t) {
    const double v = x[t] * y[t];
    out[t] = v;
    best = std::max(best, v);
  }
  return best;
}

double max_of(const double* v, size_t lo, size_t hi) {
  double best = 0;
#pragma omp simd reduction(max : best)
  for (size_t t = lo; t < hi; ++t) best = std::max(best, v[t]);
  return best;
}

void scale_by(double* v, double f, size_t lo, size_t hi) {
#pragma omp simd
  for (size_t t = lo; t < hi; ++t) v[t] *= f;
}
}  // namespace

const RootBound::Values& RootBound::normalized() const {
  static const Values none;
  return v_ ? *v_ : none;
}

RootBound RootBound::from_values(std::vector<double> values) {
  RootBound r;
  for (double x : values)
    if (!(x >= 0) || std::isinf(x)) throw ParameterError(msg("RootBound: value ", x, " is not finite and >= 0"));
  if (values.empty()) return r;
  r.v_ = std::make_shared<Values>(values.begin(), values.end());
  r.e_ = 0;
  r.normalize();
  return r;
}

RootBound RootBound::flat(long phi, double log2_value) {
  RootBound r;
  if ((std::isinf(log2_value) && log2_value < 0) || phi <= 0) return r;
  static std::mutex mu;
  static std::map<long, std::shared_ptr<Values>> ones;  // never written: always shared
  {
    std::lock_guard<std::mutex> lock(mu);
    auto& o = ones[phi];
    if (!o) o = std::make_shared<Values>(size_t(phi), 1.0);
    r.v_ = o;
  }
  r.e_ = log2_value;
  r.flat_ = true;
  return r;
}

double* RootBound::room(std::shared_ptr<Values>& fresh) const {
  if (v_.use_count() == 1) return v_->data();
  fresh = std::make_shared<Values>(v_->size());  // unzeroed: the caller writes every value
  return fresh->data();
}

double RootBound::max_value() const {
  const double* v = v_->data();
  return max_over_roots(v_->size(), [v](size_t lo, size_t hi) { return max_of(v, lo, hi); });
}

void RootBound::rescale(double mx) {
  if (mx == 0) {
    v_.reset();
    e_ = -INFINITY;
    return;
  }
  const double inv = 1.0 / mx;
  double* v = v_->data();
  for_roots(v_->size(), [v, inv](size_t lo, size_t hi) { scale_by(v, inv, lo, hi); });
  e_ += std::log2(mx);
}

RootBound& RootBound::operator+=(const RootBound& b) {
  if (b.is_zero()) return *this;
  if (is_zero()) return *this = b;
  if (b.size() != size()) throw ParameterError(msg("RootBound: sizes ", size(), " and ", b.size(), " differ"));
  const double e = std::max(e_, b.e_);
  const double fa = std::exp2(e_ - e), fb = std::exp2(b.e_ - e);
  std::shared_ptr<Values> fresh;
  double* out = room(fresh);
  const double *x = v_->data(), *y = b.v_->data();  // out may be x (in place) or, for a += a, y too
  const double mx = max_over_roots(size_t(size()), [=](size_t lo, size_t hi) { return sum_max(out, x, y, fa, fb, lo, hi); });
  assign(std::move(fresh));
  e_ = e;
  rescale(mx);
  return *this;
}

RootBound& RootBound::operator*=(const RootBound& b) {
  if (is_zero()) return *this;
  if (b.is_zero()) return *this = RootBound();
  if (b.size() != size()) throw ParameterError(msg("RootBound: sizes ", size(), " and ", b.size(), " differ"));
  // By a flat bound: each value times 1.0 is itself, and the maximum stays 1.0 exactly.
  if (b.flat_) return scale(b.e_);
  if (flat_) {
    const double e = e_;
    *this = b;
    return scale(e);
  }
  std::shared_ptr<Values> fresh;
  double* out = room(fresh);
  const double *x = v_->data(), *y = b.v_->data();
  const double mx = max_over_roots(size_t(size()), [=](size_t lo, size_t hi) { return product_max(out, x, y, lo, hi); });
  assign(std::move(fresh));
  e_ += b.e_;
  rescale(mx);
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
  r.v_ = std::make_shared<Values>(v_->size());
  double* out = r.v_->data();
  const double* x = v_->data();
  const int* p = perm.data();
  for_roots(v_->size(), [=](size_t lo, size_t hi) {
    for (size_t t = lo; t < hi; ++t) out[t] = x[p[t]];
  });
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
