// HelibBackend's sizes (backend.h's key_sizes() and ciphertext_bytes(): HElib's own binary
// serialization): positive, one more matrix per automorphism key, a public key and a fresh
// ciphertext of two parts at HElib's ciphertext primes, a ciphertext at a lower level smaller.
// Built only with HElib (-DCB_HELIB_DIR).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "apps/record_sizes.h"
#include "backend/helib_backend.h"

namespace cb {
namespace {

constexpr uint64_t kAesPoly = 0x1b;  // x^8 + x^4 + x^3 + x + 1

TEST(HelibBackend, SizesFromItsSerialization) {
  HelibBackend he(HelibParams{257, 300, 2, 120, 1}, 8, kAesPoly);
  const auto report = nlohmann::json::parse(he.report_json());
  const size_t ctxt_primes = report["helib_chain"]["ctxt_primes"].get<size_t>();
  const size_t phi = size_t(he.info().phi);

  KeySizes k = he.key_sizes();
  EXPECT_GT(k.public_key, 0u);
  EXPECT_GT(k.relin_key, 0u);
  EXPECT_EQ(k.n_relin_keys, 1);
  EXPECT_EQ(k.n_automorphism_keys, 0);
  EXPECT_EQ(k.automorphism_keys, 0u);
  EXPECT_NE(k.counted.find("helib"), std::string::npos);
  // The public key (b, a): two polynomials over the ciphertext primes, and HElib's headers.
  EXPECT_GE(k.public_key, 2 * ctxt_primes * phi * 8);
  EXPECT_LT(k.public_key, 2 * ctxt_primes * phi * 8 + 4096);

  he.require_automorphisms({2, 3});
  const KeySizes k2 = he.key_sizes();
  EXPECT_EQ(k2.n_automorphism_keys, 2);
  EXPECT_EQ(k2.eval_keys(), 3);
  EXPECT_EQ(k2.relin_key, k.relin_key);
  EXPECT_EQ(k2.public_key, k.public_key);
  EXPECT_GT(k2.automorphism_keys, 0u);

  // Fresh: two parts of phi 8-byte residues per ciphertext prime, and a header.
  std::vector<uint64_t> v(size_t(he.slot_count()), 5);
  const auto fresh = he.encrypt(v);
  const size_t fresh_bytes = he.ciphertext_bytes(fresh);
  EXPECT_GE(fresh_bytes, 2 * ctxt_primes * phi * 8);
  EXPECT_LT(fresh_bytes, 2 * ctxt_primes * phi * 8 + 4096);
  // Seven squarings: HElib switches down lazily, before a product, once the noise asks for
  // it (about 11 bits a squaring here), so after a few the result holds fewer primes (its
  // special primes, left on after the key switch, divided out).
  auto low = fresh;
  uint64_t want = 5;
  const GF2n& f = he.field();
  for (int i = 0; i < 7; ++i) {
    he.square(low);
    want = f.sqr(want);
  }
  EXPECT_LT(he.ciphertext_bytes(low), fresh_bytes);
  EXPECT_LT(he.capacity_bits(low), he.capacity_bits(fresh));
  EXPECT_EQ(he.decrypt(low), std::vector<uint64_t>(v.size(), want));
  const auto j = apps::record_sizes_json(he, fresh, low, double(he.slot_count()) * 8);
  EXPECT_EQ(j["fresh_ciphertext_bytes"].get<size_t>(), fresh_bytes);
  EXPECT_LT(j["expansion"].get<double>(), j["fresh_expansion"].get<double>());
}

}  // namespace
}  // namespace cb
