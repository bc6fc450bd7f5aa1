// clear_backend_test: ClearBackend against slot-wise GF(2^n) arithmetic, its key
// management, and its automorphisms against the actual ring: encode the slots with
// SlotRing, map X -> X^k on the polynomial, decode. Over F_p: slot-wise arithmetic mod p
// against PrimeField and 128-bit integers, the slot counts phi(m) / ord_m(p), automorphisms
// against the actual ring R_p (PrimeSlotRing), and the refusals (p | m, an element >= p).
#include "backend/clear_backend.h"

#include <gtest/gtest.h>

#include <NTL/GF2XFactoring.h>

#include <cmath>
#include <random>

#include "backend/test_rings.h"
#include "engine/algebra/prime_slot_ring.h"
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

// ---- F_p slots ----

struct PrimeRing {
  long m;
  uint64_t p;
  long d, ell;  // ord_m(p), phi(m) / d
};
void PrintTo(const PrimeRing& r, std::ostream* os) { *os << "m=" << r.m << " p=" << r.p; }

class ClearBackendPrime : public ::testing::TestWithParam<PrimeRing> {};

TEST_P(ClearBackendPrime, SlotCountAndArithmetic) {
  const auto r = GetParam();
  ClearBackend b(r.m, PrimeField(r.p));
  EXPECT_EQ(b.characteristic(), r.p);
  EXPECT_EQ(b.info().d, r.d);
  EXPECT_EQ(b.slot_count(), r.ell);
  std::mt19937_64 rng(r.m);
  std::vector<uint64_t> x(b.slot_count()), y(b.slot_count());
  for (auto& v : x) v = rng() % r.p;
  for (auto& v : y) v = rng() % r.p;
  x[0] = r.p - 1, y[0] = r.p - 1;  // the largest element: sums and products wrap
  using u128 = unsigned __int128;
  auto a = b.encrypt(x);
  b.add(a, b.encrypt(y));
  auto prod = b.encrypt(x);
  b.mul(prod, b.encrypt(y));
  auto sq = b.encrypt(x);
  b.square(sq);
  auto ap = b.encrypt(x);
  b.add_plain(ap, b.encode(y));
  b.mul_plain(ap, b.encode(y));
  const auto sum = b.decrypt(a), pr = b.decrypt(prod), s2 = b.decrypt(sq), apv = b.decrypt(ap);
  for (long i = 0; i < b.slot_count(); ++i) {
    ASSERT_EQ(sum[i], uint64_t((u128(x[i]) + y[i]) % r.p)) << i;
    ASSERT_EQ(pr[i], uint64_t(u128(x[i]) * y[i] % r.p)) << i;
    ASSERT_EQ(s2[i], uint64_t(u128(x[i]) * x[i] % r.p)) << i;
    ASSERT_EQ(apv[i], uint64_t((u128(x[i]) + y[i]) % r.p * y[i] % r.p)) << i;
  }
  EXPECT_EQ(b.depth(prod), 1);
  EXPECT_EQ(b.depth(sq), 1);
  EXPECT_EQ(b.op_counts().mul, 1);
  EXPECT_EQ(b.op_counts().square, 1);
}

// d = ord_m(p), ell = phi(m) / d, worked by hand: 65537 = 2 mod 257 (ord 16), = 1 mod 2^16
// (d = 1: the negacyclic ring of every F_p cipher implementation), = 2 mod 5 (ord 4);
// 8088322049 = 1 mod 2^8 (d = 1); 257 = 2 mod 15 (ord 4: ell = 8 / 4).
std::vector<PrimeRing> prime_rings() {
  return {{257, 65537, 16, 16}, {65536, 65537, 1, 32768}, {5, 65537, 4, 1},
          {256, 8088322049ull, 1, 128}, {15, 257, 4, 2}, {1024, 1096486890805657601ull, 1, 512}};
}
INSTANTIATE_TEST_SUITE_P(Rings, ClearBackendPrime, ::testing::ValuesIn(prime_rings()));

TEST(ClearBackend, PrimeFieldRefusals) {
  auto message = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // The rings are ZmStar(m, p)'s, refused with its messages.
  EXPECT_EQ(message([] { ClearBackend b(65537, PrimeField(65537)); }),
            "p=65537 divides m=65537: the plaintext modulus must be coprime to m");
  EXPECT_EQ(message([] { ClearBackend b(12, PrimeField(65537)); }),
            "m=12 is even but not a power of two: the ring at p=65537 needs odd m or m = 2^k");
  EXPECT_EQ(message([] { PrimeField F(65535); }), "p=65535: a prime field F_p needs an odd prime p < 2^61 (p is not prime)");
  EXPECT_EQ(message([] { PrimeField F(2); }), "p=2: a prime field F_p needs an odd prime p < 2^61 (p = 2: the fields GF(2^n))");
  ClearBackend b(257, PrimeField(65537));
  EXPECT_EQ(message([&] { b.field(); }), "the clear backend's slots hold F_65537, not a GF(2^n)");
  auto c = b.encrypt(std::vector<uint64_t>(16, 1));
  EXPECT_EQ(message([&] { b.automorph(c, 3); }),
            "no key-switching key for X -> X^3 (m=257): call require_automorphisms({3}) at setup");
  std::vector<uint64_t> bad(16, 0);
  bad[3] = 65537;
  EXPECT_EQ(message([&] { b.encode(bad); }), "encode: v[3]=65537 is not in F_65537");
  EXPECT_EQ(message([&] { b.encrypt(std::vector<uint64_t>(15, 0)); }),
            "encrypt: v has 15 values: the ring m=257 has ell=16 slots");
  EXPECT_TRUE(b.has_automorphism_key(1));
  EXPECT_FALSE(b.has_automorphism_key(3));
  EXPECT_EQ(ClearBackend(257, 8, 0x1b).characteristic(), 2u);
}

// X -> X^k on F_p slots against the ring itself: the slot values encoded into R_p
// (PrimeSlotRing, F_p inside GF(p^d)), X -> X^k applied to the polynomial, decoded. The
// Frobenius twists of bad dimensions fix F_p, so the values only move.
TEST(ClearBackend, PrimeFieldAutomorphismsMatchTheRing) {
  for (const auto& [m, p] : std::vector<std::pair<long, uint64_t>>{{257, 65537}, {64, 257}, {15, 257}, {91, 17}}) {
    ClearBackend b(m, PrimeField(p));
    const PrimeSlotRing ring(b.zmstar());
    std::vector<uint64_t> v(b.slot_count());
    for (size_t i = 0; i < v.size(); ++i) v[i] = (7919 * i + 3) % p;
    std::vector<PrimeSlotRing::Element> slots;
    for (uint64_t x : v) {
      PrimeSlotRing::Element e(size_t(ring.d()), 0);
      e[0] = x;
      slots.push_back(e);
    }
    const auto a = ring.encode(slots);
    std::vector<long> ks;
    for (long k = 2; k < m && ks.size() < 6; ++k)
      if (b.zmstar().in_zmstar(k)) ks.push_back(k);
    b.require_automorphisms(ks);
    for (long k : ks) {
      std::vector<uint64_t> ak(size_t(m), 0);  // a(X^k) mod X^m - 1, reduced mod Phi_m by decode
      for (size_t i = 0; i < a.size(); ++i) ak[(i * size_t(k)) % size_t(m)] = (ak[(i * size_t(k)) % size_t(m)] + a[i]) % p;
      const auto want = ring.decode(ak);
      auto c = b.encrypt(v);
      b.automorph(c, k);
      const auto got = b.decrypt(c);
      for (long s = 0; s < b.slot_count(); ++s) {
        ASSERT_EQ(want[s][0], got[s]) << "m=" << m << " p=" << p << " k=" << k << " slot " << s;
        for (long j = 1; j < ring.d(); ++j) ASSERT_EQ(want[s][j], 0u);
      }
    }
  }
}

}  // namespace
}  // namespace cb
