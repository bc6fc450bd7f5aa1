// Tests of the BGV scheme on small rings: every operation against the same operation on
// the plaintext slots, automorphisms against the slot permutation they must induce,
// depth until the chain is exhausted, and the failure cases with their messages.
#include <NTL/GF2XFactoring.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <map>
#include <ostream>
#include <random>

#include "engine/bgv/test_words.h"
#include "engine/bgv/decryptor.h"
#include "engine/bgv/encryptor.h"
#include "engine/bgv/evaluator.h"
#include "engine/bgv/memory.h"
#include "engine/errors.h"

namespace cb::bgv {
namespace {

using NTL::GF2X;

struct Ring {
  const char* why;
  long m, bits, c, hwt;
};
std::ostream& operator<<(std::ostream& os, const Ring& r) {
  return os << "m" << r.m << "_bits" << r.bits << "_c" << r.c << "_h" << r.hwt;
}

// Named parameter sets, each with its reason.
const Ring kPrime{"prime m, one dimension", 257, 180, 2, 0};
const Ring kTwoFactors{"m = 3 * 257, two dimensions", 771, 240, 3, 120};
const Ring kThreeFactors{"m = 3 * 5 * 17, three prime factors, d = 8", 255, 200, 2, 0};
const Ring kMedium{"m = 17 * 257, 256 slots of GF(2^16), the HElib AES ring", 4369, 300, 3, 120};

// Everything one test needs, built once per ring.
struct Scheme {
  explicit Scheme(const Ring& r)
      : ctx(ContextParams{r.m, r.bits, r.c, r.hwt}), rng(12345), keygen(ctx, rng) {
    sk = keygen.secret_key(r.hwt);
    pk = keygen.public_key(sk);
    relin = keygen.relin_key(sk);
    noise = NoiseModel(ctx.m(), sk.coeffs);
  }
  void add_key(long k) { autos.emplace(((k % ctx.m()) + ctx.m()) % ctx.m(), keygen.automorphism_key(sk, k)); }
  Encryptor encryptor() const { return Encryptor(ctx, pk, noise); }
  Evaluator evaluator() const { return Evaluator(ctx, noise, relin, autos); }

  std::vector<GF2X> random_slots(std::mt19937_64& g) const {
    std::vector<GF2X> v(ctx.zmstar().ell());
    for (auto& x : v) {
      const uint64_t bits = g();
      for (long i = 0; i < ctx.zmstar().d(); ++i)
        if (bits >> (i % 64) & 1) NTL::SetCoeff(x, i);
    }
    return v;
  }
  Ciphertext encrypt(const std::vector<GF2X>& v) {
    return encryptor().encrypt(Plaintext(ctx, ctx.slots().encode(v)), rng);
  }
  std::vector<GF2X> decrypt(const Ciphertext& c) const {
    return ctx.slots().decode(Decryptor(ctx, sk, noise.rounding().log2_max()).decrypt(c).mu);
  }
  GF2X mul(const GF2X& a, const GF2X& b) const { return NTL::MulMod(a, b, ctx.slots().G()); }

  Context ctx;
  Sampler rng;
  KeyGenerator keygen;
  SecretKey sk;
  PublicKey pk;
  KeySwitchKey relin;
  std::map<long, KeySwitchKey> autos;
  NoiseModel noise;
};

class SchemeTest : public ::testing::TestWithParam<Ring> {
 protected:
  void SetUp() override { s = std::make_unique<Scheme>(GetParam()); }
  std::unique_ptr<Scheme> s;
  std::mt19937_64 g{7};
};

TEST_P(SchemeTest, EncryptDecryptRoundTrip) {
  const auto v = s->random_slots(g);
  const Ciphertext c = s->encrypt(v);
  EXPECT_EQ(c.primes(), s->ctx.ciphertext_primes());  // fresh: no small primes (chain.h)
  EXPECT_EQ(s->decrypt(c), v);
}

TEST_P(SchemeTest, AddMulAgainstSlots) {
  const auto a = s->random_slots(g), b = s->random_slots(g);
  Ciphertext ca = s->encrypt(a), cb = s->encrypt(b);
  const Evaluator ev = s->evaluator();
  Ciphertext sum = ca;
  ev.add(sum, cb);
  Ciphertext prod = ca;
  ev.mul(prod, cb);
  Ciphertext sq = ca;
  ev.square(sq);
  const auto dsum = s->decrypt(sum), dprod = s->decrypt(prod), dsq = s->decrypt(sq);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(dsum[i], a[i] + b[i]) << "slot " << i;
    EXPECT_EQ(dprod[i], s->mul(a[i], b[i])) << "slot " << i;
    EXPECT_EQ(dsq[i], s->mul(a[i], a[i])) << "slot " << i;
  }
  EXPECT_LT(s->evaluator().capacity_bits(prod), s->evaluator().capacity_bits(ca));
}

TEST_P(SchemeTest, PlaintextOperationsAgainstSlots) {
  const auto a = s->random_slots(g), k = s->random_slots(g);
  const Plaintext pk(s->ctx, s->ctx.slots().encode(k));
  const Evaluator ev = s->evaluator();
  Ciphertext c = s->encrypt(a);
  ev.mul_plain(c, pk);
  ev.add_plain(c, pk);
  const auto d = s->decrypt(c);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(d[i], s->mul(a[i], k[i]) + k[i]) << "slot " << i;
}

TEST_P(SchemeTest, AutomorphismsMoveSlotsAsPredicted) {
  const ZmStar& zm = s->ctx.zmstar();
  std::vector<long> ks{2};  // Frobenius
  for (long i = 0; i < zm.dims(); ++i) ks.push_back(zm.gen(i));
  ks.push_back(zm.inverse(zm.gen(0)));
  for (long k : ks) s->add_key(k);
  const auto a = s->random_slots(g);
  const Ciphertext ca = s->encrypt(a);
  const Evaluator ev = s->evaluator();
  for (long k : ks) {
    Ciphertext c = ca;
    ev.automorph(c, k);
    const auto d = s->decrypt(c);
    const auto moves = zm.automorphism_action(k);
    for (long slot = 0; slot < zm.ell(); ++slot) {
      GF2X expect = a[moves[slot].src];
      for (long f = 0; f < moves[slot].frob; ++f) expect = s->mul(expect, expect);
      ASSERT_EQ(d[slot], expect) << "k=" << k << " slot " << slot;
    }
  }
}

TEST_P(SchemeTest, HoistedAutomorphismsEqualSingleOnes) {
  const ZmStar& zm = s->ctx.zmstar();
  std::vector<long> ks{2, 1, zm.gen(0), zm.power(2, 3)};
  for (long k : ks) s->add_key(k);
  const auto a = s->random_slots(g);
  const Ciphertext ca = s->encrypt(a);
  const Evaluator ev = s->evaluator();
  const auto many = ev.automorph_many(ca, ks);
  ASSERT_EQ(many.size(), ks.size());
  for (size_t i = 0; i < ks.size(); ++i) {
    Ciphertext one = ca;
    ev.automorph(one, ks[i]);
    EXPECT_EQ(s->decrypt(many[i]), s->decrypt(one)) << "k=" << ks[i];
    EXPECT_NEAR(many[i].log2_noise(), one.log2_noise(), 1.0);
  }
}

TEST_P(SchemeTest, FrobeniusSquaresEverySlot) {
  s->add_key(2);
  const auto a = s->random_slots(g);
  Ciphertext c = s->encrypt(a);
  s->evaluator().automorph(c, 2);
  const auto d = s->decrypt(c);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(d[i], s->mul(a[i], a[i]));
}

// Square until the chain runs out: every decryption is right while capacity remains,
// the estimate bounds the measured noise, and the end is a CapacityError, never a
// wrong plaintext.
TEST_P(SchemeTest, DepthExhaustsChainWithCapacityReports) {
  auto a = s->random_slots(g);
  Ciphertext c = s->encrypt(a);
  const Evaluator ev = s->evaluator();
  Decryptor dec(s->ctx, s->sk);  // no switch to level 1: measures the noise at c's level
  double last_capacity = ev.capacity_bits(c);
  int depth = 0;
  for (; depth < 40; ++depth) {
    ev.square(c);
    for (auto& x : a) x = s->mul(x, x);
    const double cap = ev.capacity_bits(c);
    EXPECT_LT(cap, last_capacity);
    last_capacity = cap;
    Decryptor::Result r;
    try {
      r = dec.decrypt(c);
    } catch (const CapacityError& e) {
      EXPECT_NE(std::string(e.what()).find("decryption refused"), std::string::npos);
      EXPECT_LT(cap, 8.0) << "refused although the estimate promised " << cap << " bits";
      break;
    }
    EXPECT_EQ(s->ctx.slots().decode(r.mu), a) << "depth " << depth + 1;
    // The estimate is an upper bound on the measured noise whenever the latter is
    // measurable (within ~55 bits of Q).
    if (r.log2_noise > s->ctx.log2_Q(c.primes()) - 50) {
      EXPECT_GE(c.log2_noise() + 2, r.log2_noise) << "depth " << depth + 1;
    }
  }
  EXPECT_GE(depth, 2);
  EXPECT_LT(depth, 40) << "the chain never ran out";
}

INSTANTIATE_TEST_SUITE_P(SmallRings, SchemeTest,
                         ::testing::Values(kPrime, kTwoFactors, kThreeFactors, kMedium),
                         [](const auto& info) {
                           std::ostringstream os;
                           os << info.param;
                           return os.str();
                         });

TEST(SchemeErrors, BadParametersAreNamed) {
  try {
    Context ctx(ContextParams{258, 100, 2, 0});
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("m=258 is even"), std::string::npos) << e.what();
  }
  try {
    Context ctx(ContextParams{257, 100, 5, 0});
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("c=5"), std::string::npos) << e.what();
  }
}

TEST(SchemeErrors, MissingAutomorphismKey) {
  Scheme s(kPrime);
  std::mt19937_64 g(1);
  Ciphertext c = s.encrypt(s.random_slots(g));
  try {
    s.evaluator().automorph(c, 3);
    FAIL();
  } catch (const KeyError& e) {
    EXPECT_NE(std::string(e.what()).find("X -> X^3"), std::string::npos) << e.what();
  }
}

TEST(SchemeErrors, WrongKeyIsRefusedNotMisread) {
  Scheme s(kPrime);
  std::mt19937_64 g(1);
  const Ciphertext c = s.encrypt(s.random_slots(g));
  Sampler other(999);
  KeyGenerator kg(s.ctx, other);
  const SecretKey wrong = kg.secret_key(0);
  EXPECT_THROW(Decryptor(s.ctx, wrong).decrypt(c), CapacityError);
}

// Keys stored as seeds (as large rings do) switch exactly like keys held in memory.
TEST(SchemeKeys, SeededKeysWork) {
  const Context ctx(ContextParams{771, 240, 3, 120});
  Sampler rng(5);
  KeyGenerator kg(ctx, rng, /*keep_uniform_bytes=*/0);
  const SecretKey sk = kg.secret_key(120);
  const PublicKey pk = kg.public_key(sk);
  const KeySwitchKey relin = kg.relin_key(sk);
  ASSERT_TRUE(relin.seeded());
  std::map<long, KeySwitchKey> autos;
  autos.emplace(2, kg.automorphism_key(sk, 2));
  const NoiseModel noise(ctx.m(), sk.coeffs);
  const Evaluator ev(ctx, noise, relin, autos);
  std::mt19937_64 g(3);
  std::vector<GF2X> v(ctx.zmstar().ell());
  for (auto& x : v) x = NTL::GF2X(NTL::INIT_MONO, long(g() % ctx.zmstar().d()));
  Ciphertext c = Encryptor(ctx, pk, noise).encrypt(Plaintext(ctx, ctx.slots().encode(v)), rng);
  ev.mul(c, c);
  ev.automorph(c, 2);
  const auto d = ctx.slots().decode(Decryptor(ctx, sk).decrypt(c).mu);
  for (size_t i = 0; i < v.size(); ++i) {
    GF2X x = NTL::MulMod(v[i], v[i], ctx.slots().G());  // squared by mul, again by X -> X^2
    EXPECT_EQ(d[i], NTL::MulMod(x, x, ctx.slots().G())) << "slot " << i;
  }
}

// Compact keys (a_j as a seed, b_j bit-packed) give bit-identical key switches: two key
// generators from the same seed, one keeping full keys and one compact keys, must agree
// word for word after a product, a single automorphism and a hoisted pair.
TEST(SchemeKeys, CompactKeysSwitchExactlyAsFullKeys) {
  for (const Ring& r : {kTwoFactors, kThreeFactors}) {
    SCOPED_TRACE(r.why);
    const Context ctx(ContextParams{r.m, r.bits, r.c, r.hwt});
    Sampler rng_full(21), rng_compact(21);
    KeyGenerator full(ctx, rng_full), compact(ctx, rng_compact, /*keep_uniform_bytes=*/0);
    const SecretKey sk = full.secret_key(r.hwt);
    ASSERT_EQ(compact.secret_key(r.hwt).coeffs, sk.coeffs);
    const PublicKey pk = full.public_key(sk);
    compact.public_key(sk);
    const long k2 = 2, k3 = ctx.zmstar().power(2, 3) % ctx.m() == 1 ? 2 : ctx.zmstar().power(2, 3);
    std::map<long, KeySwitchKey> ka, kb;
    const KeySwitchKey ra = full.relin_key(sk), rb = compact.relin_key(sk);
    ka.emplace(k2, full.automorphism_key(sk, k2));
    kb.emplace(k2, compact.automorphism_key(sk, k2));
    if (k3 != k2) {
      ka.emplace(k3, full.automorphism_key(sk, k3));
      kb.emplace(k3, compact.automorphism_key(sk, k3));
    }
    ASSERT_FALSE(ra.compact());
    ASSERT_TRUE(rb.compact());
    EXPECT_LT(rb.bytes(), ra.bytes() / 2);
    const NoiseModel noise(ctx.m(), sk.coeffs);
    const Evaluator ea(ctx, noise, ra, ka), eb(ctx, noise, rb, kb);
    std::mt19937_64 g(9);
    std::vector<GF2X> v(ctx.zmstar().ell());
    for (auto& x : v) x = NTL::GF2X(NTL::INIT_MONO, long(g() % ctx.zmstar().d()));
    Sampler enc_rng(4);
    const Ciphertext c = Encryptor(ctx, pk, noise).encrypt(Plaintext(ctx, ctx.slots().encode(v)), enc_rng);
    auto same = [](const DCRTPoly& x, const DCRTPoly& y) {
      if (x.primes() != y.primes()) return false;
      for (long i = 0; i < x.num_limbs(); ++i)
        if (!std::equal(x.limb(i), x.limb(i) + x.phi(), y.limb(i))) return false;
      return true;
    };
    Ciphertext a = c, b = c;
    ea.mul(a, c);
    eb.mul(b, c);
    EXPECT_TRUE(same(a.c0, b.c0) && same(a.c1, b.c1)) << "relinearization";
    ea.automorph(a, k2);
    eb.automorph(b, k2);
    EXPECT_TRUE(same(a.c0, b.c0) && same(a.c1, b.c1)) << "automorphism";
    const auto ha = ea.automorph_many(c, {k2, k3}), hb = eb.automorph_many(c, {k2, k3});
    for (size_t i = 0; i < ha.size(); ++i)
      EXPECT_TRUE(same(ha[i].c0, hb[i].c0) && same(ha[i].c1, hb[i].c1)) << "hoisted " << i;
    // And the result is right: slot values squared twice (X -> X^2 squares the slots).
    const auto d = ctx.slots().decode(Decryptor(ctx, sk).decrypt(b).mu);
    for (size_t i = 0; i < v.size(); ++i) {
      const GF2X x = NTL::MulMod(v[i], v[i], ctx.slots().G());
      EXPECT_EQ(d[i], NTL::MulMod(x, x, ctx.slots().G())) << "slot " << i;
    }
  }
}

// Packed limbs round-trip at every width, including values at the prime's top bit.
TEST(SchemeKeys, PackedLimbsRoundTrip) {
  const Context ctx(ContextParams{771, 240, 3, 120});
  Sampler rng(8);
  DCRTPoly x = rng.uniform(ctx, ctx.ciphertext_primes());
  for (long i = 0; i < x.num_limbs(); ++i) x.limb(i)[0] = x.modulus(i) - 1, x.limb(i)[x.phi() - 1] = 0;
  const PackedLimbs p(x);
  std::vector<uint64_t> scratch(ctx.phi());
  for (long i = 0; i < x.num_limbs(); ++i) {
    ASSERT_TRUE(p.packed(x.primes()[i]));
    const uint64_t* y = p.limb(x.primes()[i], scratch.data());
    EXPECT_TRUE(std::equal(y, y + ctx.phi(), x.limb(i))) << "limb " << i;
  }
  EXPECT_LT(p.bytes(), x.bytes());
  EXPECT_THROW(p.limb(ctx.L(), scratch.data()), ParameterError);  // a special prime: absent
}

// The memory model (memory.h) predicts, from the chain alone, exactly the bytes the
// objects hold: transform tables, secret and public key, full and compact keys.
TEST(SchemeMemory, ModelMatchesTheObjects) {
  for (const Ring& r : {kPrime, kTwoFactors, kMedium}) {
    SCOPED_TRACE(r.why);
    const Context ctx(ContextParams{r.m, r.bits, r.c, r.hwt});
    for (const size_t keep : {size_t(0), KeySwitchKey::kKeepUniformBytes}) {
      Sampler rng(3);
      KeyGenerator kg(ctx, rng, keep);
      const MemoryModel mm(ctx.chain(), ctx.m(), ctx.phi(), keep);
      const SecretKey sk = kg.secret_key(r.hwt);
      const PublicKey pk = kg.public_key(sk);
      const KeySwitchKey rk = kg.relin_key(sk), ak = kg.automorphism_key(sk, 2);
      EXPECT_EQ(ctx.transform_bytes(), mm.transforms);
      EXPECT_EQ(sk.s.bytes(), mm.secret_key);
      EXPECT_EQ(pk.a.bytes() + pk.b.bytes(), mm.public_key);
      EXPECT_EQ(rk.compact(), mm.key_compact);
      EXPECT_EQ(rk.compact(), keep == 0);
      EXPECT_EQ(rk.bytes(), mm.key);
      EXPECT_EQ(ak.bytes(), mm.key);
      EXPECT_EQ(mm.setup(1), mm.transforms + mm.secret_key + mm.public_key + 2 * mm.key);
      if (!rk.compact()) {
        EXPECT_EQ(rk.bytes(), mm.key_full);
      }
    }
  }
}

// The engine's per-limb loops on two threads give the same results (ctest runs the
// other tests single-threaded).
TEST(SchemeThreads, TwoThreadsAgree) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  Scheme s(kMedium);
  s.add_key(2);
  std::mt19937_64 g(11);
  const auto a = s.random_slots(g), b = s.random_slots(g);
  Ciphertext c = s.encrypt(a);
  const Evaluator ev = s.evaluator();
  ev.mul(c, s.encrypt(b));
  ev.automorph(c, 2);
  const auto d = s.decrypt(c);
  omp_set_num_threads(saved);
  for (size_t i = 0; i < a.size(); ++i) {
    const GF2X p = s.mul(a[i], b[i]);
    EXPECT_EQ(d[i], s.mul(p, p)) << "slot " << i;
  }
}

// Thread-count invariance: the same seed on one thread and on two gives the same key,
// ciphertext and result words (keys, encryption, a product with relinearization, a key
// switch), not only the same decryption: the threads split per-limb loops, never a sum.
TEST(SchemeThreads, OneAndTwoThreadsGiveTheSameWords) {
  const int saved = omp_get_max_threads();
  auto words = [](const Ciphertext& c) { return std::make_pair(c.primes(), testing::words(c)); };
  auto run = [&](int threads) {
    omp_set_num_threads(threads);
    Scheme s(kMedium);  // phi 4096: the engine's loops run in parallel (Context::parallel)
    s.add_key(2);
    std::mt19937_64 g(11);
    const auto a = s.random_slots(g), b = s.random_slots(g);
    Ciphertext c = s.encrypt(a);
    const auto fresh = words(c);
    const Evaluator ev = s.evaluator();
    ev.mul(c, s.encrypt(b));
    ev.automorph(c, 2);
    return std::make_pair(fresh, words(c));
  };
  const auto one = run(1), two = run(2);
  omp_set_num_threads(saved);
  EXPECT_EQ(one.first.first, two.first.first);
  EXPECT_TRUE(one.first.second == two.first.second) << "fresh ciphertexts differ";
  EXPECT_EQ(one.second.first, two.second.first);
  EXPECT_TRUE(one.second.second == two.second.second) << "results differ";
}

// Automorphism keys built side by side (KeyGenerator::automorphism_keys, two threads) are
// word for word the keys made one after another from the same seed, in the same order,
// and the sampler is left where the sequential calls leave it.
TEST(SchemeThreads, KeysSideBySideEqualKeysInTurn) {
  const int saved = omp_get_max_threads();
  const Context ctx(ContextParams{kMedium.m, kMedium.bits, kMedium.c, kMedium.hwt});
  const std::vector<long> ks{2, 4, 16, 3};
  auto words = [](const KeySwitchKey& k) {
    std::vector<uint64_t> w{k.a_seed, uint64_t(k.k)};
    for (const auto* v : {&k.a, &k.b})
      for (const DCRTPoly& p : *v)
        for (long i = 0; i < p.num_limbs(); ++i) w.insert(w.end(), p.limb(i), p.limb(i) + p.phi());
    return w;
  };
  Sampler r1(9), r2(9);
  KeyGenerator g1(ctx, r1), g2(ctx, r2);
  const SecretKey s1 = g1.secret_key(120), s2 = g2.secret_key(120);
  omp_set_num_threads(1);
  std::vector<KeySwitchKey> in_turn;
  for (long k : ks) in_turn.push_back(g1.automorphism_key(s1, k));
  omp_set_num_threads(2);
  const auto side = g2.automorphism_keys(s2, ks);
  omp_set_num_threads(saved);
  ASSERT_EQ(side.size(), ks.size());
  for (size_t i = 0; i < ks.size(); ++i) EXPECT_TRUE(words(side[i]) == words(in_turn[i])) << "key X -> X^" << ks[i];
  EXPECT_EQ(r1.next_u64(), r2.next_u64());
}

TEST(Cyclotomic, SmallCases) {
  EXPECT_EQ(cyclotomic_coeffs(3), (std::vector<long>{1, 1, 1}));
  EXPECT_EQ(cyclotomic_coeffs(9), (std::vector<long>{1, 0, 0, 1, 0, 0, 1}));
  // Phi_15 = x^8 - x^7 + x^5 - x^4 + x^3 - x + 1
  EXPECT_EQ(cyclotomic_coeffs(15), (std::vector<long>{1, -1, 0, 1, -1, 1, 0, -1, 1}));
  // Phi_105 has a coefficient -2 (the first cyclotomic polynomial that does).
  const auto p = cyclotomic_coeffs(105);
  EXPECT_EQ(long(p.size()), 49);
  EXPECT_EQ(*std::min_element(p.begin(), p.end()), -2);
}

}  // namespace
}  // namespace cb::bgv
