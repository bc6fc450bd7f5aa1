// aes_circuit_test: the AES-128 circuits (packed, byte-sliced and bit-sliced, encryption
// and decryption) on the clear backend against the FIPS-197 vectors, every round state of
// reduced-round runs, and the plaintext reference on extra random blocks. The clear
// backend refuses automorphisms whose keys were not requested, so these runs also check
// that automorphisms() lists everything the circuit uses.
#include "ciphers/aes128/aes_test_circuit.h"

#include <gtest/gtest.h>

#include <random>

#include "backend/clear_backend.h"
#include "ciphers/common/test_vectors.h"
#include "engine/errors.h"

namespace cb {
namespace {

struct Case {
  long m;
  bool sliced;
  long rounds;
  bool decrypt;
  bool fused = false;  // the S-box's affine map with the linear layer (slot_linear.h)
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << "m=" << c.m << (c.sliced ? " byte-sliced" : " packed") << " rounds=" << c.rounds
      << (c.decrypt ? " decrypt" : " encrypt") << (c.fused ? " fused" : "");
}

aes128::Block block(const std::vector<uint64_t>& v) {
  aes128::Block b;
  for (int i = 0; i < 16; ++i) b[i] = uint8_t(v.at(i));
  return b;
}

template <template <class> class Rep>
void check_case(const Case& c) {
  ClearBackend b(c.m, 8, aes128::kModulusLow);
  AesCircuit<ClearBackend, Rep> circ(b, c.rounds, c.decrypt, c.fused);
  ASSERT_EQ(circ.fused(), c.fused);
  b.require_automorphisms(circ.automorphisms());
  std::mt19937_64 rng(c.m * 16 + c.rounds);
  for (const auto& v : testing_vectors::load("aes128/vectors.json")) {
    const aes128::Aes128 ref(block(v.key));
    const auto rk = ref.round_keys();
    circ.load_round_keys({rk.begin(), rk.end()});
    // Block 0 is the vector; up to 3 more random blocks checked against the reference.
    std::vector<aes128::Block> plain{block(v.plaintext)}, cipher{block(v.round_states.at(c.rounds - 1))};
    for (long k = 1; k < std::min(circ.max_blocks(), 4L); ++k) {
      aes128::Block p;
      for (auto& x : p) x = uint8_t(rng());
      plain.push_back(p);
      cipher.push_back(ref.round_states(p)[c.rounds - 1]);
    }
    const auto& in = c.decrypt ? cipher : plain;
    const auto& want = c.decrypt ? plain : cipher;
    Evaluator<ClearBackend> ev(b);
    auto st = circ.encrypt_input(in);
    const auto recs = circ.run(ev, st);
    EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want) << v.name;
    ASSERT_EQ(long(recs.size()), c.rounds);
    for (auto& r : recs) {
      EXPECT_GT(r.counts.mul, 0);
      if (c.fused)
        EXPECT_EQ(r.ops.count("inversion") + r.ops.count("affine+shiftrows_mixcolumns") + r.ops.count("addroundkey"), 3u);
      else
        EXPECT_EQ(r.ops.count("subbytes") + r.ops.count("shiftrows_mixcolumns") + r.ops.count("addroundkey"), 3u);
    }
    // Per round and ciphertext: 4 multiplications (x^254 in depth 3).
    EXPECT_EQ(recs[0].counts.mul, 4 * long(st.size()));
    EXPECT_EQ(b.depth(st[0]), 3 * c.rounds);
  }
}

class AesCircuitTest : public ::testing::TestWithParam<Case> {};

TEST_P(AesCircuitTest, MatchesVectorsAndReference) {
  const Case c = GetParam();
  if (c.sliced)
    check_case<SlicedRep>(c);
  else
    check_case<PackedRep>(c);
}

// 257: one block (d=16, one bad dimension of 16); 771: 2 blocks; 4369: 16 blocks over two
// dimensions. Full rounds, and reduced rounds against round_states; fused and not.
INSTANTIATE_TEST_SUITE_P(
    Rings, AesCircuitTest,
    ::testing::Values(Case{257, false, 10, false}, Case{257, false, 10, true}, Case{257, true, 10, false},
                      Case{257, true, 10, true}, Case{771, false, 10, false}, Case{771, false, 10, true},
                      Case{4369, false, 10, false}, Case{4369, false, 10, true}, Case{4369, true, 10, false},
                      Case{257, false, 1, false}, Case{257, false, 3, false}, Case{257, false, 9, true},
                      Case{771, true, 5, false}, Case{771, true, 5, true}, Case{257, false, 10, false, true},
                      Case{257, false, 10, true, true}, Case{4369, false, 10, false, true},
                      Case{4369, false, 10, true, true}, Case{771, true, 10, false, true},
                      Case{257, true, 10, true, true}, Case{257, false, 3, false, true}));

// Bit-sliced (GHS's third variant): 128 ciphertexts of bits, a block per slot; slots of
// GF(2) (any ring) or of a larger field (bits lie in every GF(2^d)).
struct BitCase {
  long m, n;  // ring, backend field GF(2^n) (1: GF(2) mod x + 1)
  long rounds;
  bool decrypt;
};
void PrintTo(const BitCase& c, std::ostream* os) {
  *os << "m=" << c.m << " GF(2^" << c.n << ") rounds=" << c.rounds << (c.decrypt ? " decrypt" : " encrypt");
}
class AesBitSlicedTest : public ::testing::TestWithParam<BitCase> {};

TEST_P(AesBitSlicedTest, MatchesVectorsAndReference) {
  const BitCase c = GetParam();
  ClearBackend b(c.m, c.n, c.n == 1 ? 1 : aes128::kModulusLow);
  AesCircuit<ClearBackend, BitSlicedRep> circ(b, c.rounds, c.decrypt);
  EXPECT_TRUE(circ.automorphisms().empty());
  EXPECT_EQ(circ.max_blocks(), b.slot_count());
  std::mt19937_64 rng(c.m + c.rounds);
  for (const auto& v : testing_vectors::load("aes128/vectors.json")) {
    const aes128::Aes128 ref(block(v.key));
    const auto rk = ref.round_keys();
    circ.load_round_keys({rk.begin(), rk.end()});
    std::vector<aes128::Block> plain{block(v.plaintext)}, cipher{block(v.round_states.at(c.rounds - 1))};
    for (long k = 1; k < circ.max_blocks(); ++k) {  // every slot: random blocks
      aes128::Block p;
      for (auto& x : p) x = uint8_t(rng());
      plain.push_back(p);
      cipher.push_back(ref.round_states(p)[c.rounds - 1]);
    }
    const auto& in = c.decrypt ? cipher : plain;
    const auto& want = c.decrypt ? plain : cipher;
    Evaluator<ClearBackend> ev(b);
    auto st = circ.encrypt_input(in);
    ASSERT_EQ(st.size(), 128u);
    const auto recs = circ.run(ev, st);
    EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want) << v.name;
    ASSERT_EQ(long(recs.size()), c.rounds);
    for (auto& r : recs) {
      EXPECT_EQ(r.counts.mul, 16 * 34);  // Boyar-Peralta: 34 AND per S-box
      EXPECT_EQ(r.counts.automorph + r.counts.mul_plain, 0);
      EXPECT_EQ(r.ops.count("subbytes") + r.ops.count("shiftrows_mixcolumns") + r.ops.count("addroundkey"), 3u);
    }
    long depth = 0;
    for (const auto& x : st) depth = std::max(depth, b.depth(x));
    EXPECT_EQ(depth, 4 * c.rounds);  // AND-depth 4 per round
  }
}

INSTANTIATE_TEST_SUITE_P(Rings, AesBitSlicedTest,
                         ::testing::Values(BitCase{257, 1, 10, false}, BitCase{257, 1, 10, true},
                                           BitCase{257, 8, 10, false}, BitCase{771, 1, 3, false},
                                           BitCase{771, 1, 9, true}, BitCase{31, 1, 1, false}));

TEST(AesCircuit, BitSlicedRefusesFusion) {
  ClearBackend b(257, 1, 1);
  try {
    AesCircuit<ClearBackend, BitSlicedRep> c(b, 10, false, true);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "aes bit-sliced: --linear fused has nothing to fuse (on the bits, affine maps and linear "
                           "layers are both additions): use --linear separate");
  }
}

TEST(AesCircuit, LinearLayerCostsAreReported) {
  ClearBackend b(4369, 8, aes128::kModulusLow);
  AesCircuit<ClearBackend, PackedRep> circ(b, 10, false);
  EXPECT_EQ(circ.max_blocks(), 16);
  EXPECT_GT(circ.rep().map_automorphisms(0), 0);
  // 64 terms per block, 16 diagonals: baby-step giant-step keeps it near 2 * sqrt(16).
  EXPECT_LE(circ.rep().map_automorphisms(0), 10);
  AesCircuit<ClearBackend, SlicedRep> sliced(b, 10, false);
  EXPECT_EQ(sliced.max_blocks(), 256);
  EXPECT_TRUE(sliced.rep().automorphisms().empty());
}

TEST(AesCircuit, RefusesWrongFieldAndRounds) {
  ClearBackend b16(257, 16, 0x2b);
  try {
    AesCircuit<ClearBackend, PackedRep> c(b16, 10, false);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "aes needs GF(2^8) mod x^8 + 0x1b in the slots: the backend has GF(2^16)");
  }
  ClearBackend b(257, 8, aes128::kModulusLow);
  try {
    AesCircuit<ClearBackend, PackedRep> c(b, 11, false);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "aes rounds=11: must be 1..10");
  }
}

TEST(AesCircuit, MissingAutomorphismKeysAreRefused) {
  ClearBackend b(257, 8, aes128::kModulusLow);
  AesCircuit<ClearBackend, PackedRep> circ(b, 1, false);  // keys not requested
  const auto rk = aes128::Aes128(aes128::Block{}).round_keys();
  circ.load_round_keys({rk.begin(), rk.end()});
  Evaluator<ClearBackend> ev(b);
  auto st = circ.encrypt_input({aes128::Block{}});
  EXPECT_THROW(circ.run(ev, st), KeyError);
}

}  // namespace
}  // namespace cb
