#include "engine/util/cyclotomic_transform.h"

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

using Algorithm = CyclotomicTransform::Algorithm;

struct RingCase {
  long m;
  const char* why;
  int bits;  // bit length of q: 60 (64-bit kernels) or 50 (IFMA kernels where compiled)
  Algorithm algo = Algorithm::bluestein;
  friend std::ostream& operator<<(std::ostream& os, const RingCase& c) {
    return os << "m" << c.m << "_q" << c.bits << "bit_" << CyclotomicTransform::name(c.algo);
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

class Transform : public ::testing::TestWithParam<RingCase> {
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

TEST_P(Transform, ExposesZmStarAndARootOfOrderM) {
  const long m = GetParam().m;
  const CyclotomicTransform t(m, prime_for(m), GetParam().algo);
  EXPECT_EQ(t.m(), m);
  EXPECT_EQ(t.coeff_count(), m);  // odd m: the inverse's m coefficients
  EXPECT_EQ(t.algorithm(), GetParam().algo);
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

TEST_P(Transform, ForwardMatchesNaiveEvaluation) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q, GetParam().algo);
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

TEST_P(Transform, UnreducedInputsAreReducedOnTheFly) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q, GetParam().algo);
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

TEST_P(Transform, InverseInterpolatesAndVanishesOffZmStar) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q, GetParam().algo);
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

TEST_P(Transform, InverseOfForwardIsCongruentModPhiM) {
  const long m = GetParam().m;
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q, GetParam().algo);
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

TEST_P(Transform, ProductsOfValuesAreRingProducts) {
  // The point of double-CRT: pointwise products are products in Z_q[X]/Phi_m.
  const long m = GetParam().m;
  if (m > 1200) GTEST_SKIP() << "NTL multiplication check only for the small rings";
  const uint64_t q = prime_for(m);
  const CyclotomicTransform t(m, q, GetParam().algo);
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
// kernels when compiled in, else again the 64-bit ones), by Bluestein's algorithm and,
// for squarefree m, by the prime-factor one. Its Rader lengths: p - 1 a power of two for
// 3, 5, 17, 257; split by Agarwal-Cooley into N_p x r for 7 (2 x 3), 11 (2 x 5), 13
// (4 x 3), 31 (2 x 15), 41 (8 x 5), 43 (2 x 21, the short convolution's generic kernel),
// 241 (16 x 15, as in m = 53261), 673 (32 x 21, as in m = 148733); padded for 103.
std::vector<RingCase> rings() {
  const RingCase base[] = {{3, "smallest ring", 0},
                           {7, "N = 16: the shortest vector NTT, from level 1", 0},
                           {257, "prime m, GF(2^16) slots", 0},
                           {243, "prime power 3^5", 0},
                           {343, "prime power 7^3", 0},
                           {771, "3*257", 0},
                           {1155, "four primes 3*5*7*11", 0},
                           {1105, "5*13*17", 0},
                           {1001, "7*11*13: split Rader lengths 2x3, 2x5, 4x3", 0},
                           {1271, "31*41: split 2x15 and 8x5", 0},
                           {723, "3*241: split 16x15, the 241 of m=53261", 0},
                           {2193, "3*17*43: split 2x21", 0},
                           {673, "prime: split 32x21, the 673 of m=148733", 0},
                           {515, "5*103: 102 padded to 256 (2x51 would cost more)", 0},
                           {4369, "17*257, a test ring of the engine", 0}};
  std::vector<RingCase> out;
  for (int bits : {60, 50})
    for (RingCase c : base) {
      out.push_back({c.m, c.why, bits, Algorithm::bluestein});
      if (PrimeFactorTransform::applies(c.m)) out.push_back({c.m, c.why, bits, Algorithm::prime_factor});
    }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Rings, Transform, ::testing::ValuesIn(rings()),
                         ::testing::PrintToStringParamName());

TEST(PrimeFactor, AgreesWithBluesteinWordForWord) {
  // Same zeta, same order of the values: the engine may mix the algorithms across primes.
  // (The papers' rings where it is chosen: 49955 = 5*97*103, 53261 = 13*17*241, 148733 =
  // 13*17*673, 163455 = 3*5*17*641, 164737 = 257*641; and small rings with every kind of
  // Rader convolution.)
  for (long m : {15L, 255L, 1155L, 1001L, 1271L, 2193L, 4369L, 49955L, 53261L, 148733L, 163455L, 164737L})
    for (int bits : {60, 50}) {
      const uint64_t q = ntt_primes(1, bits, uint64_t(m) * uint64_t(bluestein_length(m)))[0];
      const CyclotomicTransform b(m, q, Algorithm::bluestein), p(m, q, Algorithm::prime_factor);
      ASSERT_EQ(b.zeta(), p.zeta());
      ASSERT_EQ(b.zmstar(), p.zmstar());
      std::mt19937_64 rng(m + bits);
      std::vector<uint64_t> a(m), vb(b.phi()), vp(p.phi()), cb(m), cp(m);
      for (auto& x : a) x = rng();  // any words
      b.forward(a.data(), m, vb.data());
      p.forward(a.data(), m, vp.data());
      ASSERT_EQ(vb, vp) << "m=" << m << " bits=" << bits;
      b.inverse(vb.data(), cb.data());
      p.inverse(vp.data(), cp.data());
      ASSERT_EQ(cb, cp) << "m=" << m << " bits=" << bits;
    }
}

TEST(PrimeFactor, ChosenWhereItDoesLessWork) {
  EXPECT_FALSE(PrimeFactorTransform::applies(243));   // 3^5
  EXPECT_FALSE(PrimeFactorTransform::applies(4370));  // even
  EXPECT_TRUE(PrimeFactorTransform::applies(53261));  // 13*17*241
  EXPECT_EQ(PrimeFactorTransform::factors(4369), (std::vector<long>{17, 257}));
  EXPECT_EQ(PrimeFactorTransform::conv_lengths(4369), (std::vector<long>{16, 256}));
  // 13, 17, 241: 12 = 4 x 3 and 240 = 16 x 15 split (Agarwal-Cooley), 16 a power of two.
  EXPECT_EQ(PrimeFactorTransform::conv_lengths(53261), (std::vector<long>{4, 16, 16}));
  EXPECT_EQ(PrimeFactorTransform::short_lengths(53261), (std::vector<long>{3, 1, 15}));
  // 103: 2 x 51 would cost 102 short products per output against a padded 256-point NTT.
  EXPECT_EQ(PrimeFactorTransform::conv_lengths(515), (std::vector<long>{4, 256}));
  EXPECT_EQ(PrimeFactorTransform::short_lengths(515), (std::vector<long>{1, 1}));
  // 17 * 257: the Rader lengths are powers of two, a third of Bluestein's count.
  EXPECT_LT(PrimeFactorTransform::cost(4369), 0.4 * CyclotomicTransform::bluestein_cost(4369));
  EXPECT_EQ(CyclotomicTransform::choose(4369, true), Algorithm::prime_factor);
  EXPECT_EQ(CyclotomicTransform::choose(4369, false), Algorithm::bluestein);  // scalar kernels
  // The papers' rings: the split Rader convolutions make it the cheaper one.
  for (long m : {49955L, 53261L, 148733L, 163455L, 164737L}) {
    EXPECT_LT(PrimeFactorTransform::cost(m), 0.7 * CyclotomicTransform::bluestein_cost(m)) << "m=" << m;
    EXPECT_EQ(CyclotomicTransform::choose(m, true), Algorithm::prime_factor) << "m=" << m;
  }
  EXPECT_EQ(CyclotomicTransform::choose(243, true), Algorithm::bluestein);
  const uint64_t q = ntt_primes(1, 50, uint64_t(4369) * uint64_t(bluestein_length(4369)))[0];
  EXPECT_EQ(CyclotomicTransform(4369, q).algorithm(),
            kIfmaCompiled ? Algorithm::prime_factor : Algorithm::bluestein);
}

TEST(PrimeFactor, MemoryModelMatchesTheTables) {
  // 4369: power-of-two Rader lengths; 1001: split ones (2x3, 2x5, 4x3); 53261 (chosen since
  // the split): 4x3, 16, 16x15.
  for (long m : {4369L, 1001L, 53261L}) {
    long phi = 0;
    for (long j = 1; j < m; ++j) phi += std::gcd(j, m) == 1;
    const auto qs = ntt_primes(3, 50, uint64_t(m) * uint64_t(bluestein_length(m)));
    size_t own = 0;
    bool pf = false;
    for (uint64_t q : qs) {
      const CyclotomicTransform t(m, q);
      own += t.bytes();
      pf |= t.algorithm() == Algorithm::prime_factor;
    }
    EXPECT_EQ(pf, kIfmaCompiled) << "m=" << m;
    EXPECT_EQ(CyclotomicTransform::tables_bytes(m, phi, qs), own + (pf ? CyclotomicTransform::shared_bytes(m, phi) : 0))
        << "m=" << m;
    // The prime-factor tables of every prime, also where Bluestein's would be chosen.
    const PrimeFactorTransform p(m, qs[0], primitive_root_of_unity(m, qs[0]));
    EXPECT_EQ(PrimeFactorTransform::table_bytes(m), p.bytes()) << "m=" << m;
  }
  // The shared tables' size is counted without building them: check against built plans.
  for (long mm : {15L, 1105L, 1155L, 1001L, 1271L, 4369L, 53261L}) {
    const uint64_t q = ntt_primes(1, 50, uint64_t(mm) * uint64_t(bluestein_length(mm)))[0];
    EXPECT_EQ(PrimeFactorTransform::shared_bytes(mm), PrimeFactorTransform(mm, q, primitive_root_of_unity(mm, q)).plan_bytes())
        << "m=" << mm;
  }
}

TEST(TransformFast, FiftyBitPrimesTakeTheIfmaPathWhenCompiled) {
  const long m = 771;
  const uint64_t step = uint64_t(m) * uint64_t(bluestein_length(m));
  const uint64_t q50 = ntt_primes(1, 50, step)[0], q60 = ntt_primes(1, 60, step)[0];
  const CyclotomicTransform t50(m, q50), t60(m, q60), p50(m, q50, Algorithm::prime_factor),
      p60(m, q60, Algorithm::prime_factor);
  EXPECT_EQ(max_fast_prime_bits(), kIfmaCompiled ? 50 : 60);
  EXPECT_EQ(t50.fast(), kIfmaCompiled);
  EXPECT_EQ(p50.fast(), kIfmaCompiled);
  EXPECT_FALSE(p60.fast());
  // All agree with the definition on a lazy input at the top of [0, 4q) and any words.
  for (const CyclotomicTransform* t : {&t50, &t60, &p50, &p60}) {
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

TEST(TransformErrors, NameTheBrokenConstraint) {
  try {
    BluesteinTransform(256, 7681);  // a power of two takes the negacyclic transform (negacyclic_test)
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "BluesteinTransform: m=256 must be odd and >= 3");
  }
  try {
    CyclotomicTransform(257, 7681);  // 7681 - 1 = 2^9 * 15
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "BluesteinTransform: q=7681 is not 1 mod m*N=257*1024=263168 (m=257, N=1024)");
  }
  const uint64_t q = ntt_primes(1, 60, 257 * 1024)[0];
  const CyclotomicTransform t(257, q);
  std::vector<uint64_t> a(258), v(256);
  EXPECT_THROW(t.forward(a.data(), 258, v.data()), ParameterError);
  const CyclotomicTransform p(257, q, Algorithm::prime_factor);
  EXPECT_THROW(p.forward(a.data(), 258, v.data()), ParameterError);
  const uint64_t q243 = ntt_primes(1, 50, 243 * 512)[0];
  try {
    CyclotomicTransform(243, q243, Algorithm::prime_factor);
    FAIL() << "expected ParameterError";
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(),
                 "CyclotomicTransform: m=243 is not squarefree: the prime-factor algorithm needs distinct prime factors");
  }
}

class TransformThreads : public ::testing::TestWithParam<std::tuple<int, Algorithm>> {};

TEST_P(TransformThreads, ConcurrentCallsAgree) {
  const long m = 771;
  const uint64_t q = ntt_primes(1, std::get<0>(GetParam()), uint64_t(m) * bluestein_length(m))[0];
  const CyclotomicTransform t(m, q, std::get<1>(GetParam()));
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

INSTANTIATE_TEST_SUITE_P(Bits, TransformThreads,
                         ::testing::Combine(::testing::Values(60, 50),
                                            ::testing::Values(Algorithm::bluestein, Algorithm::prime_factor)));

}  // namespace
}  // namespace cb::util
