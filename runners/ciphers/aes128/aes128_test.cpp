// aes128_test: the AES-128 reference against FIPS-197 vectors (every round state and
// round key), and the derived S-box pieces against their definitions.
#include "ciphers/aes128/aes128.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "ciphers/reference/field_linalg.h"
#include "engine/algebra/subfield.h"

namespace cb::aes128 {
namespace {

using nlohmann::json;

json load_vectors() {
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/aes128/vectors.json");
  if (!in) throw std::runtime_error("cannot open " CB_CIPHERS_DIR "/aes128/vectors.json");
  return json::parse(in);
}

Block block(const json& elems) {
  Block b{};
  if (elems.size() != 16) throw std::runtime_error("block with " + std::to_string(elems.size()) + " bytes");
  for (size_t i = 0; i < 16; ++i) b[i] = uint8_t(std::stoul(elems[i].get<std::string>(), nullptr, 16));
  return b;
}

struct VectorCase {
  std::string name;
  json v;
};
void PrintTo(const VectorCase& c, std::ostream* os) { *os << c.name; }

std::vector<VectorCase> vector_cases() {
  std::vector<VectorCase> out;
  const json all = load_vectors();
  for (const auto& v : all["vectors"]) out.push_back({v["name"].get<std::string>(), v});
  return out;
}

class AesVector : public ::testing::TestWithParam<VectorCase> {};

TEST_P(AesVector, RoundKeysEqualSubkeys) {
  const json& v = GetParam().v;
  const Aes128 aes(block(v["key"]));
  ASSERT_EQ(v["subkeys"].size(), 11u);
  for (int r = 0; r <= kRounds; ++r) EXPECT_EQ(aes.round_keys()[r], block(v["subkeys"][r])) << "round key " << r;
}

TEST_P(AesVector, EveryRoundStateAndCiphertext) {
  const json& v = GetParam().v;
  const Aes128 aes(block(v["key"]));
  const auto states = aes.round_states(block(v["plaintext"]));
  ASSERT_EQ(v["round_states"].size(), 10u);
  for (int r = 0; r < kRounds; ++r) EXPECT_EQ(states[r], block(v["round_states"][r])) << "after round " << r + 1;
  EXPECT_EQ(aes.encrypt(block(v["plaintext"])), block(v["ciphertext"]));
}

TEST_P(AesVector, Round1Trace) {
  const json& v = GetParam().v;
  const json& t = v["round1_trace"];
  const Aes128 aes(block(v["key"]));
  Block s = block(v["plaintext"]);
  add_round_key(s, aes.round_keys()[0]);
  EXPECT_EQ(s, block(t["data_state_0"]));
  sub_bytes(s);
  EXPECT_EQ(s, block(t["step1"]["after_sub_bytes"]));
  shift_rows(s);
  EXPECT_EQ(s, block(t["step1"]["after_shift_rows"]));
  mix_columns(s);
  EXPECT_EQ(s, block(t["step1"]["after_mix_columns"]));
  add_round_key(s, aes.round_keys()[1]);
  EXPECT_EQ(s, block(t["step1"]["data_state"]));
}

TEST_P(AesVector, DecryptInvertsEncrypt) {
  const json& v = GetParam().v;
  const Aes128 aes(block(v["key"]));
  EXPECT_EQ(aes.decrypt(block(v["ciphertext"])), block(v["plaintext"]));
}

INSTANTIATE_TEST_SUITE_P(Fips197AndRandom, AesVector, ::testing::ValuesIn(vector_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(Aes128, RandomRoundTrips) {
  std::mt19937_64 rng(2024);
  for (int t = 0; t < 200; ++t) {
    Block k, p;
    for (auto& b : k) b = uint8_t(rng());
    for (auto& b : p) b = uint8_t(rng());
    const Aes128 aes(k);
    EXPECT_EQ(aes.decrypt(aes.encrypt(p)), p);
  }
}

TEST(Aes128Sbox, KnownEntriesAndBijection) {
  const auto& p = sbox_pieces();
  EXPECT_EQ(p.sbox[0x00], 0x63);
  EXPECT_EQ(p.sbox[0x53], 0xed);  // FIPS-197 §5.1.1 example
  EXPECT_EQ(p.sbox[0x01], 0x7c);
  EXPECT_EQ(p.sbox[0xff], 0x16);
  for (int x = 0; x < 256; ++x) EXPECT_EQ(p.inv_sbox[p.sbox[x]], x);
}

TEST(Aes128Sbox, SboxIsAffineOfInverse) {
  const GF2n F(8, kModulusLow);
  const auto& p = sbox_pieces();
  for (int x = 0; x < 256; ++x) {
    ASSERT_EQ(p.sbox[x], affine(uint8_t(F.inv(x)))) << x;
    ASSERT_EQ(F.mul(x, F.inv(x)), x ? 1u : 0u);
  }
}

TEST(Aes128Sbox, AffineBitMatrixMatchesFips197Definition) {
  // FIPS-197 eq. (5.1): b'_i = b_i + b_(i+4) + b_(i+5) + b_(i+6) + b_(i+7) + c_i.
  for (int x = 0; x < 256; ++x) {
    int y = 0;
    for (int i = 0; i < 8; ++i) {
      const int bit = ((x >> i) ^ (x >> ((i + 4) % 8)) ^ (x >> ((i + 5) % 8)) ^ (x >> ((i + 6) % 8)) ^
                       (x >> ((i + 7) % 8)) ^ (0x63 >> i)) & 1;
      y |= bit << i;
    }
    ASSERT_EQ(affine(uint8_t(x)), y) << x;
    ASSERT_EQ(inv_affine(affine(uint8_t(x))), x);
  }
}

TEST(Aes128Sbox, AffineAsLinearizedPolynomial) {
  const GF2n F(8, kModulusLow);
  const auto& p = sbox_pieces();
  const std::vector<uint64_t> gamma(p.affine_gamma.begin(), p.affine_gamma.end());
  const std::vector<uint64_t> delta(p.inv_affine_gamma.begin(), p.inv_affine_gamma.end());
  for (int x = 0; x < 256; ++x) {
    ASSERT_EQ(eval_linearized(F, gamma, x) ^ kAffineConstant, affine(uint8_t(x)));
    ASSERT_EQ(eval_linearized(F, delta, x) ^ p.inv_affine_constant, inv_affine(uint8_t(x)));
  }
  // The published coefficients (Daemen-Rijmen §3.4.1).
  EXPECT_EQ(gamma, (std::vector<uint64_t>{0x05, 0x09, 0xf9, 0x25, 0xf4, 0x01, 0xb5, 0x8f}));
  EXPECT_EQ(delta, (std::vector<uint64_t>{0x05, 0xfe, 0x7f, 0x5a, 0x78, 0x59, 0xdb, 0x6e}));
  EXPECT_EQ(p.inv_affine_constant, 0x05);
}

TEST(Aes128Constants, InverseMixColumnsAndRcon) {
  const auto& p = sbox_pieces();
  const uint8_t row0[4] = {0x0e, 0x0b, 0x0d, 0x09};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(p.inv_mix_columns[i][j], row0[(j - i + 4) % 4]) << i << "," << j;
  const json params = load_vectors()["parameters"];
  for (int i = 0; i < kRounds; ++i) EXPECT_EQ(p.rcon[i], std::stoul(params["rcon"][i].get<std::string>(), nullptr, 16));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(kMixColumns[i][j], std::stoul(params["mix_columns_matrix"][i][j].get<std::string>(), nullptr, 16));
}

TEST(Aes128Steps, InversesRoundTrip) {
  std::mt19937_64 rng(7);
  Block s;
  for (auto& b : s) b = uint8_t(rng());
  Block t = s;
  shift_rows(t);
  EXPECT_NE(t, s);
  inv_shift_rows(t);
  EXPECT_EQ(t, s);
  mix_columns(t);
  inv_mix_columns(t);
  EXPECT_EQ(t, s);
  sub_bytes(t);
  inv_sub_bytes(t);
  EXPECT_EQ(t, s);
  // ShiftRows moves byte (r, c) to (r, c - r): row 0 stays, row 1 rotates by one column.
  const auto src = shift_rows_source();
  EXPECT_EQ(src[0], 0);
  EXPECT_EQ(src[1], 5);
  EXPECT_EQ(src[2], 10);
  EXPECT_EQ(src[3], 15);
  EXPECT_EQ(src[13], 1);
}

}  // namespace
}  // namespace cb::aes128
