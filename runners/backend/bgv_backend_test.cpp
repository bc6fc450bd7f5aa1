// BgvBackend: the circuit interface on the BGV engine, with GF(2^n) values in the slots.
#include "backend/bgv_backend.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <random>

#include "engine/errors.h"
#include "engine/bgv/test_words.h"

namespace cb {
namespace {

constexpr uint64_t kAesPoly = 0x1b;  // x^8 + x^4 + x^3 + x + 1

std::vector<uint64_t> random_bytes(long n, std::mt19937_64& g) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = g() & 0xff;
  return v;
}

TEST(BgvBackend, AesFieldOperationsAgainstGF2n) {
  BgvBackend be(BgvParams{257, 200, 2, 0, 1}, 8, kAesPoly);
  const GF2n& f = be.field();
  std::mt19937_64 g(3);
  const auto a = random_bytes(be.slot_count(), g), b = random_bytes(be.slot_count(), g);
  be.require_automorphisms({2});
  auto ca = be.encrypt(a);
  const auto cb = be.encrypt(b);
  auto prod = ca;
  be.mul(prod, cb);
  be.add_plain(prod, be.encode(b));
  be.automorph(ca, 2);  // Frobenius: squares every slot
  const auto dp = be.decrypt(prod), ds = be.decrypt(ca);
  for (long i = 0; i < be.slot_count(); ++i) {
    EXPECT_EQ(dp[i], f.mul(a[i], b[i]) ^ b[i]);
    EXPECT_EQ(ds[i], f.sqr(a[i]));
  }
  const BackendInfo info = be.info();
  EXPECT_EQ(info.name, "bgv");
  EXPECT_EQ(info.m, 257);
  EXPECT_EQ(info.slots, 16);
  EXPECT_NEAR(info.log2_q, info.log2_q_ct + info.log2_p, 1e-9);
  EXPECT_GE(info.log2_q_ct, 180);
}

// encrypt_many on 3 threads gives the words of encrypt() called in turn from the same seed
// (the randomness drawn in order, the rest side by side), and the sampler is left where
// the calls in turn leave it: with the public key and with the secret key.
TEST(BgvBackend, EncryptManyGivesTheWordsOfEncryptInTurn) {
  const int saved = omp_get_max_threads();
  std::mt19937_64 g(5);
  std::vector<std::vector<uint64_t>> vs;
  for (int i = 0; i < 7; ++i) vs.push_back(random_bytes(16, g));
  using bgv::testing::words;
  for (const bool secret : {false, true}) {
    const BgvParams p{257, 200, 2, 0, 1, 64, secret};
    omp_set_num_threads(1);
    BgvBackend one(p, 8, kAesPoly);
    EXPECT_EQ(one.secret_key_encryption(), secret);
    std::vector<std::vector<uint64_t>> want;
    for (const auto& v : vs) want.push_back(words(one.encrypt(v)));
    want.push_back(words(one.encrypt(vs[0])));
    omp_set_num_threads(3);
    BgvBackend many(p, 8, kAesPoly);
    std::vector<std::vector<uint64_t>> got;
    const auto cts = many.encrypt_many(vs);
    for (const auto& c : cts) got.push_back(words(c));
    got.push_back(words(many.encrypt(vs[0])));  // the next draw, as after the calls in turn
    omp_set_num_threads(saved);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i] == want[i]) << "ciphertext " << i << " secret " << secret;
    for (size_t i = 0; i < vs.size(); ++i) EXPECT_EQ(many.decrypt(cts[i]), vs[i]);
  }
}

TEST(BgvBackend, FieldMustDivideSlotDegree) {
  try {
    BgvBackend be(BgvParams{257, 200, 2, 0, 1}, 32, 0x8d);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("GF(2^32) needs 32 | d"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cb
