// chaghri_test: the Chaghri reference against the vectors Sage computed independently
// (chaghri_sage.py: ciphertexts, round states, subkeys, reduced rounds); decryption inverts
// encryption for every round count; every step a permutation, checked here in C++ apart
// from Sage's record (B's linear part rank 63, where the Frobenius reading of the authors'
// HElib program has 62; gcd(2^32 + 1, 2^63 - 1) = 1 with inverse exponent 2^32 - 1; M MDS);
// the linearized form the catalog entry evaluates; errors named.
#include "ciphers/chaghri/chaghri.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "ciphers/reference/field_linalg.h"
#include "engine/errors.h"

namespace cb {
namespace {

Chaghri::State state(const nlohmann::json& j) {
  Chaghri::State s;
  for (int i = 0; i < 3; ++i) s[i] = std::stoull(j.at(i).get<std::string>(), nullptr, 16);
  return s;
}

TEST(Chaghri, MatchesSageVectors) {
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/chaghri/vectors.json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("properties").at("affine_rank").get<long>(), 63);
  const Chaghri c;
  ASSERT_GE(j.at("vectors").size(), 4u);
  for (const auto& v : j.at("vectors")) {
    const auto k = state(v.at("key")), p = state(v.at("plaintext")), y = state(v.at("ciphertext"));
    EXPECT_EQ(c.encrypt(k, p), y) << v.at("name");
    const auto st = c.round_states(k, p);
    ASSERT_EQ(st.size(), v.at("round_states").size());
    for (size_t r = 0; r < st.size(); ++r) EXPECT_EQ(st[r], state(v.at("round_states")[r])) << "round " << r + 1;
    const auto ks = c.key_schedule(k);
    ASSERT_EQ(ks.size(), v.at("subkeys").size());
    for (size_t s = 0; s < ks.size(); ++s) EXPECT_EQ(ks[s], state(v.at("subkeys")[s])) << "subkey " << s;
    EXPECT_EQ(c.decrypt(k, y), p);
    // The R-round variant is the full cipher stopped after round R: its ciphertext is the
    // R-th round state, its subkeys K_0..K_(2R) the first 2R + 1 of the full schedule.
    for (long R = 1; R <= Chaghri::kRounds; ++R) {
      EXPECT_EQ(c.encrypt(k, p, R), st[R - 1]) << v.at("name") << " R=" << R;
      const auto sr = c.round_states(k, p, R);
      ASSERT_EQ(long(sr.size()), R);
      EXPECT_TRUE(std::equal(sr.begin(), sr.end(), st.begin())) << "R=" << R;
      const auto kr = c.key_schedule(k, R);
      ASSERT_EQ(long(kr.size()), 2 * R + 1);
      EXPECT_TRUE(std::equal(kr.begin(), kr.end(), ks.begin())) << "R=" << R;
    }
  }
}

// The rank over GF(2) of a GF(2)-linear map of GF(2^63), from its values on x^0..x^62.
long gf2_rank(const std::function<uint64_t(uint64_t)>& L) {
  std::vector<uint64_t> rows;
  for (long i = 0; i < Chaghri::kN; ++i) rows.push_back(L(uint64_t(1) << i));
  long rank = 0;
  for (long bit = 0; bit < Chaghri::kN; ++bit) {
    const auto piv = std::find_if(rows.begin() + rank, rows.end(), [&](uint64_t r) { return (r >> bit) & 1; });
    if (piv == rows.end()) continue;
    std::iter_swap(rows.begin() + rank, piv);
    for (size_t r = 0; r < rows.size(); ++r)
      if (long(r) != rank && ((rows[r] >> bit) & 1)) rows[r] ^= rows[rank];
    ++rank;
  }
  return rank;
}

TEST(Chaghri, EveryStepIsAPermutation) {
  const Chaghri c;
  const GF2n& F = c.field();
  const uint64_t c4 = c.affine_constant();
  // B(x) - c4 = c1 x^8 + c2 x^2 + c3 x: rank 63, so B permutes GF(2^63).
  EXPECT_EQ(gf2_rank([&](uint64_t x) { return c.affine(x) ^ c4; }), 63);
  // The other reading (the HElib program's x^(2^8), x^(2^2)) with the same c1..c3: rank 62.
  const auto g = c.affine_gamma();
  EXPECT_EQ(gf2_rank([&](uint64_t x) { return F.mul(g[3], F.frob(x, 8)) ^ F.mul(g[1], F.frob(x, 2)) ^ F.mul(g[0], x); }),
            62);
  // S(x) = x^(2^32 + 1): gcd(2^32 + 1, 2^63 - 1) = 1, and (2^32 + 1)(2^32 - 1) = 2^64 - 1 = 1
  // mod 2^63 - 1, so S^-1(y) = y^(2^32 - 1) (binary weight 32).
  const uint64_t q1 = (uint64_t(1) << 63) - 1, e = (uint64_t(1) << 32) - 1;
  EXPECT_EQ(std::gcd(Chaghri::kSboxExponent, q1), 1u);
  EXPECT_EQ((unsigned __int128)Chaghri::kSboxExponent * e % q1, 1u);
  std::mt19937_64 rng(7);
  for (int t = 0; t < 16; ++t) {
    const uint64_t x = rng() & q1;
    EXPECT_EQ(c.sbox(x), F.pow(x, Chaghri::kSboxExponent));
    EXPECT_EQ(F.pow(c.sbox(x), e), x);
  }
  // M is MDS: every square submatrix (9 entries, 9 minors of order 2, the determinant) is
  // non-singular; and M^-1 M = I.
  const auto& M = c.mds_matrix();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NE(M[i][j], 0u);
  for (int r0 = 0; r0 < 3; ++r0)
    for (int r1 = r0 + 1; r1 < 3; ++r1)
      for (int c0 = 0; c0 < 3; ++c0)
        for (int c1 = c0 + 1; c1 < 3; ++c1)
          EXPECT_NE(F.mul(M[r0][c0], M[r1][c1]) ^ F.mul(M[r0][c1], M[r1][c0]), 0u) << r0 << r1 << c0 << c1;
  uint64_t det = 0;
  for (int j = 0; j < 3; ++j)
    det ^= F.mul(M[0][j], F.mul(M[1][(j + 1) % 3], M[2][(j + 2) % 3]) ^ F.mul(M[1][(j + 2) % 3], M[2][(j + 1) % 3]));
  EXPECT_NE(det, 0u);
  const std::vector<uint64_t> Mv(&M[0][0], &M[0][0] + 9);
  const auto Mi = mat_inverse(F, Mv);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      uint64_t s = 0;
      for (int k = 0; k < 3; ++k) s ^= F.mul(Mi[i * 3 + k], Mv[k * 3 + j]);
      EXPECT_EQ(s, uint64_t(i == j)) << i << j;
    }
}

TEST(Chaghri, LinearizedFormIsTheAffineMap) {
  // What the catalog entry evaluates: B(x) = c4 + sum_j gamma_j x^(2^j), non-zero only at
  // j = 0 (c3), 1 (c2), 3 (c1).
  const Chaghri c;
  const auto g = c.affine_gamma();
  ASSERT_EQ(long(g.size()), Chaghri::kN);
  const auto derived = linearized_coefficients(c.field(), [&](uint64_t x) { return c.affine(x) ^ c.affine_constant(); });
  EXPECT_EQ(derived, g);
  for (long j = 0; j < Chaghri::kN; ++j) EXPECT_EQ(g[j] != 0, j == 0 || j == 1 || j == 3) << "j=" << j;
  std::mt19937_64 rng(11);
  for (int t = 0; t < 8; ++t) {
    const uint64_t x = rng() >> 1;
    EXPECT_EQ(eval_linearized(c.field(), g, x) ^ c.affine_constant(), c.affine(x));
  }
  EXPECT_EQ(Chaghri::kModulusLow, 0x3u);  // x^63 + x + 1
}

TEST(Chaghri, DecryptInvertsEveryRoundCount) {
  const Chaghri c;
  std::mt19937_64 rng(3);
  const uint64_t mask = (uint64_t(1) << 63) - 1;
  for (long R = 1; R <= Chaghri::kRounds; ++R) {
    const Chaghri::State k{rng() & mask, rng() & mask, rng() & mask}, p{rng() & mask, rng() & mask, rng() & mask};
    EXPECT_EQ(c.decrypt(k, c.encrypt(k, p, R), R), p) << "R=" << R;
  }
}

TEST(Chaghri, ErrorsNameTheValue) {
  const Chaghri c;
  try {
    c.encrypt({0, 0, 0}, {0, uint64_t(1) << 63, 0});
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Chaghri: block element 1 0x8000000000000000 is not below 2^63");
  }
  try {
    c.encrypt({0, 0, 0}, {0, 0, 0}, 9);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Chaghri rounds=9: must be 1..8");
  }
  try {
    c.key_schedule({0, 0, ~uint64_t(0)}, -1);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Chaghri: key element 2 0xffffffffffffffff is not below 2^63");
  }
  try {
    c.decrypt({0, 0, 0}, {0, 0, 0}, -1);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "Chaghri rounds=-1: must be 1..8");
  }
}

}  // namespace
}  // namespace cb
