// pasta_test: Pasta-3 and Pasta-4 against IAIK's known-answer tests (kat_pasta3.json,
// kat_pasta4.json: every prime they publish), twice: the clear reference (pasta.h) and the
// entry's program run in the clear on the block's material (eval_program); the entry and
// every instance's program pass the catalog's checks; the material is what the program
// consumes (2(r + 1) matrices C^t and constants); the keystream circuit's matrices, made
// from their held row 0 as a layer runs, are material()'s, and its keystream the
// reference's on lanes run side by side; bad keys and primes refused by name.
#include "ciphers/pasta/pasta.h"

#include <gtest/gtest.h>

#include <omp.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "backend/clear_backend.h"
#include "backend/plan_backend.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/keystream_circuit.h"
#include "ciphers/catalog/keystream_spec.h"
#include "engine/errors.h"

namespace cb {

const CipherEntry& pasta_entry();

namespace {

nlohmann::json kat(const std::string& name) {
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/pasta/kat_" + name + ".json");
  if (!in) throw Error("no kat_" + name + ".json");
  return nlohmann::json::parse(in);
}

std::unique_ptr<KeystreamInstance> instance(long t, uint64_t p) {
  return pasta_entry().make_keystream(find_instance(pasta_entry(), 1, t, p));
}

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

class PastaKat : public ::testing::TestWithParam<std::string> {};

TEST_P(PastaKat, ReferenceAndProgramGiveIaikKeystream) {
  const auto j = kat(GetParam());
  const long t = j.at("t"), r = j.at("r");
  const uint64_t nonce = j.at("nonce"), counter = j.at("counter");
  std::vector<uint64_t> primes;
  for (const auto& v : j.at("vectors")) {
    const uint64_t p = v.at("p");
    primes.push_back(p);
    const auto ks = instance(t, p);
    EXPECT_EQ(ks->spec().rounds, r);
    const Elements key = v.at("key"), want = v.at("keystream");
    EXPECT_EQ(ks->keystream(key, nonce, counter), want) << GetParam() << " reference at p=" << p;
    EXPECT_EQ(eval_program(*ks, key, ks->material(nonce, counter)), want) << GetParam() << " program at p=" << p;
    // The text codec reads the key back.
    EXPECT_EQ(ks->parse(ks->format(key), 2 * t, "--key"), key);
  }
  EXPECT_EQ(primes, Pasta::primes());
}

INSTANTIATE_TEST_SUITE_P(Variants, PastaKat, ::testing::Values("pasta3", "pasta4"));

TEST(Pasta, EntryAndProgramsPassTheCatalogChecks) {
  const auto& e = pasta_entry();
  EXPECT_NO_THROW(check_entry(e));
  EXPECT_TRUE(e.keystream());
  ASSERT_EQ(e.instances.size(), 6u);
  EXPECT_EQ(e.instances.front().id, "pasta3p17");
  std::vector<std::string> ids;
  for (const auto& in : e.instances) {
    ids.push_back(in.id);
    const auto ks = e.make_keystream(in);
    EXPECT_NO_THROW(check_program(*ks)) << in.id;
    EXPECT_EQ(ks->state_size(), 2 * in.s);
    EXPECT_EQ(in.key_elements, 2 * in.s);
    EXPECT_EQ(long(ks->program().size()), in.rounds) << in.id;
  }
  const std::vector<std::string> want = {"pasta3p17", "pasta4p17", "pasta3p33", "pasta4p33", "pasta3p60", "pasta4p60"};
  EXPECT_EQ(ids, want);
  EXPECT_EQ(find_instance(e, 0, 32, 8088322049ull).id, "pasta4p33");
  EXPECT_EQ(find_instance(e, 0, 0, 1096486890805657601ull).id, "pasta3p60");
}

// Pasta-4 at p = 65537: the program's shape, op by op.
TEST(Pasta, ProgramShape) {
  const auto ks = instance(32, 65537);
  const auto prog = ks->program();
  long affine = 0, square_terms = 0, cubes = 0;
  std::vector<std::string> names;
  for (const auto& round : prog)
    for (const auto& st : round) {
      names.push_back(st.name);
      for (const auto& op : st.ops) {
        if (op.kind == KsOp::kAffine) {
          EXPECT_TRUE(op.matrix);
          EXPECT_EQ(op.size, 32);
          EXPECT_EQ(op.offset, affine % 2 ? 32 : 0);  // left half, then right half
          ++affine;
        }
        if (op.kind == KsOp::kQuadratic) {
          EXPECT_TRUE(op.L.empty());
          for (const auto& q : op.Q) {
            EXPECT_EQ(q.a, q.out - 1);
            EXPECT_EQ(q.b, q.a);
            EXPECT_NE(q.out, 0);
            EXPECT_NE(q.out, 32);  // each half's x_0 unchanged
          }
          square_terms += long(op.Q.size());
        }
        if (op.kind == KsOp::kPower) {
          EXPECT_EQ(op.e, 3u);
          ++cubes;
        }
      }
    }
  EXPECT_EQ(affine, 2 * 5);             // r + 1 = 5 layers, two halves each
  EXPECT_EQ(square_terms, 3 * 2 * 31);  // r - 1 = 3 Feistel layers
  EXPECT_EQ(cubes, 1);
  const std::vector<std::string> steps = {"addkey", "affine", "mix", "sbox", "affine", "mix", "sbox", "affine",
                                          "mix",    "sbox",   "affine", "mix", "sbox", "affine", "mix"};
  EXPECT_EQ(names, steps);
  const auto& last = prog.back().back().ops.back();
  EXPECT_EQ(last.kind, KsOp::kTruncate);
  EXPECT_EQ(last.size, 32);
}

// The material: 2(r + 1) matrices and constants; each matrix is C^t for the companion
// matrix C of its first row (all nonzero), computed here by t matrix products.
TEST(Pasta, MaterialIsSequentialMatrices) {
  const auto ks = instance(32, 8088322049ull);
  const auto& F = ks->element_field();
  const auto m = ks->material(7, 3);
  ASSERT_EQ(m.M.size(), 10u);
  ASSERT_EQ(m.c.size(), 10u);
  EXPECT_TRUE(m.rc.empty());
  for (const auto& M : m.M) {
    const long t = 32;
    ASSERT_EQ(long(M.size()), t);
    for (uint64_t a : M[0]) EXPECT_NE(a, 0u);
    std::vector<Elements> C(t, Elements(t, 0)), P(t, Elements(t, 0));
    for (long i = 0; i + 1 < t; ++i) C[i][i + 1] = 1;
    C[t - 1] = M[0];
    for (long i = 0; i < t; ++i) P[i][i] = 1;
    for (long k = 0; k < t; ++k) {  // P <- P C
      std::vector<Elements> Q(t, Elements(t, 0));
      for (long i = 0; i < t; ++i)
        for (long l = 0; l < t; ++l)
          if (P[i][l])
            for (long j = 0; j < t; ++j) Q[i][j] = F.add(Q[i][j], F.mul(P[i][l], C[l][j]));
      P = Q;
    }
    EXPECT_EQ(M, P);
  }
  for (const auto& c : m.c)
    for (uint64_t x : c) EXPECT_LT(x, 8088322049ull);
  // Another block, other material; the same block, the same.
  EXPECT_NE(ks->material(7, 4).c, m.c);
  EXPECT_EQ(ks->material(7, 3).M, m.M);
}

// The compact material (each matrix as its row a) expands to material(); the circuit holds
// the compact form over the blocks and makes each layer's rows as it runs: the rows it makes
// (matrix_slots) are material()'s, block by block, and its keystream on the planner's
// backend, lanes on three threads asking for rows out of order, is the reference's.
TEST(Pasta, StreamedMatricesAreTheHeldMaterial) {
  const auto ks = instance(32, 65537);
  const auto compact = ks->compact_material(9, 40);
  ASSERT_EQ(compact.M.size(), 10u);
  for (const auto& M : compact.M) ASSERT_EQ(M.size(), 1u);
  const auto full = ks->material(9, 40);
  EXPECT_EQ(expand_material(*ks, compact).M, full.M);
  EXPECT_EQ(compact.c, full.c);
  auto short_one = compact;
  short_one.M[3][0].pop_back();
  EXPECT_THROW(expand_material(*ks, short_one), Error);

  const long blocks = 5;
  ClearBackend cb(128, PrimeField(65537));  // 64 slots of F_65537
  KeystreamCircuit<ClearBackend> circ(cb, *ks, blocks);
  circ.set_blocks(9, 40);
  std::vector<KsMaterial> per;
  for (long b = 0; b < blocks; ++b) per.push_back(ks->material(9, 40 + uint64_t(b)));
  for (size_t k = 0; k < full.M.size(); ++k) {
    const auto slots = circ.matrix_slots(k);
    ASSERT_EQ(slots.size(), 32u * 32u) << k;
    for (long b = 0; b < blocks; ++b)
      for (size_t i = 0; i < 32; ++i)
        for (size_t j = 0; j < 32; ++j)
          ASSERT_EQ(slots[i * 32 + j][size_t(b)], per[size_t(b)].M[k][i][j]) << "matrix " << k << " block " << b;
  }

  const int threads = omp_get_max_threads();
  omp_set_num_threads(3);
  PlanBackend pb(PlanParams{128, 1000, 3, 64, 1}, PrimeField(65537));
  KeystreamCircuit<PlanBackend> pc(pb, *ks, blocks);
  pc.set_blocks(9, 40);
  Elements key(64);
  for (size_t i = 0; i < key.size(); ++i) key[i] = (1000 * i + 17) % 65537;
  Evaluator<PlanBackend> ev(pb);
  const auto out = pc.decrypt(pc.run(ev, pc.encrypt_key(key)));
  omp_set_num_threads(threads);
  for (long b = 0; b < blocks; ++b) EXPECT_EQ(out[size_t(b)], ks->keystream(key, 9, 40 + uint64_t(b))) << "block " << b;
}

TEST(Pasta, BadKeysAndPrimesAreRefused) {
  const auto ks = instance(32, 65537);
  std::string text = "1,2,3,4,5,65537";
  for (int i = 6; i < 64; ++i) text += ",0";
  try {
    ks->parse(text, 64, "--key");
    FAIL() << "a key element >= p was taken";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("element 5 is 65537, not below p=65537"), std::string::npos) << e.what();
  }
  EXPECT_NE(error_of([&] { ks->parse("1,2,3", 64, "--key"); }).find("has 3 elements"), std::string::npos);
  Elements key(64, 1);
  key[9] = 70000;
  EXPECT_NE(error_of([&] { ks->keystream(key, 0, 0); }).find("key element 9 is 70000, not below p=65537"),
            std::string::npos);
  EXPECT_NE(error_of([&] { ks->keystream(Elements(63, 0), 0, 0); }).find("key of 63 elements"), std::string::npos);
  EXPECT_THROW(eval_program(*ks, Elements(63, 0), ks->material(0, 0)), Error);
  // The material must match the program: one matrix short.
  auto m = ks->material(0, 0);
  m.M.pop_back();
  EXPECT_THROW(eval_program(*ks, Elements(64, 0), m), Error);
  // p = 7681 = 1 mod 3: the cube is not a permutation.
  EXPECT_NE(error_of([&] { find_instance(pasta_entry(), 0, 32, 7681); }).find("3 divides p - 1"), std::string::npos);
  EXPECT_THROW(Pasta(32, 4, 7681), ParameterError);
  EXPECT_NE(error_of([&] { find_instance(pasta_entry(), 0, 64, 65537); }).find("has no instance"), std::string::npos);
}

}  // namespace
}  // namespace cb
