// mimc_test: the MiMC reference against the vectors Sage computed independently
// (mimc_sage.py): ciphertexts and every round state, both instances; decryption inverts
// encryption for every round count; the inverse cube exponent; errors named.
#include "ciphers/mimc/mimc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "engine/errors.h"

namespace cb {
namespace {

uint64_t hex(const nlohmann::json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

class MimcVectors : public ::testing::TestWithParam<long> {};

TEST_P(MimcVectors, MatchSage) {
  const long n = GetParam();
  const Mimc m(n);
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/mimc/vectors_gf2_" + std::to_string(n) + ".json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("rounds").get<long>(), m.rounds());
  ASSERT_FALSE(j.at("vectors").empty());
  for (const auto& v : j.at("vectors")) {
    const uint64_t k = hex(v.at("key")[0]), x = hex(v.at("plaintext")[0]), y = hex(v.at("ciphertext")[0]);
    EXPECT_EQ(m.encrypt(k, x), y) << v.at("name");
    const auto st = m.round_states(k, x);
    ASSERT_EQ(st.size(), v.at("round_states").size());
    for (size_t i = 0; i < st.size(); ++i) EXPECT_EQ(st[i], hex(v.at("round_states")[i][0])) << "round " << i + 1;
    EXPECT_EQ(m.decrypt(k, y), x);
    // The subkeys the circuit adds: k + c_i before round i's cube, then k.
    const auto& sk = v.at("subkeys");
    ASSERT_EQ(long(sk.size()), m.rounds() + 1);
    for (long i = 0; i < m.rounds(); ++i) EXPECT_EQ(hex(sk[i][0]), k ^ m.constants()[i]) << "subkey " << i;
    EXPECT_EQ(hex(sk[m.rounds()][0]), k);
    // The R-round variant: the first R round states, the R-th plus k.
    for (long R = 1; R <= m.rounds(); ++R) {
      const auto sr = m.round_states(k, x, R);
      ASSERT_EQ(long(sr.size()), R);
      EXPECT_TRUE(std::equal(sr.begin(), sr.end(), st.begin())) << "R=" << R;
      EXPECT_EQ(m.encrypt(k, x, R), st[R - 1] ^ k) << "R=" << R;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Instances, MimcVectors, ::testing::Values(63L, 31L));

TEST(Mimc, RoundsAndInverseExponent) {
  EXPECT_EQ(Mimc(63).rounds(), 40);
  EXPECT_EQ(Mimc(31).rounds(), 20);
  EXPECT_EQ(Mimc(63).inverse_cube_exponent(), 0x5555555555555555ull);
  EXPECT_EQ(Mimc(31).inverse_cube_exponent(), 0x55555555ull);
  EXPECT_EQ(Mimc(63).constants().at(0), 0u);
  EXPECT_EQ(Mimc(31).constants().at(0), 0u);
  EXPECT_EQ(Mimc(63).modulus_low(), 0x3u);  // x^63 + x + 1
  EXPECT_EQ(Mimc(31).modulus_low(), 0x9u);  // x^31 + x^3 + 1
  for (long n : Mimc::degrees()) {
    const Mimc m(n);
    const uint64_t q1 = (uint64_t(1) << n) - 1;
    EXPECT_EQ((unsigned __int128)m.inverse_cube_exponent() * 3 % q1, 1u);
    std::mt19937_64 rng(n);
    for (long R = 1; R <= m.rounds(); ++R) {
      const uint64_t k = rng() & q1, x = rng() & q1;
      EXPECT_EQ(m.decrypt(k, m.encrypt(k, x, R), R), x) << "R=" << R;
    }
  }
}

TEST(Mimc, ErrorsNameTheValue) {
  try {
    Mimc m(64);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "MiMC over GF(2^64): the instances are n = 63 and n = 31");
  }
  const Mimc m(31);
  try {
    m.encrypt(0, 1ull << 31);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "MiMC GF(2^31): block 0x80000000 is not below 2^31");
  }
  try {
    m.encrypt(0, 0, 21);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "MiMC GF(2^31) rounds=21: must be 1..20");
  }
  EXPECT_THROW(m.decrypt(0, 0, -1), ParameterError);
  EXPECT_THROW(m.round_states(1ull << 31, 0), ParameterError);
}

}  // namespace
}  // namespace cb
