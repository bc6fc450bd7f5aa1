// aes_helib_test: the AES-128 circuits, unchanged, on HElib (HelibBackend), on small rings:
// all 10 rounds and a few rounds packed (m=257: one block, a bad dimension; m=4369: 16 blocks over two
// dimensions) and byte-sliced, encryption and decryption, every block decrypted and
// compared with the reference round states, HElib's capacity decreasing each round.
// Built only with -DCB_HELIB_DIR (make helib).
#include <gtest/gtest.h>
#include <omp.h>

#include "backend/helib_backend.h"
#include "ciphers/aes128/aes_test_circuit.h"
#include "ciphers/common/test_vectors.h"

namespace cb {
namespace {

struct Case {
  long m;
  bool sliced;
  long rounds;
  bool decrypt;
  long bits;
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << "m=" << c.m << (c.sliced ? " byte-sliced" : " packed") << " rounds=" << c.rounds
      << (c.decrypt ? " decrypt" : " encrypt") << " bits=" << c.bits;
}

aes128::Block block(const std::vector<uint64_t>& v) {
  aes128::Block b;
  for (int i = 0; i < 16; ++i) b[i] = uint8_t(v.at(i));
  return b;
}

template <template <class> class Rep>
void check_case(const Case& c) {
  omp_set_num_threads(1);
  HelibBackend b(HelibParams{c.m, c.bits, 3, 120, 7}, 8, aes128::kModulusLow);
  AesCircuit<HelibBackend, Rep> circ(b, c.rounds, c.decrypt);
  b.require_automorphisms(circ.automorphisms());
  const auto v = testing_vectors::load("aes128/vectors.json").at(0);
  const aes128::Aes128 ref(block(v.key));
  const auto rk = ref.round_keys();
  circ.load_round_keys({rk.begin(), rk.end()});
  std::vector<aes128::Block> plain{block(v.plaintext)}, cipher{block(v.round_states.at(c.rounds - 1))};
  for (long k = 1; k < std::min(circ.max_blocks(), 3L); ++k) {
    aes128::Block x;
    for (int i = 0; i < 16; ++i) x[i] = uint8_t(17 * k + 29 * i);
    plain.push_back(x);
    cipher.push_back(ref.round_states(x)[c.rounds - 1]);
  }
  const auto& in = c.decrypt ? cipher : plain;
  const auto& want = c.decrypt ? plain : cipher;
  Evaluator<HelibBackend> ev(b);
  auto st = circ.encrypt_input(in);
  double prev = circ.capacity(st);
  const auto recs = circ.run(ev, st);
  EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want);
  for (auto& r : recs) {
    EXPECT_LT(r.capacity_bits, prev) << "round " << r.round;
    EXPECT_GT(r.capacity_bits, 0) << "round " << r.round;
    prev = r.capacity_bits;
  }
}

class AesHelibTest : public ::testing::TestWithParam<Case> {};

TEST_P(AesHelibTest, DecryptsToReference) {
  const Case c = GetParam();
  if (c.sliced)
    check_case<SlicedRep>(c);
  else
    check_case<PackedRep>(c);
}

INSTANTIATE_TEST_SUITE_P(SmallRings, AesHelibTest,
                         ::testing::Values(Case{257, false, 10, false, 700}, Case{257, false, 10, true, 700},
                                           Case{257, false, 2, false, 500}, Case{257, false, 2, true, 500},
                                           Case{4369, false, 1, false, 300}, Case{257, true, 1, false, 300},
                                           Case{257, true, 1, true, 300}));

}  // namespace
}  // namespace cb
