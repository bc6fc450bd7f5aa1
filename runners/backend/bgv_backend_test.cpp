// BgvBackend: the circuit interface on the BGV engine, with GF(2^n) values in the slots,
// and with F_p values at an odd prime p against the clear backend at p.
#include "backend/bgv_backend.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <ostream>
#include <random>

#include "backend/clear_backend.h"
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
    EXPECT_NE(std::string(e.what()).find("GF(2^32) needs 32 | d; rings near m=257 whose slots hold GF(2^32): m="),
              std::string::npos)
        << e.what();  // the rings themselves: ring_fit_test
  }
}

// F_p slots: rings at odd p, a power of two with every slot F_p (p = 1 mod m) and odd m
// whose slots are GF(p^d), d > 1 (F_p the constants (x, 0, ..., 0) there).
struct PrimeRing {
  long m;
  uint64_t p;
  const char* why;
};
void PrintTo(const PrimeRing& r, std::ostream* os) { *os << "m=" << r.m << " p=" << r.p; }

class BgvBackendPrime : public ::testing::TestWithParam<PrimeRing> {};

// Every operation of the circuit interface at p, the same sequence on the clear backend at
// p: products (the plaintext factor changes at each switch), sums of ciphertexts of
// different factors and primes, constants added to a product (factor != 1), constant
// products, squares, automorphisms single and hoisted; every decryption equal to the
// clear slots.
TEST_P(BgvBackendPrime, OperationsAgainstTheClearBackendAtP) {
  const auto [m, p, why] = GetParam();
  const PrimeField F(p);
  BgvBackend be(BgvParams{m, 300, 2, 0, 5}, F);
  ClearBackend cl(m, F);
  ASSERT_EQ(be.slot_count(), cl.slot_count()) << why;
  EXPECT_EQ(be.characteristic(), p);
  EXPECT_EQ(be.prime_field().p(), p);
  std::mt19937_64 g(11);
  auto rand_vec = [&] {
    std::vector<uint64_t> v(size_t(be.slot_count()));
    for (auto& x : v) x = g() % p;
    return v;
  };
  const auto a = rand_vec(), b = rand_vec(), c = rand_vec();
  const long k = be.zmstar().gen(0), k2 = be.zmstar().dims() > 1 ? be.zmstar().gen(1) : m - 1;
  be.require_automorphisms({k, k2});
  cl.require_automorphisms({k, k2});
  auto ca = be.encrypt(a), cb = be.encrypt(b);
  auto xa = cl.encrypt(a), xb = cl.encrypt(b);
  auto check = [&](const BgvBackend::Ctxt& e, const ClearBackend::Ctxt& x, const char* what) {
    EXPECT_EQ(be.decrypt(e), cl.decrypt(x)) << what << " m=" << m << " p=" << p;
  };
  check(ca, xa, "fresh");
  auto prod = ca;
  auto xprod = xa;
  be.mul(prod, cb), cl.mul(xprod, xb);
  check(prod, xprod, "mul");
  be.add(prod, cb), cl.add(xprod, xb);  // a product's factor beside a fresh one's, other primes
  check(prod, xprod, "mul + fresh");
  be.add_plain(prod, be.encode(c)), cl.add_plain(xprod, cl.encode(c));
  check(prod, xprod, "add_plain after mul");
  be.mul_plain(prod, be.encode(a)), cl.mul_plain(xprod, cl.encode(a));
  check(prod, xprod, "mul_plain");
  auto sq = cb;
  auto xsq = xb;
  be.square(sq), cl.square(xsq);
  be.square(sq), cl.square(xsq);
  be.add(sq, prod), cl.add(xsq, xprod);
  check(sq, xsq, "squares + product");
  be.automorph(ca, k), cl.automorph(xa, k);
  check(ca, xa, "automorph");
  const auto many = be.automorph_many(sq, {k, k2, 1});
  const auto xmany = cl.automorph_many(xsq, {k, k2, 1});
  for (size_t i = 0; i < many.size(); ++i) check(many[i], xmany[i], "automorph_many");
  EXPECT_GT(be.capacity_bits(sq), 0);
  const BackendInfo info = be.info();
  EXPECT_EQ(info.name, "bgv");
  EXPECT_EQ(info.p, p);
  EXPECT_EQ(info.m, m);
  EXPECT_EQ(info.slots, cl.slot_count());
  EXPECT_EQ(info.d, be.zmstar().d());
}

INSTANTIATE_TEST_SUITE_P(
    Rings, BgvBackendPrime,
    ::testing::Values(PrimeRing{256, 65537, "m = 2^8, p = 1 mod m: 128 slots of F_p (IAIK's layout, small)"},
                      PrimeRing{241, 17, "odd m, slots GF(17^d) with d > 1"},
                      PrimeRing{128, 8088322049, "m = 2^7 and IAIK's 33-bit p: 64 slots of F_p"}),
    [](const auto& i) { return "m" + std::to_string(i.param.m) + "_p" + std::to_string(i.param.p); });

TEST(BgvBackendPrimeRefusals, ValuesOutsideFpAndTheOtherFieldsAccessor) {
  const PrimeField F(65537);
  BgvBackend be(BgvParams{64, 200, 2, 0, 1}, F);
  std::vector<uint64_t> v(size_t(be.slot_count()), 1);
  v[3] = 65537;
  try {
    be.encode(v);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "encode: slot 3 holds 65537, not an element of F_65537 (0..65536)");
  }
  try {
    be.field();
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "field(): the slots hold F_65537, not GF(2^n) (use prime_field())");
  }
  BgvBackend two(BgvParams{257, 200, 2, 0, 1}, 8, kAesPoly);
  EXPECT_EQ(two.characteristic(), 2u);
  EXPECT_EQ(two.info().p, 2u);
  try {
    two.prime_field();
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "prime_field(): the slots hold GF(2^n) at p=2 (use field())");
  }
  try {  // p divides m: Context's refusal, before any work
    BgvBackend bad(BgvParams{257, 200, 2, 0, 1}, PrimeField(257));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("p=257 divides m=257"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cb
