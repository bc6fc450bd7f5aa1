// catalog_test: every entry of the catalog, in the clear. Its round description against its
// own reference (every round count up to 4 and the full cipher, encryption and, where
// offered, decryption), and its rounds on bits where it offers bit-sliced; the generic
// circuit on the clear slot backend in every packing it offers, fused and apart, against
// the reference; the registry's checks and messages; the power
// map compiler. An entry added to the registry is tested here without new test code, its
// F_p instances (p > 2) included: those on the clear backend over F_p. A test-only F_p
// cipher with an affine map and a linear layer checks what MiMC does not use (the
// inverses over F_p, decryption by negated subkeys, the sliced layer at p).
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

Elements random_elements(std::mt19937_64& rng, long count, const CipherField& F) {
  Elements v(count);
  const long n = F.n();
  for (auto& x : v) x = F.is_prime() ? rng() % F.p() : n == 64 ? rng() : rng() & ((uint64_t(1) << n) - 1);
  return v;
}

// The clear backend whose slots hold the instance's field: GF(2^n) on the smallest odd
// ring with s slots, F_p on the smallest ring with 2 s (two blocks packed).
ClearBackend clear_backend_for(const InstanceSpec& sp) {
  if (sp.p != 2) return ClearBackend(testing::small_prime_ring(sp.p, 2 * sp.s), PrimeField(sp.p));
  return ClearBackend(testing::small_ring(sp.n, sp.s), sp.n, sp.f_low);
}

class CatalogInstance : public ::testing::TestWithParam<InstanceCase> {};

TEST_P(CatalogInstance, DescriptionMatchesReference) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  const CipherField& F = inst->element_field();
  const bool dec = decrypt_refusal(*inst).empty();
  const bool on_elements = elements_refusal(*inst).empty();  // false: a Boolean cipher
  std::mt19937_64 rng(11);
  for (long R : {1L, 2L, 3L, 4L, c.spec.rounds}) {
    if (R > c.spec.rounds || !on_elements) continue;
    for (bool fused : {false, true}) {
      const auto enc = compile_program(*inst, R, false, fused);
      for (int t = 0; t < 3; ++t) {
        const Elements key = random_elements(rng, c.spec.key_elements, F);
        const Elements pt = random_elements(rng, c.spec.s, F);
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
      const Elements key = random_elements(rng, c.spec.key_elements, F);
      const Elements pt = random_elements(rng, c.spec.s, F);
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
  const long m = clear_backend_for(c.spec).info().m;
  const long R = std::min(2L, c.spec.rounds);
  const bool dec = decrypt_refusal(*inst).empty();
  const bool on_elements = elements_refusal(*inst).empty();  // false: a Boolean cipher
  for (bool fused : {false, true})
    for (bool decrypt : {false, true}) {
      if ((decrypt && !dec) || !on_elements) continue;
      {
        ClearBackend b = clear_backend_for(c.spec);
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
        ClearBackend b = clear_backend_for(c.spec);
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
    if (e->keystream()) {  // one block per slot only (keystream_circuit.h)
      EXPECT_EQ(packings(*e), std::vector<std::string>{e->sliced_name}) << e->name;
      EXPECT_THROW(packing_name(*e, "packed"), ParameterError);
      continue;
    }
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
  for (auto* e : cipher_catalog()) bits += !e->keystream() && packings(*e).back() == kBitSliced;
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

// ---- Prime fields ----

// A test-only cipher over F_257 (257 = 2 mod 3): 3 elements, rounds of key addition, the
// inversion x^(p-2) (its own inverse, so decryption is offered), an affine map 3 x + 5 and
// a 3 x 3 linear layer, then a final key addition; its reference written apart with plain
// modular arithmetic. It checks over F_p what MiMC does not use: affine maps and linear
// layers, their inverses, and decryption (subtracting the subkeys).
class ToyPrime : public CipherInstance {
 public:
  using CipherInstance::CipherInstance;
  static constexpr uint64_t kP = 257;
  static const BlockMap& mix() {
    static const BlockMap M = {{0, 0, 2}, {0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {1, 1, 2},
                               {1, 2, 1}, {2, 0, 1}, {2, 1, 1}, {2, 2, 3}};
    return M;
  }
  Round round(long r, long R) const override {
    Linearized L;
    L.gamma = {3}, L.c = 5;
    Round st{{"keyadd", {Op::add_key(r - 1)}},
             {"inverse", {Op::power(kP - 2)}},
             {"affine", {Op::affine(L)}},
             {"mix", {Op::linear(mix())}}};
    if (r == R) st.push_back({"keyadd", {Op::add_key(R)}});
    return st;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    std::vector<Elements> out;
    for (long i = 0; i <= R; ++i) out.push_back({(key[0] + i) % kP, (key[1] + 2 * i) % kP, (key[2] + 3 * i) % kP});
    return out;
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    auto pw = [](uint64_t x, uint64_t e) {
      uint64_t y = 1;
      while (e--) y = y * x % kP;
      return y;
    };
    const auto sk = subkeys(key, R);
    Elements x = pt;
    for (long r = 0; r < R; ++r) {
      for (int i = 0; i < 3; ++i) x[i] = (3 * pw((x[i] + sk[r][i]) % kP, kP - 2) + 5) % kP;
      x = {(2 * x[0] + x[1] + x[2]) % kP, (x[0] + 2 * x[1] + x[2]) % kP, (x[0] + x[1] + 3 * x[2]) % kP};
    }
    for (int i = 0; i < 3; ++i) x[i] = (x[i] + sk[R][i]) % kP;
    return x;
  }
};

CipherEntry toy_prime_entry() {
  CipherEntry e;
  e.name = "toyp", e.display = "ToyP", e.description = "an F_p test cipher", e.citation = "none";
  e.instances = {{"toyp257", 1, 0, 3, 4, 3, ToyPrime::kP}};
  e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<ToyPrime>(s); };
  return e;
}

TEST(PrimeField, ToyCipherInTheClearAndOnTheClearBackend) {
  const CipherEntry e = toy_prime_entry();
  ASSERT_NO_THROW(check_entry(e));
  EXPECT_EQ(packings(e), (std::vector<std::string>{"packed", "sliced"}));
  const auto inst = e.make(e.instances[0]);
  const CipherField& F = inst->element_field();
  EXPECT_EQ(decrypt_refusal(*inst), "");
  std::mt19937_64 rng(3);
  for (long R = 1; R <= 4; ++R)
    for (int t = 0; t < 4; ++t) {
      const Elements key = random_elements(rng, 3, F), pt = random_elements(rng, 3, F);
      const auto sk = inst->subkeys(key, R);
      const Elements ct = inst->encrypt(key, pt, R);
      ASSERT_EQ(evaluate_clear(F, compile_program(*inst, R, false, false), sk, pt), ct) << "R=" << R;
      const auto dec = compile_program(*inst, R, true, false);
      EXPECT_TRUE(dec.subtract_keys);
      ASSERT_EQ(evaluate_clear(F, dec, sk, ct), pt) << "R=" << R;
    }
  // Sliced on the clear backend over F_257, both directions: the affine map as a constant
  // product and addition, the layer as constant products, decryption by negated subkeys.
  ClearBackend b(testing::small_prime_ring(ToyPrime::kP, 4), PrimeField(ToyPrime::kP));
  for (bool decrypt : {false, true}) {
    CipherHarness<ClearBackend, SlicedRep> h(b, *inst, 3, decrypt, false, 0, 9);
    EXPECT_TRUE(h.autos.empty());
    h.load_keys();
    auto st = h.encrypt_inputs();
    Evaluator<ClearBackend> ev(b);
    const auto recs = h.circ.run(ev, st);
    EXPECT_EQ(h.decrypt_outputs(st), h.expected()) << (decrypt ? "decrypt" : "encrypt");
    EXPECT_EQ(recs[0].counts.automorph, 0);
    if (!decrypt) {
      EXPECT_EQ(recs[0].counts.mul_plain, 3 + 3);  // 3 x a, and the layer's 3 coefficients != 1
    }
  }
  // Packed, its layer's slot map is planned over GF(2^n) only; fused is refused at p.
  try {
    CipherHarness<ClearBackend, PackedRep> h(b, *inst, 1, false, false, 0, 9);
    FAIL();
  } catch (const ParameterError& err) {
    EXPECT_STREQ(err.what(), "packed over F_257: a linear layer across the slots is planned over GF(2^n) only for "
                             "now (slot_map.h): use --packing sliced");
  }
  try {
    CipherHarness<ClearBackend, SlicedRep> h(b, *inst, 1, false, true, 0, 9);
    FAIL();
  } catch (const ParameterError& err) {
    EXPECT_STREQ(err.what(), "toyp257 over F_257: --linear fused is not offered over F_p yet (use --linear separate)");
  }
  // No bits to slice.
  EXPECT_EQ(bits_refusal(*inst), "toyp257 is over F_257: its elements have no bits to slice (the bit-sliced packing "
                                 "runs GF(2^n) instances)");
}

TEST(PrimeField, AffineAndMapInverses) {
  const CipherField F{PrimeField(65537)};
  Linearized L;
  L.gamma = {12345}, L.c = 999;
  const Linearized Li = inverse_affine(F, L);
  for (uint64_t x : {0ull, 1ull, 2ull, 65536ull, 40000ull}) ASSERT_EQ(evaluate_affine(F, Li, evaluate_affine(F, L, x)), x);
  Linearized sing;
  sing.gamma = {0}, sing.c = 1;
  EXPECT_THROW(inverse_affine(F, sing), ParameterError);
  const BlockMap M{{0, 0, 2}, {0, 1, 3}, {1, 0, 1}, {1, 1, 65536}};  // [[2, 3], [1, -1]]: det = -5
  const BlockMap Mi = inverse_map(F, M, 2);
  std::vector<uint64_t> A(4, 0), B(4, 0);
  for (auto& t : M) A[t.out * 2 + t.in] = t.coeff;
  for (auto& t : Mi) B[t.out * 2 + t.in] = t.coeff;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c)
      EXPECT_EQ(F.add(F.mul(A[r * 2], B[c]), F.mul(A[r * 2 + 1], B[2 + c])), r == c ? 1u : 0u) << r << c;
  EXPECT_THROW(inverse_map(F, BlockMap{{0, 0, 1}, {0, 1, 2}, {1, 0, 2}, {1, 1, 4}}, 2), ParameterError);  // rank 1
}

// Over F_p a power map is squares and products: x^3 one square and one product, depth 2.
TEST(PowerMap, PrimeFieldCubeIsASquareAndAProduct) {
  const PowerProgram cube = compile_power_prime(3, 65537);
  EXPECT_EQ(cube.products(), 2);
  EXPECT_EQ(cube.depth, 2);
  EXPECT_EQ(cube.shift, 0);
  EXPECT_TRUE(cube.frobenius_powers().empty());
  ASSERT_EQ(cube.instrs.size(), 2u);
  EXPECT_EQ(cube.instrs[0].a, cube.instrs[0].b);  // the square
  EXPECT_NE(cube.instrs[1].a, cube.instrs[1].b);  // the product
  const PowerProgram five = compile_power_prime(5, 65537);
  EXPECT_EQ(five.products(), 3);
  EXPECT_EQ(five.depth, 3);
  const PowerProgram seven = compile_power_prime(7, 65537);  // x^4 (x^2 x): depth 3, not 4
  EXPECT_EQ(seven.depth, 3);
  EXPECT_THROW(compile_power_prime(65536, 65537), ParameterError);  // e = 0 mod p - 1
  EXPECT_EQ(*inverse_exponent_prime(3, 65537), 43691u);
  EXPECT_FALSE(inverse_exponent_prime(3, 65521));  // 3 | 65520
  EXPECT_EQ(*inverse_exponent_prime(65535, 65537), 65535u);  // x^(p-2) is its own inverse
}

TEST(PowerMap, PrimeFieldExponentsOnClearSlots) {
  for (uint64_t p : std::vector<uint64_t>{257, 65537, 8088322049ull, 1096486890805657601ull}) {
    const PrimeField F(p);
    ClearBackend b(testing::small_prime_ring(p, 8), F);
    std::vector<uint64_t> v(b.slot_count());
    for (size_t i = 0; i < v.size(); ++i) v[i] = (uint64_t(0x9e3779b97f4a7c15ull) * (i + 1)) % p;
    const auto x = b.encrypt(v);
    for (uint64_t e : std::vector<uint64_t>{1, 2, 3, 5, 7, 11, 127, 128, 201, p - 2, p + 1}) {
      const PowerProgram pr = compile_power_prime(e, p);
      Evaluator<ClearBackend> ev(b);
      const auto y = evaluate_power(ev, pr, x);
      EXPECT_EQ(b.depth(y), pr.depth) << "p=" << p << " e=" << e;
      EXPECT_EQ(ev.counts().mul, pr.products()) << "p=" << p << " e=" << e;
      const auto got = b.decrypt(y);
      for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(got[i], F.pow(v[i], e)) << "p=" << p << " e=" << e << " slot " << i;
    }
  }
}

// Every F_p instance of the catalog: its power maps are products only (no automorphism
// key), and a round of x^3 costs two multiplications on the clear backend (the circuit
// counts squares as products).
class PrimeCatalogInstance : public ::testing::TestWithParam<InstanceCase> {};

std::vector<InstanceCase> prime_instances() {
  std::vector<InstanceCase> out;
  for (const auto& c : testing::all_instances())
    if (c.spec.p != 2) out.push_back(c);
  return out;
}

TEST_P(PrimeCatalogInstance, RunsWithoutAutomorphisms) {
  const auto& c = GetParam();
  const auto inst = c.entry->make(c.spec);
  ClearBackend b = clear_backend_for(c.spec);
  CipherHarness<ClearBackend, PackedRep> h(b, *inst, c.spec.rounds, false, false, 0, 1);
  EXPECT_TRUE(h.autos.empty());
  h.load_keys();
  auto st = h.encrypt_inputs();
  Evaluator<ClearBackend> ev(b);
  const auto recs = h.circ.run(ev, st);
  EXPECT_EQ(h.decrypt_outputs(st), h.expected());
  long products = 0;
  for (const Step& s : inst->round(1, c.spec.rounds))
    for (const Op& op : s.ops)
      if (op.kind == Op::kPower) products += compile_power_prime(op.e, c.spec.p).products();
  EXPECT_EQ(recs[0].counts.mul, products * long(st.size()));
  EXPECT_EQ(b.op_counts().automorph, 0);
}

INSTANTIATE_TEST_SUITE_P(Catalog, PrimeCatalogInstance, ::testing::ValuesIn(prime_instances()), testing::case_name);

TEST(Catalog, PrimeFieldEntriesAreChecked) {
  auto expect_refused = [](CipherEntry e, const std::string& message) {
    try {
      check_entry(e);
      FAIL() << message;
    } catch (const ParameterError& err) {
      EXPECT_NE(std::string(err.what()).find(message), std::string::npos) << err.what();
    }
  };
  CipherEntry e = toy_prime_entry();
  e.instances[0].p = 255;
  expect_refused(e, "p=255: the characteristic is 2 (GF(2^n)) or an odd prime below 2^61");
  e = toy_prime_entry(), e.instances[0].n = 2;
  expect_refused(e, "n=2 with p=257: prime-field instances are F_p, n = 1");
  e = toy_prime_entry(), e.instances[0].f_low = 3;
  expect_refused(e, "f_low=0x3 with p=257: F_p has no field polynomial");
  e = toy_prime_entry(), e.instances.push_back(e.instances[0]);
  e.instances[1].id = "toyp257b";
  expect_refused(e, "p=257, s=3 is declared twice (instances are told apart by p, n and s)");
}

TEST(Catalog, FindInstanceByPrime) {
  const CipherEntry& mimc = find_cipher("mimc");
  for (const auto& sp : mimc.instances) {
    if (sp.p == 2) continue;
    EXPECT_EQ(find_instance(mimc, 0, 0, sp.p).id, sp.id);
  }
  EXPECT_EQ(find_instance(mimc, 0, 0, 2).id, mimc.instances.front().id);  // p = 2: GF(2^n) as before
  auto message = [&](long n, uint64_t p) {
    try {
      find_instance(mimc, n, 0, p);
    } catch (const ParameterError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(0, 7), "MiMC over F_7: 3 divides p - 1 = 6, so x^3 is not a permutation of F_7 (MiMC over F_p "
                           "needs p = 2 mod 3)");
  EXPECT_EQ(message(0, 65521), "MiMC over F_65521: 3 divides p - 1 = 65520, so x^3 is not a permutation of F_65521 "
                               "(MiMC over F_p needs p = 2 mod 3)");
  EXPECT_EQ(message(0, 91), "--p 91: the characteristic is 2 (GF(2^n)) or an odd prime below 2^61");
  EXPECT_EQ(message(8, 65537), "--field-bits 8 with --p 65537: prime-field instances are F_p (degree 1)");
  EXPECT_EQ(message(0, 11).rfind("mimc has no instance with --p 11: it has GF(2^63)^1, GF(2^31)^1, F_65537^1", 0), 0u)
      << message(0, 11);
  // --field-bits alone never finds an F_p instance (n = 1 is GF(2)'s).
  EXPECT_THROW(find_instance(mimc, 1, 0), ParameterError);
}

TEST(Catalog, PrimeFieldTextCodec) {
  const auto [e, sp] = find_instance_id("mimcp17");
  const auto inst = e->make(*sp);
  EXPECT_EQ(inst->parse("65536", 1, "--key"), Elements{65536});
  EXPECT_EQ(inst->format({53444}), "53444");
  EXPECT_EQ(inst->element_bytes(), 3);
  EXPECT_EQ(inst->from_bytes(inst->to_bytes({65536}), 1, "x"), Elements{65536});
  auto message = [&](const std::string& text) {
    try {
      inst->parse(text, 1, "--key");
    } catch (const ParameterError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("65537"), "--key 65537: element 0 is 65537, not below p=65537 (F_65537 elements are 0..65536)");
  EXPECT_EQ(message("1,2"), "--key 1,2 has 2 elements: mimcp17 needs 1 (of F_65537, comma-separated)");
  EXPECT_EQ(message("0x10"), "--key 0x10: element 0 '0x10' is not a decimal number (F_65537 elements are written "
                             "0..65536, comma-separated)");
  EXPECT_EQ(message(""), "--key : element 0 '' is not a decimal number (F_65537 elements are written 0..65536, "
                         "comma-separated)");
  EXPECT_EQ(message("-1"), "--key -1: element 0 '-1' is not a decimal number (F_65537 elements are written 0..65536, "
                           "comma-separated)");
  EXPECT_EQ(message("99999999999999999999"), "--key 99999999999999999999: element 0 '99999999999999999999' is not a "
                                             "decimal number (F_65537 elements are written 0..65536, comma-separated)");
  try {
    inst->from_bytes({0x01, 0x00, 0x01}, 1, "--key");
    FAIL();
  } catch (const ParameterError& err) {
    EXPECT_STREQ(err.what(), "--key: element 0 is 65537, not below p=65537 (F_65537 elements are 0..65536)");
  }
  EXPECT_EQ(CipherEntry::instance_label(*sp), "F_65537^1");
  EXPECT_EQ(e->display_instance(*sp), "MiMC F_65537");
}

}  // namespace
}  // namespace cb
