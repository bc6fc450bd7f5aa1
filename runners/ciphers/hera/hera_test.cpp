// hera_test: HERA-5 against IAIK's known-answer tests (kat_hera5.json, every prime): the
// clear reference and the catalog program (eval_program on the block's material); the
// program's shape (check_program, check_entry) and its steps; the material as the
// reference draws it; refusals named (a key element >= p, a key of the wrong length, a p
// HERA's definition excludes).
#include "ciphers/hera/hera.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/keystream_spec.h"
#include "engine/errors.h"

namespace cb {

const CipherEntry& hera_entry();

namespace {

nlohmann::json kats() {
  std::ifstream in(std::string(CB_CIPHERS_DIR) + "/hera/kat_hera5.json");
  EXPECT_TRUE(in) << "kat_hera5.json";
  return nlohmann::json::parse(in);
}

const InstanceSpec& instance_at(uint64_t p) {
  for (const auto& s : hera_entry().instances)
    if (s.p == p) return s;
  throw Error(msg("no HERA instance at p=", p));
}

template <class F>
std::string message(F f) {
  try {
    f();
  } catch (const ParameterError& e) {
    return e.what();
  }
  return "no ParameterError";
}

struct KatCase {
  uint64_t p;
};
void PrintTo(const KatCase& c, std::ostream* os) { *os << "p=" << c.p; }

class HeraKat : public ::testing::TestWithParam<KatCase> {
 protected:
  nlohmann::json vec() const {
    const auto j = kats();
    for (const auto& v : j.at("vectors"))
      if (v.at("p").get<uint64_t>() == GetParam().p) return v;
    ADD_FAILURE() << "no KAT at p=" << GetParam().p;
    return {};
  }
  uint64_t nonce() const { return kats().at("nonce").get<uint64_t>(); }
  uint64_t counter() const { return kats().at("counter").get<uint64_t>(); }
};

TEST_P(HeraKat, ReferenceMatchesIaik) {
  const auto v = vec();
  const uint64_t p = GetParam().p;
  const Hera h(p);
  const auto key = v.at("key").get<Elements>(), pt = v.at("plaintext").get<Elements>(),
             ct = v.at("ciphertext").get<Elements>();
  const Elements ks = h.keystream(key, nonce(), counter());
  EXPECT_EQ(ks, v.at("keystream").get<Elements>());
  // IAIK's DEC test: ciphertext - keystream = plaintext.
  for (long j = 0; j < Hera::kN; ++j) EXPECT_EQ(h.field().sub(ct[j], ks[j]), pt[j]) << "element " << j;
}

TEST_P(HeraKat, ProgramMatchesIaik) {
  const auto v = vec();
  const auto ks = hera_entry().make_keystream(instance_at(GetParam().p));
  const Elements key = v.at("key").get<Elements>();
  const auto mat = ks->material(nonce(), counter());
  EXPECT_EQ(eval_program(*ks, key, mat), v.at("keystream").get<Elements>());
  EXPECT_EQ(ks->keystream(key, nonce(), counter()), v.at("keystream").get<Elements>());
}

TEST_P(HeraKat, ProgramMatchesReferenceOnOtherBlocks) {
  const auto v = vec();
  const auto ks = hera_entry().make_keystream(instance_at(GetParam().p));
  const Hera h(GetParam().p);
  Elements key = v.at("key").get<Elements>();
  for (uint64_t counter : {1ull, 2ull, 1000ull, ~0ull})
    for (uint64_t nonce : {0ull, 123456789ull, ~0ull}) {
      key[counter % 16] = h.field().add(key[counter % 16], 1);
      EXPECT_EQ(eval_program(*ks, key, ks->material(nonce, counter)), h.keystream(key, nonce, counter))
          << "nonce " << nonce << " counter " << counter;
    }
}

TEST_P(HeraKat, KeyElementAbovePIsRefused) {
  const uint64_t p = GetParam().p;
  const auto ks = hera_entry().make_keystream(instance_at(p));
  auto key = vec().at("key").get<Elements>();
  std::string text;
  for (long j = 0; j < 16; ++j) text += msg(j ? "," : "", j == 7 ? p : key[j]);
  const std::string m = message([&] { ks->parse(text, 16, "--key"); });
  EXPECT_NE(m.find("--key"), std::string::npos) << m;
  EXPECT_NE(m.find(msg("element 7 is ", p)), std::string::npos) << m;
  key[7] = p;
  EXPECT_EQ(message([&] { Hera(p).keystream(key, 0, 0); }),
            msg("HERA F_", p, ": key element 7 is ", p, ", not below p=", p));
}

INSTANTIATE_TEST_SUITE_P(Primes, HeraKat, ::testing::Values(KatCase{65537}, KatCase{8088322049ull},
                                                              KatCase{1096486890805657601ull}),
                         [](const auto& i) { return "p" + std::to_string(i.param.p); });

TEST(Hera, KatsCoverEveryInstance) {
  const auto j = kats();
  EXPECT_EQ(j.at("source").at("commit").get<std::string>(), "dafd7e73f6b874a2ece5a4a308ce6f863aa33d1b");
  std::set<uint64_t> kat_primes, inst_primes;
  for (const auto& v : j.at("vectors")) kat_primes.insert(v.at("p").get<uint64_t>());
  for (const auto& s : hera_entry().instances) inst_primes.insert(s.p);
  EXPECT_EQ(kat_primes, inst_primes);
  EXPECT_EQ(kat_primes.size(), 3u);
}

TEST(Hera, EntryAndProgramsAreWellFormed) {
  const auto& e = hera_entry();
  EXPECT_NO_THROW(check_entry(e));
  EXPECT_TRUE(e.keystream());
  std::vector<std::string> ids;
  for (const auto& s : e.instances) {
    ids.push_back(s.id);
    EXPECT_EQ(s.n, 1);
    EXPECT_EQ(s.f_low, 0u);
    EXPECT_EQ(s.s, 16);
    EXPECT_EQ(s.rounds, 5);
    EXPECT_EQ(s.key_elements, 16);
    const auto ks = e.make_keystream(s);
    EXPECT_EQ(ks->state_size(), 16);
    EXPECT_NO_THROW(check_program(*ks));
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"hera5p17", "hera5p33", "hera5p60"}));
}

// The program's rounds and steps, as the paper names them; 6 ARKs, 5 cubes.
TEST(Hera, ProgramSteps) {
  const auto ks = hera_entry().make_keystream(hera_entry().instances.front());
  const auto prog = ks->program();
  ASSERT_EQ(prog.size(), 5u);
  auto names = [](const KsRound& r) {
    std::vector<std::string> out;
    for (const auto& st : r) out.push_back(st.name);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(names(prog[0]), (V{"ic", "ark", "mixcolumns", "mixrows", "cube", "ark"}));
  for (int r = 1; r < 4; ++r) EXPECT_EQ(names(prog[r]), (V{"mixcolumns", "mixrows", "cube", "ark"})) << r;
  EXPECT_EQ(names(prog[4]), (V{"mixcolumns", "mixrows", "cube", "mixcolumns", "mixrows", "ark"}));
  long key_muls = 0, cubes = 0;
  for (const auto& r : prog)
    for (const auto& st : r)
      for (const auto& op : st.ops) {
        if (op.kind == KsOp::kKeyMul) {
          ++key_muls;
          EXPECT_EQ(op.size, 16);
        } else if (op.kind == KsOp::kPower) {
          ++cubes;
          EXPECT_EQ(op.e, 3u);
        } else if (op.kind == KsOp::kLinear) {
          EXPECT_EQ(op.L.size(), 64u);  // 4 blocks of 4 x 4
        }
      }
  EXPECT_EQ(key_muls, 6);
  EXPECT_EQ(cubes, 5);
}

// The material: ic as the one constant, rc_0 .. rc_5 as the reference draws them, per block.
TEST(Hera, MaterialIsTheReferencesDraw) {
  const Hera h(65537);
  const auto ks = hera_entry().make_keystream(hera_entry().instances.front());
  const auto m = ks->material(123456789, 0);
  EXPECT_TRUE(m.M.empty());
  ASSERT_EQ(m.c.size(), 1u);
  EXPECT_EQ(m.c[0], (Elements{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
  EXPECT_EQ(m.rc, h.round_constants(123456789, 0));
  ASSERT_EQ(m.rc.size(), 6u);
  for (const auto& r : m.rc) {
    ASSERT_EQ(r.size(), 16u);
    for (uint64_t v : r) EXPECT_LT(v, 65537u);
  }
  EXPECT_NE(ks->material(123456789, 1).rc, m.rc);
  EXPECT_NE(ks->material(123456790, 0).rc, m.rc);
  // With the zero key ARK adds nothing: the keystream is the public permutation of ic.
  const Elements zero(16, 0);
  EXPECT_EQ(eval_program(*ks, zero, m), h.keystream(zero, 5, 6));
}

TEST(Hera, RefusalsNameTheValue) {
  EXPECT_EQ(message([] { Hera h(65521); }),
            "HERA over F_65521: 3 divides p - 1 = 65520, so x^3 is not a permutation of F_65521 (HERA needs p = 2 mod 3)");
  EXPECT_EQ(message([] { Hera h(65535); }), "HERA over F_p: p=65535 is not an odd prime below 2^61");
  EXPECT_EQ(message([] { Hera h(2); }), "HERA over F_p: p=2 is not an odd prime below 2^61");
  EXPECT_EQ(message([] { Hera h(3); }), "HERA over F_3: x^3 = x on F_3, the cube is no S-box");
  EXPECT_EQ(message([] { Hera h(5); }), "HERA over F_5: circ(2, 3, 1, 1) has determinant -35, singular mod 5 "
                                        "(MixColumns and MixRows would not be invertible)");
  EXPECT_EQ(Hera::excluded(65537), "");
  EXPECT_EQ(Hera::excluded(11), "");  // allowed by the definition, only not an instance
  const Hera h(65537);
  EXPECT_EQ(message([&] { h.keystream(Elements(15, 0), 0, 0); }), "HERA F_65537: key has 15 elements, not 16");
  const auto ks = hera_entry().make_keystream(hera_entry().instances.front());
  EXPECT_NE(message([&] { ks->parse("1,2,3", 16, "--key"); }).find("--key 1,2,3 has 3 elements"), std::string::npos);
  // eval_program refuses a key of the wrong length and material of the wrong shape.
  EXPECT_THROW(eval_program(*ks, Elements(15, 0), ks->material(0, 0)), Error);
  auto mat = ks->material(0, 0);
  mat.rc.pop_back();
  EXPECT_THROW(eval_program(*ks, Elements(16, 0), mat), Error);
}

}  // namespace
}  // namespace cb
