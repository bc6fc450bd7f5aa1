// Tests for PrimeSlotRing: Phi_m mod p against an independent computation, the factors,
// the CRT round trip, the ring homomorphism, and the automorphisms X -> X^k acting on the
// slots exactly as ZmStar::automorphism_action predicts (the Frobenius y -> y^p for k = p),
// on odd and power-of-two rings at p = 3, 17, 257, 65537 and two large primes.
#include "engine/algebra/prime_slot_ring.h"

#include <gtest/gtest.h>

#include <NTL/lzz_pX.h>

#include <map>
#include <random>
#include <thread>

#include "engine/errors.h"

namespace cb {
namespace {

struct RingCase {
  long m, p;
  const char* why;
};
std::ostream& operator<<(std::ostream& os, const RingCase& c) { return os << "m=" << c.m << " p=" << c.p; }

// Phi_m mod p by the recursion X^m - 1 = prod_{e | m} Phi_e (independent of the tree the
// library multiplies out of its factors F_s).
NTL::zz_pX cyclotomic(long m, std::map<long, NTL::zz_pX>& memo) {
  auto it = memo.find(m);
  if (it != memo.end()) return it->second;
  NTL::zz_pX f;
  NTL::SetCoeff(f, m);
  NTL::SetCoeff(f, 0, -1);
  for (long e = 1; e < m; ++e)
    if (m % e == 0) f /= cyclotomic(e, memo);
  return memo[m] = f;
}

// a * b mod Phi_m, and a(X^k) mod Phi_m, coefficients in [0, p) (schoolbook, as the
// clear side of a test should be).
std::vector<uint64_t> mul_mod(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                              const std::vector<uint64_t>& Phi, uint64_t p) {
  const size_t phi = Phi.size() - 1;
  std::vector<unsigned __int128> c(a.size() + b.size(), 0);
  std::vector<uint64_t> r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j)
      r[i + j] = uint64_t((r[i + j] + (unsigned __int128)a[i] * b[j]) % p);
  for (size_t k = r.size(); k-- > phi;) {  // Phi is monic: X^k = X^(k-phi) (X^phi - Phi)
    const uint64_t t = r[k];
    if (t == 0) continue;
    for (size_t i = 0; i <= phi; ++i)
      r[k - phi + i] = uint64_t((r[k - phi + i] + (unsigned __int128)(p - Phi[i]) * t) % p);
  }
  r.resize(phi);
  return r;
}

std::vector<uint64_t> automorph(const std::vector<uint64_t>& a, long k, long m, const std::vector<uint64_t>& Phi,
                                uint64_t p) {
  std::vector<uint64_t> b(size_t(m), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t j = size_t((long(i) * k) % m);
    b[j] = (b[j] + a[i]) % p;
  }
  std::vector<uint64_t> one{1};
  return mul_mod(b, one, Phi, p);
}

class PrimeSlotRingTest : public ::testing::TestWithParam<RingCase> {
 protected:
  void SetUp() override {
    zm = std::make_unique<ZmStar>(GetParam().m, GetParam().p);
    ring = std::make_unique<PrimeSlotRing>(*zm);
  }
  std::vector<PrimeSlotRing::Element> random_slots(std::mt19937_64& rng) const {
    std::vector<PrimeSlotRing::Element> v(size_t(ring->ell()), PrimeSlotRing::Element(size_t(ring->d())));
    for (auto& e : v)
      for (auto& x : e) x = rng() % uint64_t(ring->p());
    return v;
  }
  std::unique_ptr<ZmStar> zm;
  std::unique_ptr<PrimeSlotRing> ring;
};

TEST_P(PrimeSlotRingTest, PhiIsTheCyclotomicPolynomialAndTheFactorsSplitIt) {
  NTL::zz_pPush push(GetParam().p);
  std::map<long, NTL::zz_pX> memo;
  const NTL::zz_pX Phi = cyclotomic(GetParam().m, memo);
  ASSERT_EQ(long(ring->Phi().size()), zm->phi() + 1);
  for (long i = 0; i <= zm->phi(); ++i) EXPECT_EQ(ring->Phi()[size_t(i)], uint64_t(NTL::rep(NTL::coeff(Phi, i))));
  for (long s = 0; s < ring->ell(); ++s) {
    NTL::zz_pX F;
    for (size_t i = 0; i < ring->factor(s).size(); ++i) NTL::SetCoeff(F, long(i), NTL::zz_p(long(ring->factor(s)[i])));
    EXPECT_EQ(NTL::deg(F), ring->d());
    EXPECT_TRUE(NTL::IsZero(Phi % F)) << "F_" << s << " does not divide Phi_m";
  }
}

TEST_P(PrimeSlotRingTest, EncodeDecodeRoundTripAndProducts) {
  std::mt19937_64 rng(GetParam().m * 31 + GetParam().p);
  const uint64_t p = uint64_t(ring->p());
  const auto u = random_slots(rng), v = random_slots(rng);
  const auto a = ring->encode(u), b = ring->encode(v);
  ASSERT_EQ(long(a.size()), zm->phi());
  EXPECT_EQ(ring->decode(a), u);
  // The ring homomorphism: products and sums of polynomials are slot-wise.
  const auto ab = ring->decode(mul_mod(a, b, ring->Phi(), p));
  std::vector<uint64_t> s(a.size());
  for (size_t i = 0; i < a.size(); ++i) s[i] = (a[i] + b[i]) % p;
  const auto sum = ring->decode(s);
  for (long t = 0; t < ring->ell(); ++t) {
    EXPECT_EQ(ab[size_t(t)], ring->mul(u[size_t(t)], v[size_t(t)])) << "slot " << t;
    for (long i = 0; i < ring->d(); ++i) EXPECT_EQ(sum[size_t(t)][size_t(i)], (u[size_t(t)][size_t(i)] + v[size_t(t)][size_t(i)]) % p);
  }
  // A constant of F_p is the same element in every slot.
  std::vector<PrimeSlotRing::Element> c(size_t(ring->ell()), PrimeSlotRing::Element(size_t(ring->d()), 0));
  for (auto& e : c) e[0] = 5 % p;
  const auto enc_c = ring->encode(c);
  EXPECT_EQ(enc_c[0], 5 % p);
  for (size_t i = 1; i < enc_c.size(); ++i) EXPECT_EQ(enc_c[i], 0u);
}

// decode_fp at d = 1 is decode's one coefficient per slot, for a of phi coefficients and
// longer (reduced mod Phi_m first); at d > 1 it refuses, naming the slot field.
TEST_P(PrimeSlotRingTest, DecodeFpIsDecodeAtDegreeOne) {
  std::mt19937_64 rng(GetParam().m * 17 + GetParam().p);
  const uint64_t p = uint64_t(ring->p());
  for (long len : {zm->phi(), 2 * zm->phi() + 3, zm->phi() / 2}) {
    std::vector<uint64_t> a(static_cast<size_t>(len));
    for (auto& x : a) x = rng() % p;
    if (ring->d() != 1) {
      try {
        ring->decode_fp(a);
        FAIL() << "decode_fp accepted d=" << ring->d();
      } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("not F_p: use decode"), std::string::npos) << e.what();
      }
      continue;
    }
    const auto k = ring->decode(a);
    std::vector<uint64_t> want(k.size());
    for (size_t s = 0; s < k.size(); ++s) want[s] = k[s][0];
    EXPECT_EQ(ring->decode_fp(a), want) << len << " coefficients";
  }
  if (ring->d() == 1) {
    EXPECT_THROW(ring->decode_fp({0, p}), ParameterError);
  }
}

TEST_P(PrimeSlotRingTest, AutomorphismsMoveSlotsAsZmStarSays) {
  std::mt19937_64 rng(GetParam().m + 7 * GetParam().p);
  const uint64_t p = uint64_t(ring->p());
  const auto v = random_slots(rng);
  const auto a = ring->encode(v);
  std::vector<long> ks = {long(p % uint64_t(zm->m()))};  // the Frobenius
  for (long i = 0; i < zm->dims(); ++i) ks.push_back(zm->gen(i)), ks.push_back(zm->inverse(zm->gen(i)));
  ks.push_back(zm->m() - 1);
  for (long k : ks) {
    const auto w = ring->decode(automorph(a, k, zm->m(), ring->Phi(), p));
    const auto moves = zm->automorphism_action(k);
    for (long s = 0; s < ring->ell(); ++s) {
      PrimeSlotRing::Element expect = v[size_t(moves[size_t(s)].src)];
      for (long f = 0; f < moves[size_t(s)].frob; ++f) expect = ring->power(expect, p);
      ASSERT_EQ(w[size_t(s)], expect) << "k=" << k << " slot " << s;
    }
  }
}

TEST_P(PrimeSlotRingTest, DeterministicAndSafeOnSeveralThreads) {
  const PrimeSlotRing again(*zm);
  EXPECT_EQ(again.G(), ring->G());
  EXPECT_EQ(again.zeta(), ring->zeta());
  std::mt19937_64 rng(5);
  const auto v = random_slots(rng);
  const auto a = ring->encode(v);
  std::vector<std::vector<PrimeSlotRing::Element>> out(4);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t) th.emplace_back([&, t] { out[size_t(t)] = ring->decode(ring->encode(v)); });
  for (auto& t : th) t.join();
  for (const auto& o : out) EXPECT_EQ(o, v);
}

INSTANTIATE_TEST_SUITE_P(
    Rings, PrimeSlotRingTest,
    ::testing::Values(RingCase{11, 3, "odd m, d = 5, two slots"}, RingCase{13, 3, "odd m, d = 3, four slots"},
                      RingCase{91, 17, "odd m = 7 * 13, a product ring"},
                      RingCase{257, 3, "m prime, d = 256: one slot of GF(3^256)"},
                      RingCase{255, 257, "odd m, 257 = 2 mod 255"},
                      RingCase{32, 3, "m = 2^5 at p = 3: d = 8, two slots"},
                      RingCase{64, 17, "m = 2^6 at p = 17: d = 4"},
                      RingCase{256, 257, "m = 2^8 at p = 257 = 1 mod m: 128 slots of F_p"},
                      RingCase{1024, 65537, "m = 2^10 at p = 65537: 512 slots of F_p"},
                      RingCase{64, 8088322049, "IAIK's 33-bit prime"},
                      RingCase{153, 8088322049, "IAIK's 33-bit prime at d = 2: zeta is no constant"},
                      RingCase{153, 1096486890805657601, "IAIK's 60-bit prime at d = 16"},
                      RingCase{64, 1096486890805657601, "IAIK's 60-bit prime"}),
    [](const ::testing::TestParamInfo<RingCase>& i) {
      return "m" + std::to_string(i.param.m) + "_p" + std::to_string(i.param.p);
    });

TEST(PrimeSlotRing, TheHElibPastaRingHas32768SlotsOfF65537) {
  const ZmStar zm(65536, 65537);
  const PrimeSlotRing ring(zm);
  EXPECT_EQ(ring.d(), 1);
  EXPECT_EQ(ring.ell(), 32768);
  std::vector<PrimeSlotRing::Element> v(32768, PrimeSlotRing::Element(1));
  for (size_t s = 0; s < v.size(); ++s) v[s][0] = (s * s + 3) % 65537;
  EXPECT_EQ(ring.decode(ring.encode(v)), v);
}

TEST(PrimeSlotRing, RefusesWhatItDoesNotBuild) {
  const ZmStar two(15, 2);
  try {
    PrimeSlotRing r(two);
    FAIL() << "p = 2 accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("p=2"), std::string::npos) << e.what();
  }
  const ZmStar zm(11, 3);
  const PrimeSlotRing ring(zm);
  std::vector<PrimeSlotRing::Element> v(size_t(ring.ell()), PrimeSlotRing::Element(size_t(ring.d()), 0));
  v[0][0] = 3;
  EXPECT_THROW(ring.encode(v), ParameterError);
  v.pop_back();
  EXPECT_THROW(ring.encode(v), ParameterError);
  EXPECT_THROW(ring.decode({0, 1, 7}), ParameterError);
}

}  // namespace
}  // namespace cb
