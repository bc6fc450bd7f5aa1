// vision_helib_test: the Vision circuits, unchanged, on HElib (HelibBackend), for the four
// instances on small rings (m=257: GF(2^8), GF(2^16); m=641: GF(2^32), GF(2^64)), one
// round, packed and sliced, encryption and decryption, every block compared with the
// reference. Built only with -DCB_HELIB_DIR (make helib).
#include <gtest/gtest.h>
#include <omp.h>

#include "backend/helib_backend.h"
#include "ciphers/common/test_vectors.h"
#include "ciphers/vision/vision_test_circuit.h"

namespace cb {
namespace {

struct Case {
  long n, s, m;
  bool sliced;
  long rounds;
  bool decrypt;
  long bits;
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << "GF(2^" << c.n << ")^" << c.s << " m=" << c.m << (c.sliced ? " sliced" : " packed") << " rounds=" << c.rounds
      << (c.decrypt ? " decrypt" : " encrypt") << " bits=" << c.bits;
}

template <template <class> class Rep>
void check_case(const Case& c) {
  omp_set_num_threads(1);
  const Vision ref(VisionParams::get(c.n, c.s));
  HelibBackend b(HelibParams{c.m, c.bits, 3, 120, 11}, c.n, ref.params().modulus_low);
  VisionCircuit<HelibBackend, Rep> circ(b, ref, c.rounds, c.decrypt);
  b.require_automorphisms(circ.automorphisms());
  const auto v = testing_vectors::load(testing_vectors::vision_file(c.n, c.s)).at(1);
  circ.load_subkeys(ref.key_schedule(v.key, c.rounds));
  std::vector<Vision::State> plain{v.plaintext}, cipher{v.round_states.at(c.rounds - 1)};
  if (circ.max_blocks() > 1) {
    Vision::State x(c.s);
    for (long i = 0; i < c.s; ++i) x[i] = (0x9e3779b97f4a7c15ull * (i + 1)) >> (64 - c.n);
    plain.push_back(x);
    cipher.push_back(ref.encrypt(v.key, x, c.rounds));
  }
  const auto& in = c.decrypt ? cipher : plain;
  const auto& want = c.decrypt ? plain : cipher;
  Evaluator<HelibBackend> ev(b);
  auto st = circ.encrypt_input(in);
  const auto recs = circ.run(ev, st);
  EXPECT_EQ(circ.decrypt_output(st, long(in.size())), want);
  EXPECT_GT(recs.back().capacity_bits, 0);
}

class VisionHelibTest : public ::testing::TestWithParam<Case> {};

TEST_P(VisionHelibTest, DecryptsToReference) {
  const Case c = GetParam();
  if (c.sliced)
    check_case<SlicedRep>(c);
  else
    check_case<PackedRep>(c);
}

INSTANTIATE_TEST_SUITE_P(
    SmallRings, VisionHelibTest,
    ::testing::Values(Case{8, 16, 257, false, 1, false, 500}, Case{8, 16, 257, true, 1, true, 500},
                      Case{16, 8, 257, false, 1, true, 600}, Case{16, 8, 257, true, 1, false, 600},
                      Case{32, 4, 641, false, 1, false, 700}, Case{32, 4, 641, true, 1, true, 700},
                      Case{64, 2, 641, false, 1, true, 800}, Case{64, 2, 641, true, 1, false, 800}));

}  // namespace
}  // namespace cb
