// vision_test: the Vision reference against the vectors of the four instances (every
// subkey, every round state, the round-1 step trace), reduced rounds, decryption.
#include "ciphers/vision/vision.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "ciphers/reference/hex.h"
#include "engine/errors.h"

namespace cb {
namespace {

using nlohmann::json;
using State = Vision::State;

struct Instance {
  long n, m;
};
void PrintTo(const Instance& i, std::ostream* os) { *os << "GF(2^" << i.n << ")^" << i.m; }

const Instance kInstances[] = {{8, 16}, {16, 8}, {32, 4}, {64, 2}};

json load(const Instance& inst) {
  const std::string path =
      std::string(CB_CIPHERS_DIR) + "/vision/vectors/vision_gf2_" + std::to_string(inst.n) + "_m" + std::to_string(inst.m) + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return json::parse(in);
}

uint64_t elem(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }
State state(const json& j) {
  State s;
  for (const auto& e : j) s.push_back(elem(e));
  return s;
}
std::vector<uint64_t> flat(const json& rows) {
  std::vector<uint64_t> out;
  for (const auto& r : rows)
    for (const auto& e : r) out.push_back(elem(e));
  return out;
}

class VisionInstance : public ::testing::TestWithParam<Instance> {
 protected:
  void SetUp() override {
    file_ = load(GetParam());
    vision_ = std::make_unique<Vision>(VisionParams::get(GetParam().n, GetParam().m));
  }
  json file_;
  std::unique_ptr<Vision> vision_;
};

TEST_P(VisionInstance, ConstantsEqualVectorParameters) {
  const VisionParams& p = vision_->params();
  const json& q = file_["parameters"];
  EXPECT_EQ(p.rounds, file_["rounds"].get<long>());
  EXPECT_EQ(p.z, elem(q["primitive_element_z"]));
  EXPECT_EQ(std::vector<uint64_t>(p.B.begin(), p.B.end()), state(q["B"]));
  EXPECT_EQ(p.B_inv, state(q["B_inv"]));
  EXPECT_EQ(p.c0, state(q["initial_constant"]));
  EXPECT_EQ(p.CM, flat(q["constants_matrix"]));
  EXPECT_EQ(p.CC, state(q["constants_constant"]));
  EXPECT_EQ(p.MDS, flat(q["MDS"]));
  const uint64_t mod_low = std::stoull(file_["field"]["modulus_int"].get<std::string>().substr(3), nullptr, 16);
  if (p.n < 64) EXPECT_EQ(p.modulus_low | (uint64_t(1) << p.n), std::stoull(file_["field"]["modulus_int"].get<std::string>(), nullptr, 16));
  else EXPECT_EQ(p.modulus_low, mod_low);
}

TEST_P(VisionInstance, AffineMapsAreInverse) {
  std::mt19937_64 rng(1);
  const uint64_t mask = vision_->n() == 64 ? ~0ull : (1ull << vision_->n()) - 1;
  for (int t = 0; t < 200; ++t) {
    const uint64_t x = rng() & mask;
    ASSERT_EQ(vision_->B_inv(vision_->B(x)), x);
    ASSERT_EQ(vision_->B(vision_->B_inv(x)), x);
  }
  State s(vision_->m());
  for (auto& x : s) x = rng() & mask;
  EXPECT_EQ(vision_->mds_inv(vision_->mds(s)), s);
}

TEST_P(VisionInstance, AllVectors) {
  for (const json& v : file_["vectors"]) {
    SCOPED_TRACE(v["name"].get<std::string>());
    const State key = state(v["key"]), pt = state(v["plaintext"]), ct = state(v["ciphertext"]);
    const auto tr = vision_->trace(key, pt);
    ASSERT_EQ(tr.subkeys.size(), v["subkeys"].size());
    for (size_t s = 0; s < tr.subkeys.size(); ++s) EXPECT_EQ(tr.subkeys[s], state(v["subkeys"][s])) << "subkey " << s;
    ASSERT_EQ(tr.round_states.size(), v["round_states"].size());
    for (size_t r = 0; r < tr.round_states.size(); ++r)
      EXPECT_EQ(tr.round_states[r], state(v["round_states"][r])) << "after round " << r + 1;
    EXPECT_EQ(vision_->encrypt(key, pt), ct);
    EXPECT_EQ(vision_->decrypt(key, ct), pt);
    // Byte encoding.
    EXPECT_EQ(vision_->from_bytes(from_hex(v["key_bytes"])), key);
    EXPECT_EQ(to_hex(vision_->to_bytes(ct)), v["ciphertext_bytes"].get<std::string>());
  }
}

TEST_P(VisionInstance, Round1Trace) {
  const Vision& V = *vision_;
  for (const json& v : file_["vectors"]) {
    SCOPED_TRACE(v["name"].get<std::string>());
    const json& t = v["round1_trace"];
    const auto kappa = V.injections(1);
    EXPECT_EQ(kappa[0], state(t["key_injection_0"]));
    State k = state(v["key"]), d = state(v["plaintext"]);
    for (long i = 0; i < V.m(); ++i) k[i] ^= kappa[0][i];
    EXPECT_EQ(k, state(t["key_state_0"]));
    for (long i = 0; i < V.m(); ++i) d[i] ^= k[i];
    EXPECT_EQ(d, state(t["data_state_0"]));
    for (long s = 1; s <= 2; ++s) {
      const json& st = t["step" + std::to_string(s)];
      EXPECT_EQ(st["affine_map"].get<std::string>(), s == 1 ? "B_inv" : "B");
      EXPECT_EQ(kappa[s], state(st["key_injection"]));
      k = V.inverse(k);
      EXPECT_EQ(k, state(st["key_after_inverse"]));
      k = V.affine(k, s);
      EXPECT_EQ(k, state(st["key_after_affine"]));
      k = V.mds(k);
      EXPECT_EQ(k, state(st["key_after_mds"]));
      for (long i = 0; i < V.m(); ++i) k[i] ^= kappa[s][i];
      EXPECT_EQ(k, state(st["key_state"]));
      d = V.inverse(d);
      EXPECT_EQ(d, state(st["data_after_inverse"]));
      d = V.affine(d, s);
      EXPECT_EQ(d, state(st["data_after_affine"]));
      d = V.mds(d);
      EXPECT_EQ(d, state(st["data_after_mds"]));
      for (long i = 0; i < V.m(); ++i) d[i] ^= k[i];
      EXPECT_EQ(d, state(st["data_state"]));
    }
  }
}

TEST_P(VisionInstance, ReducedRoundsStopEarlyAndDecrypt) {
  for (const json& v : file_["vectors"]) {
    const State key = state(v["key"]), pt = state(v["plaintext"]);
    for (long r = 1; r <= vision_->rounds(); ++r) {
      const State c = vision_->encrypt(key, pt, r);
      ASSERT_EQ(c, state(v["round_states"][r - 1])) << r << " rounds";
      ASSERT_EQ(vision_->decrypt(key, c, r), pt) << r << " rounds";
    }
  }
}

TEST_P(VisionInstance, RandomRoundTrips) {
  std::mt19937_64 rng(GetParam().n);
  const uint64_t mask = vision_->n() == 64 ? ~0ull : (1ull << vision_->n()) - 1;
  for (int t = 0; t < 10; ++t) {
    State k(vision_->m()), p(vision_->m());
    for (auto& x : k) x = rng() & mask;
    for (auto& x : p) x = rng() & mask;
    EXPECT_EQ(vision_->decrypt(k, vision_->encrypt(k, p)), p);
  }
}

TEST_P(VisionInstance, BadArgumentsThrowWithReason) {
  const State s(vision_->m(), 0);
  const long R = vision_->rounds();
  try {
    vision_->encrypt(s, s, R + 1);
    FAIL() << "rounds > Nb accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("rounds=" + std::to_string(R + 1) + " is outside [1, " + std::to_string(R) + "]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(vision_->encrypt(s, s, -1), ParameterError);
  EXPECT_THROW(vision_->encrypt(State(vision_->m() + 1, 0), s), ParameterError);
  EXPECT_THROW(vision_->from_bytes(std::vector<uint8_t>(15)), ParameterError);
  if (vision_->n() < 64) {
    State big = s;
    big[0] = uint64_t(1) << vision_->n();
    EXPECT_THROW(vision_->encrypt(s, big), ParameterError);
  }
}

INSTANTIATE_TEST_SUITE_P(FourInstances, VisionInstance, ::testing::ValuesIn(kInstances),
                         [](const auto& info) {
                           return "GF2_" + std::to_string(info.param.n) + "_m" + std::to_string(info.param.m);
                         });

// The FHE paper ran 13 rounds of GF(2^64)^2: the 13-round output is round_states[12].
TEST(Vision, Gf64ThirteenRoundsIsRoundState12) {
  const json f = load({64, 2});
  const Vision V(VisionParams::get(64, 2));
  ASSERT_EQ(V.rounds(), 18);
  for (const json& v : f["vectors"]) {
    const State key = state(v["key"]), pt = state(v["plaintext"]);
    const State c13 = V.encrypt(key, pt, 13);
    EXPECT_EQ(c13, state(v["round_states"][12]));
    EXPECT_EQ(V.decrypt(key, c13, 13), pt);
  }
}

TEST(Vision, UnknownInstanceThrows) {
  try {
    VisionParams::get(8, 8);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("GF(2^8)^8 is not an instance"), std::string::npos) << e.what();
  }
  EXPECT_EQ(VisionParams::all().size(), 4u);
}

}  // namespace
}  // namespace cb
