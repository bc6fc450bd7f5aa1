// root_bound.h: a bound on a ring element at every root of the canonical embedding.
//
// For a in Z[X]/Phi_m(X), a(zeta^j) for the phi primitive m-th roots zeta^j, j in Z_m^*
// increasing (the engine's evaluation positions t = 0..phi-1, context.h). A RootBound
// holds numbers B_t >= |a(zeta^(j_t))|. The rules are exact at every root:
//     (a + b)(zeta) = a(zeta) + b(zeta)         ->  B_t + B'_t
//     (a b)(zeta)   = a(zeta) b(zeta)           ->  B_t B'_t
//     sigma_k(a)(zeta^j) = a(zeta^(jk))         ->  B_perm[t] (perm of automorphism_perm(k))
// so a product of two values whose largest values sit at different roots is bounded by
// the product at each root, not by the product of the two maxima.
// Values range far beyond a double (a noise bound near a 3000-bit modulus), so
// B_t = 2^e v_t with max_t v_t = 1; no vector is the zero bound.
//
// Cost. A bound is phi doubles, and the chain planner copies and combines them millions
// of times (one per ciphertext copy, level decision and operation of every chain it
// tries). So the values are shared, never copied: a copy shares them, scale() changes e
// only, and an operation writes into the values in place when no other bound shares them
// (else into new ones). Each pass over the roots is split among the threads where they
// are many (split_roots), element by element as on one thread, so every thread count
// gives the same bits (maxima combine exactly in any order).
#pragma once

#include <omp.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "engine/util/no_init_allocator.h"

namespace cb::bgv {

// Whether a pass over n roots is split among the threads: where the roots are many enough
// to pay for a parallel region and none runs already (the evaluator's, lanes).
constexpr size_t kParallelRoots = 8192;
inline bool split_roots(size_t n) {
  return n >= kParallelRoots && !omp_in_parallel() && omp_get_max_threads() > 1;
}

// f(lo, hi) over consecutive ranges covering [0, n): one range on the calling thread, or
// one per thread where split_roots(n).
template <class F>
void for_roots(size_t n, const F& f) {
  if (!split_roots(n)) return f(size_t(0), n);
#pragma omp parallel
  {
    const size_t t = size_t(omp_get_thread_num()), T = size_t(omp_get_num_threads());
    f(n * t / T, n * (t + 1) / T);
  }
}

// max of kernel(lo, hi) >= 0 over consecutive ranges covering [0, n): one range on the
// calling thread, or one per thread where split_roots(n).
template <class Kernel>
double max_over_roots(size_t n, const Kernel& kernel) {
  if (!split_roots(n)) return kernel(size_t(0), n);
  double best = 0;
#pragma omp parallel reduction(max : best)
  {
    const size_t t = size_t(omp_get_thread_num()), T = size_t(omp_get_num_threads());
    best = kernel(n * t / T, n * (t + 1) / T);
  }
  return best;
}

class RootBound {
 public:
  RootBound() = default;  // zero at every root
  // B_t = values[t] (all >= 0).
  static RootBound from_values(std::vector<double> values);
  // B_t = 2^log2_value at each of phi roots. Flat bounds share one vector of ones per phi
  // (a flat bound costs no memory of its own), and a product by one is a change of
  // exponent: the same bits as the product at every root, without the pass.
  static RootBound flat(long phi, double log2_value);
  bool is_flat() const { return flat_; }

  bool is_zero() const { return !v_; }
  long size() const { return v_ ? long(v_->size()) : 0; }
  double log2_max() const { return v_ ? e_ : -INFINITY; }  // log2 max_t B_t
  double log2_at(long t) const { return v_ ? e_ + std::log2((*v_)[t]) : -INFINITY; }
  // v_t = B_t / 2^log2_max (in [0, 1]) and the exponent: B_t = 2^exponent() normalized()[t].
  using Values = std::vector<double, util::NoInitAllocator<double>>;
  const Values& normalized() const;
  double exponent() const { return e_; }

  RootBound& operator+=(const RootBound& b);
  RootBound& operator*=(const RootBound& b);
  RootBound& scale(double log2_factor);  // B_t * 2^log2_factor
  // B'_t = B_perm[t].
  RootBound permuted(const std::vector<int>& perm) const;

 private:
  // The values to write n of (n = size()): v_'s own when no other bound shares them,
  // else new ones (v_ keeps pointing at the shared values until assign() replaces them).
  double* room(std::shared_ptr<Values>& fresh) const;
  void assign(std::shared_ptr<Values> fresh) {
    if (fresh) {
      v_ = std::move(fresh);
      flat_ = false;
    }
  }
  void normalize() { rescale(max_value()); }  // v_ unshared
  double max_value() const;
  void rescale(double mx);  // v_ unshared, mx its maximum: divided by it (zero: the zero bound)
  double e_ = -INFINITY;
  std::shared_ptr<Values> v_;  // null: the zero bound
  bool flat_ = false;          // v_ is the shared ones of flat()
};

// The position permutation of X -> X^k on the roots: sigma_k(a) at root t is a at root
// perm[t], perm[t] = position of j_t k mod m (k a unit modulo m).
std::vector<int> root_permutation(long m, long k);

}  // namespace cb::bgv
