// HelibBackend: every operation of backend.h on HElib, compared slot by slot with
// ClearBackend (the functional model): slot values, products in GF(2^n), and above all
// that X -> X^k moves HElib's slots exactly as zmstar().automorphism_action(k) says, on a
// ring with a bad dimension (257), one with two dimensions (4369) and one with a subfield
// GF(2^8) of GF(2^24) slots (771).
#include "backend/helib_backend.h"

#include <gtest/gtest.h>

#include <random>

#include "backend/clear_backend.h"
#include "engine/errors.h"

namespace cb {
namespace {

constexpr uint64_t kAesPoly = 0x1b;  // x^8 + x^4 + x^3 + x + 1

std::vector<uint64_t> random_bytes(long n, std::mt19937_64& g) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = g() & 0xff;
  return v;
}

// Automorphisms to check: every hypercube generator, its inverse and square, Frobenius
// 2 and 2^-1, and a few random units.
std::vector<long> automorphisms_to_check(const ZmStar& zm, std::mt19937_64& g) {
  std::vector<long> ks{2, zm.inverse(2)};
  for (long i = 0; i < zm.dims(); ++i) {
    ks.push_back(zm.gen(i));
    ks.push_back(zm.inverse(zm.gen(i)));
    ks.push_back(zm.power(zm.gen(i), 2));
  }
  while (ks.size() < 14) {
    const long k = long(g() % zm.m());
    if (zm.in_zmstar(k) && k != 1) ks.push_back(k);
  }
  return ks;
}

// Encryption and decryption, constants and arithmetic, ((a b + k) b)^2 + a, on HElib and on
// the clear backend, which must agree: each one's encryption of a and its result.
struct Same {
  HelibBackend::Ctxt ha, hx;
  ClearBackend::Ctxt ca, cx;
};
Same same_arithmetic(const HelibBackend& he, const ClearBackend& cl, const std::vector<uint64_t>& a,
                     const std::vector<uint64_t>& b, const std::vector<uint64_t>& k) {
  auto ha = he.encrypt(a), hb = he.encrypt(b);
  EXPECT_EQ(he.decrypt(ha), a);
  auto ca = cl.encrypt(a), cb_ = cl.encrypt(b);
  auto hx = ha;
  auto cx = ca;
  he.mul(hx, hb), cl.mul(cx, cb_);
  he.add_plain(hx, he.encode(k)), cl.add_plain(cx, cl.encode(k));
  he.mul_plain(hx, he.encode(b)), cl.mul_plain(cx, cl.encode(b));
  he.square(hx), cl.square(cx);
  he.add(hx, ha), cl.add(cx, ca);
  EXPECT_EQ(he.decrypt(hx), cl.decrypt(cx));
  return {ha, hx, ca, cx};
}

class HelibVsClear : public ::testing::TestWithParam<long> {};

TEST_P(HelibVsClear, EveryOperationMovesSlotsAsTheClearBackend) {
  const long m = GetParam();
  HelibBackend he(HelibParams{m, 300, 2, 120, 1}, 8, kAesPoly);
  ClearBackend cl(m, 8, kAesPoly);
  ASSERT_EQ(he.slot_count(), cl.slot_count());
  std::mt19937_64 g(m);
  const long ell = he.slot_count();
  const auto a = random_bytes(ell, g), b = random_bytes(ell, g), k = random_bytes(ell, g);

  // Encryption and decryption round-trip, the encoding of constants, arithmetic.
  const auto [ha, hx, ca, cx] = same_arithmetic(he, cl, a, b, k);
  EXPECT_LT(he.capacity_bits(hx), he.capacity_bits(ha));
  EXPECT_GT(he.capacity_bits(hx), 0);

  // Automorphisms, each alone and hoisted-style.
  const auto ks = automorphisms_to_check(he.zmstar(), g);
  he.require_automorphisms(ks);
  cl.require_automorphisms(ks);
  for (long kk : ks) {
    auto h = ha;
    auto c = ca;
    he.automorph(h, kk);
    cl.automorph(c, kk);
    EXPECT_EQ(he.decrypt(h), cl.decrypt(c)) << "m=" << m << " k=" << kk;
  }
  const auto hm = he.automorph_many(hx, ks);
  const auto cm = cl.automorph_many(cx, ks);
  for (size_t i = 0; i < ks.size(); ++i) EXPECT_EQ(he.decrypt(hm[i]), cl.decrypt(cm[i])) << "k=" << ks[i];

  const BackendInfo info = he.info();
  EXPECT_EQ(info.name, "helib");
  EXPECT_EQ(info.m, m);
  EXPECT_EQ(info.slots, ell);
  EXPECT_NEAR(info.log2_q, info.log2_q_ct + info.log2_p, 1e-9);
  EXPECT_GT(info.log2_q_ct, 250);
  EXPECT_NE(he.report_json().find("\"ntl_route\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Rings, HelibVsClear, ::testing::Values(257L, 771L, 4369L));

// At an odd prime p: F_p slots on HElib (its context at .p(p)) against ClearBackend at p,
// every operation and automorphisms, on a power-of-two ring (p = 1 mod m: d = 1) and an odd
// one with GF(17^80) slots.
class HelibVsClearAtP : public ::testing::TestWithParam<std::pair<long, uint64_t>> {};

TEST_P(HelibVsClearAtP, EveryOperationMovesSlotsAsTheClearBackend) {
  const auto [m, p] = GetParam();
  HelibBackend he(HelibParams{m, 300, 2, 0, 1}, PrimeField(p));
  ClearBackend cl(m, PrimeField(p));
  ASSERT_EQ(he.slot_count(), cl.slot_count());
  EXPECT_EQ(he.characteristic(), p);
  EXPECT_THROW(he.field(), ParameterError);
  std::mt19937_64 g(m + p);
  const long ell = he.slot_count();
  auto random = [&] {
    std::vector<uint64_t> v(static_cast<size_t>(ell));
    for (auto& x : v) x = g() % p;
    return v;
  };
  const auto a = random(), b = random(), k = random();
  const auto [ha, hx, ca, cx] = same_arithmetic(he, cl, a, b, k);
  std::vector<long> ks{long(p % uint64_t(m))};
  for (long i = 0; i < he.zmstar().dims(); ++i) ks.push_back(he.zmstar().gen(i)), ks.push_back(he.zmstar().inverse(he.zmstar().gen(i)));
  he.require_automorphisms(ks);
  cl.require_automorphisms(ks);
  for (long kk : ks) {
    auto h = hx;
    auto c = cx;
    he.automorph(h, kk);
    cl.automorph(c, kk);
    EXPECT_EQ(he.decrypt(h), cl.decrypt(c)) << "m=" << m << " p=" << p << " k=" << kk;
  }
  EXPECT_EQ(he.info().p, p);
}

INSTANTIATE_TEST_SUITE_P(Rings, HelibVsClearAtP,
                         ::testing::Values(std::make_pair(256L, uint64_t(65537)), std::make_pair(241L, uint64_t(17))));

TEST(HelibBackend, MissingKeysAndBadArgumentsAreRefused) {
  HelibBackend he(HelibParams{257, 120, 2, 120, 1}, 8, kAesPoly);
  auto c = he.encrypt(std::vector<uint64_t>(he.slot_count(), 3));
  EXPECT_THROW(he.automorph(c, 3), KeyError);
  EXPECT_THROW(he.automorph(c, 257), ParameterError);
  EXPECT_THROW(he.require_automorphisms({514}), ParameterError);
  EXPECT_THROW(he.encrypt(std::vector<uint64_t>(3, 0)), ParameterError);
  EXPECT_THROW(he.encode(std::vector<uint64_t>(he.slot_count(), 0x100)), ParameterError);
  EXPECT_THROW(HelibBackend(HelibParams{257, 120, 2, 120, 1}, 32, 0x8d), ParameterError);
  EXPECT_THROW(HelibBackend(HelibParams{258, 120, 2, 120, 1}, 8, kAesPoly), ParameterError);
  EXPECT_THROW(HelibBackend(HelibParams{257, 0, 2, 120, 1}, 8, kAesPoly), ParameterError);
}

TEST(HelibBackend, RunningOutOfCapacityIsRefusedAtDecryption) {
  HelibBackend he(HelibParams{257, 60, 2, 120, 1}, 8, kAesPoly);
  auto c = he.encrypt(std::vector<uint64_t>(he.slot_count(), 7));
  bool refused = false;
  try {
    for (int i = 0; i < 20; ++i) he.square(c);
    he.decrypt(c);
  } catch (const CapacityError&) {
    refused = true;
  }
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace cb
