#include "ciphers/common/linearized.h"

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

}  // namespace cb
