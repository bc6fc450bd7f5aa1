#include "engine/util/vecmod.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/util/ifma.h"
#include "engine/util/primes.h"

namespace cb::util {
namespace {

struct VecCase {
  uint64_t q;
  long n;  // not a multiple of 8 where possible, to exercise the scalar tail
  friend std::ostream& operator<<(std::ostream& os, const VecCase& c) {
    return os << "q" << c.q << "_n" << c.n;
  }
};

class VecMod : public ::testing::TestWithParam<VecCase> {};

TEST_P(VecMod, ArrayKernelsMatchScalarArithmetic) {
  const auto [q, n] = GetParam();
  std::mt19937_64 rng(q ^ n);
  std::vector<uint64_t> a(n), b(n), x(n), w(n), wp(n), out(n);
  for (long i = 0; i < n; ++i) {
    a[i] = rng() % q, b[i] = rng() % q, w[i] = rng() % q, wp[i] = shoup(w[i], q);
    x[i] = i % 5 == 0 ? ~uint64_t(0) - i : rng();  // Shoup inputs may be any word
  }
  mul_shoup_array(out.data(), x.data(), w.data(), wp.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(x[i]) * w[i] % q)) << i;
  const ShoupMul s(w[0], q);
  mul_scalar_array(out.data(), x.data(), s, n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(x[i]) * w[0] % q)) << i;
  mul_mod_array(out.data(), a.data(), b.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(a[i]) * b[i] % q)) << i;
  add_mod_array(out.data(), a.data(), b.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], (a[i] + b[i]) % q) << i;
  sub_mod_array(out.data(), a.data(), b.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], (a[i] + q - b[i]) % q) << i;
  // In place.
  auto y = x;
  mul_shoup_array(y.data(), y.data(), w.data(), wp.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(y[i], uint64_t(u128(x[i]) * w[i] % q)) << i;
}

// Products of two variable residues against 128-bit arithmetic. Moduli: for 30 to 50 bits
// the largest prime below 2^bits and the smallest above 2^(bits-1) (the IFMA path when
// compiled in; 50 bits: 3q comes nearest to the 52-bit word; just above a power of two
// the quotient estimate of ifma.h can be two short, e.g. for a = q - 3, b = 2^(bits-1) - 3,
// c = q - 1), a power of two, 60-bit and tiny ones (Barrett). Operands: the extremes below
// in every pairing with three values of c, then random ones; lengths around the eight-lane
// blocks; out aliasing each input.
TEST(VecModProduct, MulAndMulAddMatchWideArithmetic) {
  std::vector<uint64_t> moduli = {2, 3, 65537, ntt_primes(1, 60, 2)[0], (uint64_t(1) << 62) - 57,
                                  uint64_t(1) << 40};
  for (int bits = 30; bits <= 50; ++bits) {
    moduli.push_back(ntt_primes(1, bits, 2)[0]);
    uint64_t q = (uint64_t(1) << (bits - 1)) + 1;
    while (!is_prime(q)) q += 2;
    moduli.push_back(q);
  }
  for (const uint64_t q : moduli)
    for (const long n : {0L, 1L, 7L, 8L, 9L, 203L, 1000L}) {
      std::mt19937_64 rng(q ^ n);
      const uint64_t p2 = uint64_t(1) << (63 - __builtin_clzll(q - 1));  // 2^(L-1) < q <= 2^L
      std::vector<uint64_t> edge, c_edge = {q - 1, q - 2, 0};
      for (uint64_t v : {uint64_t(0), uint64_t(1), uint64_t(2), q - 1, q - 2, q - 3, q / 2, (q + 1) / 2,
                         p2 - 1, p2 - 2, p2 - 3})
        edge.push_back(v % q);
      const long e = long(edge.size());
      std::vector<uint64_t> a(n), b(n), c(n), out(n);
      for (long i = 0; i < n; ++i) {
        const bool pairing = i < 3 * e * e;  // every (a, b) pair of extremes with each c
        a[i] = pairing ? edge[(i / e) % e] : rng() % q;
        b[i] = pairing ? edge[i % e] : rng() % q;
        c[i] = pairing ? c_edge[i / (e * e)] % q : rng() % q;
      }
      std::vector<uint64_t> want_mul(n), want_fma(n);
      for (long i = 0; i < n; ++i) {
        want_mul[i] = uint64_t(u128(a[i]) * b[i] % q);
        want_fma[i] = uint64_t((u128(a[i]) * b[i] + c[i]) % q);
      }
      auto check = [&](const std::vector<uint64_t>& got, const std::vector<uint64_t>& want, const char* what) {
        for (long i = 0; i < n; ++i)
          ASSERT_EQ(got[i], want[i]) << what << " q=" << q << " n=" << n << " i=" << i << " a=" << a[i]
                                     << " b=" << b[i] << " c=" << c[i];
      };
      mul_mod_array(out.data(), a.data(), b.data(), n, q);
      check(out, want_mul, "mul");
      mul_add_mod_array(out.data(), a.data(), b.data(), c.data(), n, q);
      check(out, want_fma, "mul_add");
      auto x = a;  // out = a
      mul_mod_array(x.data(), x.data(), b.data(), n, q);
      check(x, want_mul, "mul, out = a");
      x = b;  // out = b
      mul_mod_array(x.data(), a.data(), x.data(), n, q);
      check(x, want_mul, "mul, out = b");
      x = c;  // out = c: the accumulation x = a b + x
      mul_add_mod_array(x.data(), a.data(), b.data(), x.data(), n, q);
      check(x, want_fma, "mul_add, out = c");
      x = a;  // out = a
      mul_add_mod_array(x.data(), x.data(), b.data(), c.data(), n, q);
      check(x, want_fma, "mul_add, out = a");
      x = a;  // squares: a = b = out
      mul_mod_array(x.data(), x.data(), x.data(), n, q);
      for (long i = 0; i < n; ++i) ASSERT_EQ(x[i], uint64_t(u128(a[i]) * a[i] % q)) << "square q=" << q << " i=" << i;
    }
}

TEST(VecModProduct, RejectsModuliOutsideTheBarrettRange) {
  const uint64_t a = 0, b = 0;
  uint64_t out = 0;
  EXPECT_THROW(mul_mod_array(&out, &a, &b, 1, 1), ParameterError);
  EXPECT_THROW(mul_add_mod_array(&out, &a, &b, &a, 1, uint64_t(1) << 62), ParameterError);
}

// The CRT basis extension against 128-bit arithmetic: several moduli (below 2^50 for the
// IFMA path, 60-bit and tiny for the other), word bounds on both sides of 2^52 (at 2^50
// the IFMA path sums blocks of 15 or 16 terms unreduced, above it blocks of 3 or 4 or
// one reduction a term), term counts around those blocks and up to past the 28 special
// primes of the largest chains, extreme x and v.
TEST(VecModCrt, CombineMatchesWideArithmetic) {
  const uint64_t two50 = uint64_t(1) << 50;
  for (const uint64_t q : {uint64_t(1125899906826241ULL) /* < 2^50 */, two50 - 35, uint64_t(1152921504606830593ULL), uint64_t(65537)})
    for (const uint64_t x_bound : {two50, two50 + 12345, uint64_t(1) << 52, uint64_t(1) << 61})
      for (const long kx : {1L, 3L, 4L, 7L, 15L, 16L, 17L, 28L, 33L}) {
        const long n = 203;
        std::mt19937_64 rng(q ^ x_bound ^ kx);
        std::vector<std::vector<uint64_t>> x(kx, std::vector<uint64_t>(n));
        std::vector<const uint64_t*> xp(kx);
        std::vector<uint64_t> w(kx), out(n);
        std::vector<int64_t> v(n);
        for (long k = 0; k < kx; ++k) {
          w[k] = k == 0 ? q - 1 : rng() % q;
          for (long i = 0; i < n; ++i) x[k][i] = i % 7 == 0 ? x_bound - 1 : rng() % x_bound;
          xp[k] = x[k].data();
        }
        const uint64_t c = rng() % q;
        for (long i = 0; i < n; ++i) v[i] = i % 11 == 0 ? -(kx + 2) : i % 13 == 0 ? kx + 2 : long(rng() % 9) - 4;
        crt_combine_array(out.data(), xp.data(), w.data(), kx, x_bound, v.data(), c, n, q);
        for (long i = 0; i < n; ++i) {
          u128 want = 0;
          for (long k = 0; k < kx; ++k) want = (want + u128(x[k][i]) * w[k]) % q;
          const uint64_t vc = uint64_t(u128(uint64_t(v[i] < 0 ? -v[i] : v[i])) * c % q);
          const uint64_t expect = v[i] < 0 ? uint64_t((want + vc) % q) : uint64_t((want + q - vc) % q);
          ASSERT_EQ(out[i], expect) << "q=" << q << " x_bound=" << x_bound << " kx=" << kx << " i=" << i;
        }
      }
}

// The key product against 128-bit arithmetic, with and without a permutation of x, for
// 50-bit (IFMA path), 60-bit and small moduli, 1 to 17 terms (16 and more: scalar path).
TEST(VecModCrt, Dot2MatchesWideArithmetic) {
  for (const uint64_t q : {uint64_t(1125899906826241ULL), uint64_t(1152921504606830593ULL), uint64_t(65537)})
    for (const long k : {1L, 3L, 15L, 17L})
      for (const bool permuted : {false, true}) {
        const long n = 203;
        std::mt19937_64 rng(q ^ k ^ permuted);
        std::vector<std::vector<uint64_t>> x(k, std::vector<uint64_t>(n)), a = x, b = x;
        std::vector<const uint64_t*> xp(k), ap(k), bp(k);
        for (long j = 0; j < k; ++j) {
          for (long i = 0; i < n; ++i) {
            x[j][i] = i % 3 == 0 ? q - 1 : rng() % q;
            a[j][i] = i % 4 == 0 ? q - 1 : rng() % q;
            b[j][i] = rng() % q;
          }
          xp[j] = x[j].data(), ap[j] = a[j].data(), bp[j] = b[j].data();
        }
        std::vector<int> perm(n);
        for (long i = 0; i < n; ++i) perm[i] = int((i * 37 + 11) % n);
        std::vector<uint64_t> o0(n), o1(n);
        dot2_array(o0.data(), o1.data(), xp.data(), ap.data(), bp.data(), k, permuted ? perm.data() : nullptr, n, q);
        for (long i = 0; i < n; ++i) {
          const long src = permuted ? perm[i] : i;
          u128 s0 = 0, s1 = 0;
          for (long j = 0; j < k; ++j) s0 = (s0 + u128(x[j][src]) * a[j][i]) % q, s1 = (s1 + u128(x[j][src]) * b[j][i]) % q;
          ASSERT_EQ(o0[i], uint64_t(s0)) << "q=" << q << " k=" << k << " i=" << i;
          ASSERT_EQ(o1[i], uint64_t(s1)) << "q=" << q << " k=" << k << " i=" << i;
        }
      }
}

// The CRT quotient: nearest to sum y_k / t_k (within 1/2, and 1 with the even fix, which
// makes sum y_k + v even), for 50- and 60-bit moduli and up to 28 terms.
TEST(VecModCrt, QuotientIsNearestAndEvenWhenAsked) {
  for (const uint64_t t0 : {uint64_t(1125899906826241ULL), uint64_t(1152921504606830593ULL)})
    for (const long ky : {1L, 6L, 28L})
      for (const bool even : {false, true}) {
        const long n = 301;
        std::mt19937_64 rng(t0 ^ ky ^ even);
        std::vector<std::vector<uint64_t>> y(ky, std::vector<uint64_t>(n));
        std::vector<const uint64_t*> yp(ky);
        std::vector<double> inv_t(ky);
        std::vector<uint64_t> t(ky);
        for (long k = 0; k < ky; ++k) {
          t[k] = t0 - 2 * k;
          inv_t[k] = 1.0 / double(t[k]);
          for (long i = 0; i < n; ++i) y[k][i] = i % 5 == 0 ? t[k] - 1 : i % 7 == 0 ? 0 : rng() % t[k];
          yp[k] = y[k].data();
        }
        std::vector<int64_t> v(n);
        crt_quotient_array(v.data(), yp.data(), inv_t.data(), ky, even, n);
        for (long i = 0; i < n; ++i) {
          long double f = 0;
          uint64_t par = 0;
          for (long k = 0; k < ky; ++k) f += (long double)y[k][i] / (long double)t[k], par += y[k][i];
          const long double gap = std::fabs(f - (long double)v[i]);
          ASSERT_LE(gap, even ? 1.0L + 1e-6L : 0.5L + 1e-6L) << "ky=" << ky << " i=" << i;
          if (even) {
            ASSERT_EQ((par + uint64_t(v[i])) & 1, 0u) << "ky=" << ky << " i=" << i;
          }
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Moduli, VecMod,
                         ::testing::Values(VecCase{3, 17}, VecCase{1073741789ULL, 1000},
                                           VecCase{1152921504606830593ULL, 1003},
                                           VecCase{(uint64_t(1) << 62) - 57, 64},
                                           VecCase{(uint64_t(1) << 62) - 57, 5}),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace cb::util
