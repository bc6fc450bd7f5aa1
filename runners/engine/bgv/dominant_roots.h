// dominant_roots.h: the roots at which a level decision's maximum can fall.
//
// A level decision (levels.h) weighs some 10 to 60 candidate targets, and each candidate's
// capacity is a maximum over the phi roots u of
//     f(a_u, b_u, r_u) = fa a_u + fb b_u + g r_u    or    (fa a_u + ga r_u)(fb b_u + gb r_u),
// a, b, r normalized bounds (root_bound.h) and coefficients >= 0 that change from one
// candidate to the next. f is non-decreasing in each argument, and so is its value in
// floating point: rounding to nearest is monotone, and so are sums and products of
// non-negative numbers, fused into multiply-adds or not. So where a root v dominates a
// root u (a_v >= a_u, b_v >= b_u, r_v >= r_u), the computed f at u never exceeds the
// computed f at v, and the maximum over all the roots equals, bit for bit, the maximum
// over the roots that no other dominates (the Pareto set of the points (a_u, b_u, r_u)).
// A run's bounds are close to functions of |s(zeta_u)| and of the plaintexts'
// |mu(zeta_u)|, so that set is small: at m=124645 (98304 roots) the decisions of a Vision
// plan keep 1 to about 100 roots. A decision then makes two passes over the roots instead
// of one per candidate.
//
// The set is found in two steps. Pivots: for each positive direction (each vector alone,
// each pair's sum, the sum of all) the first root where it is largest; one pass drops
// every root some pivot dominates (most of them). The survivors are then compared with
// each other: each is checked against the roots kept so far, dropped if one dominates it
// (or equals it), else kept in place of those it dominates (a block-nested-loop skyline).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cb::bgv {

class DominantRoots {
 public:
  // The Pareto set of n points whose coordinates are xs[i][u] (1 to 3 vectors of n values
  // >= 0; a vector given twice counts once). Equal points keep the first.
  DominantRoots(const std::vector<const double*>& xs, size_t n);

  size_t size() const { return index_.size(); }
  const std::vector<uint32_t>& index() const { return index_; }  // increasing
  // x's values at the kept roots, in index() order.
  std::vector<double> at(const double* x) const;

 private:
  std::vector<uint32_t> index_;
};

}  // namespace cb::bgv
