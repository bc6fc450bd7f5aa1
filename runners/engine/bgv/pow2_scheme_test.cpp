// The BGV scheme on the power-of-two rings m = 2^k (Phi_m = X^(m/2) + 1: the negacyclic
// transform, util/negacyclic.h, the fold of phi_reduction.h, the canonical embedding's
// negacyclic FFT) at odd primes p, end to end: key generation, public- and secret-key
// encryption, decryption, sums, products with relinearization, squares, products by
// constants, the automorphisms X -> X^k of Z_m^* = <-1> x <5>, and modulus switching
// several levels down; each result against the same arithmetic in the clear in
// Z_p[X]/(X^(m/2) + 1) (schoolbook negacyclic products written here, not the engine's),
// and the noise measured from the secret key below its bound at every root. The p = 2
// refusal of these rings (no slots) and of an even m that is not a power of two.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <random>
#include <string>

#include "engine/bgv/test_noise.h"
#include "engine/bgv/decryptor.h"
#include "engine/bgv/encryptor.h"
#include "engine/bgv/evaluator.h"
#include "engine/bgv/memory.h"
#include "engine/errors.h"
#include "engine/util/modarith.h"

namespace cb::bgv {
namespace {

struct Pow2Case {
  const char* why;
  long m, bits, c, hwt, p;
};
std::ostream& operator<<(std::ostream& os, const Pow2Case& r) { return os << "m" << r.m << "_p" << r.p; }

const Pow2Case kCases[] = {
    {"m = 64, p = 257 = 1 mod 64: fully split, 32 slots of F_257", 64, 200, 2, 0, 257},
    {"m = 256, p = 65537 (Pasta's prime, 1 mod 256), sparse key", 256, 260, 2, 120, 65537},
    {"m = 512, p = 3: d = ord_512(3) = 128, two slots", 512, 200, 3, 0, 3},
    {"m = 1024, p = 8088322049 (IAIK's 33-bit prime)", 1024, 400, 3, 120, 8088322049L},
};

// Z_p[X]/(X^phi + 1) in the clear: vectors of phi residues.
struct Clear {
  long m, phi;
  uint64_t p;
  using Vec = std::vector<uint64_t>;
  Vec add(const Vec& a, const Vec& b) const {
    Vec r(phi);
    for (long i = 0; i < phi; ++i) r[i] = util::add_mod(a[i], b[i], p);
    return r;
  }
  Vec mul(const Vec& a, const Vec& b) const {  // X^phi = -1
    Vec r(phi, 0);
    for (long i = 0; i < phi; ++i)
      for (long j = 0; j < phi; ++j) {
        const uint64_t x = util::mul_mod(a[i], b[j], p);
        const long k = i + j;
        r[k % phi] = k < phi ? util::add_mod(r[k], x, p) : util::sub_mod(r[k - phi], x, p);
      }
    return r;
  }
  Vec automorph(const Vec& a, long k) const {  // X^i -> X^(ik mod m), X^(phi + e) = -X^e
    Vec r(phi, 0);
    for (long i = 0; i < phi; ++i) {
      const long e = (i * k) % m;
      r[e % phi] = e < phi ? util::add_mod(r[e], a[i], p) : util::sub_mod(r[e - phi], a[i], p);
    }
    return r;
  }
};

struct Scheme {
  explicit Scheme(const Pow2Case& r)
      : ctx([&] {
          ContextParams cp{r.m, r.bits, r.c, r.hwt};
          cp.p = r.p;
          return cp;
        }()),
        rng(77),
        keygen(ctx, rng),
        clear{r.m, r.m / 2, uint64_t(r.p)} {
    sk = keygen.secret_key(r.hwt);
    pk = keygen.public_key(sk);
    relin = keygen.relin_key(sk);
    noise = NoiseModel(ctx.m(), sk.coeffs, ctx.p());
    for (long k : {5L, 3L, r.m - 1}) autos.emplace(k, keygen.automorphism_key(sk, k));
  }
  Clear::Vec random(std::mt19937_64& g) const {
    Clear::Vec v(ctx.phi());
    for (auto& x : v) x = g() % uint64_t(ctx.p());
    return v;
  }
  Plaintext plain(const Clear::Vec& v) const { return Plaintext::from_coeffs(ctx, std::vector<long>(v.begin(), v.end())); }
  Clear::Vec decrypt(const Ciphertext& c) const {
    return Decryptor(ctx, sk, noise.rounding().log2_max()).decrypt(c).coeffs;
  }
  Context ctx;
  Sampler rng;
  KeyGenerator keygen;
  Clear clear;
  SecretKey sk;
  PublicKey pk;
  KeySwitchKey relin;
  std::map<long, KeySwitchKey> autos;
  NoiseModel noise;
};

// Every root: measured <= bound (test_noise.h).
::testing::AssertionResult dominated(const Scheme& s, const Ciphertext& c, const std::string& what) {
  return testing::noise_dominated(s.ctx, s.sk, c, what);
}

class Pow2Scheme : public ::testing::TestWithParam<Pow2Case> {
 protected:
  void SetUp() override { s = std::make_unique<Scheme>(GetParam()); }
  std::unique_ptr<Scheme> s;
  std::mt19937_64 g{23};
};

TEST_P(Pow2Scheme, RingIsNegacyclic) {
  EXPECT_EQ(s->ctx.phi(), s->ctx.m() / 2);
  for (long i = 0; i < s->ctx.num_primes(); ++i) {
    EXPECT_EQ(s->ctx.ntt(i).algorithm(), util::CyclotomicTransform::Algorithm::negacyclic);
    EXPECT_EQ((s->ctx.q(i) - 1) % uint64_t(s->ctx.m()), 0u);
    EXPECT_NE(s->ctx.q(i), uint64_t(s->ctx.p()));
  }
  EXPECT_EQ(s->ctx.transform_algorithms().at("negacyclic"), s->ctx.num_primes());
  // memory.h's model of the tables, from the chain alone, is what the context built.
  const MemoryModel mm(s->ctx.chain(), s->ctx.m(), s->ctx.phi(), 0);
  EXPECT_EQ(mm.transforms, s->ctx.transform_bytes());
  EXPECT_EQ(mm.transforms, size_t(s->ctx.num_primes()) * util::NegacyclicTransform::table_bytes(s->ctx.m()));
}

TEST_P(Pow2Scheme, EncryptDecryptRoundTrip) {
  const auto v = s->random(g);
  const Ciphertext cp = Encryptor(s->ctx, s->pk, s->noise).encrypt(s->plain(v), s->rng);
  const Ciphertext cs = Encryptor(s->ctx, s->sk, s->noise).encrypt(s->plain(v), s->rng);
  EXPECT_EQ(s->decrypt(cp), v);
  EXPECT_EQ(s->decrypt(cs), v);
  EXPECT_EQ(Decryptor(s->ctx, s->sk).decrypt_at_level(cp).coeffs, v);
  EXPECT_TRUE(dominated(*s, cp, "fresh, public key"));
  EXPECT_TRUE(dominated(*s, cs, "fresh, secret key"));
}

TEST_P(Pow2Scheme, OperationsAgainstTheClear) {
  const auto a = s->random(g), b = s->random(g), k = s->random(g);
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Ciphertext ca = enc.encrypt(s->plain(a), s->rng), cb = enc.encrypt(s->plain(b), s->rng);
  const Clear& C = s->clear;
  struct Step {
    std::string what;
    Ciphertext c;
    Clear::Vec want;
  };
  std::vector<Step> steps;
  Ciphertext x = ca;
  ev.add(x, cb);
  steps.push_back({"add", x, C.add(a, b)});
  x = ca;
  ev.mul(x, cb);
  steps.push_back({"mul + relin", x, C.mul(a, b)});
  ev.mul_plain(x, s->plain(k));
  steps.push_back({"mul, mul_plain", x, C.mul(C.mul(a, b), k)});
  x = cb;
  ev.square(x);
  steps.push_back({"square", x, C.mul(b, b)});
  for (long kk : {5L, 3L, s->ctx.m() - 1}) {
    x = ca;
    ev.automorph(x, kk);
    steps.push_back({"automorph " + std::to_string(kk), x, C.automorph(a, kk)});
  }
  // Deeper: ((a b)(X^5) + b)^2.
  x = ca;
  ev.mul(x, cb);
  ev.automorph(x, 5);
  ev.add(x, cb);
  ev.square(x);
  const auto t = C.add(C.automorph(C.mul(a, b), 5), b);
  steps.push_back({"((a b)(X^5) + b)^2", x, C.mul(t, t)});
  for (auto& st : steps) {
    EXPECT_EQ(s->decrypt(st.c), st.want) << st.what;
    EXPECT_TRUE(dominated(*s, st.c, st.what));
  }
}

TEST_P(Pow2Scheme, ModSwitchDownKeepsThePlaintext) {
  const auto a = s->random(g);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  Ciphertext c = Encryptor(s->ctx, s->pk, s->noise).encrypt(s->plain(a), s->rng);
  long switches = 0;
  while (c.level() > 1) {
    Ciphertext next = c;
    ev.mod_switch_to(next, next.level() - 1);
    if (ev.capacity_bits(next) < 2) break;
    c = next;
    ++switches;
    EXPECT_EQ(s->decrypt(c), a) << "level " << c.level();
    EXPECT_TRUE(dominated(*s, c, "mod_switch_to level " + std::to_string(c.level())));
  }
  EXPECT_GE(switches, 2);
}

INSTANTIATE_TEST_SUITE_P(Rings, Pow2Scheme, ::testing::ValuesIn(kCases), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});

TEST(Pow2Context, RefusalsNameMAndTheConstraint) {
  auto message = [](long m, long p) {
    try {
      ContextParams cp{m, 200, 2, 0};
      cp.p = p;
      Context ctx(cp);
    } catch (const ParameterError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(256, 2).find("m=256 is a power of two and p=2: no slots"), std::string::npos)
      << message(256, 2);
  EXPECT_NE(message(96, 257).find("m=96 is even but not a power of two"), std::string::npos) << message(96, 257);
  EXPECT_NE(message(96, 257).find("odd m or m = 2^k"), std::string::npos) << message(96, 257);
  EXPECT_EQ(message(258, 2).find("m=258 is even"), 0u) << message(258, 2);
}

}  // namespace
}  // namespace cb::bgv
