// Sizes (backend.h's key_sizes() and ciphertext_bytes(), apps/record_sizes.h): the engine's
// bytes against the formula from the context's parameters, computed here from phi, the
// chain's prime counts (Q = L - S ciphertext primes, K special), the number of digits and
// the number of keys, not from the objects; the clear backend's zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>

#include "apps/record_sizes.h"
#include "backend/bgv_backend.h"
#include "backend/clear_backend.h"
#include "engine/bgv/context.h"
#include "engine/errors.h"

namespace cb {
namespace {

constexpr uint64_t kAesPoly = 0x1b;  // x^8 + x^4 + x^3 + x + 1

struct SizesCase {
  std::string name;
  long m, bits, c;
  uint64_t p;             // 2: GF(2^8) slots; else F_p
  long keep_uniform_mib;  // 0: every key compact (b_j packed, a_j a seed)
};
std::ostream& operator<<(std::ostream& os, const SizesCase& s) { return os << s.name; }

class EngineSizes : public ::testing::TestWithParam<SizesCase> {};

BgvBackend make_backend(const SizesCase& s) {
  BgvParams bp{s.m, s.bits, s.c, 0, 7};
  bp.keep_uniform_mib = s.keep_uniform_mib;
  if (s.p == 2) return BgvBackend(bp, 8, kAesPoly);
  return BgvBackend(bp, PrimeField(s.p));
}

// One key-switching key as the formula says: c digits x (b_j, a_j) over the Q + K primes,
// one 8-byte word a residue; compact, b_j at its prime's width w in ceil(phi w / 64) + 1
// words per limb (one spare word) and a_j as an 8-byte seed.
size_t key_formula(const bgv::Context& ctx, bool compact) {
  const size_t phi = size_t(ctx.phi()), Q = size_t(ctx.L() - ctx.S()), K = size_t(ctx.K());
  const size_t digits = ctx.digits().size();
  if (!compact) return 2 * digits * (Q + K) * phi * 8;
  size_t b_words = 0;
  for (long i = ctx.S(); i < ctx.num_primes(); ++i) {
    const size_t w = size_t(std::floor(std::log2(double(ctx.q(i))))) + 1;
    b_words += w >= 64 ? phi : (phi * w + 63) / 64 + 1;
  }
  return digits * b_words * 8 + 8;
}

TEST_P(EngineSizes, MatchTheFormulaFromTheChain) {
  const SizesCase& s = GetParam();
  BgvBackend be = make_backend(s);
  const bgv::Context& ctx = be.context();
  const size_t phi = size_t(ctx.phi()), Q = size_t(ctx.L() - ctx.S());
  ASSERT_GE(Q, 3u) << "the test drops two primes";
  ASSERT_LE(long(ctx.digits().size()), s.c);
  const bool compact = s.keep_uniform_mib == 0;
  const size_t key = key_formula(ctx, compact);

  KeySizes k = be.key_sizes();
  EXPECT_EQ(k.public_key, 2 * Q * phi * 8);
  EXPECT_EQ(k.relin_key, key);
  EXPECT_EQ(k.n_relin_keys, 1);
  EXPECT_EQ(k.automorphism_keys, 0u);
  EXPECT_EQ(k.eval_keys(), 1);
  EXPECT_NE(k.counted.find(compact ? "compact" : "in full"), std::string::npos) << k.counted;

  // Two automorphism keys, then one more: eval_key_bytes grows by one key's size each time.
  const ZmStar& zm = be.zmstar();
  std::vector<long> ks;
  for (long x = 2; ks.size() < 3; ++x)
    if (zm.in_zmstar(x)) ks.push_back(x);
  be.require_automorphisms({ks[0], ks[1]});
  k = be.key_sizes();
  EXPECT_EQ(k.n_automorphism_keys, 2);
  EXPECT_EQ(k.eval_keys(), 3);
  EXPECT_EQ(k.eval_key_bytes(), 3 * key);
  be.require_automorphisms({ks[0], ks[2]});  // ks[0] is there already: one new key
  const KeySizes k3 = be.key_sizes();
  EXPECT_EQ(k3.eval_keys(), 4);
  EXPECT_EQ(k3.eval_key_bytes() - k.eval_key_bytes(), key);

  // A fresh ciphertext holds 2 Q limbs; dropping two primes takes exactly their share.
  std::vector<uint64_t> v(size_t(be.slot_count()), 1);
  const auto fresh = be.encrypt(v);
  EXPECT_EQ(be.ciphertext_bytes(fresh), 2 * Q * phi * 8);
  auto low = fresh;
  be.mod_switch_to(low, long(Q) - 2);
  ASSERT_EQ(low.level(), long(Q) - 2);
  EXPECT_EQ(be.ciphertext_bytes(fresh) - be.ciphertext_bytes(low), 2 * 2 * phi * 8);
  EXPECT_EQ(be.ciphertext_bytes(low) * Q, be.ciphertext_bytes(fresh) * (Q - 2));
  EXPECT_EQ(be.decrypt(low), v);

  // The record: the same numbers, and expansion as ciphertext bits per plaintext bit.
  const double bits = double(be.slot_count()) * apps::slot_element_bits(be);
  EXPECT_DOUBLE_EQ(apps::slot_element_bits(be), s.p == 2 ? 8.0 : std::log2(double(s.p)));
  const auto j = apps::record_sizes_json(be, fresh, low, bits);
  EXPECT_EQ(j["public_key_bytes"].get<size_t>(), 2 * Q * phi * 8);
  EXPECT_EQ(j["eval_key_bytes"].get<size_t>(), 4 * key);
  EXPECT_EQ(j["eval_keys"].get<long>(), 4);
  EXPECT_EQ(j["automorphism_keys"].get<long>(), 3);
  EXPECT_EQ(j["relin_key_bytes"].get<size_t>(), key);
  EXPECT_EQ(j["fresh_ciphertext_bytes"].get<size_t>(), 2 * Q * phi * 8);
  EXPECT_EQ(j["output_ciphertext_bytes"].get<size_t>(), 2 * (Q - 2) * phi * 8);
  EXPECT_DOUBLE_EQ(j["fresh_expansion"].get<double>(), 8.0 * double(2 * Q * phi * 8) / bits);
  EXPECT_DOUBLE_EQ(j["expansion"].get<double>(), 8.0 * double(2 * (Q - 2) * phi * 8) / bits);
  EXPECT_THROW(apps::record_sizes_json(be, fresh, low, 0.0), ParameterError);
}

INSTANTIATE_TEST_SUITE_P(
    Rings, EngineSizes,
    ::testing::Values(SizesCase{"gf256_m257_full_keys", 257, 200, 2, 2, 64},
                      SizesCase{"gf256_m257_compact_keys", 257, 200, 3, 2, 0},
                      SizesCase{"fp65537_m256_full_keys", 256, 200, 2, 65537, 64}),
    [](const auto& info) { return info.param.name; });

TEST(ClearSizes, NoKeysAndTheSlotWords) {
  ClearBackend be(257, 8, kAesPoly);
  be.require_automorphisms({1, 2, 3});
  const KeySizes k = be.key_sizes();
  EXPECT_EQ(k.public_key, 0u);
  EXPECT_EQ(k.eval_key_bytes(), 0u);
  EXPECT_EQ(k.n_automorphism_keys, 2);  // k = 1 needs none
  const auto c = be.encrypt(std::vector<uint64_t>(size_t(be.slot_count()), 3));
  EXPECT_EQ(be.ciphertext_bytes(c), size_t(be.slot_count()) * 8);
  const auto j = apps::record_sizes_json(be, c, c, double(be.slot_count()) * 8);
  EXPECT_DOUBLE_EQ(j["expansion"].get<double>(), 8.0);  // 64-bit words for 8-bit elements
}

}  // namespace
}  // namespace cb
