// mimc_test: the MiMC reference against the vectors Sage computed independently
// (mimc_sage.py): ciphertexts and every round state, every instance (GF(2^n) and F_p);
// decryption inverts encryption for every round count; the inverse cube exponent; errors
// named (over F_p: a p with 3 | p - 1, an element >= p).
#include "ciphers/mimc/mimc.h"
#include "ciphers/mimc/mimc_prime.h"

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

// ---- MiMC over F_p ----

class MimcPrimeVectors : public ::testing::TestWithParam<uint64_t> {};

TEST_P(MimcPrimeVectors, MatchSage) {
  const uint64_t p = GetParam();
  const MimcPrime m(p);
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/mimc/vectors_fp_" + std::to_string(p) + ".json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("field").at("p").get<uint64_t>(), p);
  EXPECT_EQ(j.at("rounds").get<long>(), m.rounds());
  EXPECT_EQ(j.at("constants").get<std::vector<uint64_t>>(), m.constants());
  ASSERT_FALSE(j.at("vectors").empty());
  for (const auto& v : j.at("vectors")) {
    const uint64_t k = v.at("key")[0], x = v.at("plaintext")[0], y = v.at("ciphertext")[0];
    EXPECT_EQ(m.encrypt(k, x), y) << v.at("name");
    const auto st = m.round_states(k, x);
    ASSERT_EQ(st.size(), v.at("round_states").size());
    for (size_t i = 0; i < st.size(); ++i) EXPECT_EQ(st[i], v.at("round_states")[i][0].get<uint64_t>()) << "round " << i + 1;
    EXPECT_EQ(m.decrypt(k, y), x);
    // The subkeys the circuit adds: k + c_i mod p before round i's cube, then k.
    const auto& sk = v.at("subkeys");
    ASSERT_EQ(long(sk.size()), m.rounds() + 1);
    for (long i = 0; i < m.rounds(); ++i)
      EXPECT_EQ(sk[i][0].get<uint64_t>(), m.field().add(k, m.constants()[i])) << "subkey " << i;
    EXPECT_EQ(sk[m.rounds()][0].get<uint64_t>(), k);
    for (long R = 1; R <= m.rounds(); ++R) EXPECT_EQ(m.encrypt(k, x, R), m.field().add(st[R - 1], k)) << "R=" << R;
  }
}

INSTANTIATE_TEST_SUITE_P(Instances, MimcPrimeVectors, ::testing::ValuesIn(MimcPrime::primes()));

TEST(MimcPrime, RoundsAndInverseExponent) {
  EXPECT_EQ(MimcPrime::primes(), (std::vector<uint64_t>{65537, 8088322049ull}));
  EXPECT_EQ(MimcPrime(65537).rounds(), 11);        // 3^10 = 59049 < 65537 <= 3^11
  EXPECT_EQ(MimcPrime(8088322049ull).rounds(), 21);  // 3^20 < 8088322049 <= 3^21
  for (uint64_t p : MimcPrime::primes()) {
    const MimcPrime m(p);
    EXPECT_EQ(m.constants().at(0), 0u);
    EXPECT_EQ((unsigned __int128)m.inverse_cube_exponent() * 3 % (p - 1), 1u);
    std::mt19937_64 rng(p);
    for (long R = 1; R <= m.rounds(); ++R) {
      const uint64_t k = rng() % p, x = rng() % p;
      EXPECT_EQ(m.decrypt(k, m.encrypt(k, x, R), R), x) << "R=" << R;
    }
  }
  EXPECT_EQ(MimcPrime(65537).inverse_cube_exponent(), 43691u);
}

TEST(MimcPrime, ErrorsNameTheValue) {
  auto message = [](auto f) {
    try {
      f();
    } catch (const ParameterError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { MimcPrime m(7); }),
            "MiMC over F_7: 3 divides p - 1 = 6, so x^3 is not a permutation of F_7 (MiMC over F_p needs p = 2 mod 3)");
  EXPECT_EQ(message([] { MimcPrime m(65521); }), "MiMC over F_65521: 3 divides p - 1 = 65520, so x^3 is not a "
                                                 "permutation of F_65521 (MiMC over F_p needs p = 2 mod 3)");
  EXPECT_EQ(message([] { MimcPrime m(65535); }), "MiMC over F_p: p=65535 is not a prime 3 < p < 2^61");
  EXPECT_EQ(message([] { MimcPrime m(3); }), "MiMC over F_p: p=3 is not a prime 3 < p < 2^61");
  EXPECT_EQ(message([] { MimcPrime m(11); }),
            "MiMC over F_11: no constants for this p (the instances are p = 65537, 8088322049)");
  EXPECT_EQ(MimcPrime::excluded(65537), "");
  EXPECT_EQ(MimcPrime::excluded(11), "");  // allowed by the definition, only not an instance
  const MimcPrime m(65537);
  EXPECT_EQ(message([&] { m.encrypt(0, 65537); }), "MiMC F_65537: block 65537 is not below p=65537");
  EXPECT_EQ(message([&] { m.encrypt(65537, 0); }), "MiMC F_65537: key 65537 is not below p=65537");
  EXPECT_EQ(message([&] { m.encrypt(0, 0, 12); }), "MiMC F_65537 rounds=12: must be 1..11");
  EXPECT_THROW(m.decrypt(0, 0, -1), ParameterError);
}

}  // namespace
}  // namespace cb
