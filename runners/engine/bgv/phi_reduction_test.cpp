// PhiReduction (phi_reduction.h) against NTL's rem by a zz_pXModulus, word for word, on
// random polynomials of degree < m over chain-style primes (q = 1 mod m N): prime m (k = 1),
// prime powers and other non-squarefree m, products of two to four primes, a 50-bit
// prime (the IFMA kernels) and a 60-bit one (the 64-bit kernels); the power-of-two rings'
// fold (Phi_m = X^(m/2) + 1, primes q = 1 mod m); and the refusals.
#include <gtest/gtest.h>

#include <NTL/lzz_pX.h>

#include <random>

#include "engine/bgv/decryptor.h"
#include "engine/bgv/phi_reduction.h"
#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::bgv {
namespace {

std::vector<uint64_t> ntl_rem(long m, const std::vector<long>& phi, uint64_t q, const std::vector<uint64_t>& b) {
  const NTL::zz_pContext zctx{static_cast<long>(q)};
  NTL::zz_pPush push(zctx);
  NTL::zz_pX f, x, r;
  f.SetLength(long(phi.size()));
  for (size_t j = 0; j < phi.size(); ++j) f[long(j)] = NTL::zz_p(phi[j]);
  f.normalize();
  const NTL::zz_pXModulus F(f);
  x.SetLength(m);
  for (long j = 0; j < m; ++j) x[j] = NTL::zz_p(long(b[size_t(j)]));
  x.normalize();
  NTL::rem(r, x, F);
  std::vector<uint64_t> out(phi.size() - 1, 0);
  for (long j = 0; j <= NTL::deg(r); ++j) out[size_t(j)] = uint64_t(NTL::rep(r[j]));
  return out;
}

void check(long m, int bits, int trials = 3) {
  const auto phi = cyclotomic_coeffs(m);
  const bool pow2 = (m & (m - 1)) == 0;  // the chain's primes: 1 mod m there, 1 mod m N for odd m
  const uint64_t q = util::ntt_primes(1, bits, pow2 ? uint64_t(m) : uint64_t(m) * uint64_t(util::bluestein_length(m)))[0];
  const PhiReduction red(m, phi, q);
  EXPECT_EQ(red.is_fold(), pow2) << "m=" << m;
  ASSERT_EQ(red.phi(), long(phi.size()) - 1);
  std::mt19937_64 g(uint64_t(m) * 1000 + uint64_t(bits));
  for (int t = 0; t < trials; ++t) {
    std::vector<uint64_t> b(static_cast<size_t>(m));
    for (auto& v : b) v = t == 0 ? q - 1 : g() % q;  // the largest residue everywhere, then random ones
    std::vector<uint64_t> r(static_cast<size_t>(red.phi()));
    red.reduce(b.data(), r.data());
    ASSERT_EQ(r, ntl_rem(m, phi, q, b)) << "m=" << m << " q=" << q << " trial " << t;
    red.reduce(b.data(), b.data());  // in place
    b.resize(r.size());
    ASSERT_EQ(b, r) << "m=" << m << " in place";
  }
}

TEST(PhiReduction, MatchesNtlRemainder) {
  for (long m : {3L, 5L, 7L, 9L, 15L, 21L, 25L, 27L, 45L, 63L, 105L, 257L, 1155L}) check(m, 50);
}

TEST(PhiReduction, MatchesNtlRemainderOnTheRingsOfTheTests) {
  for (long m : {641L, 3205L, 4369L, 21845L}) check(m, 50, 2);
}

TEST(PhiReduction, MatchesNtlRemainderWithSixtyBitPrimes) {
  for (long m : {7L, 105L, 4369L}) check(m, 60, 2);
}

TEST(PhiReduction, FoldsForPowersOfTwo) {
  for (long m : {4L, 8L, 64L, 1024L, 65536L}) {
    ASSERT_EQ(long(cyclotomic_coeffs(m).size()), m / 2 + 1);
    check(m, 50, m > 1024 ? 1 : 3);
    check(m, 60, 1);
  }
  // Any prime: the fold needs no root of unity (7 has none of order 4 or 8).
  const PhiReduction red(8, cyclotomic_coeffs(8), 7);
  const std::vector<uint64_t> b{1, 2, 3, 4, 6, 6, 0, 5};
  std::vector<uint64_t> r(4);
  red.reduce(b.data(), r.data());
  EXPECT_EQ(r, (std::vector<uint64_t>{2, 3, 3, 6}));  // b_i - b_(4+i) mod 7
  EXPECT_EQ(r, ntl_rem(8, cyclotomic_coeffs(8), 7, b));
}

TEST(PhiReduction, RefusesAPrimeWithoutTheRoots) {
  // 7 = 1 mod 3 but has no root of unity of order 4 (N2 for m = 3).
  EXPECT_THROW(PhiReduction(3, cyclotomic_coeffs(3), 7), ParameterError);
  try {
    PhiReduction(3, cyclotomic_coeffs(3), 7);
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("q=7 "), std::string::npos) << e.what();
  }
}

TEST(PhiReduction, RefusesAPolynomialNotMonicOfDegreeBelowMBeforeAnyTable) {
  // q=7 has no root of order 4 either: the polynomial's shape is named first.
  for (const auto& bad : {std::vector<long>{1, 1, 2}, std::vector<long>{1}, std::vector<long>{1, 1, 1, 1}}) {
    try {
      PhiReduction(3, bad, 7);
      ADD_FAILURE() << "accepted a polynomial of degree " << bad.size() - 1;
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find("must be monic of degree in [1, 2]"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace cb::bgv
