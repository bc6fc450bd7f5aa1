// chaghri_test: the Chaghri reference against the vectors Sage computed independently
// (chaghri_sage.py: ciphertexts, round states, subkeys); decryption inverts encryption for
// every round count; the reading's properties (B invertible, S a permutation); errors named.
#include "ciphers/chaghri/chaghri.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

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
  }
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
}

}  // namespace
}  // namespace cb
