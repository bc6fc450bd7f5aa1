// catalog_test: every entry of the catalog, in the clear. Its round description against its
// own reference (every round count up to 4 and the full cipher, encryption and, where
// offered, decryption), and its rounds on bits where it offers bit-sliced; the generic
// circuit on the clear slot backend in every packing it offers, fused and apart, against
// the reference; the registry's checks and messages; the power
// map compiler. An entry added to catalog.cpp is tested here without new test code.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "backend/clear_backend.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/harness.h"
#include "ciphers/catalog/power_map.h"
#include "ciphers/catalog/program.h"
#include "ciphers/catalog/test_cases.h"
#include "ciphers/common/inversion.h"

namespace cb {
namespace {

using testing::InstanceCase;

Elements random_elements(std::mt19937_64& rng, long count, long n) {
  Elements v(count);
  for (auto& x : v) x = n == 64 ? rng() : rng() & ((uint64_t(1) << n) - 1);
  return v;
}

class CatalogInstance : public ::testing::TestWithParam<InstanceCase> {};

TEST_P(CatalogInstance, DescriptionMatchesReference) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  const GF2n& F = inst->field();
  const bool dec = decrypt_refusal(*inst).empty();
  const bool on_elements = elements_refusal(*inst).empty();  // false: a Boolean cipher
  std::mt19937_64 rng(11);
  for (long R : {1L, 2L, 3L, 4L, c.spec.rounds}) {
    if (R > c.spec.rounds || !on_elements) continue;
    for (bool fused : {false, true}) {
      const auto enc = compile_program(*inst, R, false, fused);
      for (int t = 0; t < 3; ++t) {
        const Elements key = random_elements(rng, c.spec.key_elements, c.spec.n);
        const Elements pt = random_elements(rng, c.spec.s, c.spec.n);
        const auto sk = inst->subkeys(key, R);
        const Elements ct = inst->encrypt(key, pt, R);
        ASSERT_EQ(evaluate_clear(F, enc, sk, pt), ct) << "R=" << R << (fused ? " fused" : "");
        if (dec) {
          EXPECT_EQ(evaluate_clear(F, compile_program(*inst, R, true, fused), sk, ct), pt) << "R=" << R;
        }
      }
    }
  }
  if (!dec || !on_elements) {
    EXPECT_THROW(compile_program(*inst, 1, true, false), ParameterError);
  }
  // On bits (the bit-sliced packing), where the entry offers it: bit_round against the
  // same reference, and its inverse where each Boolean step declares one.
  if (!bits_refusal(*inst).empty()) return;
  const bool bit_dec = bits_refusal(*inst, true).empty();
  for (long R : {1L, 2L, c.spec.rounds}) {
    const auto enc = compile_program(*inst, R, false, false, true);
    for (int t = 0; t < 3; ++t) {
      const Elements key = random_elements(rng, c.spec.key_elements, c.spec.n);
      const Elements pt = random_elements(rng, c.spec.s, c.spec.n);
      const auto sk = inst->subkeys(key, R);
      const Elements ct = inst->encrypt(key, pt, R);
      ASSERT_EQ(evaluate_clear(F, enc, sk, pt), ct) << "bits R=" << R;
      if (bit_dec) {
        EXPECT_EQ(evaluate_clear(F, compile_program(*inst, R, true, false, true), sk, ct), pt) << "bits R=" << R;
      }
    }
  }
}

TEST_P(CatalogInstance, StepNamesAreTheDeclaredOnes) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  std::vector<std::string> declared;
  for (const Step& st : inst->round(1, c.spec.rounds)) {
    declared.push_back(st.name);
    if (!st.group.empty()) declared.push_back(st.group);
  }
  for (bool fused : {false, true}) {
    if (!elements_refusal(*inst).empty()) break;
    for (const auto& name : step_names(*inst, fused)) {
      // Fused names join two declared names with '+'.
      const auto plus = name.find('+');
      const std::string first = name.substr(0, plus);
      EXPECT_NE(std::find(declared.begin(), declared.end(), first), declared.end()) << name;
    }
  }
  if (!bits_refusal(*inst).empty()) return;
  std::vector<std::string> bit_declared;
  for (const Step& st : inst->bit_round(1, c.spec.rounds))
    if (std::find(bit_declared.begin(), bit_declared.end(), st.name) == bit_declared.end())
      bit_declared.push_back(st.name);
  EXPECT_EQ(step_names(*inst, false, false, true), bit_declared);
}

// The generic circuit on the clear backend: every block of a seeded workload, both
// packings, fused and apart, two rounds (and decryption where offered).
TEST_P(CatalogInstance, ClearCircuitMatchesReference) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  const long m = testing::small_ring(c.spec.n, c.spec.s);
  const long R = std::min(2L, c.spec.rounds);
  const bool dec = decrypt_refusal(*inst).empty();
  const bool on_elements = elements_refusal(*inst).empty();  // false: a Boolean cipher
  for (bool fused : {false, true})
    for (bool decrypt : {false, true}) {
      if ((decrypt && !dec) || !on_elements) continue;
      {
        ClearBackend b(m, c.spec.n, c.spec.f_low);
        CipherHarness<ClearBackend, PackedRep> h(b, *inst, R, decrypt, fused, 0, 5);
        h.load_keys();
        auto st = h.encrypt_inputs();
        Evaluator<ClearBackend> ev(b);
        const auto recs = h.circ.run(ev, st);
        EXPECT_EQ(long(recs.size()), R);
        EXPECT_EQ(h.decrypt_outputs(st), h.expected()) << "packed m=" << m << (fused ? " fused" : "")
                                                        << (decrypt ? " decrypt" : "");
      }
      {
        ClearBackend b(m, c.spec.n, c.spec.f_low);
        CipherHarness<ClearBackend, SlicedRep> h(b, *inst, R, decrypt, fused, std::min(3L, b.slot_count()), 5);
        h.load_keys();
        auto st = h.encrypt_inputs();
        Evaluator<ClearBackend> ev(b);
        h.circ.run(ev, st);
        EXPECT_EQ(h.decrypt_outputs(st), h.expected()) << "sliced m=" << m << (fused ? " fused" : "")
                                                        << (decrypt ? " decrypt" : "");
      }
    }
  // Bit-sliced, where offered: slots of GF(2) (any ring holds bits), every slot a block.
  if (!bits_refusal(*inst).empty()) return;
  for (bool decrypt : {false, true}) {
    if (decrypt && !bits_refusal(*inst, true).empty()) continue;
    ClearBackend b(m, 1, 1);
    CipherHarness<ClearBackend, BitSlicedRep> h(b, *inst, R, decrypt, false, 0, 5);
    EXPECT_EQ(h.blocks, b.slot_count());
    EXPECT_TRUE(h.autos.empty());
    h.load_keys();
    auto st = h.encrypt_inputs();
    EXPECT_EQ(long(st.size()), c.spec.s * c.spec.n);
    Evaluator<ClearBackend> ev(b);
    h.circ.run(ev, st);
    EXPECT_EQ(h.decrypt_outputs(st), h.expected()) << "bit-sliced m=" << m << (decrypt ? " decrypt" : "");
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogInstance, ::testing::ValuesIn(testing::all_instances()), testing::case_name);

// A Boolean cipher as an entry (test-only, not in the catalog): 8 elements of GF(2), rounds
// of key addition, a 4-bit S-box circuit on each half (a Boolean step on groups of 4
// elements) and a rotation of the 8 bits; its reference written on bytes. Only the
// bit-sliced packing runs it; the others are refused naming the step.
class ToyBoolean : public CipherInstance {
 public:
  using CipherInstance::CipherInstance;
  static uint8_t sbox4(uint8_t x) {  // y0 = x0 + x1 x2, y3 = x3 + x0 x1 (then y0), y1, y2 = x1, x2
    const uint8_t x0 = x & 1, x1 = (x >> 1) & 1, x2 = (x >> 2) & 1, x3 = (x >> 3) & 1;
    const uint8_t y0 = x0 ^ (x1 & x2), y3 = x3 ^ (y0 & x1);
    return uint8_t(y0 | x1 << 1 | x2 << 2 | y3 << 3);
  }
  Round round(long r, long) const override {
    static const auto c = std::make_shared<const BooleanCircuit>(
        parse_slp("toy", "Y0 = X1 x X2\nZ0 = X0 + Y0\nY3 = Z0 x X1\nZ3 = X3 + Y3\n", {"X0", "X1", "X2", "X3"},
                  {"Z0", "X1", "X2", "Z3"}));
    BlockMap rot;
    for (long i = 0; i < 8; ++i) rot.push_back({(i + 3) % 8, i, 1});
    Round st;
    st.push_back({"keyadd", {Op::add_key(r - 1)}});
    st.push_back({"sbox", {Op::boolean(c)}});
    st.push_back({"rotate", {Op::linear(rot)}});
    return st;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    return std::vector<Elements>(R, key);
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    uint8_t x = 0, k = 0;
    for (int i = 0; i < 8; ++i) x |= uint8_t(pt[i] << i), k |= uint8_t(key[i] << i);
    for (long r = 0; r < R; ++r) {
      x ^= k;
      x = uint8_t(sbox4(x & 15) | sbox4(x >> 4) << 4);
      x = uint8_t(x << 3 | x >> 5);
    }
    Elements out(8);
    for (int i = 0; i < 8; ++i) out[i] = (x >> i) & 1;
    return out;
  }
};

TEST(Catalog, BooleanCipherRunsBitSlicedOnly) {
  CipherEntry e;
  e.name = "toy", e.display = "Toy", e.description = "a Boolean test cipher", e.citation = "none";
  e.instances = {{"toy8", 1, 1, 8, 5, 8}};
  e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<ToyBoolean>(s); };
  ASSERT_NO_THROW(check_entry(e));
  EXPECT_EQ(packings(e), std::vector<std::string>{kBitSliced});
  try {
    packing_name(e, "packed");
    FAIL();
  } catch (const ParameterError& err) {
    EXPECT_STREQ(err.what(), "--packing packed: toy has bit-sliced (step sbox is a Boolean circuit on the elements' "
                             "bits: only the bit-sliced packing evaluates it)");
  }
  const auto inst = e.make(e.instances[0]);
  EXPECT_NE(bits_refusal(*inst, true).find("step sbox is the Boolean circuit toy, which declares no inverse"),
            std::string::npos)
      << bits_refusal(*inst, true);
  ClearBackend b(31, 1, 1);  // 6 slots of GF(2^5): 6 blocks
  CipherHarness<ClearBackend, BitSlicedRep> h(b, *inst, 5, false, false, 0, 3);
  h.load_keys();
  auto st = h.encrypt_inputs();
  ASSERT_EQ(st.size(), 8u);
  Evaluator<ClearBackend> ev(b);
  const auto recs = h.circ.run(ev, st);
  EXPECT_EQ(h.decrypt_outputs(st), h.expected());
  EXPECT_EQ(recs[0].counts.mul, 2 * 2);  // two ANDs per half
  EXPECT_THROW((CipherHarness<ClearBackend, SlicedRep>(b, *inst, 5, false, false, 0, 3)), ParameterError);
}

TEST(Catalog, UnknownCipherListsTheNames) {
  try {
    find_cipher("rijndael");
    FAIL();
  } catch (const ParameterError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("rijndael"), std::string::npos) << w;
    for (auto* c : cipher_catalog()) EXPECT_NE(w.find(c->name), std::string::npos) << w;
  }
}

TEST(Catalog, UnknownInstanceNamesTheInstances) {
  const CipherEntry& e = *cipher_catalog().front();
  try {
    find_instance(e, 3, 0);
    FAIL();
  } catch (const ParameterError& err) {
    const std::string w = err.what();
    EXPECT_NE(w.find("--field-bits 3"), std::string::npos) << w;
    EXPECT_NE(w.find(CipherEntry::instance_label(e.instances.front())), std::string::npos) << w;
  }
}

TEST(Catalog, EntryMissingAFieldIsRefusedByName) {
  const CipherEntry& good = *cipher_catalog().front();
  auto expect_refused = [&](CipherEntry e, const std::string& field) {
    try {
      check_entry(e);
      FAIL() << field;
    } catch (const ParameterError& err) {
      EXPECT_NE(std::string(err.what()).find(field), std::string::npos) << err.what();
    }
  };
  CipherEntry e = good;
  e.description.clear();
  expect_refused(e, "description");
  e = good, e.citation.clear();
  expect_refused(e, "citation");
  e = good, e.instances.clear();
  expect_refused(e, "instances");
  e = good, e.make = nullptr;
  expect_refused(e, "make");
  e = good, e.instances[0].rounds = 0;
  expect_refused(e, "rounds=0");
  e = good, e.instances[0].key_elements = 0;
  expect_refused(e, "key_elements=0");
  EXPECT_NO_THROW(check_entry(good));
}

TEST(Catalog, PackingNames) {
  for (auto* e : cipher_catalog()) {
    EXPECT_EQ(packing_name(*e, "packed"), "packed");
    EXPECT_EQ(packing_name(*e, "sliced"), e->sliced_name);
    EXPECT_EQ(packing_name(*e, "byte-sliced"), e->sliced_name);
    // bit-sliced: offered exactly when every instance runs on bits; refused naming why.
    std::string why;
    for (const auto& sp : e->instances)
      if (why.empty()) why = bits_refusal(*e->make(sp));
    const auto have = packings(*e);
    EXPECT_EQ(std::count(have.begin(), have.end(), kBitSliced), why.empty() ? 1 : 0) << e->name;
    if (why.empty()) {
      EXPECT_EQ(packing_name(*e, "bit-sliced"), kBitSliced);
      continue;
    }
    try {
      packing_name(*e, "bit-sliced");
      FAIL() << e->name;
    } catch (const ParameterError& err) {
      EXPECT_EQ(std::string(err.what()),
                "--packing bit-sliced: " + e->name + " has packed or " + e->sliced_name + " (" + why + ")");
      EXPECT_NE(why.find("has no Boolean form"), std::string::npos) << why;
    }
    EXPECT_THROW(packing_name(*e, "diagonal"), ParameterError);
  }
  // Some entry offers bit-sliced (AES, by its S-box circuit): the cases below are not empty.
  long bits = 0;
  for (auto* e : cipher_catalog()) bits += packings(*e).back() == kBitSliced;
  EXPECT_GE(bits, 1);
}

TEST(Catalog, IdsAndNamesAreUnique) {
  std::vector<std::string> seen;
  for (auto* e : cipher_catalog())
    for (auto& s : e->instances) {
      EXPECT_EQ(std::count(seen.begin(), seen.end(), s.id), 0) << s.id;
      seen.push_back(s.id);
      EXPECT_EQ(find_instance_id(s.id).second->id, s.id);
    }
  EXPECT_THROW(find_instance_id("nope"), ParameterError);
}

// Inversion compiles to inversion.h's chain: its products, depth and Frobenius powers.
TEST(PowerMap, InversionIsTheChainOfInversionH) {
  for (long n : {8L, 16L, 32L, 63L, 64L}) {
    const uint64_t e = n == 64 ? ~uint64_t(1) : (uint64_t(1) << n) - 2;
    const PowerProgram p = compile_power(e, n);
    const ChainCost c = chain_cost(n - 1);
    EXPECT_EQ(p.products(), c.mul) << n;
    EXPECT_EQ(p.depth, c.depth) << n;
    EXPECT_EQ(p.shift, 1) << n;
    auto js = inverse_frobenius_powers(n);
    js.erase(std::remove(js.begin(), js.end(), 1 % n), js.end());  // the final square, folded
    std::sort(js.begin(), js.end());
    js.erase(std::unique(js.begin(), js.end()), js.end());
    auto got = p.frobenius_powers();
    got.erase(std::remove(got.begin(), got.end(), 1 % n), got.end());
    EXPECT_EQ(got, js) << n;
  }
}

TEST(PowerMap, GoldAndCubeTakeOneProduct) {
  const PowerProgram gold = compile_power((uint64_t(1) << 32) + 1, 63);
  EXPECT_EQ(gold.products(), 1);
  EXPECT_EQ(gold.depth, 1);
  EXPECT_EQ(gold.shift, 0);
  const PowerProgram cube = compile_power(3, 63);
  EXPECT_EQ(cube.products(), 1);
  EXPECT_EQ(cube.depth, 1);
}

// Any exponent: the program on clear slots equals x^e.
TEST(PowerMap, ArbitraryExponentsOnClearSlots) {
  const GF2n F(8, 0x1b);
  ClearBackend b(257, 8, 0x1b);
  std::vector<long> ks;
  for (long j = 1; j < 16; ++j) ks.push_back(b.zmstar().power(2, j));
  b.require_automorphisms(ks);
  std::vector<uint64_t> v(b.slot_count());
  for (size_t i = 0; i < v.size(); ++i) v[i] = (37 * i + 5) % 256;
  const auto x = b.encrypt(v);
  for (uint64_t e : {1ULL, 2ULL, 3ULL, 7ULL, 11ULL, 127ULL, 128ULL, 170ULL, 201ULL, 254ULL}) {
    const PowerProgram p = compile_power(e, 8);
    Evaluator<ClearBackend> ev(b);
    auto y = evaluate_power(ev, p, x);
    ev.frobenius(y, p.shift);
    const auto got = b.decrypt(y);
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(got[i], F.pow(v[i], e)) << "e=" << e << " slot " << i;
  }
  EXPECT_THROW(compile_power(255, 8), ParameterError);
}

TEST(PowerMap, InverseExponents) {
  EXPECT_EQ(*inverse_exponent(254, 8), 254u);
  EXPECT_FALSE(inverse_exponent(3, 8));  // 3 | 255: x^3 is no permutation of GF(2^8)
  const uint64_t q = (uint64_t(1) << 63) - 1;
  const uint64_t i3 = *inverse_exponent(3, 63);
  EXPECT_EQ((unsigned __int128)i3 * 3 % q, 1u);
  const uint64_t i64 = *inverse_exponent(~uint64_t(1), 64);
  EXPECT_EQ(i64, ~uint64_t(1));
}

TEST(Program, AffineAndMapInverses) {
  const GF2n F(8, 0x1b);
  Linearized L{0x63, {0x05, 0x09, 0xf9, 0x25, 0xf4, 0x01, 0xb5, 0x8f}};  // AES's A
  const Linearized Li = inverse_affine(F, L);
  EXPECT_EQ(Li.c, 0x05u);
  for (uint64_t x = 0; x < 256; ++x) ASSERT_EQ(evaluate(F, Li, evaluate(F, L, x)), x);
  Linearized sing{0, std::vector<uint64_t>(8, 0)};
  sing.gamma[0] = 1, sing.gamma[1] = 1;  // x + x^2 kills GF(2)
  EXPECT_THROW(inverse_affine(F, sing), ParameterError);
  const BlockMap M{{0, 0, 2}, {0, 1, 3}, {1, 0, 1}, {1, 1, 1}};
  const BlockMap Mi = inverse_map(F, M, 2);
  std::vector<uint64_t> A(4, 0), B(4, 0);
  for (auto& t : M) A[t.out * 2 + t.in] = t.coeff;
  for (auto& t : Mi) B[t.out * 2 + t.in] = t.coeff;
  EXPECT_EQ(F.mul(A[0], B[0]) ^ F.mul(A[1], B[2]), 1u);
  EXPECT_EQ(F.mul(A[0], B[1]) ^ F.mul(A[1], B[3]), 0u);
}

}  // namespace
}  // namespace cb
