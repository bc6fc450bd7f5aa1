#include "ciphers/common/linearized.h"

#include <algorithm>
#include <cmath>

namespace cb {

uint64_t evaluate(const GF2n& F, const Linearized& L, uint64_t x) {
  uint64_t y = L.c, p = x;  // p = x^(2^j)
  for (size_t j = 0; j < L.gamma.size(); ++j, p = F.sqr(p)) y ^= F.mul(L.gamma[j], p);
  return y;
}

Linearized precompose_frobenius(const Linearized& L, long s) {
  const long n = long(L.gamma.size());
  Linearized R{L.c, std::vector<uint64_t>(n)};
  s = ((s % n) + n) % n;
  for (long j = 0; j < n; ++j) R.gamma[(j + s) % n] = L.gamma[j];
  return R;
}

Linearized postcompose_frobenius(const GF2n& F, const Linearized& L, long s) {
  // (c + sum_j gamma_j x^(2^j))^(2^s) = c^(2^s) + sum_j gamma_j^(2^s) x^(2^(j+s))
  const long n = long(L.gamma.size());
  Linearized R{F.frob(L.c, s), std::vector<uint64_t>(n)};
  s = ((s % n) + n) % n;
  for (long j = 0; j < n; ++j) R.gamma[(j + s) % n] = F.frob(L.gamma[j], s);
  return R;
}

long linearized_baby_steps(const Linearized& L) {
  const long n = long(L.gamma.size());
  long direct = 0;
  for (long j = 1; j < n; ++j) direct += L.gamma[j] != 0;
  const long t = std::max(1L, long(std::ceil(std::sqrt(double(n)))));
  std::vector<bool> baby(t, false), giant((n + t - 1) / t, false);
  for (long j = 0; j < n; ++j)
    if (L.gamma[j]) baby[j % t] = true, giant[j / t] = true;
  const long bsgs = std::count(baby.begin() + 1, baby.end(), true) + std::count(giant.begin() + 1, giant.end(), true);
  return direct <= bsgs ? n : t;
}

}  // namespace cb
