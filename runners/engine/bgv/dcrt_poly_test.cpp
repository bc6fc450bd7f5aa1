// dcrt_poly_test: integer polynomials into double-CRT form (from_coeffs, from_scaled_coeffs)
// give, limb by limb, the transform of the coefficients reduced modulo that prime, computed
// here independently in 128-bit integers: small coefficients (the vectorized pass), large
// ones (the division per coefficient), and scale * e + plus below q (formed as integers)
// and past it (products modulo q), whatever the signs.
#include <gtest/gtest.h>

#include <ostream>
#include <sstream>
#include <random>
#include <vector>

#include "engine/bgv/context.h"
#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {
namespace {

struct Ring {
  const char* why;
  long m, bits, p;
};
std::ostream& operator<<(std::ostream& os, const Ring& r) { return os << "m" << r.m << "_p" << r.p; }

const Ring kRings[] = {
    {"m = 256, p = 65537: the F_p ciphers' ring shape (encryption's p e0 + mu)", 256, 200, 65537},
    {"m = 257, p = 2: an odd ring, the binary ciphers' from_coeffs", 257, 200, 2},
    {"m = 257, p = 1096486890805657601: IAIK's 60-bit prime, p e past q (products modulo q)", 257, 700, 1096486890805657601L},
};

class DcrtPolyTest : public ::testing::TestWithParam<Ring> {
 protected:
  DcrtPolyTest()
      : ctx([] {
          ContextParams cp{GetParam().m, GetParam().bits, 4, 0};
          cp.p = GetParam().p;
          return cp;
        }()) {}
  // Limb by limb: (scale * e_k + plus_k) mod q in 128-bit integers, then the transform.
  std::vector<uint64_t> reference(const std::vector<int>& primes, __int128 scale, const std::vector<long>& e,
                                  const std::vector<long>& plus) const {
    std::vector<uint64_t> words;
    for (int p : primes) {
      const uint64_t q = ctx.q(p);
      std::vector<uint64_t> tmp(e.size()), out(size_t(ctx.phi()));
      for (size_t k = 0; k < e.size(); ++k) {
        __int128 x = scale * e[k] + (k < plus.size() ? plus[k] : 0);
        x %= (__int128)q;
        if (x < 0) x += q;
        tmp[k] = uint64_t(x);
      }
      ctx.ntt(p).forward(tmp.data(), long(tmp.size()), out.data());
      words.insert(words.end(), out.begin(), out.end());
    }
    return words;
  }
  static std::vector<uint64_t> words(const DCRTPoly& a) {
    std::vector<uint64_t> w;
    for (long i = 0; i < a.num_limbs(); ++i) w.insert(w.end(), a.limb(i), a.limb(i) + a.phi());
    return w;
  }
  std::vector<long> draw(long n, long bound) {  // uniform in [-bound, bound]
    std::uniform_int_distribution<long> d(-bound, bound);
    std::vector<long> v(static_cast<size_t>(n));
    for (auto& x : v) x = d(g);
    return v;
  }
  Context ctx;
  std::mt19937_64 g{2026};
};

TEST_P(DcrtPolyTest, FromCoeffsSmallAndLarge) {
  const auto primes = ctx.ciphertext_primes();
  for (long bound : {40L, 1L << 20, 1L << 55, (1L << 62) - 1}) {
    const auto c = draw(ctx.phi(), bound);
    EXPECT_EQ(words(DCRTPoly::from_coeffs(ctx, primes, c)), reference(primes, 1, c, {})) << "bound " << bound;
  }
  // Fewer coefficients than phi, and one at q itself (the division's edge).
  auto c = draw(ctx.phi() / 3, 7);
  c[0] = long(ctx.q(primes[0]));
  c[1] = -long(ctx.q(primes[0]));
  EXPECT_EQ(words(DCRTPoly::from_coeffs(ctx, primes, c)), reference(primes, 1, c, {}));
}

TEST_P(DcrtPolyTest, FromScaledCoeffsBelowAndPastQ) {
  const auto primes = ctx.ciphertext_primes();
  const long p = ctx.p();
  const long n = ctx.phi();
  // Encryption's p e0 + mu (Gaussian-size e, mu in [0, p)), and p e1 (no plus).
  const auto e = draw(n, 30);
  std::vector<long> mu(static_cast<size_t>(n));
  for (auto& x : mu) x = long(g() % uint64_t(p));
  EXPECT_EQ(words(DCRTPoly::from_scaled_coeffs(ctx, primes, p, e, mu)), reference(primes, p, e, mu));
  EXPECT_EQ(words(DCRTPoly::from_scaled_coeffs(ctx, primes, p, e, {})), reference(primes, p, e, {}));
  // Past q: products modulo q; a shorter plus; negative scales and pluses.
  const auto big = draw(n, 1L << 50);
  const auto plus = draw(n / 2, 1L << 61);
  for (long scale : {p, -p, 1L << 40, -(1L << 40), 0L}) {
    EXPECT_EQ(words(DCRTPoly::from_scaled_coeffs(ctx, primes, scale, big, plus)), reference(primes, scale, big, plus))
        << "scale " << scale;
    const auto small = draw(n, 3);
    EXPECT_EQ(words(DCRTPoly::from_scaled_coeffs(ctx, primes, scale, e, small)), reference(primes, scale, e, small))
        << "scale " << scale;
  }
  // The same words as from_coeffs of the sum where the sum is a 64-bit integer.
  std::vector<long> sum(static_cast<size_t>(n));
  for (long k = 0; k < n; ++k) sum[size_t(k)] = 3 * e[size_t(k)] + mu[size_t(k)];
  EXPECT_EQ(words(DCRTPoly::from_scaled_coeffs(ctx, primes, 3, e, mu)), words(DCRTPoly::from_coeffs(ctx, primes, sum)));
}

INSTANTIATE_TEST_SUITE_P(Rings, DcrtPolyTest, ::testing::ValuesIn(kRings), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});

}  // namespace
}  // namespace cb::bgv
