// clear_backend_test: ClearBackend against slot-wise GF(2^n) arithmetic, its key
// management, and its automorphisms against the actual ring: encode the slots with
// SlotRing, map X -> X^k on the polynomial, decode.
#include "backend/clear_backend.h"

#include <gtest/gtest.h>

#include <NTL/GF2XFactoring.h>

#include <cmath>
#include <random>

#include "backend/test_rings.h"
#include "engine/algebra/slot_ring.h"
#include "engine/algebra/subfield.h"
#include "engine/errors.h"

namespace cb {
namespace {

struct Ring {
  std::string reason;
  long m, n;
  uint64_t f_low;
};
void PrintTo(const Ring& r, std::ostream* os) { *os << r.reason << " (m=" << r.m << ", n=" << r.n << ")"; }

// AES field rings with bad dimensions (the hard case for the automorphism model) and a
// three-dimensional ring with n = d (every twist visible).
std::vector<Ring> rings() {
  return {{"aes_257_one_bad_dim", 257, 8, 0x1b},        // d = 16, ell = 16, twist 11
          {"aes_771_one_bad_dim", 771, 8, 0x1b},        // d = 16, ell = 32, twist 10
          {"aes_119_bad_dim_among_two", 119, 8, 0x1b},  // d = 24, ell = 4 = 2 x 2, dim 1 bad
          {"three_good_dims_n_eq_d", 1155, 60, cb::testing::first_irreducible(60)}};  // ell = 8
}

TEST(ClearBackend, RingShapes) {
  EXPECT_TRUE(cb::testing::has_bad_dim(ZmStar(257)));
  EXPECT_TRUE(cb::testing::has_bad_dim(ZmStar(771)));
  const ZmStar z119(119), z1155(1155);
  EXPECT_EQ(z119.dims(), 2);
  EXPECT_TRUE(cb::testing::has_bad_dim(z119));
  EXPECT_EQ(z1155.dims(), 3);
  EXPECT_FALSE(cb::testing::has_bad_dim(z1155));
  EXPECT_EQ(z1155.d(), 60);
}

std::vector<uint64_t> random_slots(std::mt19937_64& rng, long ell, long n) {
  std::vector<uint64_t> v(ell);
  const uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
  for (auto& x : v) x = rng() & mask;
  return v;
}

class ClearBackendRing : public ::testing::TestWithParam<Ring> {};

TEST_P(ClearBackendRing, SlotwiseArithmetic) {
  const Ring& r = GetParam();
  const ClearBackend be(r.m, r.n, r.f_low);
  const GF2n F(r.n, r.f_low);
  std::mt19937_64 rng(r.m);
  const long ell = be.slot_count();
  const auto a = random_slots(rng, ell, r.n), b = random_slots(rng, ell, r.n);
  auto ca = be.encrypt(a);
  const auto cb_ = be.encrypt(b);
  const auto pb = be.encode(b);
  auto sum = ca, psum = ca, prod = ca, pprod = ca, sq = ca;
  be.add(sum, cb_);
  be.add_plain(psum, pb);
  be.mul(prod, cb_);
  be.mul_plain(pprod, pb);
  be.square(sq);
  for (long i = 0; i < ell; ++i) {
    ASSERT_EQ(be.decrypt(sum)[i], a[i] ^ b[i]);
    ASSERT_EQ(be.decrypt(psum)[i], a[i] ^ b[i]);
    ASSERT_EQ(be.decrypt(prod)[i], F.mul(a[i], b[i]));
    ASSERT_EQ(be.decrypt(pprod)[i], F.mul(a[i], b[i]));
    ASSERT_EQ(be.decrypt(sq)[i], F.sqr(a[i]));
  }
  EXPECT_EQ(be.depth(prod), 1);
  EXPECT_EQ(be.depth(pprod), 0);
  be.mul(prod, sq);
  EXPECT_EQ(be.depth(prod), 2);
  EXPECT_TRUE(std::isinf(be.capacity_bits(prod)));
}

// The model's claim: automorph(k) on slots == X -> X^k on the encoded polynomial.
TEST_P(ClearBackendRing, AutomorphismMatchesTheRing) {
  const Ring& r = GetParam();
  ClearBackend be(r.m, r.n, r.f_low);
  const ZmStar& zm = be.zmstar();
  ASSERT_LE(zm.phi(), 4000) << "keep the rings of this test small";
  const SlotRing ring(zm);
  const Subfield sub(ring, r.n, r.f_low);
  std::mt19937_64 rng(r.m + 1);
  const auto v = random_slots(rng, zm.ell(), r.n);
  std::vector<NTL::GF2X> emb(zm.ell());
  for (long s = 0; s < zm.ell(); ++s) emb[s] = sub.embed(v[s]);
  const NTL::GF2X a = ring.encode(emb);
  std::vector<long> ks;
  for (long k = 2; k < r.m && ks.size() < 12; k += 1 + r.m / 12)
    if (zm.in_zmstar(k)) ks.push_back(k);
  for (long i = 0; i < zm.dims(); ++i) ks.push_back(zm.gen(i));
  be.require_automorphisms(ks);
  for (long k : ks) {
    NTL::GF2X ak;  // a(X^k) mod X^m - 1, then decode reduces mod Phi_m
    for (long i = 0; i <= NTL::deg(a); ++i)
      if (NTL::IsOne(NTL::coeff(a, i))) NTL::SetCoeff(ak, (i * k) % r.m, NTL::coeff(ak, (i * k) % r.m) + 1);
    const auto slots = ring.decode(ak);
    auto c = be.encrypt(v);
    be.automorph(c, k);
    const auto got = be.decrypt(c);
    for (long s = 0; s < zm.ell(); ++s) ASSERT_EQ(got[s], sub.project(slots[s])) << "k=" << k << " slot " << s;
  }
}

TEST_P(ClearBackendRing, FrobeniusKeysAndComposition) {
  const Ring& r = GetParam();
  ClearBackend be(r.m, r.n, r.f_low);
  const GF2n F(r.n, r.f_low);
  const ZmStar& zm = be.zmstar();
  std::mt19937_64 rng(r.m + 2);
  const auto v = random_slots(rng, zm.ell(), r.n);
  for (long j = 1; j < r.n; ++j) {
    auto c = be.encrypt(v);
    EXPECT_THROW(be.automorph(c, zm.power(2, j)), KeyError);  // Frobenius keys are not free
    be.require_automorphisms({zm.power(2, j)});
    be.automorph(c, zm.power(2, j));
    for (long s = 0; s < zm.ell(); ++s) ASSERT_EQ(be.decrypt(c)[s], F.frob(v[s], j));
  }
  // Hoisted form: the same as one automorph per k.
  std::vector<long> ks;
  for (long j = 1; j < r.n; ++j) ks.push_back(zm.power(2, j));
  ks.push_back(1);
  be.reset_op_counts();
  const auto many = be.automorph_many(be.encrypt(v), ks);
  ASSERT_EQ(many.size(), ks.size());
  for (size_t i = 0; i < ks.size(); ++i) {
    auto c = be.encrypt(v);
    be.automorph(c, ks[i]);
    EXPECT_EQ(be.decrypt(many[i]), be.decrypt(c)) << "k=" << ks[i];
  }
  EXPECT_EQ(be.op_counts().automorph_many, 1);
  EXPECT_THROW(be.automorph_many(be.encrypt(v), {zm.inverse(zm.gen(0))}), KeyError);
  // sigma_k2 after sigma_k1 = sigma_(k1 k2).
  const long k1 = zm.gen(0), k2 = zm.gen(zm.dims() - 1);
  const long k12 = long((unsigned long long)k1 * k2 % r.m);
  be.require_automorphisms({k1, k2, k12});
  auto c1 = be.encrypt(v), c2 = be.encrypt(v);
  be.automorph(c1, k1);
  be.automorph(c1, k2);
  be.automorph(c2, k12);
  EXPECT_EQ(be.decrypt(c1), be.decrypt(c2));
}

INSTANTIATE_TEST_SUITE_P(Rings, ClearBackendRing, ::testing::ValuesIn(rings()),
                         [](const auto& info) { return info.param.reason; });

TEST(ClearBackend, MissingKeyThrowsKeyError) {
  ClearBackend be(771, 8, 0x1b);
  const ZmStar& zm = be.zmstar();
  long k = 0;
  for (long x = 3; x < 771; ++x)
    if (zm.in_zmstar(x) && !be.has_automorphism_key(x)) {
      k = x;
      break;
    }
  ASSERT_NE(k, 0);
  auto c = be.encrypt(std::vector<uint64_t>(be.slot_count(), 1));
  try {
    be.automorph(c, k);
    FAIL() << "automorph without a key succeeded";
  } catch (const KeyError& e) {
    EXPECT_EQ(std::string(e.what()), msg("no key-switching key for X -> X^", k,
                                         " (m=771): call require_automorphisms({", k, "}) at setup"));
  }
  be.require_automorphisms({k});
  EXPECT_NO_THROW(be.automorph(c, k));
  EXPECT_NO_THROW(be.automorph(c, k - 771));  // k mod m
  EXPECT_NO_THROW(be.automorph(c, 1));        // identity, always available
  try {
    be.automorph(c, 3);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "k=3 is not a unit mod m=771: X -> X^k is no automorphism");
  }
  EXPECT_THROW(be.require_automorphisms({257}), ParameterError);
}

TEST(ClearBackend, ConstructionAndEncodingErrors) {
  try {
    ClearBackend be(257, 32, 0x8d);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()),
              "n=32 does not divide d=16 (m=257): GF(2^n) must be a subfield of the slot field GF(2^d)");
  }
  EXPECT_THROW(ClearBackend(256, 8, 0x1b), ParameterError);
  EXPECT_THROW(ClearBackend(257, 8, 0x1d ^ 0x1c), ParameterError);  // x^8 + 1 is reducible
  const ClearBackend be(257, 8, 0x1b);
  try {
    be.encrypt(std::vector<uint64_t>(15, 0));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "encrypt: v has 15 values: the ring m=257 has ell=16 slots");
  }
  std::vector<uint64_t> v(16, 0);
  v[3] = 0x100;
  try {
    be.encode(v);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "encode: v[3]=0x100 is not in GF(2^8)");
  }
}

TEST(ClearBackend, InfoAndCounters) {
  const ClearBackend be(257, 8, 0x1b);
  const BackendInfo i = be.info();
  EXPECT_EQ(i.name, "clear");
  EXPECT_EQ(i.m, 257);
  EXPECT_EQ(i.phi, 256);
  EXPECT_EQ(i.d, 16);
  EXPECT_EQ(i.slots, 16);
  auto c = be.encrypt(std::vector<uint64_t>(16, 3));
  ClearBackend be2(257, 8, 0x1b);
  be2.require_automorphisms({2});
  be2.automorph(c, 2);
  be2.automorph(c, 1);  // identity: not counted
  be.square(c);
  be.mul(c, c);
  EXPECT_EQ(be.op_counters(), "encrypt=1 add=0 add_plain=0 mul=1 mul_plain=0 square=1 automorph=0 automorph_many=0");
  EXPECT_EQ(be2.op_counters(), "encrypt=0 add=0 add_plain=0 mul=0 mul_plain=0 square=0 automorph=1 automorph_many=0");
  be2.reset_op_counts();
  EXPECT_EQ(be2.op_counts().automorph, 0);
}

}  // namespace
}  // namespace cb
