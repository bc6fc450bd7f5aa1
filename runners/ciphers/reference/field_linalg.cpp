// field_linalg.cpp: Gauss-Jordan over GF(2^n) and the Moore-matrix solve for linearized
// polynomial coefficients.
#include "ciphers/reference/field_linalg.h"

#include <cmath>
#include <utility>

#include "engine/errors.h"

namespace cb {

namespace {

long side_of(const std::vector<uint64_t>& A) {
  const long k = std::lround(std::sqrt(double(A.size())));
  if (k * k != long(A.size()))
    throw ParameterError(msg("matrix has ", A.size(), " entries: a square k x k matrix needs k^2"));
  return k;
}

}  // namespace

std::vector<uint64_t> mat_vec(const GF2n& F, const std::vector<uint64_t>& A, const std::vector<uint64_t>& x) {
  const long k = long(x.size());
  if (long(A.size()) != k * k)
    throw ParameterError(msg("matrix has ", A.size(), " entries: a vector of length ", k, " needs ", k * k));
  std::vector<uint64_t> y(k, 0);
  for (long i = 0; i < k; ++i)
    for (long j = 0; j < k; ++j) y[i] ^= F.mul(A[i * k + j], x[j]);
  return y;
}

std::vector<uint64_t> mat_inverse(const GF2n& F, const std::vector<uint64_t>& A) {
  const long k = side_of(A);
  std::vector<uint64_t> a = A, r(k * k, 0);
  for (long i = 0; i < k; ++i) r[i * k + i] = 1;
  for (long col = 0; col < k; ++col) {
    long piv = col;
    while (piv < k && a[piv * k + col] == 0) ++piv;
    if (piv == k) throw ParameterError(msg("the ", k, "x", k, " matrix is singular (column ", col, " has no pivot)"));
    for (long j = 0; j < k; ++j) {
      std::swap(a[col * k + j], a[piv * k + j]);
      std::swap(r[col * k + j], r[piv * k + j]);
    }
    const uint64_t s = F.inv(a[col * k + col]);
    for (long j = 0; j < k; ++j) {
      a[col * k + j] = F.mul(s, a[col * k + j]);
      r[col * k + j] = F.mul(s, r[col * k + j]);
    }
    for (long i = 0; i < k; ++i) {
      const uint64_t t = a[i * k + col];
      if (i == col || t == 0) continue;
      for (long j = 0; j < k; ++j) {
        a[i * k + j] ^= F.mul(t, a[col * k + j]);
        r[i * k + j] ^= F.mul(t, r[col * k + j]);
      }
    }
  }
  return r;
}

std::vector<uint64_t> linearized_coefficients(const GF2n& F, const std::function<uint64_t(uint64_t)>& L) {
  const long n = F.n();
  std::vector<uint64_t> moore(n * n), values(n);
  for (long i = 0; i < n; ++i) {
    const uint64_t xi = uint64_t(1) << i;
    values[i] = L(xi);
    for (long j = 0; j < n; ++j) moore[i * n + j] = F.frob(xi, j);
  }
  return mat_vec(F, mat_inverse(F, moore), values);
}

uint64_t eval_linearized(const GF2n& F, const std::vector<uint64_t>& gamma, uint64_t x) {
  uint64_t acc = 0;
  for (uint64_t g : gamma) {
    acc ^= F.mul(g, x);
    x = F.sqr(x);
  }
  return acc;
}

}  // namespace cb
