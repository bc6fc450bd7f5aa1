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
// B_t = 2^e v_t with max_t v_t = 1; the empty vector is the zero bound.
#pragma once

#include <cmath>
#include <vector>

namespace cb::bgv {

class RootBound {
 public:
  RootBound() = default;  // zero at every root
  // B_t = values[t] (all >= 0).
  static RootBound from_values(std::vector<double> values);
  // B_t = 2^log2_value at each of phi roots.
  static RootBound flat(long phi, double log2_value);

  bool is_zero() const { return v_.empty(); }
  long size() const { return long(v_.size()); }
  double log2_max() const { return v_.empty() ? -INFINITY : e_; }  // log2 max_t B_t
  double log2_at(long t) const { return v_.empty() ? -INFINITY : e_ + std::log2(v_[t]); }
  // v_t = B_t / 2^log2_max (in [0, 1]) and the exponent: B_t = 2^exponent() normalized()[t].
  const std::vector<double>& normalized() const { return v_; }
  double exponent() const { return e_; }

  RootBound& operator+=(const RootBound& b);
  RootBound& operator*=(const RootBound& b);
  RootBound& scale(double log2_factor);  // B_t * 2^log2_factor
  // B'_t = B_perm[t].
  RootBound permuted(const std::vector<int>& perm) const;

 private:
  void normalize();
  double e_ = -INFINITY;
  std::vector<double> v_;
};

// The position permutation of X -> X^k on the roots: sigma_k(a) at root t is a at root
// perm[t], perm[t] = position of j_t k mod m (k a unit modulo m).
std::vector<int> root_permutation(long m, long k);

}  // namespace cb::bgv
