#include "ciphers/pasta/pasta.h"

#include "engine/errors.h"

namespace cb {

PastaXof::PastaXof(const PrimeField& F, uint64_t nonce, uint64_t counter, size_t expect)
    : F_(F), mask_(F.bits() == 64 ? ~uint64_t(0) : (uint64_t(1) << F.bits()) - 1),
      xof_(Shake128::for_block(nonce, counter, expect)) {}

uint64_t PastaXof::element(bool nonzero) {
  while (true) {
    const uint64_t x = xof_.next_u64_be() & mask_;
    if (x < F_.p() && (x != 0 || !nonzero)) return x;
  }
}

std::vector<uint64_t> PastaXof::vector(long k, bool nonzero) {
  std::vector<uint64_t> v(k);
  for (auto& x : v) x = element(nonzero);
  return v;
}

std::vector<uint64_t> pasta_next_row(const PrimeField& F, const std::vector<uint64_t>& row,
                                     const std::vector<uint64_t>& a) {
  const size_t t = row.size();
  std::vector<uint64_t> next(t);
  for (size_t j = 0; j < t; ++j) next[j] = F.add(j ? row[j - 1] : 0, F.mul(row[t - 1], a[j]));
  return next;
}

const std::vector<Pasta::Variant>& Pasta::variants() {
  static const std::vector<Variant> v = {{"Pasta-3", 128, 3}, {"Pasta-4", 32, 4}};
  return v;
}

const std::vector<uint64_t>& Pasta::primes() {
  static const std::vector<uint64_t> p = {65537, 8088322049ull, 1096486890805657601ull};
  return p;
}

std::string Pasta::excluded(uint64_t p) {
  if (p > 3 && p % 3 == 1)
    return msg("p=", p, ": 3 divides p - 1, so x^3 (Pasta's last S-box) is not a permutation of F_p; "
               "Pasta needs p = 2 mod 3");
  return "";
}

Pasta::Pasta(long t, long r, uint64_t p) : t_(t), r_(r), F_(p) {
  if (t < 2) throw ParameterError(msg("Pasta with t=", t, ": a half has at least 2 elements"));
  if (r < 2) throw ParameterError(msg("Pasta with r=", r, ": at least 2 rounds (Feistel rounds, then the cube)"));
  if (const std::string why = excluded(p); !why.empty()) throw ParameterError(why);
}

std::vector<uint64_t> Pasta::keystream(const std::vector<uint64_t>& key, uint64_t nonce, uint64_t counter) const {
  const long t = t_;
  if (long(key.size()) != 2 * t)
    throw ParameterError(msg("Pasta key of ", key.size(), " elements: Pasta with t=", t, " takes 2t = ", 2 * t));
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i] >= F_.p())
      throw ParameterError(msg("Pasta key element ", i, " is ", key[i], ", not below p=", F_.p()));

  PastaXof xof(F_, nonce, counter, 2 * xof_bytes());
  // The two halves.
  std::vector<uint64_t> L(key.begin(), key.begin() + t), R(key.begin() + t, key.end());

  // x <- C^t x + c, C^t given by its row a, its rows generated one after another.
  auto affine = [&](std::vector<uint64_t>& x, const std::vector<uint64_t>& a, const std::vector<uint64_t>& c) {
    std::vector<uint64_t> y(t), row = a;
    for (long i = 0; i < t; ++i) {
      uint64_t s = c[i];
      for (long j = 0; j < t; ++j) s = F_.add(s, F_.mul(row[j], x[j]));
      y[i] = s;
      if (i + 1 < t) row = pasta_next_row(F_, row, a);
    }
    x = y;
  };
  auto feistel = [&](std::vector<uint64_t>& x) {
    for (long i = t - 1; i >= 1; --i) x[i] = F_.add(x[i], F_.sqr(x[i - 1]));  // high to low: x_(i-1) still old
  };
  auto cube = [&](std::vector<uint64_t>& x) {
    for (auto& v : x) v = F_.mul(F_.sqr(v), v);
  };

  for (long j = 0; j <= r_; ++j) {
    // A_j: both matrices' rows, then both constants, from the XOF in this order.
    const auto aL = xof.vector(t, true);
    const auto aR = xof.vector(t, true);
    const auto cL = xof.vector(t, false);
    const auto cR = xof.vector(t, false);
    affine(L, aL, cL);
    affine(R, aR, cR);
    for (long i = 0; i < t; ++i) {
      const uint64_t sum = F_.add(L[i], R[i]);
      L[i] = F_.add(L[i], sum);  // 2L + R
      R[i] = F_.add(R[i], sum);  // L + 2R
    }
    if (j == r_) break;  // A_r ends the permutation
    if (j + 1 < r_) {
      feistel(L);
      feistel(R);
    } else {
      cube(L);
      cube(R);
    }
  }
  return L;
}

}  // namespace cb
