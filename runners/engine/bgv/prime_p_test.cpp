// Tests of the BGV scheme at a prime plaintext modulus p > 2 (context.h), at the
// coefficient level: every operation against the same arithmetic in the clear in
// R_p = Z_p[X]/Phi_m, computed with NTL's ZZ_pX modulo a Phi_m built here from
// prod_{d | m} (X^d - 1)^mu(m/d) (not the engine's cyclotomic_coeffs); the noise computed
// exactly from the secret key below the bound at every root after every step; the
// plaintext factor that modulus switching leaves (ciphertext.h) and sums of ciphertexts
// of different factors; and the refusals with their messages.
#include <NTL/ZZX.h>
#include <NTL/ZZ_pX.h>
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <ostream>
#include <random>

#include "engine/bgv/test_noise.h"
#include "engine/bgv/decryptor.h"
#include "engine/bgv/encryptor.h"
#include "engine/bgv/evaluator.h"
#include "engine/bgv/plaintext_factor.h"
#include "engine/errors.h"
#include "engine/util/modarith.h"

namespace cb::bgv {
namespace {

struct Case {
  const char* why;
  long m, bits, c, hwt, p;
};
std::ostream& operator<<(std::ostream& os, const Case& r) { return os << "m" << r.m << "_p" << r.p; }

// Named parameter sets, each with its reason. bits grow with log2 p: a product costs
// about twice log2 p plus the ring's terms (noise.h).
const Case kCases[] = {
    {"p = 3, the smallest odd prime, prime m", 257, 260, 2, 0, 3},
    {"p = 3, m = 5 * 257, two factors, sparse key", 1285, 300, 3, 120, 3},
    {"p = 17", 257, 260, 2, 0, 17},
    {"p = 257 (Fermat), m = 241 prime", 241, 300, 2, 0, 257},
    {"p = 65537, Pasta's and HERA's prime", 257, 340, 3, 0, 65537},
    {"p = 8088322049, the 33-bit prime of IAIK's Masta/Pasta", 257, 460, 3, 0, 8088322049L},
    {"p = 1096486890805657601, the 60-bit prime of IAIK's framework", 257, 700, 4, 0, 1096486890805657601L},
};

// Phi_m over Z, independently of the engine: prod over d | m of (X^d - 1)^mu(m/d).
NTL::ZZX cyclotomic(long m) {
  auto mobius = [](long n) {
    long r = 1;
    for (long q = 2; q * q <= n; ++q)
      if (n % q == 0) {
        n /= q;
        if (n % q == 0) return 0L;
        r = -r;
      }
    return n > 1 ? -r : r;
  };
  NTL::ZZX num(1), den(1);
  for (long d = 1; d <= m; ++d) {
    if (m % d) continue;
    NTL::ZZX f;
    NTL::SetCoeff(f, d);
    NTL::SetCoeff(f, 0, -1);
    const long mu = mobius(m / d);
    if (mu == 1) num *= f;
    if (mu == -1) den *= f;
  }
  return num / den;
}

// R_p in the clear: residues as vectors of phi coefficients in [0, p).
struct Clear {
  Clear(long m, long p) : m(m), p(p), push(NTL::ZZ(p)) {
    NTL::ZZ_pX phi_p = NTL::conv<NTL::ZZ_pX>(cyclotomic(m));
    mod = NTL::ZZ_pXModulus(phi_p);
    phi = NTL::deg(phi_p);
  }
  NTL::ZZ_pX poly(const std::vector<uint64_t>& v) const {
    NTL::ZZ_pX x;
    for (size_t i = 0; i < v.size(); ++i) NTL::SetCoeff(x, long(i), NTL::conv<NTL::ZZ_p>(NTL::ZZ(NTL::INIT_VAL, v[i])));
    return x;
  }
  std::vector<uint64_t> vec(const NTL::ZZ_pX& x0) const {
    NTL::ZZ_pX x;
    NTL::rem(x, x0, mod);
    std::vector<uint64_t> v(phi, 0);
    for (long i = 0; i <= NTL::deg(x); ++i) v[i] = NTL::conv<unsigned long>(NTL::rep(NTL::coeff(x, i)));
    return v;
  }
  std::vector<uint64_t> mul(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) const {
    return vec(NTL::MulMod(poly(a), poly(b), mod));
  }
  std::vector<uint64_t> add(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) const {
    return vec(poly(a) + poly(b));
  }
  // mu(X^k): X^i -> X^(i k mod m), then modulo Phi_m (which divides X^m - 1).
  std::vector<uint64_t> automorph(const std::vector<uint64_t>& a, long k) const {
    NTL::ZZ_pX x;
    for (size_t i = 0; i < a.size(); ++i) {
      const long j = (long(i) * k) % m;
      NTL::SetCoeff(x, j, NTL::coeff(x, j) + NTL::conv<NTL::ZZ_p>(NTL::ZZ(NTL::INIT_VAL, a[i])));
    }
    return vec(x);
  }
  long m, p, phi = 0;
  NTL::ZZ_pPush push;
  NTL::ZZ_pXModulus mod;
};

struct Scheme {
  explicit Scheme(const Case& r)
      : ctx([&] {
          ContextParams cp{r.m, r.bits, r.c, r.hwt};
          cp.p = r.p;
          return cp;
        }()),
        rng(4242),
        keygen(ctx, rng),
        clear(r.m, r.p) {
    sk = keygen.secret_key(r.hwt);
    pk = keygen.public_key(sk);
    relin = keygen.relin_key(sk);
    noise = NoiseModel(ctx.m(), sk.coeffs, ctx.p());
    for (long k : {2L, 3L, r.m - 1})
      if (std::gcd(k, r.m) == 1) autos.emplace(k, keygen.automorphism_key(sk, k));
  }
  // phi random residues mod p, as the integers in [0, p) and a plaintext of them.
  std::vector<uint64_t> random(std::mt19937_64& g) const {
    std::vector<uint64_t> v(ctx.phi());
    for (auto& x : v) x = g() % uint64_t(ctx.p());
    return v;
  }
  Plaintext plain(const std::vector<uint64_t>& v) const {
    std::vector<long> c(v.begin(), v.end());
    return Plaintext::from_coeffs(ctx, c);
  }
  std::vector<uint64_t> decrypt(const Ciphertext& c) const {
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

class PrimePTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { s = std::make_unique<Scheme>(GetParam()); }
  std::unique_ptr<Scheme> s;
  std::mt19937_64 g{11};
};

TEST_P(PrimePTest, PlaintextIsTheCenteredLiftReducedModPhi) {
  const long p = s->ctx.p(), phi = s->ctx.phi();
  std::vector<long> c(s->ctx.m() + 5);  // past phi: reduced modulo Phi_m
  for (auto& x : c) x = long(g() % 1000) - 500 + ((g() & 1) ? p / 2 : 0);
  const Plaintext pt = Plaintext::from_coeffs(s->ctx, c);
  NTL::ZZ_pX x;
  for (size_t i = 0; i < c.size(); ++i) NTL::SetCoeff(x, long(i), NTL::conv<NTL::ZZ_p>(NTL::ZZ(c[i])));
  const auto want = s->clear.vec(x);
  EXPECT_EQ(Plaintext::reduce(s->ctx, c), want);
  ASSERT_LE(long(pt.coeffs().size()), phi);
  for (size_t i = 0; i < pt.coeffs().size(); ++i) {
    const long l = pt.coeffs()[i];
    EXPECT_TRUE(2 * l > -p && 2 * l <= p) << "coefficient " << i << " = " << l << " outside (-p/2, p/2]";
    EXPECT_EQ(uint64_t(((l % p) + p) % p), want[i]) << "coefficient " << i;
  }
  EXPECT_TRUE(Plaintext::from_coeffs(s->ctx, std::vector<long>(10, p)).is_zero());  // p = 0 mod p
}

TEST_P(PrimePTest, EncryptPublicAndSecretKeyRoundTrip) {
  const auto v = s->random(g);
  const Ciphertext cp = Encryptor(s->ctx, s->pk, s->noise).encrypt(s->plain(v), s->rng);
  const Ciphertext cs = Encryptor(s->ctx, s->sk, s->noise).encrypt(s->plain(v), s->rng);
  EXPECT_EQ(s->decrypt(cp), v);
  EXPECT_EQ(s->decrypt(cs), v);
  EXPECT_EQ(Decryptor(s->ctx, s->sk).decrypt_at_level(cp).coeffs, v);  // no switch down first
  EXPECT_TRUE(dominated(*s, cp, "fresh, public key"));
  EXPECT_TRUE(dominated(*s, cs, "fresh, secret key"));
}

TEST_P(PrimePTest, EveryOperationAgainstTheClear) {
  const auto a = s->random(g), b = s->random(g), k = s->random(g);
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Ciphertext ca = enc.encrypt(s->plain(a), s->rng), cb = enc.encrypt(s->plain(b), s->rng);
  const Plaintext pk = s->plain(k);
  const Clear& C = s->clear;
  struct Step {
    std::string what;
    Ciphertext c;
    std::vector<uint64_t> want;
  };
  std::vector<Step> steps;
  {
    Ciphertext x = ca;
    ev.add(x, cb);
    steps.push_back({"add", x, C.add(a, b)});
  }
  {
    Ciphertext x = ca;
    ev.mul_plain(x, pk);
    steps.push_back({"mul_plain", x, C.mul(a, k)});
    ev.add_plain(x, pk);
    steps.push_back({"mul_plain, add_plain", x, C.add(C.mul(a, k), k)});
  }
  {
    Ciphertext x = ca;
    ev.mul(x, cb);
    steps.push_back({"mul + relin", x, C.mul(a, b)});
    ev.add_plain(x, pk);  // a factor other than 1 after the product's switches, typically
    steps.push_back({"mul, add_plain", x, C.add(C.mul(a, b), k)});
  }
  {
    Ciphertext x = cb;
    ev.square(x);
    steps.push_back({"square", x, C.mul(b, b)});
  }
  for (long kk : {2L, 3L, s->ctx.m() - 1}) {
    Ciphertext x = ca;
    ev.automorph(x, kk);
    steps.push_back({"automorph " + std::to_string(kk), x, C.automorph(a, kk)});
  }
  {
    const auto many = ev.automorph_many(cb, {1, 3, 2});
    steps.push_back({"automorph_many 1", many[0], b});
    steps.push_back({"automorph_many 3", many[1], C.automorph(b, 3)});
    steps.push_back({"automorph_many 2", many[2], C.automorph(b, 2)});
  }
  for (auto& st : steps) {
    EXPECT_EQ(s->decrypt(st.c), st.want) << st.what;
    EXPECT_TRUE(dominated(*s, st.c, st.what));
  }
}

TEST_P(PrimePTest, ModSwitchSeveralLevelsKeepsThePlaintextUpToItsFactor) {
  const auto a = s->random(g), b = s->random(g);
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  Ciphertext c = enc.encrypt(s->plain(a), s->rng);
  const Ciphertext fresh_b = enc.encrypt(s->plain(b), s->rng);
  const uint64_t p = uint64_t(s->ctx.p());
  bool factor_moved = false;
  EXPECT_EQ(c.factor, 1u);
  uint64_t f = 1;
  long switches = 0;
  while (c.level() > 1) {
    const auto before = c.primes();
    {
      Ciphertext next = c;  // stop where the rounding noise (about p) would spend the modulus
      ev.mod_switch_to(next, next.level() - 1);
      if (ev.capacity_bits(next) < 2) break;
    }
    ev.mod_switch_to(c, c.level() - 1);
    ++switches;
    // f times q_dropped^-1 mod p.
    const uint64_t q = s->ctx.q(before.back()) % p;
    EXPECT_EQ(c.factor, util::mul_mod(f, util::inv_mod(q, p), p)) << "level " << c.level();
    f = c.factor;
    factor_moved |= c.factor != 1;
    EXPECT_EQ(s->decrypt(c), a) << "level " << c.level();
    EXPECT_EQ(Decryptor(s->ctx, s->sk).decrypt_at_level(c).coeffs, a) << "level " << c.level();
    EXPECT_TRUE(dominated(*s, c, "mod_switch_to level " + std::to_string(c.level())));
    // A sum with a fresh ciphertext (factor 1, all primes): the switch to the common set
    // and the factors' alignment (evaluator.h).
    Ciphertext sum = fresh_b;
    ev.add(sum, c);
    EXPECT_EQ(s->decrypt(sum), s->clear.add(a, b)) << "level " << c.level();
    EXPECT_TRUE(dominated(*s, sum, "add of different factors at level " + std::to_string(c.level())));
  }
  EXPECT_GE(switches, 2) << "several levels deep";
  // Some prime of the chain is not 1 mod p, so the factor moved (else this test shows nothing).
  bool all_one = true;
  for (int i : s->ctx.ciphertext_primes()) all_one &= s->ctx.q(i) % p == 1;
  if (!all_one) {
    EXPECT_TRUE(factor_moved);
  }
}

TEST_P(PrimePTest, ADeeperCircuitAgainstTheClear) {
  // ((a b + c) d)^2 + a, with automorphisms and constants between: the noise bound checked
  // after every step and the plaintext at the end and along the way.
  const auto a = s->random(g), b = s->random(g), c = s->random(g), d = s->random(g), k = s->random(g);
  const Encryptor enc(s->ctx, s->pk, s->noise), senc(s->ctx, s->sk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Clear& C = s->clear;
  const Ciphertext ca = enc.encrypt(s->plain(a), s->rng), cb = senc.encrypt(s->plain(b), s->rng);
  const Ciphertext cc = enc.encrypt(s->plain(c), s->rng), cd = senc.encrypt(s->plain(d), s->rng);
  Ciphertext x = ca;
  ev.mul(x, cb);
  ev.add(x, cc);
  auto want = C.add(C.mul(a, b), c);
  ASSERT_EQ(s->decrypt(x), want) << "a b + c";
  ASSERT_TRUE(dominated(*s, x, "a b + c"));
  ev.automorph(x, 2);
  want = C.automorph(want, 2);
  ev.mul(x, cd);
  want = C.mul(want, d);
  ASSERT_EQ(s->decrypt(x), want) << "(a b + c)(X^2) d";
  ASSERT_TRUE(dominated(*s, x, "(a b + c)(X^2) d"));
  ev.mul_plain(x, s->plain(k));
  want = C.mul(want, k);
  ev.square(x);
  want = C.mul(want, want);
  ASSERT_TRUE(dominated(*s, x, "square"));
  ev.add(x, ca);
  want = C.add(want, a);
  EXPECT_TRUE(dominated(*s, x, "+ a"));
  EXPECT_GT(ev.capacity_bits(x), 0);
  EXPECT_EQ(s->decrypt(x), want);
}

// The random sequences also run on a medium ring (its exact noise checks take seconds).
class PrimePRandomTest : public PrimePTest {};

TEST_P(PrimePRandomTest, RandomSequencesKeepTheClearValueAndTheBound) {
  // As noise_test.cpp at p = 2: random products, squares, constant products, sums (of
  // ciphertexts of any factors), automorphisms (single and hoisted) and switches to any
  // target (down, and up by adding small primes back); after each, the decryption equals
  // the clear value and the exact noise is below the bound at every root.
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Clear& C = s->clear;
  const std::vector<long> ks{2, 3, s->ctx.m() - 1};
  struct Item {
    Ciphertext c;
    std::vector<uint64_t> v;
  };
  std::vector<Item> pool;
  for (int i = 0; i < 3; ++i) {
    auto v = s->random(g);
    pool.push_back({enc.encrypt(s->plain(v), s->rng), v});
  }
  long checks = 0;
  const int steps = s->ctx.phi() >= 4096 ? 16 : 40;  // the medium ring's exact checks are slow
  for (int step = 0; step < steps; ++step) {
    const Item& a = pool[g() % pool.size()];
    const Item& b = pool[g() % pool.size()];
    Item out = a;
    const int op = int(g() % 7);
    std::string what;
    switch (op) {
      case 0: ev.mul(out.c, b.c), out.v = C.mul(a.v, b.v), what = "mul"; break;
      case 1: ev.square(out.c), out.v = C.mul(a.v, a.v), what = "square"; break;
      case 2: {
        const auto k = s->random(g);
        ev.mul_plain(out.c, s->plain(k)), out.v = C.mul(a.v, k), what = "mul_plain";
        break;
      }
      case 3: {
        const auto k = s->random(g);
        ev.add(out.c, b.c), ev.add_plain(out.c, s->plain(k)), out.v = C.add(C.add(a.v, b.v), k);
        what = "add, add_plain";
        break;
      }
      case 4: {
        const long k = ks[g() % ks.size()];
        ev.automorph(out.c, k), out.v = C.automorph(a.v, k), what = "automorph";
        break;
      }
      case 5: {
        const long k1 = ks[g() % ks.size()], k2 = ks[g() % ks.size()];
        const auto many = ev.automorph_many(out.c, {k1, k2});
        const bool second = g() % 2;
        out.c = many[second], out.v = C.automorph(a.v, second ? k2 : k1), what = "automorph_many";
        break;
      }
      default: {
        const auto targets = ev.levels().switch_targets(out.c.primes());
        ev.mod_switch_to(out.c, targets[g() % targets.size()]);
        what = "mod_switch_to";
      }
    }
    if (ev.capacity_bits(out.c) < 2) continue;  // spent: keep the pool decryptable
    ASSERT_TRUE(dominated(*s, out.c, what)) << "step " << step;
    ASSERT_EQ(s->decrypt(out.c), out.v) << what << " at step " << step;
    ++checks;
    pool.push_back(std::move(out));
    if (pool.size() > 6) pool.erase(pool.begin() + long(g() % pool.size()));
  }
  EXPECT_GE(checks, steps / 2) << "too few operations were checked";
}

TEST_P(PrimePTest, SumsOfDifferentFactorsAreAlignedCheaply) {
  // Ciphertexts that only switched share the factor of their prime set (Q_T / Q_L mod p);
  // a product's factor differs. x = a b (squared again until its factor differs from
  // y's), y = c switched to x's primes: their sum and x + constant, against the clear, the
  // bound, and the alignment's price: the sum's bound within log2 sqrt(p) + 2 bits of the
  // larger operand's (evaluator.h).
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Clear& C = s->clear;
  const auto a = s->random(g), b = s->random(g), c = s->random(g), k = s->random(g);
  Ciphertext x = enc.encrypt(s->plain(a), s->rng);
  ev.mul(x, enc.encrypt(s->plain(b), s->rng));
  auto xv = C.mul(a, b);
  const Ciphertext fresh_c = enc.encrypt(s->plain(c), s->rng);
  Ciphertext y = fresh_c;
  ev.mod_switch_to(y, x.primes());
  for (int tries = 0; x.factor == y.factor && tries < 3 && ev.capacity_bits(x) > 40; ++tries) {
    ev.square(x), xv = C.mul(xv, xv);
    y = fresh_c;
    ev.mod_switch_to(y, x.primes());
  }
  ASSERT_NE(x.factor, y.factor) << "no product with a factor other than its prime set's";
  ASSERT_EQ(x.primes(), y.primes());
  const double before = std::max(x.log2_noise(), y.log2_noise());
  Ciphertext sum = x;
  ev.add(sum, y);
  EXPECT_EQ(s->decrypt(sum), C.add(xv, c));
  EXPECT_TRUE(dominated(*s, sum, "aligned sum"));
  EXPECT_LE(sum.log2_noise(), before + std::log2(double(s->ctx.p())) / 2 + 2);
  Ciphertext xk = x;
  ev.add_plain(xk, s->plain(k));
  EXPECT_EQ(s->decrypt(xk), C.add(xv, k));
  EXPECT_TRUE(dominated(*s, xk, "aligned add_plain"));
}

TEST_P(PrimePTest, AProductDroppingPrimesOfBothOperandsAtOneSetKeepsTheFactor) {
  // Both operands at one prime set T, the product's set a strict subset of T: mul's fused
  // branch (the four polynomials rounded in one pass, evaluator.cpp). T = every small and
  // ciphertext prime (fresh ciphertexts with the small primes added back), so every target
  // of product_set is a subset of T. The switch multiplies both operands' factors by
  // switch_factor(T, target); that factor was once read from a.primes() after a's parts
  // had been replaced (so it was 1): the product decrypted to sf^-2 a b.
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const Evaluator ev(s->ctx, s->noise, s->relin, s->autos);
  const Clear& C = s->clear;
  const auto a = s->random(g), b = s->random(g), c = s->random(g);
  std::vector<int> all(size_t(s->ctx.L()));
  std::iota(all.begin(), all.end(), 0);
  Ciphertext x = enc.encrypt(s->plain(a), s->rng), y = enc.encrypt(s->plain(b), s->rng);
  ev.mod_switch_to(x, all);
  ev.mod_switch_to(y, all);
  ASSERT_EQ(x.primes(), all);
  ASSERT_EQ(s->decrypt(x), a);
  const auto target = ev.levels().product_set(all, x.noise, all, y.noise);
  ASSERT_NE(target, all) << "the product drops no prime: the fused branch is not taken";
  ASSERT_TRUE(std::includes(all.begin(), all.end(), target.begin(), target.end()));
  const uint64_t p = uint64_t(s->ctx.p());
  const uint64_t sf = switch_factor(s->ctx.chain(), p, all, target);
  ev.mul(x, y);
  EXPECT_EQ(s->decrypt(x), C.mul(a, b)) << "switch factor " << sf << " (its square " << util::mul_mod(sf, sf, p)
                                        << ")";
  EXPECT_TRUE(dominated(*s, x, "product dropping primes at one set"));
  // And on: a sum with a ciphertext of another factor, then a square.
  Ciphertext z = enc.encrypt(s->plain(c), s->rng);
  ev.add(x, z);
  auto want = C.add(C.mul(a, b), c);
  EXPECT_EQ(s->decrypt(x), want) << "a b + c";
  ev.square(x);
  EXPECT_EQ(s->decrypt(x), C.mul(want, want)) << "(a b + c)^2";
  EXPECT_TRUE(dominated(*s, x, "(a b + c)^2"));
}

// Rings where PrimeSlotRing is quick to build (at m = 257, p = 3, d = 256, it took
// minutes), at every p of kCases.
const Case kSlotCases[] = {
    {"p = 3, m = 5 * 41: 20 slots of GF(3^8)", 205, 260, 2, 0, 3},
    {"p = 17, m = 5 * 29: 28 slots of GF(17^4)", 145, 260, 2, 0, 17},
    {"p = 257, m = 5 * 43: 42 slots of GF(257^4)", 215, 300, 2, 0, 257},
    {"p = 65537, m = 11 * 13: 20 slots of GF(65537^6)", 143, 340, 3, 0, 65537},
    // At the large p, rings with m | p - 1 (d = 1, slots of F_p, as the F_p ciphers use):
    // PrimeSlotRing took minutes at m = 153 (d = 2) for the 33-bit p.
    {"p = 8088322049, m = 23 | p - 1: 22 slots of F_p", 23, 460, 3, 0, 8088322049L},
    {"p = 1096486890805657601, m = 25 | p - 1: 20 slots of F_p", 25, 700, 4, 0, 1096486890805657601L},
};

class PrimeSlotsTest : public PrimePTest {};

TEST_P(PrimeSlotsTest, SlotsOfGFpdThroughTheScheme) {
  // F_p^d slot vectors (Context::prime_slots) encoded, encrypted, multiplied, added,
  // multiplied by a constant and sent through the Frobenius X -> X^p: slot by slot as in K.
  const PrimeSlotRing& slots = s->ctx.prime_slots();
  const uint64_t p = uint64_t(s->ctx.p());
  auto random_slots = [&] {
    std::vector<PrimeSlotRing::Element> v(slots.ell(), PrimeSlotRing::Element(slots.d()));
    for (auto& x : v)
      for (auto& c : x) c = g() % p;
    return v;
  };
  auto plain = [&](const std::vector<PrimeSlotRing::Element>& v) {
    const auto coeffs = slots.encode(v);
    return Plaintext::from_coeffs(s->ctx, std::vector<long>(coeffs.begin(), coeffs.end()));
  };
  const long frob = long(p % uint64_t(s->ctx.m()));
  std::map<long, KeySwitchKey> autos;
  autos.emplace(frob, s->keygen.automorphism_key(s->sk, frob));
  const Evaluator ev(s->ctx, s->noise, s->relin, autos);
  const Encryptor enc(s->ctx, s->pk, s->noise);
  const auto a = random_slots(), b = random_slots(), k = random_slots();
  Ciphertext c = enc.encrypt(plain(a), s->rng);
  ev.mul(c, enc.encrypt(plain(b), s->rng));  // a b
  ev.add(c, enc.encrypt(plain(a), s->rng));  // a b + a
  ev.mul_plain(c, plain(k));                 // (a b + a) k
  Ciphertext f = c;
  ev.automorph(f, frob);                     // ((a b + a) k)^p in every slot
  const auto dc = slots.decode(s->decrypt(c)), df = slots.decode(s->decrypt(f));
  for (long i = 0; i < slots.ell(); ++i) {
    PrimeSlotRing::Element w = slots.mul(a[i], b[i]);
    for (long j = 0; j < slots.d(); ++j) w[j] = (w[j] + a[i][j]) % p;
    w = slots.mul(w, k[i]);
    EXPECT_EQ(dc[i], w) << "slot " << i;
    EXPECT_EQ(df[i], slots.power(w, p)) << "slot " << i << ": the Frobenius";
  }
  EXPECT_TRUE(dominated(*s, f, "slots: product, sum, constant, Frobenius"));
}

INSTANTIATE_TEST_SUITE_P(SmallRings, PrimePTest, ::testing::ValuesIn(kCases), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});
INSTANTIATE_TEST_SUITE_P(SmallRings, PrimePRandomTest, ::testing::ValuesIn(kCases), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});
INSTANTIATE_TEST_SUITE_P(
    MediumRing, PrimePRandomTest,
    ::testing::Values(Case{"p = 65537 on m = 17 * 257 (HElib's AES ring), sparse key, phi = 4096: the parallel loops",
                           4369, 400, 3, 120, 65537}),
    [](const auto& info) {
      std::ostringstream os;
      os << info.param;
      return os.str();
    });
INSTANTIATE_TEST_SUITE_P(SmallRings, PrimeSlotsTest, ::testing::ValuesIn(kSlotCases), [](const auto& info) {
  std::ostringstream os;
  os << info.param;
  return os.str();
});

// The refusals, each before any work, naming the value and the constraint.
ContextParams at_p(long m, long bits, long p) {
  ContextParams cp{m, bits, 2, 0};
  cp.p = p;
  return cp;
}

void expect_refused(const ContextParams& cp, const std::string& words) {
  try {
    Context ctx(cp);
    ADD_FAILURE() << "p=" << cp.p << " m=" << cp.m << " was accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(PrimePRefusals, NotAPrimeOutOfRangeDividingMOrTooLarge) {
  expect_refused(at_p(257, 200, 1), "p=1: the plaintext modulus must be a prime with 2 <= p < 2^61");
  expect_refused(at_p(257, 200, 9), "p=9: the plaintext modulus must be a prime with 2 <= p < 2^61");
  expect_refused(at_p(257, 200, 65536), "p=65536: the plaintext modulus must be a prime");
  expect_refused(at_p(257, 200, 2305843009213693967L),  // the least prime above 2^61
                 "p=2305843009213693967: the plaintext modulus must be a prime with 2 <= p < 2^61");
  expect_refused(at_p(257, 200, 257), "p=257 divides m=257");
  expect_refused(at_p(1285, 200, 5), "p=5 divides m=1285");
  ContextParams small = at_p(257, 40, 1096486890805657601L);
  small.c = 1;
  expect_refused(small, "p=1096486890805657601 is too large for the chain");
  // A prime the same chain takes at p = 2 is skipped at p = q (chain.h): accepted, and no
  // prime of the chain is p.
  const Context ctx(ContextParams{257, 200, 2, 0});
  const long q = long(ctx.q(ctx.S()));
  const Context at_q(at_p(257, 200, q));
  for (long i = 0; i < at_q.chain().num_primes(); ++i) EXPECT_NE(at_q.q(i), uint64_t(q)) << i;
  EXPECT_EQ(Context(at_p(257, 200, 2305843009213693951L)).p(), 2305843009213693951L);  // 2^61 - 1: the largest
}

TEST(PrimePRefusals, GF2SlotsAndGF2XPlaintextsAtPAbove2) {
  const Context ctx(at_p(257, 200, 17));
  try {
    ctx.slots();
    ADD_FAILURE() << "slots at p = 17 were built";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("slots() is R_2's (GF(2^d) slots): at p=17 (m=257) use prime_slots()"),
              std::string::npos)
        << e.what();
  }
  NTL::GF2X x;
  NTL::SetCoeff(x, 3);
  try {
    Plaintext pt(ctx, x);
    ADD_FAILURE() << "a GF2X plaintext at p = 17 was accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("Plaintext from GF(2)[X] at p=17"), std::string::npos) << e.what();
  }
}

TEST(PrimePRefusals, PrimeSlotsAtP2) {
  const Context ctx(ContextParams{257, 200, 2, 0});
  try {
    ctx.prime_slots();
    ADD_FAILURE() << "prime slots at p = 2 were built";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("prime_slots() at p=2 (m=257): use slots()"), std::string::npos) << e.what();
  }
}

TEST(PrimeP, FromCoeffsAtP2DecryptsAsTheGF2XPath) {
  // The coefficient path at p = 2 ({0, 1} lift) next to the GF2X one (signed lift): both
  // encrypt mu, whose decryption is the same GF2X.
  const Context ctx(ContextParams{257, 200, 2, 0});
  Sampler rng(9);
  KeyGenerator kg(ctx, rng);
  const SecretKey sk = kg.secret_key(0);
  const PublicKey pk = kg.public_key(sk);
  const NoiseModel noise(ctx.m(), sk.coeffs);
  std::vector<long> c(ctx.phi());
  NTL::GF2X x;
  std::mt19937_64 g(3);
  for (long i = 0; i < ctx.phi(); ++i)
    if ((c[i] = long(g() % 5)) % 2) NTL::SetCoeff(x, i);
  const Plaintext a = Plaintext::from_coeffs(ctx, c), b(ctx, x);
  EXPECT_EQ(a.poly(), b.poly());
  const Encryptor enc(ctx, pk, noise);
  const Decryptor dec(ctx, sk, noise.rounding().log2_max());
  EXPECT_EQ(dec.decrypt(enc.encrypt(a, rng)).mu, x);
  EXPECT_EQ(dec.decrypt(enc.encrypt(b, rng)).mu, x);
}

}  // namespace
}  // namespace cb::bgv
