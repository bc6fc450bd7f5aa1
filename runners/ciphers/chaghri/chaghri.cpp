#include "ciphers/chaghri/chaghri.h"

#include "ciphers/reference/field_linalg.h"
#include "engine/errors.h"

namespace cb {
namespace {
#include "ciphers/chaghri/chaghri_params.inc"
}  // namespace

Chaghri::Chaghri() : F_(kN, kModulusLow) {}

uint64_t Chaghri::sbox(uint64_t x) const { return F_.mul(F_.frob(x, 32), x); }

uint64_t Chaghri::affine(uint64_t x) const {
  return F_.mul(kC[0], F_.frob(x, 3)) ^ F_.mul(kC[1], F_.frob(x, 1)) ^ F_.mul(kC[2], x) ^ kC[3];
}

std::vector<uint64_t> Chaghri::affine_gamma() const {
  std::vector<uint64_t> g(kN, 0);
  g[0] = kC[2], g[1] = kC[1], g[3] = kC[0];
  return g;
}
uint64_t Chaghri::affine_constant() const { return kC[3]; }
const uint64_t (&Chaghri::mds_matrix() const)[3][3] { return kMDS; }

Chaghri::State Chaghri::mds(const State& x) const {
  State y{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y[i] ^= F_.mul(kMDS[i][j], x[j]);
  return y;
}

Chaghri::State Chaghri::step(const State& x) const {
  State t;
  for (int i = 0; i < 3; ++i) t[i] = affine(sbox(x[i]));
  return mds(t);
}

long Chaghri::checked(long r) const {
  if (r == 0) return kRounds;
  if (r < 1 || r > kRounds) throw ParameterError(msg("Chaghri rounds=", r, ": must be 1..", kRounds));
  return r;
}

void Chaghri::check(const State& v, const char* what) const {
  for (int i = 0; i < 3; ++i)
    if (v[i] >> kN)
      throw ParameterError(msg("Chaghri: ", what, " element ", i, " 0x", std::hex, v[i], " is not below 2^63"));
}

std::vector<Chaghri::State> Chaghri::key_schedule(const State& key, long rounds) const {
  check(key, "key");
  const long R = checked(rounds);
  std::vector<State> k{key};
  for (int i = 0; i < 3; ++i) k[0][i] ^= kRC0[i];
  for (long s = 1; s <= 2 * R; ++s) {
    State n = step(k.back());
    for (int i = 0; i < 3; ++i) n[i] ^= kRC[s - 1][i];
    k.push_back(n);
  }
  return k;
}

std::vector<Chaghri::State> Chaghri::round_states(const State& key, const State& p, long rounds) const {
  check(p, "block");
  const auto k = key_schedule(key, rounds);
  State d = p;
  for (int i = 0; i < 3; ++i) d[i] ^= k[0][i];
  std::vector<State> out;
  for (size_t s = 1; s < k.size(); ++s) {
    d = step(d);
    for (int i = 0; i < 3; ++i) d[i] ^= k[s][i];
    if (s % 2 == 0) out.push_back(d);
  }
  return out;
}

Chaghri::State Chaghri::encrypt(const State& key, const State& p, long rounds) const {
  return round_states(key, p, rounds).back();
}

Chaghri::State Chaghri::decrypt(const State& key, const State& c, long rounds) const {
  check(c, "block");
  const auto k = key_schedule(key, rounds);
  // The inverses: M^-1 by Gauss-Jordan, B^-1 on GF(2)^63 through its linearized form, and
  // S^-1(y) = y^e with e = (2^32 + 1)^-1 mod 2^63 - 1.
  const std::vector<uint64_t> M(&kMDS[0][0], &kMDS[0][0] + 9);
  const auto Mi = mat_inverse(F_, M);
  unsigned __int128 q1 = (unsigned __int128)(1) << kN;
  q1 -= 1;
  __int128 r0 = __int128(q1), r1 = __int128(kSboxExponent), t0 = 0, t1 = 1;
  while (r1) {
    const __int128 q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
    r0 = r1, r1 = r2, t0 = t1, t1 = t2;
  }
  const uint64_t e = uint64_t(t0 < 0 ? t0 + __int128(q1) : t0);
  // B^-1: solve the linear part column by column (bits of B_0(x^i)), Gauss-Jordan over GF(2).
  std::vector<uint64_t> A(kN, 0), I(kN, 0);
  for (long i = 0; i < kN; ++i) {
    const uint64_t col = affine(uint64_t(1) << i) ^ kC[3];
    for (long r = 0; r < kN; ++r)
      if ((col >> r) & 1) A[r] |= uint64_t(1) << i;
    I[i] = uint64_t(1) << i;
  }
  for (long c = 0; c < kN; ++c) {
    long p = c;
    while (!((A[p] >> c) & 1)) ++p;  // B is a permutation (chaghri_test checks its rank)
    std::swap(A[p], A[c]), std::swap(I[p], I[c]);
    for (long r = 0; r < kN; ++r)
      if (r != c && ((A[r] >> c) & 1)) A[r] ^= A[c], I[r] ^= I[c];
  }
  auto binv = [&](uint64_t y) {
    y ^= kC[3];
    uint64_t x = 0;
    for (long r = 0; r < kN; ++r) x |= uint64_t(__builtin_parityll(I[r] & y)) << r;
    return x;
  };
  State d = c;
  for (size_t s = k.size() - 1; s >= 1; --s) {
    State t;
    for (int i = 0; i < 3; ++i) t[i] = d[i] ^ k[s][i];
    State u{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) u[i] ^= F_.mul(Mi[i * 3 + j], t[j]);
    for (int i = 0; i < 3; ++i) d[i] = F_.pow(binv(u[i]), e);
  }
  for (int i = 0; i < 3; ++i) d[i] ^= k[0][i];
  return d;
}

}  // namespace cb
