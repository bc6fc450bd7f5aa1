// ctr_test: CTR mode of the block ciphers (harness.h's counter blocks, circuit.h's
// run_public): the counter-block encoding per field, AES-128's reference and circuit
// against OpenSSL's AES-128-CTR (EVP_aes_128_ctr, IV = nonce || counter, big-endian),
// every block cipher of the catalog in CTR mode on the clear backend against its
// reference on the counter blocks, and AES on BGV with the counter blocks added as
// constants (the planner's capacities beside the engine's).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdint>
#include <string>
#include <vector>

#include "backend/bgv_backend.h"
#include "backend/clear_backend.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "ciphers/catalog/test_cases.h"

namespace cb {
namespace {

using testing::InstanceCase;

const InstanceSpec& spec_of(const std::string& id) { return *find_instance_id(id).second; }
std::unique_ptr<CipherInstance> make(const std::string& id) {
  const auto [e, sp] = find_instance_id(id);
  return e->make(*sp);
}

// OpenSSL's AES-128-CTR keystream of `blocks` blocks: the encryption of zeros under
// IV = nonce (8 bytes, big-endian) || counter (8 bytes, big-endian).
std::vector<std::vector<uint8_t>> openssl_ctr(const std::vector<uint8_t>& key, uint64_t nonce, uint64_t counter,
                                              long blocks) {
  uint8_t iv[16];
  for (int i = 0; i < 8; ++i) iv[i] = uint8_t(nonce >> (56 - 8 * i)), iv[8 + i] = uint8_t(counter >> (56 - 8 * i));
  std::vector<uint8_t> zeros(size_t(16 * blocks), 0), out(zeros.size());
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  int len = 0;
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_aes_128_ctr(), nullptr, key.data(), iv), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &len, zeros.data(), int(zeros.size())), 1);
  EVP_CIPHER_CTX_free(ctx);
  EXPECT_EQ(len, int(out.size()));
  std::vector<std::vector<uint8_t>> ks;
  for (long j = 0; j < blocks; ++j) ks.emplace_back(out.begin() + 16 * j, out.begin() + 16 * (j + 1));
  return ks;
}

const std::vector<uint8_t> kKey = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                   0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};  // SP 800-38A F.5.1's key

TEST(CounterBlock, AesIsTheNistCounterBlock) {
  const auto aes = make("aes");
  const Elements c = counter_block(*aes, 0x0001020304050607ull, 0x08090a0b0c0d0e0full);
  Elements want;
  for (uint64_t i = 0; i < 16; ++i) want.push_back(i);
  EXPECT_EQ(c, want);
  EXPECT_EQ(aes->to_bytes(counter_block(*aes, 0, 1)), std::vector<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
}

TEST(CounterBlock, DigitsOfTheFieldBigEndian) {
  // Chaghri GF(2^63)^3: T = nonce 2^64 + counter in base 2^63, element 2 the lowest digit.
  const auto ch = make("chaghri");
  const uint64_t mask = (uint64_t(1) << 63) - 1;
  const Elements c = counter_block(*ch, 5, ~uint64_t(0));
  EXPECT_EQ(c, Elements({0, (5ull << 1) | 1, mask}));
  // MiMC over F_p, one element: T itself, below p.
  const auto mp = make("mimcp17");
  const uint64_t p = mp->spec().p;
  EXPECT_EQ(counter_block(*mp, 0, 12345), Elements({12345}));
  EXPECT_EQ(counter_block(*mp, 0, p - 1), Elements({p - 1}));
}

TEST(CounterBlock, RefusalsNameTheValues) {
  const auto mp = make("mimcp17");
  const uint64_t p = mp->spec().p;
  EXPECT_NE(ctr_refusal(*mp, 0, p - 3, 4).find(msg("--counter ", p - 3, " with 4 blocks")), std::string::npos);
  EXPECT_NE(ctr_refusal(*mp, 1, 0, 1).find("--nonce 1"), std::string::npos);
  EXPECT_THROW(counter_block(*mp, 0, p), ParameterError);
  const auto aes = make("aes");
  EXPECT_EQ(ctr_refusal(*aes, ~uint64_t(0), ~uint64_t(0) - 2, 3), "");
  EXPECT_EQ(ctr_refusal(*aes, 0, ~uint64_t(0) - 1, 3), msg("--counter ", ~uint64_t(0) - 1, " with 3 blocks: the counters pass 2^64 - 1"));
}

// The reference on the counter blocks is OpenSSL's AES-128-CTR keystream, across a byte
// carry and at the nonce's top.
TEST(AesCtr, ReferenceIsOpenSslAes128Ctr) {
  const auto aes = make("aes");
  const Elements key = aes->from_bytes(kKey, 16, "key");
  for (const auto& [nonce, counter] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 0}, {0xf0f1f2f3f4f5f6f7ull, 0xf8f9fafbfcfdfeffull - 3}, {0x0123456789abcdefull, 0xfe}, {~0ull, 7}}) {
    const auto ks = openssl_ctr(kKey, nonce, counter, 6);
    for (long j = 0; j < 6; ++j)
      EXPECT_EQ(aes->to_bytes(aes->encrypt(key, counter_block(*aes, nonce, counter + uint64_t(j)), 10)), ks[size_t(j)])
          << "nonce " << nonce << " counter " << counter << " block " << j;
  }
  // SP 800-38A F.5.1: CTR-AES128.Encrypt's first counter block and output block.
  const auto ks = openssl_ctr(kKey, 0xf0f1f2f3f4f5f6f7ull, 0xf8f9fafbfcfdfeffull, 1);
  EXPECT_EQ(ks[0], std::vector<uint8_t>({0xec, 0x8c, 0xdf, 0x73, 0x98, 0x60, 0x7c, 0xb0, 0xf2, 0xd2, 0x16, 0x75, 0xea,
                                         0x9e, 0xa1, 0xe4}));
}

// The circuit with public counter blocks, decrypted: the keystream blocks.
template <template <class> class Rep, class B>
std::vector<Elements> ctr_keystream(B& b, const CipherInstance& inst, long R, const Elements& key, uint64_t nonce,
                                    uint64_t counter, long blocks, double* capacity = nullptr) {
  CipherCircuit<B, Rep> circ(b, inst, R, false);
  b.require_automorphisms(circ.automorphisms());
  circ.load_subkeys(inst.subkeys(key, R));
  std::vector<Elements> ctrs;
  for (long j = 0; j < blocks; ++j) ctrs.push_back(counter_block(inst, nonce, counter + uint64_t(j)));
  const auto pub = circ.encode_public(ctrs);
  typename CipherCircuit<B, Rep>::State st;
  Evaluator<B> ev(b);
  const auto recs = circ.run_public(ev, pub, st);
  EXPECT_EQ(long(recs.size()), R);
  if (capacity) *capacity = circ.capacity(st);
  return circ.decrypt_output(st, blocks);
}

std::vector<std::vector<uint8_t>> as_bytes(const CipherInstance& inst, const std::vector<Elements>& v) {
  std::vector<std::vector<uint8_t>> out;
  for (const auto& x : v) out.push_back(inst.to_bytes(x));
  return out;
}

TEST(AesCtr, CircuitOnTheClearBackendIsOpenSsl) {
  const auto aes = make("aes");
  const auto& sp = aes->spec();
  const Elements key = aes->from_bytes(kKey, 16, "key");
  const uint64_t nonce = 0x1122334455667788ull, counter = 0xfffffffffffffff0ull;
  {  // sliced: 16 blocks at m = 257
    ClearBackend b(257, sp.n, sp.f_low);
    EXPECT_EQ(as_bytes(*aes, ctr_keystream<SlicedRep>(b, *aes, 10, key, nonce, counter, 16)),
              openssl_ctr(kKey, nonce, counter, 16));
  }
  {  // packed: 2 blocks at m = 771
    ClearBackend b(771, sp.n, sp.f_low);
    EXPECT_EQ(as_bytes(*aes, ctr_keystream<PackedRep>(b, *aes, 10, key, nonce, 5, 2)), openssl_ctr(kKey, nonce, 5, 2));
  }
  {  // bit-sliced: bits in the slots
    ClearBackend b(257, 1, 1);
    EXPECT_EQ(as_bytes(*aes, ctr_keystream<BitSlicedRep>(b, *aes, 10, key, 0, 0, 16)), openssl_ctr(kKey, 0, 0, 16));
  }
}

// Every block cipher of the catalog: CTR on the clear backend (sliced, all rounds) is the
// reference on the counter blocks.
class CtrEveryInstance : public ::testing::TestWithParam<InstanceCase> {};

TEST_P(CtrEveryInstance, KeystreamIsTheReferenceOnTheCounterBlocks) {
  const auto& [entry, sp] = GetParam();
  const auto inst = entry->make(sp);
  EXPECT_EQ(ctr_program_refusal(compile_program(*inst, sp.rounds, false, false)), "");
  const long blocks = 3;
  std::unique_ptr<ClearBackend> b;
  if (sp.p != 2) b = std::make_unique<ClearBackend>(testing::small_prime_ring(sp.p, blocks), PrimeField(sp.p));
  else b = std::make_unique<ClearBackend>(testing::small_ring(sp.n, blocks), sp.n, sp.f_low);
  const Workload w = make_workload(*inst, sp.rounds, 1, 11);
  const uint64_t nonce = counter_space(*inst) >> 64 ? 9 : 0, counter = 40;
  const auto got = ctr_keystream<SlicedRep>(*b, *inst, sp.rounds, w.key, nonce, counter, blocks);
  for (long j = 0; j < blocks; ++j)
    EXPECT_EQ(got[size_t(j)], inst->encrypt(w.key, counter_block(*inst, nonce, counter + uint64_t(j)), sp.rounds))
        << sp.id << " block " << j;
}

INSTANTIATE_TEST_SUITE_P(Catalog, CtrEveryInstance, ::testing::ValuesIn(testing::all_instances()), testing::case_name);

// AES packed on BGV at m = 771 (2 blocks), two rounds: the decrypted keystream is the
// reference's, and the planner's backend predicts the capacity left.
TEST(AesCtr, BgvTwoRoundsWithThePlannersCapacity) {
  const auto aes = make("aes");
  const auto& sp = aes->spec();
  const Elements key = aes->from_bytes(kKey, 16, "key");
  PlanBackend pb(PlanParams{771, 320, 3, 120, 7}, sp.n, sp.f_low);
  double planned = 0, got = 0;
  const auto clear = ctr_keystream<PackedRep>(pb, *aes, 2, key, 3, 100, 2, &planned);
  BgvParams p;
  p.m = 771, p.bits = 320, p.c = 3, p.hwt = 120, p.seed = 7;
  BgvBackend b(p, sp.n, sp.f_low);
  const auto ks = ctr_keystream<PackedRep>(b, *aes, 2, key, 3, 100, 2, &got);
  for (long j = 0; j < 2; ++j) {
    const Elements want = aes->encrypt(key, counter_block(*aes, 3, 100 + uint64_t(j)), 2);
    EXPECT_EQ(ks[size_t(j)], want) << "block " << j;
    EXPECT_EQ(clear[size_t(j)], want) << "block " << j;
  }
  EXPECT_GT(got, 0);
  EXPECT_NEAR(got, planned, 1e-6);
}

}  // namespace
}  // namespace cb
