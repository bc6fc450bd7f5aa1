#include "engine/util/ntt.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

struct NttCase {
  int log_n;
  int bits;  // bit length of q
  friend std::ostream& operator<<(std::ostream& os, const NttCase& c) {
    return os << "N" << (1L << c.log_n) << "_q" << c.bits << "bit";
  }
};

class NttTest : public ::testing::TestWithParam<NttCase> {
 protected:
  Ntt make() const {
    const NttCase c = GetParam();
    return Ntt(c.log_n, ntt_primes(1, c.bits, uint64_t(1) << c.log_n)[0]);
  }
  static std::vector<uint64_t> random_poly(long n, uint64_t q, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> a(n);
    for (auto& x : a) x = rng() % q;
    return a;
  }
};

long bitrev(long x, int bits) {
  long r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

TEST_P(NttTest, ForwardEvaluatesAtBitReversedPowersOfOmega) {
  const Ntt ntt = make();
  const long n = ntt.n();
  if (n > 1024) GTEST_SKIP() << "naive evaluation only for small N";
  const uint64_t q = ntt.q();
  const auto a = random_poly(n, q, 11);
  auto A = a;
  ntt.forward(A.data());
  for (long i = 0; i < n; ++i) {
    const uint64_t x = pow_mod(ntt.omega(), bitrev(i, ntt.log_n()), q);
    uint64_t v = 0;
    for (long k = n - 1; k >= 0; --k) v = add_mod(mul_mod(v, x, q), a[k], q);  // Horner
    ASSERT_EQ(A[i], v) << "i=" << i;
  }
}

TEST_P(NttTest, ForwardIsCorrectAtSampledIndicesForLargeN) {
  // The cache-blocked schedule only kicks in for large N: spot-check it directly.
  const Ntt ntt = make();
  const long n = ntt.n();
  const uint64_t q = ntt.q();
  const auto a = random_poly(n, q, 16);
  auto A = a;
  ntt.forward(A.data());
  std::mt19937_64 rng(17);
  for (int s = 0; s < 24; ++s) {
    const long i = s < 4 ? (n - 1) * (s % 2) : long(rng() % n);
    const uint64_t x = pow_mod(ntt.omega(), bitrev(i, ntt.log_n()), q);
    uint64_t v = 0;
    for (long k = n - 1; k >= 0; --k) v = add_mod(mul_mod(v, x, q), a[k], q);
    ASSERT_EQ(A[i], v) << "i=" << i;
  }
}

TEST_P(NttTest, ConvolveLevelsMatchesSeparateSteps) {
  // convolve_levels fuses forward levels, pointwise product and inverse levels.
  const Ntt ntt = make();
  const long n = ntt.n();
  const uint64_t q = ntt.q();
  auto a = random_poly(n, q, 18);
  const auto k = random_poly(n, q, 19);
  std::vector<uint64_t> kp(n);
  for (long i = 0; i < n; ++i) kp[i] = ntt.companion(k[i]);
  for (int from : {0, 1}) {
    auto want = a, got = a;
    ntt.forward(want.data());
    for (long i = 0; i < n; ++i) want[i] = mul_mod(want[i], k[i], q);
    ntt.inverse(want.data());  // includes 1/N
    if (from == 1) {           // caller does level 0 (s = 1) itself
      for (long i = 0; i < n / 2; ++i) {
        const uint64_t lo = got[i], hi = got[i + n / 2];
        got[i] = lo + hi;
        got[i + n / 2] = lo + q - hi;
      }
    }
    const uint64_t F = ntt.forward_bound(), I = ntt.inverse_bound();
    // Inputs may be up to F q (from == 1 wrote [0, 2q) above).
    for (long i = 0; i < n; i += 3) got[i] += (F - 2) * q;
    ntt.convolve_levels(got.data(), k.data(), kp.data(), from, from);
    for (long i = 0; i < n; ++i) ASSERT_LT(got[i], I * q);
    if (from == 1) {
      for (long i = 0; i < n / 2; ++i) {
        const uint64_t lo = got[i], hi = got[i + n / 2];
        got[i] = lo + hi;
        got[i + n / 2] = lo + I * q - hi;  // convolve_levels returns [0, I q)
      }
    }
    const uint64_t n_inv = inv_mod(uint64_t(n) % q, q);
    for (long i = 0; i < n; ++i) ASSERT_EQ(mul_mod(got[i], n_inv, q), want[i]) << "from=" << from << " i=" << i;
  }
}

TEST_P(NttTest, InverseUndoesForward) {
  const Ntt ntt = make();
  const auto a = random_poly(ntt.n(), ntt.q(), 12);
  auto b = a;
  ntt.forward(b.data());
  for (uint64_t x : b) ASSERT_LT(x, ntt.q());
  ntt.inverse(b.data());
  EXPECT_EQ(a, b);
  ntt.inverse(b.data());  // also the other way round
  ntt.forward(b.data());
  EXPECT_EQ(a, b);
}

TEST_P(NttTest, PointwiseProductIsCyclicConvolution) {
  const Ntt ntt = make();
  const long n = ntt.n();
  if (n > 256) GTEST_SKIP() << "schoolbook only for small N";
  const uint64_t q = ntt.q();
  const auto a = random_poly(n, q, 13), b = random_poly(n, q, 14);
  std::vector<uint64_t> want(n, 0);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      want[(i + j) % n] = add_mod(want[(i + j) % n], mul_mod(a[i], b[j], q), q);
  auto A = a, B = b;
  ntt.forward(A.data());
  ntt.forward(B.data());
  for (long i = 0; i < n; ++i) A[i] = mul_mod(A[i], B[i], q);
  ntt.inverse(A.data());
  EXPECT_EQ(A, want);
}

TEST_P(NttTest, LazyLevelsAcceptUnreducedInputs) {
  // forward_levels takes and gives [0, F q); inverse_levels takes and gives [0, I q), no
  // 1/N; (F, I) = (8, 4), or (4, 2) for the IFMA moduli. Spread inputs over the whole
  // range, then put every input at the top of it (the largest multiplicands).
  const Ntt ntt = make();
  const long n = ntt.n();
  const uint64_t q = ntt.q(), F = ntt.forward_bound(), I = ntt.inverse_bound();
  EXPECT_EQ(ntt.fast(), kIfmaCompiled && q < kMaxIfmaModulus);
  EXPECT_EQ(F, ntt.fast() ? 4u : 8u);
  EXPECT_EQ(I, ntt.fast() ? 2u : 4u);
  auto a = random_poly(n, q, 15);
  for (long i = 0; i < n; i += 5) a[i] = q - 1;
  auto ref = a;
  ntt.forward(ref.data());
  for (bool top : {false, true}) {
    auto lazy = a;
    for (long i = 0; i < n; ++i) lazy[i] += (top ? F - 1 : i % F) * q;  // same residues
    ntt.forward_levels(lazy.data(), 0);
    for (long i = 0; i < n; ++i) {
      ASSERT_LT(lazy[i], F * q) << "top=" << top << " i=" << i;
      ASSERT_EQ(lazy[i] % q, ref[i]) << "top=" << top << " i=" << i;
    }
    for (long i = 0; i < n; ++i) lazy[i] = ref[i] + (top ? I - 1 : i % I) * q;
    ntt.inverse_levels(lazy.data(), 0);
    for (long i = 0; i < n; ++i) {
      ASSERT_LT(lazy[i], I * q) << "top=" << top << " i=" << i;
      ASSERT_EQ(lazy[i] % q, mul_mod(a[i], uint64_t(n) % q, q)) << "top=" << top << " i=" << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Lengths, NttTest,
                         ::testing::Values(NttCase{1, 20}, NttCase{2, 30}, NttCase{3, 60},
                                           NttCase{6, 60}, NttCase{8, 61}, NttCase{10, 61},
                                           NttCase{14, 60}, NttCase{17, 60},
                                           // below 2^50: the IFMA kernels where compiled
                                           NttCase{3, 50}, NttCase{4, 50}, NttCase{6, 50},
                                           NttCase{8, 49}, NttCase{10, 50}, NttCase{14, 50},
                                           NttCase{17, 50}),
                         ::testing::PrintToStringParamName());

TEST(Ntt, RejectsBadParametersWithReasons) {
  try {
    Ntt(3, 13);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Ntt: q=13 is not 1 mod N=8");
  }
  EXPECT_THROW(Ntt(3, 15), ParameterError);  // not prime
  EXPECT_NO_THROW(Ntt(3, 17, 2));            // 2 has order 8 mod 17
  try {
    Ntt(3, 17, 4);  // 4 has order 4 mod 17
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Ntt: omega=4 is not a primitive 8-th root of unity mod q=17");
  }
}

}  // namespace
}  // namespace cb::util
