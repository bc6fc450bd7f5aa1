// Rasta: the clear reference (rasta.h) and the catalog program (entry.cpp) against IAIK's
// known-answer tests (kat_rasta5.json, kat_rasta6.json) and the Python reference's vectors
// at other nonces and counters (vectors_python.json); the Keccak permutation against
// OpenSSL's SHAKE256; the entry's declaration and IAIK's byte codec.
#include "ciphers/rasta/rasta.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/rasta/keccak.h"
#include "engine/errors.h"

namespace cb {
const CipherEntry& rasta_entry();
namespace {

nlohmann::json load(const std::string& file) {
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/rasta/" + file);
  EXPECT_TRUE(in.good()) << file;
  return nlohmann::json::parse(in);
}

std::unique_ptr<KeystreamInstance> make(const std::string& id) {
  for (const auto& sp : rasta_entry().instances)
    if (sp.id == id) return rasta_entry().make_keystream(sp);
  throw Error("no instance " + id);
}

std::vector<uint8_t> shake256(const std::vector<uint8_t>& in, size_t out_len) {
  std::vector<uint8_t> out(out_len);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EXPECT_EQ(EVP_DigestInit_ex(ctx, EVP_shake256(), nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx, in.data(), in.size()), 1);
  EXPECT_EQ(EVP_DigestFinalXOF(ctx, out.data(), out.size()), 1);
  EVP_MD_CTX_free(ctx);
  return out;
}

// The permutation as SHAKE256's sponge (rate 136 bytes, padding 0x1F ... 0x80), absorbing a
// message of several blocks and squeezing several: OpenSSL's bytes.
TEST(Keccak, SpongeIsOpenSslShake256) {
  for (size_t len : {0, 1, 135, 136, 137, 300}) {
    std::vector<uint8_t> m(len);
    for (size_t i = 0; i < len; ++i) m[i] = uint8_t(i * 37 + 11);
    const size_t rate = 136, L = (len / rate + 1) * rate;
    std::vector<uint8_t> padded(L, 0);
    std::copy(m.begin(), m.end(), padded.begin());
    padded[len] ^= 0x1F;
    padded[L - 1] ^= 0x80;
    uint64_t a[25] = {};
    for (size_t blk = 0; blk < L; blk += rate) {
      for (size_t i = 0; i < rate; ++i) a[i / 8] ^= uint64_t(padded[blk + i]) << (8 * (i % 8));
      keccak_f1600(a);
    }
    std::vector<uint8_t> out;
    while (out.size() < 500) {
      for (size_t i = 0; i < rate; ++i) out.push_back(uint8_t(a[i / 8] >> (8 * (i % 8))));
      keccak_f1600(a);
    }
    out.resize(500);
    EXPECT_EQ(out, shake256(m, 500)) << "message of " << len << " bytes";
  }
}

// With counter 0 the state Rasta lays out is SHAKE256's padding of its first 32 bytes.
TEST(Rasta, CounterZeroStreamIsShake256) {
  for (const auto& [n, r] : Rasta::instances()) {
    const Rasta R(n, r);
    const auto s = R.initial_state(0x0123456789ABCDEFull, 0);
    EXPECT_EQ(R.stream(0x0123456789ABCDEFull, 0, 1000), shake256({s.begin(), s.begin() + 32}, 1000));
    // Another counter is not: its bytes sit past the padding byte 0x1F at 32.
    const auto s1 = R.initial_state(0x0123456789ABCDEFull, 1);
    EXPECT_EQ(s1[32], 0x1F);
    EXPECT_EQ(s1[40], 1);
    EXPECT_NE(R.stream(0x0123456789ABCDEFull, 1, 100), shake256({s1.begin(), s1.begin() + 32}, 100));
  }
}

TEST(Rasta, InitialStateLayout) {
  const Rasta R(525, 5);
  const auto s = R.initial_state(0x0102030405060708ull, 0x1112131415161718ull);
  const std::vector<uint8_t> head = {5, 0, 0, 0, 5, 0, 0, 0, 0x0D, 0x02, 0, 0, 0x0D, 0x02, 0, 0};
  EXPECT_EQ(std::vector<uint8_t>(s.begin(), s.begin() + 16), head);
  EXPECT_EQ(s[24], 0x08);
  EXPECT_EQ(s[31], 0x01);
  EXPECT_EQ(s[40], 0x18);
  EXPECT_EQ(s[47], 0x11);
  EXPECT_EQ(s[135], 0x80);
  EXPECT_THROW(Rasta(525, 6), ParameterError);
}

TEST(Rasta, InstanceMatricesAreInvertible) {
  const Rasta R(351, 6);
  const auto in = R.instance(7, 9);
  ASSERT_EQ(in.M.size(), 7u);
  ASSERT_EQ(in.c.size(), 7u);
  for (const auto& M : in.M) EXPECT_EQ(Rasta::rank(M, 351), 351);
  // The rank test itself: a repeated row is caught.
  auto M = in.M[0];
  M[100] = M[3];
  EXPECT_EQ(Rasta::rank(M, 351), 350);
}

TEST(Rasta, ChiIndexConvention) {
  const Rasta R(351, 6);
  // S(x)_j = x_j + x_(j+2) + x_(j+1) x_(j+2): a single bit at 5 sets bits 5 and 3.
  Rasta::Bits x(R.words(), 0);
  x[0] = uint64_t(1) << 5;
  auto y = R.chi(x);
  EXPECT_EQ(y[0], (uint64_t(1) << 5) | (uint64_t(1) << 3));
  // Bits 0 and 350 wrap: x_349 gets x_350 x_0 (and x_0), x_350 gets x_0, x_0 its own.
  x.assign(R.words(), 0);
  x[0] = 1;
  x[350 / 64] |= uint64_t(1) << (350 % 64);
  y = R.chi(x);
  auto bit = [&](long j) { return (y[j / 64] >> (j % 64)) & 1; };
  EXPECT_EQ(bit(349), 0u);  // x_349 + x_0 + x_350 x_0 = 0 + 1 + 1
  EXPECT_EQ(bit(348), 1u);  // x_348 + x_350 + x_349 x_350 = 1
  EXPECT_EQ(bit(350), 1u);  // x_350 + x_1 + x_0 x_1 = 1 + 0 + 0
  EXPECT_EQ(bit(0), 1u);    // x_0 + x_2 + x_1 x_2 = 1
}

struct Kat {
  std::string id, key, keystream;
  uint64_t nonce, counter;
};

std::vector<Kat> all_vectors() {
  std::vector<Kat> out;
  for (const std::string id : {"rasta5", "rasta6"}) {
    const auto j = load("kat_" + id + ".json");
    for (const auto& v : j["vectors"])
      out.push_back({id, v["key"], v["keystream"], j["nonce"].get<uint64_t>(), j["counter"].get<uint64_t>()});
  }
  const auto py = load("vectors_python.json");
  for (const auto& v : py["vectors"])
    out.push_back({v["instance"], v["key"], v["keystream"], v["nonce"].get<uint64_t>(), v["counter"].get<uint64_t>()});
  return out;
}

TEST(Rasta, KatFilesAreIaiks) {
  for (const std::string id : {"rasta5", "rasta6"}) {
    const auto j = load("kat_" + id + ".json");
    EXPECT_EQ(j["source"]["repository"], "https://github.com/IAIK/hybrid-HE-framework");
    EXPECT_EQ(j["source"]["commit"].get<std::string>().size(), 40u);
    const auto ks = make(id);
    for (const auto& v : j["vectors"]) {
      // ciphertext = plaintext XOR keystream, all as published.
      const long n = ks->spec().s;
      const auto p = ks->parse(v["plaintext"], n, "plaintext"), c = ks->parse(v["ciphertext"], n, "ciphertext"),
                 k = ks->parse(v["keystream"], n, "keystream");
      for (long i = 0; i < n; ++i) EXPECT_EQ(p[i] ^ k[i], c[i]);
    }
  }
}

TEST(Rasta, ReferenceAndProgramMatchEveryVector) {
  const auto vs = all_vectors();
  ASSERT_EQ(vs.size(), 6u);
  for (const auto& v : vs) {
    const auto ks = make(v.id);
    const long n = ks->spec().s;
    const Elements key = ks->parse(v.key, ks->spec().key_elements, "key");
    const Elements want = ks->parse(v.keystream, n, "keystream");
    EXPECT_EQ(ks->keystream(key, v.nonce, v.counter), want) << v.id << " nonce " << v.nonce << " counter " << v.counter;
    EXPECT_EQ(eval_program(*ks, key, ks->material(v.nonce, v.counter)), want) << v.id << " program";
    EXPECT_EQ(ks->format(want), v.keystream);
  }
}

TEST(Rasta, EntryAndProgramAreWellFormed) {
  EXPECT_NO_THROW(check_entry(rasta_entry()));
  ASSERT_EQ(rasta_entry().instances.size(), 2u);
  EXPECT_EQ(rasta_entry().instances[0].id, "rasta5");
  EXPECT_TRUE(rasta_entry().keystream());
  for (const auto& sp : rasta_entry().instances) {
    const auto ks = rasta_entry().make_keystream(sp);
    EXPECT_NO_THROW(check_program(*ks));
    EXPECT_EQ(ks->state_size(), sp.s);
    const auto prog = ks->program();
    ASSERT_EQ(long(prog.size()), sp.rounds);
    long affine = 0, quad = 0, addkey = 0;
    for (const auto& round : prog)
      for (const auto& st : round)
        for (const auto& op : st.ops) {
          affine += op.kind == KsOp::kAffine;
          quad += op.kind == KsOp::kQuadratic;
          addkey += op.kind == KsOp::kAddKey;
          if (op.kind == KsOp::kQuadratic) {
            EXPECT_EQ(long(op.Q.size()), sp.s);  // one AND per bit
          }
        }
    EXPECT_EQ(affine, sp.rounds + 1);
    EXPECT_EQ(quad, sp.rounds);
    EXPECT_EQ(addkey, 2);
    const auto mat = ks->material(3, 4);
    EXPECT_EQ(long(mat.M.size()), sp.rounds + 1);
    EXPECT_EQ(long(mat.c.size()), sp.rounds + 1);
    EXPECT_TRUE(mat.rc.empty());
  }
}

TEST(Rasta, ProgramMatchesReferenceOnRandomKeys) {
  std::mt19937_64 rng(5);
  const auto ks = make("rasta6");
  for (int t = 0; t < 2; ++t) {
    Elements key(351);
    for (auto& b : key) b = rng() & 1;
    const uint64_t nonce = rng(), counter = rng();
    EXPECT_EQ(eval_program(*ks, key, ks->material(nonce, counter)), ks->keystream(key, nonce, counter));
  }
}

TEST(Rasta, CodecRoundTripAndRefusals) {
  const auto ks = make("rasta5");
  const std::string hex = load("kat_rasta5.json")["vectors"][0]["key"];
  const Elements k = ks->parse(hex, 525, "key");
  EXPECT_EQ(ks->format(k), hex);
  // Bit 0 is the top bit of byte 0; bit 524 is bit 3 of byte 65.
  Elements one(525, 0);
  one[0] = 1;
  EXPECT_EQ(ks->format(one).substr(0, 2), "80");
  one.assign(525, 0);
  one[524] = 1;
  EXPECT_EQ(ks->format(one).substr(130), "08");
  EXPECT_EQ(ks->parse(ks->format(one), 525, "key"), one);
  // A padding bit (525..527: the low three bits of byte 65) set.
  std::string bad = hex;
  bad.replace(130, 2, "24");
  try {
    ks->parse(bad, 525, "key");
    FAIL() << "padding bit accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("bit 525 is set"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  // A wrong length, an odd digit count, a non-hex digit.
  try {
    ks->parse(hex.substr(2), 525, "key");
    FAIL() << "short key accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("has 65 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("66 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ks->parse(hex.substr(1), 525, "key"), ParameterError);
  EXPECT_THROW(ks->parse("zz" + hex.substr(2), 525, "key"), ParameterError);
  // Rasta-6: one padding bit, the low bit of byte 43.
  const auto ks6 = make("rasta6");
  const std::string hex6 = load("kat_rasta6.json")["vectors"][0]["key"];
  EXPECT_EQ(ks6->format(ks6->parse(hex6, 351, "key")), hex6);
  std::string bad6 = hex6;
  bad6.back() = '5';  // 0x04 -> 0x05
  EXPECT_THROW(ks6->parse(bad6, 351, "key"), ParameterError);
  // format refuses a non-bit; keystream refuses a key of the wrong length or a non-bit.
  Elements two(525, 0);
  two[7] = 2;
  EXPECT_THROW(ks->format(two), ParameterError);
  EXPECT_THROW(ks->keystream(Elements(524, 0), 0, 1), ParameterError);
  EXPECT_THROW(ks->keystream(two, 0, 1), ParameterError);
}

}  // namespace
}  // namespace cb
