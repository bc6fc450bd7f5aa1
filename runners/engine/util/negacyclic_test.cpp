// The power-of-two rings' transform (negacyclic.h, behind CyclotomicTransform) against a
// direct O(phi m) evaluation at the odd powers of zeta, word for word, at several k and
// primes of each kind of kernel (IFMA's 50 bits and below, the 64-bit ones' 60), and the
// negacyclic Ntt tables it runs on.
#include "engine/util/negacyclic.h"

#include <gtest/gtest.h>

#include <NTL/ZZ_pX.h>

#include <random>
#include <string>

#include "engine/errors.h"
#include "engine/util/cyclotomic_transform.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

using Algorithm = CyclotomicTransform::Algorithm;

struct Pow2Case {
  int k;     // m = 2^k
  int bits;  // of q: 60 (64-bit kernels), 50 (IFMA where compiled), 30 (a small prime)
  friend std::ostream& operator<<(std::ostream& os, const Pow2Case& c) {
    return os << "m" << (1L << c.k) << "_q" << c.bits << "bit";
  }
};

std::vector<uint64_t> random_vec(long len, uint64_t q, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(len);
  for (auto& x : v) x = rng() % q;
  return v;
}

// a(x) mod q by Horner's rule.
uint64_t eval(const std::vector<uint64_t>& a, uint64_t x, uint64_t q) {
  uint64_t v = 0;
  for (long i = long(a.size()) - 1; i >= 0; --i) v = add_mod(mul_mod(v, x, q), a[i], q);
  return v;
}

class Pow2Transform : public ::testing::TestWithParam<Pow2Case> {
 protected:
  long m() const { return 1L << GetParam().k; }
  uint64_t prime() const { return ntt_primes(1, GetParam().bits, uint64_t(m()))[0]; }
};

TEST_P(Pow2Transform, TakesTheOddPowersOfAPrimitiveRoot) {
  const long m = this->m();
  const CyclotomicTransform t(m, prime());
  EXPECT_EQ(t.algorithm(), Algorithm::negacyclic);
  EXPECT_EQ(t.phi(), m / 2);
  ASSERT_EQ(long(t.zmstar().size()), m / 2);
  for (long i = 0; i < m / 2; ++i) ASSERT_EQ(t.zmstar()[i], 2 * i + 1);
  EXPECT_EQ(pow_mod(t.zeta(), m / 2, t.q()), t.q() - 1);  // order exactly m
  EXPECT_EQ(t.zeta(), primitive_root_of_unity(uint64_t(m), t.q()));
  EXPECT_EQ(t.fast(), kIfmaCompiled && GetParam().bits <= 50);
  EXPECT_EQ(t.coeff_count(), m / 2);
}

TEST_P(Pow2Transform, ForwardMatchesDirectEvaluation) {
  const long m = this->m(), phi = m / 2;
  const uint64_t q = prime();
  const CyclotomicTransform t(m, q);
  // Degree < m (folded modulo X^phi + 1), < phi, between the two, and a short input.
  for (long len : {m, phi, std::min(phi + 3, m), std::min(phi, 3L), 1L}) {
    const auto a = random_vec(len, q, 100 + uint64_t(len));
    std::vector<uint64_t> v(phi);
    t.forward(a.data(), len, v.data());
    for (long i = 0; i < phi; ++i)
      ASSERT_EQ(v[i], eval(a, pow_mod(t.zeta(), uint64_t(2 * i + 1), q), q)) << "len=" << len << " i=" << i;
  }
  std::vector<uint64_t> v(phi, 1);
  t.forward(nullptr, 0, v.data());
  EXPECT_EQ(v, std::vector<uint64_t>(phi, 0));
}

TEST_P(Pow2Transform, InverseReturnsTheReducedCoefficients) {
  const long m = this->m(), phi = m / 2;
  const uint64_t q = prime();
  const CyclotomicTransform t(m, q);
  // Values of a random element: b must interpolate them, and have degree < phi.
  const auto v = random_vec(phi, q, 7);
  std::vector<uint64_t> b(m, 12345), back(phi);
  t.inverse(v.data(), b.data());
  for (long i = 0; i < phi; ++i) ASSERT_LT(b[i], q);
  for (long i = phi; i < m; ++i) ASSERT_EQ(b[i], 0u) << "i=" << i;
  for (long i = 0; i < phi; ++i)
    ASSERT_EQ(eval(b, pow_mod(t.zeta(), uint64_t(2 * i + 1), q), q), v[i]) << "i=" << i;
  // A polynomial of degree < m comes back as its remainder modulo X^phi + 1 (NTL's).
  const auto a = random_vec(m, q, 8);
  std::vector<uint64_t> w(phi), r(m);
  t.forward(a.data(), m, w.data());
  t.inverse(w.data(), r.data());
  NTL::ZZ_pPush push(NTL::conv<NTL::ZZ>((unsigned long)q));
  NTL::ZZ_pX f, aq;
  NTL::SetCoeff(f, phi, 1);
  NTL::SetCoeff(f, 0, 1);
  for (long i = 0; i < m; ++i) NTL::SetCoeff(aq, i, NTL::conv<NTL::ZZ_p>(NTL::conv<NTL::ZZ>((unsigned long)a[i])));
  const NTL::ZZ_pX rem = aq % f;
  for (long i = 0; i < phi; ++i) {
    unsigned long c = 0;
    NTL::conv(c, NTL::rep(NTL::coeff(rem, i)));
    ASSERT_EQ(r[i], uint64_t(c)) << "i=" << i;
  }
}

TEST_P(Pow2Transform, UnreducedInputsAreReducedOnTheFly) {
  const long m = this->m(), phi = m / 2;
  const uint64_t q = prime();
  const CyclotomicTransform t(m, q);
  const auto a = random_vec(m, q, 31);
  auto lazy = a;
  for (long i = 0; i < m; ++i) lazy[i] += uint64_t(i % 8) * q;  // up to 8q
  lazy[0] = ~uint64_t(0);                                      // any word, in both halves
  lazy[phi] = ~uint64_t(0) - 5;
  lazy[phi - 1] = ~uint64_t(0) - 1;
  auto ref = a;
  ref[0] = ~uint64_t(0) % q;
  ref[phi] = (~uint64_t(0) - 5) % q;
  ref[phi - 1] = (~uint64_t(0) - 1) % q;
  for (long len : {m, phi}) {
    std::vector<uint64_t> v(phi), w(phi);
    t.forward(ref.data(), len, v.data());
    t.forward(lazy.data(), len, w.data());
    ASSERT_EQ(v, w) << "len=" << len;
  }
  std::vector<uint64_t> v(phi), w(phi), b(m), c(m);
  t.forward(ref.data(), m, v.data());
  t.inverse(v.data(), b.data());
  for (long i = 0; i < phi; ++i) w[i] = v[i] + uint64_t(i % 5) * q;
  w[phi / 2] = ~uint64_t(0);
  t.inverse(w.data(), c.data());
  w[phi / 2] = ~uint64_t(0) % q;
  std::vector<uint64_t> d(m);
  t.inverse(w.data(), d.data());
  EXPECT_EQ(c, d);
  for (long i = 0; i < phi; ++i) w[i] = v[i];
  t.inverse(w.data(), d.data());
  EXPECT_EQ(b, d);
}

TEST_P(Pow2Transform, ProductsOfValuesAreNegacyclicProducts) {
  // The ring's multiplication: values multiply pointwise, coefficients wrap with a sign.
  const long m = this->m(), phi = m / 2;
  const uint64_t q = prime();
  const CyclotomicTransform t(m, q);
  const auto a = random_vec(phi, q, 41), b = random_vec(phi, q, 42);
  std::vector<uint64_t> va(phi), vb(phi), c(m);
  t.forward(a.data(), phi, va.data());
  t.forward(b.data(), phi, vb.data());
  for (long i = 0; i < phi; ++i) va[i] = mul_mod(va[i], vb[i], q);
  t.inverse(va.data(), c.data());
  std::vector<uint64_t> ref(phi, 0);
  for (long i = 0; i < phi; ++i)
    for (long j = 0; j < phi; ++j) {
      const uint64_t p = mul_mod(a[i], b[j], q);
      const long k = i + j;
      if (k < phi) {
        ref[k] = add_mod(ref[k], p, q);
      } else {
        ref[k - phi] = sub_mod(ref[k - phi], p, q);
      }
    }
  for (long i = 0; i < phi; ++i) ASSERT_EQ(c[i], ref[i]) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Rings, Pow2Transform,
                         ::testing::Values(Pow2Case{2, 30}, Pow2Case{3, 60}, Pow2Case{4, 50}, Pow2Case{5, 30},
                                           Pow2Case{6, 60}, Pow2Case{7, 50}, Pow2Case{8, 50}, Pow2Case{8, 60},
                                           Pow2Case{9, 30}, Pow2Case{10, 50}, Pow2Case{11, 60},
                                           Pow2Case{12, 50}),
                         ::testing::PrintToStringParamName());

TEST(NegacyclicNtt, TablesEvaluateAtTheOddPowersOfPsi) {
  // The descent from c = -1: leaf i holds a(psi^(2 bitrev(i) + 1)), and inverse() undoes it.
  for (int log_n : {1, 2, 3, 4, 5, 9}) {
    const long n = 1L << log_n;
    for (int bits : {50, 60}) {
      const uint64_t q = ntt_primes(1, bits, 2 * uint64_t(n))[0];
      const Ntt ntt = Ntt::negacyclic(log_n, q);
      EXPECT_TRUE(ntt.is_negacyclic());
      const uint64_t psi = ntt.psi();
      EXPECT_EQ(pow_mod(psi, uint64_t(n), q), q - 1);
      EXPECT_EQ(ntt.omega(), mul_mod(psi, psi, q));
      const auto a = random_vec(n, q, uint64_t(log_n));
      auto x = a;
      ntt.forward(x.data());
      for (long i = 0; i < n; ++i) {
        long r = 0;
        for (int b = 0; b < log_n; ++b) r |= ((i >> b) & 1) << (log_n - 1 - b);
        ASSERT_EQ(x[i], eval(a, pow_mod(psi, uint64_t(2 * r + 1), q), q)) << "N=" << n << " i=" << i;
      }
      ntt.inverse(x.data());
      EXPECT_EQ(x, a) << "N=" << n;
    }
  }
  // The cyclic constructor keeps its tables: not negacyclic, psi() 0.
  const Ntt cyclic(4, ntt_primes(1, 50, 16)[0]);
  EXPECT_FALSE(cyclic.is_negacyclic());
  EXPECT_EQ(cyclic.psi(), 0u);
}

TEST(Pow2TransformChoice, NegacyclicForEveryPowerOfTwo) {
  for (long m : {4L, 64L, 65536L, 1L << 20}) {
    EXPECT_EQ(CyclotomicTransform::choose(m, true), Algorithm::negacyclic) << "m=" << m;
    EXPECT_EQ(CyclotomicTransform::choose(m, false), Algorithm::negacyclic) << "m=" << m;
    EXPECT_EQ(CyclotomicTransform::step(m), uint64_t(m));
    // Its count is far below Bluestein's for an odd m of about the same phi.
    EXPECT_LT(CyclotomicTransform::cost(m), 0.25 * CyclotomicTransform::bluestein_cost(m + 1)) << "m=" << m;
  }
  EXPECT_EQ(CyclotomicTransform::step(257), 257u * 1024u);
  EXPECT_EQ(CyclotomicTransform::choose(257, true), Algorithm::bluestein);
}

TEST(Pow2TransformMemory, ModelMatchesTheTables) {
  for (long m : {16L, 1024L, 65536L}) {
    const auto qs = ntt_primes(3, 50, uint64_t(m));
    size_t own = 0;
    for (uint64_t q : qs) own += CyclotomicTransform(m, q).bytes();
    EXPECT_EQ(CyclotomicTransform::tables_bytes(m, m / 2, qs), own) << "m=" << m;
    EXPECT_EQ(NegacyclicTransform::table_bytes(m), NegacyclicTransform(m, qs[0]).bytes()) << "m=" << m;
  }
}

TEST(Pow2TransformErrors, NameTheBrokenConstraint) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const ParameterError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { CyclotomicTransform(258, 7681); }),
            "CyclotomicTransform: m=258 is even but not a power of two: the transforms take odd m or m = 2^k");
  EXPECT_EQ(message([] { CyclotomicTransform(256, 7937); }),  // 7936 = 2^8 * 31: fine
            "no error");
  EXPECT_EQ(message([] { CyclotomicTransform(512, 7937); }),
            "NegacyclicTransform: q=7937 is not 1 mod m=512 (the roots of Phi_m = X^256 + 1 are primitive m-th "
            "roots of unity)");
  EXPECT_EQ(message([] { CyclotomicTransform(2, 7937); }),
            "NegacyclicTransform: m=2 must be a power of two with 4 <= m <= 2^24");
  EXPECT_EQ(message([] { CyclotomicTransform(256, 7937, Algorithm::bluestein); }),
            "CyclotomicTransform: m=256 is a power of two: the bluestein algorithm needs odd m (the negacyclic "
            "transform serves m = 2^k)");
  const uint64_t q257 = ntt_primes(1, 50, 257 * 1024)[0];
  EXPECT_EQ(message([&] { CyclotomicTransform(257, q257, Algorithm::negacyclic); }),
            "CyclotomicTransform: m=257 is odd: the negacyclic transform needs m = 2^k");
  EXPECT_EQ(message([] { CyclotomicTransform::step(96); }),
            "CyclotomicTransform: m=96 is even but not a power of two: the transforms take odd m or m = 2^k");
  EXPECT_EQ(message([] { Ntt::negacyclic(8, 7681); }),  // 7680 = 2^9 * 15: no 512th root
            "no error");
  EXPECT_EQ(message([] { Ntt::negacyclic(9, 7681); }),
            "Ntt: q=7681 is not 1 mod 2N=1024: the negacyclic transform of length N=512 needs a primitive "
            "2N-th root of unity");
  const CyclotomicTransform t(64, 7937);
  std::vector<uint64_t> a(65), v(32);
  EXPECT_EQ(message([&] { t.forward(a.data(), 65, v.data()); }),
            "NegacyclicTransform::forward: ncoeffs=65 is outside [0, m=64]");
}

TEST(Pow2TransformThreads, ConcurrentCallsAgree) {
  const long m = 4096;
  for (int bits : {50, 60}) {
    const CyclotomicTransform t(m, ntt_primes(1, bits, uint64_t(m))[0]);
    std::vector<std::vector<uint64_t>> in(8), out(8), ref(8);
    for (int k = 0; k < 8; ++k) {
      in[k] = random_vec(m, t.q(), uint64_t(k));
      ref[k].resize(t.phi());
      t.forward(in[k].data(), m, ref[k].data());
      out[k].resize(t.phi());
    }
#pragma omp parallel for num_threads(4)
    for (int k = 0; k < 8; ++k)
      for (int rep = 0; rep < 20; ++rep) t.forward(in[k].data(), m, out[k].data());
    EXPECT_EQ(out, ref) << "bits=" << bits;
  }
}

}  // namespace
}  // namespace cb::util
