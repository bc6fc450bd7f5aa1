#include "engine/util/bluestein.h"

#include <gtest/gtest.h>

#include <NTL/ZZX.h>
#include <NTL/ZZ_pX.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

struct RingCase {
  long m;
  const char* why;
  int bits;  // bit length of q: 60 (64-bit kernels) or 50 (IFMA kernels where compiled)
  friend std::ostream& operator<<(std::ostream& os, const RingCase& c) {
    return os << "m" << c.m << "_q" << c.bits << "bit";
  }
};

// Phi_n over Z as (X^n - 1) / prod_{d | n, d < n} Phi_d.
NTL::ZZX cyclotomic(long n) {
  static std::map<long, NTL::ZZX> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  NTL::ZZX p;
  NTL::SetCoeff(p, n, 1);
  NTL::SetCoeff(p, 0, -1);
  for (long d = 1; d < n; ++d)
    if (n % d == 0) p /= cyclotomic(d);
  cache[n] = p;
  return p;
}

class Bluestein : public ::testing::TestWithParam<RingCase> {
 protected:
  static uint64_t prime_for(long m) {
    return ntt_primes(1, GetParam().bits, uint64_t(m) * uint64_t(bluestein_length(m)))[0];
  }
  static std::vector<uint64_t> random_vec(long len, uint64_t q, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> v(len);
    for (auto& x : v) x = rng() % q;
    return v;
  }
  // a(x) mod q by Horner.
  static uint64_t eval(const std::vector<uint64_t>& a, uint64_t x, uint64_t q) {
    uint64_t v = 0;
    for (long k = long(a.size()) - 1; k >= 0; --k) v = add_mod(mul_mod(v, x, q), a[k], q);
    return v;
  }
};

TEST_P(Bluestein, ExposesZmStarAndARootOfOrderM) {
  const long m = GetParam().m;
  const CyclotomicTransform t(m, prime_for(m));
  EXPECT_EQ(t.m(), m);
  EXPECT_EQ(t.n(), bluestein_length(m));
  long phi = 0;
  for (long j = 1; j < m; ++j) phi += std::gcd(j, m) == 1;
  EXPECT_EQ(t.phi(), phi);
  ASSERT_EQ(long(t.zmstar().size()), phi);
  for (long i = 0; i < phi; ++i) {
    EXPECT_EQ(std::gcd(t.zmstar()[i], m), 1);
    if (i > 0) {
      EXPECT_LT(t.zmstar()[i - 1], t.zmstar()[i]);
    }
  }
  EXPECT_EQ(pow_mod(t.zeta(), m, t.q()), 1u);
  for (uint64_t p : prime_factors(m)) EXPECT_NE(pow_mod(t.zeta(), m / p, t.q()), 1u);
}

TEST_P(Bluestein, ForwardMatchesNaiveEvaluation) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q);
  // Full length m, degree < phi, and a short input (ncoeffs < m pads with zeros).
  for (long len : {m, t.phi(), std::min(m, long(7))}) {
    const auto a = random_vec(len, q, 100 + len);
    std::vector<uint64_t> v(t.phi());
    t.forward(a.data(), len, v.data());
    for (long i = 0; i < t.phi(); ++i)
      ASSERT_EQ(v[i], eval(a, pow_mod(t.zeta(), t.zmstar()[i], q), q)) << "len=" << len << " i=" << i;
  }
  std::vector<uint64_t> v(t.phi(), 1);
  t.forward(nullptr, 0, v.data());  // the zero polynomial
  EXPECT_EQ(v, std::vector<uint64_t>(t.phi(), 0));
}

TEST_P(Bluestein, UnreducedInputsAreReducedOnTheFly) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q);
  const auto a = random_vec(m, q, 31);
  auto lazy = a;
  for (long i = 0; i < m; ++i) lazy[i] += (i % 4) * q;  // up to 4q: still < 2^64
  lazy[0] = ~uint64_t(0);                             // any word
  auto ref = a;
  ref[0] = uint64_t(~uint64_t(0) % q);
  std::vector<uint64_t> v(t.phi()), w(t.phi()), b(m), c(m);
  t.forward(ref.data(), m, v.data());
  t.forward(lazy.data(), m, w.data());
  EXPECT_EQ(v, w);
  t.inverse(v.data(), b.data());
  for (long i = 0; i < t.phi(); ++i) w[i] = v[i] + (i % 3) * q;
  t.inverse(w.data(), c.data());
  EXPECT_EQ(b, c);
}

TEST_P(Bluestein, InverseInterpolatesAndVanishesOffZmStar) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q);
  const auto v = random_vec(t.phi(), q, 7);
  std::vector<uint64_t> b(m), back(t.phi());
  t.inverse(v.data(), b.data());
  for (uint64_t x : b) ASSERT_LT(x, q);
  t.forward(b.data(), m, back.data());
  EXPECT_EQ(back, v);
  // b(zeta^j) = 0 for gcd(j, m) > 1 (including j = 0).
  for (long j = 0; j < m; ++j)
    if (std::gcd(j, m) != 1) {
      ASSERT_EQ(eval(b, pow_mod(t.zeta(), j, q), q), 0u) << "j=" << j;
    }
}

TEST_P(Bluestein, InverseOfForwardIsCongruentModPhiM) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q);
  const auto a = random_vec(t.phi(), q, 8);  // degree < phi: already reduced mod Phi_m
  std::vector<uint64_t> v(t.phi()), b(m);
  t.forward(a.data(), t.phi(), v.data());
  t.inverse(v.data(), b.data());

  NTL::ZZ_pPush push(NTL::conv<NTL::ZZ>((unsigned long)q));
  NTL::ZZ_pX phi_q = NTL::conv<NTL::ZZ_pX>(cyclotomic(m)), bq, aq;
  ASSERT_EQ(NTL::deg(phi_q), t.phi());
  for (long i = 0; i < m; ++i) NTL::SetCoeff(bq, i, NTL::conv<NTL::ZZ_p>((unsigned long)b[i]));
  for (long i = 0; i < t.phi(); ++i) NTL::SetCoeff(aq, i, NTL::conv<NTL::ZZ_p>((unsigned long)a[i]));
  EXPECT_EQ((bq % phi_q), aq);
  // And a polynomial of full degree m-1 maps to its own residue mod Phi_m.
  const auto c = random_vec(m, q, 9);
  NTL::ZZ_pX cq;
  for (long i = 0; i < m; ++i) NTL::SetCoeff(cq, i, NTL::conv<NTL::ZZ_p>((unsigned long)c[i]));
  t.forward(c.data(), m, v.data());
  t.inverse(v.data(), b.data());
  for (long i = 0; i < m; ++i) NTL::SetCoeff(bq, i, NTL::conv<NTL::ZZ_p>((unsigned long)b[i]));
  EXPECT_EQ((bq % phi_q), (cq % phi_q));
}

TEST_P(Bluestein, ProductsOfValuesAreRingProducts) {
  // The point of double-CRT: pointwise products are products in Z_q[X]/Phi_m.
  const long m = GetParam().m;
  if (m > 1200) GTEST_SKIP() << "NTL multiplication check only for the small rings";
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q);
  const auto a = random_vec(t.phi(), q, 21), c = random_vec(t.phi(), q, 22);
  std::vector<uint64_t> va(t.phi()), vc(t.phi()), b(m);
  t.forward(a.data(), t.phi(), va.data());
  t.forward(c.data(), t.phi(), vc.data());
  for (long i = 0; i < t.phi(); ++i) va[i] = mul_mod(va[i], vc[i], q);
  t.inverse(va.data(), b.data());
  NTL::ZZ_pPush push(NTL::conv<NTL::ZZ>((unsigned long)q));
  NTL::ZZ_pX phi_q = NTL::conv<NTL::ZZ_pX>(cyclotomic(m)), aq, cq, bq;
  for (long i = 0; i < t.phi(); ++i) {
    NTL::SetCoeff(aq, i, NTL::conv<NTL::ZZ_p>((unsigned long)a[i]));
    NTL::SetCoeff(cq, i, NTL::conv<NTL::ZZ_p>((unsigned long)c[i]));
  }
  for (long i = 0; i < m; ++i) NTL::SetCoeff(bq, i, NTL::conv<NTL::ZZ_p>((unsigned long)b[i]));
  EXPECT_EQ((bq % phi_q), NTL::MulMod(aq, cq, phi_q));
}

// The same rings with 60-bit primes (64-bit Shoup kernels) and 50-bit primes (the IFMA
// kernels when compiled in, else again the 64-bit ones).
std::vector<RingCase> rings() {
  const RingCase base[] = {{3, "smallest ring", 0},
                           {7, "N = 16: the shortest vector NTT, from level 1", 0},
                           {257, "prime m, GF(2^16) slots", 0},
                           {243, "prime power 3^5", 0},
                           {343, "prime power 7^3", 0},
                           {771, "3*257", 0},
                           {1155, "four primes 3*5*7*11", 0},
                           {4369, "17*257, a test ring of the engine", 0}};
  std::vector<RingCase> out;
  for (int bits : {60, 50})
    for (RingCase c : base) out.push_back({c.m, c.why, bits});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Rings, Bluestein, ::testing::ValuesIn(rings()),
                         ::testing::PrintToStringParamName());

TEST(BluesteinFast, FiftyBitPrimesTakeTheIfmaPathWhenCompiled) {
  const long m = 771;
  const uint64_t step = uint64_t(m) * uint64_t(bluestein_length(m));
  const CyclotomicTransform t50(m, ntt_primes(1, 50, step)[0]);
  const CyclotomicTransform t60(m, ntt_primes(1, 60, step)[0]);
  EXPECT_EQ(max_fast_prime_bits(), kIfmaCompiled ? 50 : 60);
  // Both agree with the definition on a lazy input at the top of [0, 4q) and any words.
  for (const CyclotomicTransform* t : {&t50, &t60}) {
    const uint64_t q = t->q();
    std::vector<uint64_t> a(m), lazy(m), v(t->phi()), w(t->phi()), b(m), c(m);
    for (long i = 0; i < m; ++i) a[i] = q - 1 - uint64_t(i);
    for (long i = 0; i < m; ++i) lazy[i] = a[i] + 3 * q;
    for (long i = 0; i < m; i += 97) lazy[i] = a[i] + (~uint64_t(0) / q - 1) * q;  // >= 2^52
    t->forward(a.data(), m, v.data());
    t->forward(lazy.data(), m, w.data());
    ASSERT_EQ(v, w) << "q=" << q;
    t->inverse(v.data(), b.data());
    for (long i = 0; i < t->phi(); ++i) w[i] = v[i] + 3 * q;
    t->inverse(w.data(), c.data());
    EXPECT_EQ(b, c) << "q=" << q;
  }
}

TEST(BluesteinErrors, NameTheBrokenConstraint) {
  try {
    CyclotomicTransform(256, 7681);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "CyclotomicTransform: m=256 must be odd and >= 3");
  }
  try {
    CyclotomicTransform(257, 7681);  // 7681 - 1 = 2^9 * 15
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "CyclotomicTransform: q=7681 is not 1 mod m*N=257*1024=263168 (m=257, N=1024)");
  }
  const uint64_t q = ntt_primes(1, 60, 257 * 1024)[0];
  const CyclotomicTransform t(257, q);
  std::vector<uint64_t> a(258), v(256);
  EXPECT_THROW(t.forward(a.data(), 258, v.data()), ParameterError);
}

class BluesteinThreads : public ::testing::TestWithParam<int> {};

TEST_P(BluesteinThreads, ConcurrentCallsAgree) {
  const long m = 771;
  const uint64_t q = ntt_primes(1, GetParam(), uint64_t(m) * bluestein_length(m))[0];
  const CyclotomicTransform t(m, q);
  std::vector<std::vector<uint64_t>> in(8), out(8), ref(8);
  for (int k = 0; k < 8; ++k) {
    std::mt19937_64 rng(k);
    in[k].resize(m);
    for (auto& x : in[k]) x = rng() % q;
    ref[k].resize(t.phi());
    t.forward(in[k].data(), m, ref[k].data());
    out[k].resize(t.phi());
  }
#pragma omp parallel for num_threads(4)
  for (int k = 0; k < 8; ++k)
    for (int rep = 0; rep < 20; ++rep) t.forward(in[k].data(), m, out[k].data());
  EXPECT_EQ(out, ref);
}

INSTANTIATE_TEST_SUITE_P(Bits, BluesteinThreads, ::testing::Values(60, 50));

}  // namespace
}  // namespace cb::util
