// Property tests of the per-root noise bounds (noise.h, levels.h): on small rings with one,
// two and three prime factors and one with a bad dimension, over several seeds, random
// sequences of products, squares, constant products and sums, automorphisms (single and
// hoisted) and modulus switches (down, and up by adding small primes back); after every
// operation the noise computed exactly from the secret key (Decryptor::noise_embedding)
// must be at or below the bound at every root of the canonical embedding.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <random>

#include "engine/bgv/decryptor.h"
#include "engine/bgv/encryptor.h"
#include "engine/bgv/evaluator.h"
#include "engine/errors.h"

namespace cb::bgv {
namespace {

struct Ring {
  const char* why;
  long m, bits, c, hwt;
};
std::ostream& operator<<(std::ostream& os, const Ring& r) { return os << "m" << r.m << "_h" << r.hwt; }

// The smallest odd m >= from with a bad dimension in its hypercube.
long ring_with_bad_dimension(long from) {
  for (long m = from | 1;; m += 2) {
    const ZmStar zm(m);
    for (long i = 0; i < zm.dims(); ++i)
      if (!zm.good(i)) return m;
  }
}

const Ring kRings[] = {
    {"prime m, one dimension, dense key", 257, 400, 2, 0},
    {"m = 3 * 257, two dimensions, sparse key", 771, 400, 3, 120},
    {"m = 3 * 5 * 17, three prime factors", 255, 400, 2, 0},
    {"m = 17 * 257 (the HElib AES ring), sparse key", 4369, 300, 3, 120},
};

struct Fixture {
  Fixture(long m, long bits, long c, long hwt, uint64_t seed)
      : ctx(ContextParams{m, bits, c, hwt}), rng(seed), keygen(ctx, rng) {
    sk = keygen.secret_key(hwt);
    pk = keygen.public_key(sk);
    relin = keygen.relin_key(sk);
    noise = NoiseModel(ctx.m(), sk.coeffs);
    const ZmStar& zm = ctx.zmstar();
    ks = {2, zm.power(2, 3)};
    for (long i = 0; i < zm.dims(); ++i) ks.push_back(zm.gen(i)), ks.push_back(zm.inverse(zm.gen(i)));
    for (long k : ks) autos.emplace(((k % m) + m) % m, keygen.automorphism_key(sk, k));
  }
  Plaintext random_plaintext(std::mt19937_64& g) const {
    std::vector<NTL::GF2X> v(ctx.zmstar().ell());
    for (auto& x : v)
      for (long i = 0; i < ctx.zmstar().d(); ++i)
        if (g() & 1) NTL::SetCoeff(x, i);
    return Plaintext(ctx, ctx.slots().encode(v));
  }
  Context ctx;
  Sampler rng;
  KeyGenerator keygen;
  SecretKey sk;
  PublicKey pk;
  KeySwitchKey relin;
  std::map<long, KeySwitchKey> autos;
  std::vector<long> ks;
  NoiseModel noise;
};

// Every root: measured <= bound (a relative 1e-6 for the floating-point embedding).
::testing::AssertionResult dominated(const RootBound& measured, const RootBound& bound, const std::string& what) {
  if (measured.is_zero()) return ::testing::AssertionSuccess();
  for (long t = 0; t < measured.size(); ++t) {
    const double m = measured.log2_at(t), b = bound.log2_at(t);
    if (m > b + 1e-6)
      return ::testing::AssertionFailure() << what << ": at root " << t << " the noise is 2^" << m
                                           << " above its bound 2^" << b;
  }
  return ::testing::AssertionSuccess();
}

class NoiseBoundTest : public ::testing::TestWithParam<Ring> {};

TEST_P(NoiseBoundTest, MeasuredNoiseNeverExceedsTheBoundAtAnyRoot) {
  const Ring r = GetParam();
  long checks = 0;
  for (uint64_t seed : {1, 2, 3}) {
    Fixture f(r.m, r.bits, r.c, r.hwt, seed);
    const Evaluator ev(f.ctx, f.noise, f.relin, f.autos);
    const Encryptor enc(f.ctx, f.pk, f.noise);
    const Decryptor dec(f.ctx, f.sk);
    std::mt19937_64 g(seed * 7919);
    std::vector<Ciphertext> pool;
    for (int i = 0; i < 3; ++i) pool.push_back(enc.encrypt(f.random_plaintext(g), f.rng));
    for (const auto& c : pool) ASSERT_TRUE(dominated(dec.noise_embedding(c), c.noise, "fresh"));
    for (int step = 0; step < 40; ++step) {
      Ciphertext& a = pool[g() % pool.size()];
      const Ciphertext& b = pool[g() % pool.size()];
      Ciphertext out = a;
      const int op = int(g() % 8);
      std::string what;
      switch (op) {
        case 0: ev.mul(out, b), what = "mul"; break;
        case 1: ev.square(out), what = "square"; break;
        case 2: ev.mul_plain(out, f.random_plaintext(g)), what = "mul_plain"; break;
        case 3: ev.add(out, b), ev.add_plain(out, f.random_plaintext(g)), what = "add, add_plain"; break;
        case 4: ev.automorph(out, f.ks[g() % f.ks.size()]), what = "automorph"; break;
        case 5: {
          auto many = ev.automorph_many(out, {f.ks[g() % f.ks.size()], f.ks[g() % f.ks.size()]});
          out = many[g() % 2];
          what = "automorph_many";
          break;
        }
        default: {
          const auto targets = ev.levels().switch_targets(out.primes());
          ev.mod_switch_to(out, targets[g() % targets.size()]);
          what = "mod_switch_to";
        }
      }
      if (ev.capacity_bits(out) < 2) continue;  // spent: keep the pool decryptable
      ASSERT_TRUE(dominated(dec.noise_embedding(out), out.noise, what)) << "seed " << seed << " step " << step;
      ++checks;
      pool.push_back(std::move(out));
      if (pool.size() > 6) pool.erase(pool.begin() + long(g() % pool.size()));
    }
  }
  EXPECT_GE(checks, 60) << "too few operations were checked";
}

INSTANTIATE_TEST_SUITE_P(SmallRings, NoiseBoundTest, ::testing::ValuesIn(kRings), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});

TEST(NoiseBoundBadDimension, MeasuredNoiseNeverExceedsTheBound) {
  const long m = ring_with_bad_dimension(300);
  Fixture f(m, 300, 2, 0, 5);
  const Evaluator ev(f.ctx, f.noise, f.relin, f.autos);
  const Decryptor dec(f.ctx, f.sk);
  std::mt19937_64 g(11);
  Ciphertext c = Encryptor(f.ctx, f.pk, f.noise).encrypt(f.random_plaintext(g), f.rng);
  for (long k : f.ks) {
    ev.automorph(c, k);
    ASSERT_TRUE(dominated(dec.noise_embedding(c), c.noise, "automorph")) << "m=" << m << " k=" << k;
    ev.square(c);
    ASSERT_TRUE(dominated(dec.noise_embedding(c), c.noise, "square")) << "m=" << m;
    if (ev.capacity_bits(c) < 40) break;
  }
}

// The rounding term, alone: a ciphertext switched down to a single prime carries the
// rounding noise R_t; its bound must hold at every root and not be loose by more than a
// few bits (the tail factor of noise.h over the typical size).
TEST(NoiseBoundTightness, RoundingBoundIsWithinAFewBits) {
  Fixture f(771, 300, 3, 120, 9);
  const Evaluator ev(f.ctx, f.noise, f.relin, f.autos);
  const Decryptor dec(f.ctx, f.sk);
  std::mt19937_64 g(3);
  Ciphertext c = Encryptor(f.ctx, f.pk, f.noise).encrypt(f.random_plaintext(g), f.rng);
  ev.mod_switch_to(c, std::vector<int>{int(f.ctx.L()) - 1});
  const RootBound measured = dec.noise_embedding(c);
  ASSERT_TRUE(dominated(measured, c.noise, "mod_switch_to"));
  EXPECT_LT(c.noise.log2_max() - measured.log2_max(), 4.0);
}

// Secret-key encryption (encryptor.h): its ciphertexts decrypt to their message, carry
// the noise mu + 2 e0 (below the public key's at its largest root, which adds e u + e1 s),
// and the public key's fresh bound holds them, alone and through a product with a
// public-key ciphertext and its relinearization, on every ring of the suite.
TEST(SecretKeyEncryption, DecryptsWithLessNoiseThanThePublicKeysUnderTheSameBound) {
  for (const Ring& r : kRings) {
    Fixture f(r.m, r.bits, r.c, r.hwt, 21);
    const Encryptor pk_enc(f.ctx, f.pk, f.noise), sk_enc(f.ctx, f.sk, f.noise);
    ASSERT_TRUE(sk_enc.secret_key());
    ASSERT_FALSE(pk_enc.secret_key());
    const Evaluator ev(f.ctx, f.noise, f.relin, f.autos);
    const Decryptor dec(f.ctx, f.sk);
    std::mt19937_64 g(r.m);
    for (int i = 0; i < 3; ++i) {
      const Plaintext a = f.random_plaintext(g), b = f.random_plaintext(g);
      const Ciphertext cs = sk_enc.encrypt(a, f.rng), cp = pk_enc.encrypt(b, f.rng);
      ASSERT_EQ(dec.decrypt(cs).mu, dec.decrypt(pk_enc.encrypt(a, f.rng)).mu) << r;
      const RootBound ns = dec.noise_embedding(cs), np = dec.noise_embedding(cp);
      ASSERT_TRUE(dominated(ns, cs.noise, "secret-key fresh")) << r;
      EXPECT_EQ(cs.noise.log2_max(), pk_enc.encrypt(a, f.rng).noise.log2_max()) << r << ": the same bound";
      EXPECT_LT(ns.log2_max(), np.log2_max()) << r;
      Ciphertext prod = cs;
      ev.mul(prod, cp);
      ASSERT_TRUE(dominated(dec.noise_embedding(prod), prod.noise, "secret x public")) << r;
    }
  }
}

// A modulus past 2^1024 (the Vision chains): the exact noise of a fresh ciphertext must
// keep its bits through the big-integer CRT (it once came out as zero above 2^900, so the
// reports of run_cipher --measure-noise said -inf) and sit a few bits under its bound.
TEST(NoiseMeasurement, FreshNoiseUnderAModulusPast1024Bits) {
  Fixture f(257, 1300, 3, 0, 4);
  ASSERT_GT(f.ctx.log2_Q(), 1100);
  const Decryptor dec(f.ctx, f.sk);
  std::mt19937_64 g(5);
  const Ciphertext c = Encryptor(f.ctx, f.pk, f.noise).encrypt(f.random_plaintext(g), f.rng);
  const RootBound measured = dec.noise_embedding(c);
  ASSERT_FALSE(measured.is_zero());
  ASSERT_TRUE(dominated(measured, c.noise, "fresh"));
  EXPECT_LT(c.noise.log2_max() - measured.log2_max(), 8.0);
}

}  // namespace
}  // namespace cb::bgv
