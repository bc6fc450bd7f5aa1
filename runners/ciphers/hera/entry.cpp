// The catalog entry of HERA-5 over F_p (Cho et al., ASIACRYPT 2021, ePrint 2020/1335), a
// keystream generator: 16 key elements, 16 keystream elements per block, 5 rounds
// (hera.h has the definition and the clear reference). Its program, on a state of 16
// elements starting at zero:
//     round 1:    ic          Affine(0, 16) without a matrix, c = (1, ..., 16) in every block
//                 ark         KeyMul(0, 16), rc_0
//                 mixcolumns  Linear: each column (x[4j .. 4j+3]) times circ(2, 3, 1, 1)
//                 mixrows     Linear: each row (x[i], x[i+4], x[i+8], x[i+12]) times it
//                 cube        Power(3)
//                 ark         KeyMul(0, 16), rc_1
//     rounds 2-4: mixcolumns, mixrows, cube, ark (rc_2 .. rc_4)
//     round 5:    mixcolumns, mixrows, cube, mixcolumns, mixrows, ark (rc_5)
// The material of block (nonce, counter): c = {(1, ..., 16)} and rc = rc_0 .. rc_5, drawn
// from SHAKE128 as the reference draws them (Hera::round_constants). Under FHE the key
// products by rc are constant products, the mixing layers additions and small constant
// products, the cube a square and a product: depth 2 per round, 10 in all.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/hera/hera.h"
#include "engine/errors.h"

namespace cb {
namespace {

// circ(2, 3, 1, 1) on the 4 elements first, first + stride, ..., first + 3 stride:
// out_r = 2 in_r + 3 in_(r+1) + in_(r+2) + in_(r+3), indices mod 4.
void circulant_terms(BlockMap& L, long first, long stride) {
  static const uint64_t row0[4] = {2, 3, 1, 1};
  for (long r = 0; r < 4; ++r)
    for (long c = 0; c < 4; ++c) L.push_back({first + stride * r, first + stride * c, row0[(c - r + 4) % 4]});
}

BlockMap mix_columns() {
  BlockMap L;
  for (long col = 0; col < 4; ++col) circulant_terms(L, 4 * col, 1);
  return L;
}

BlockMap mix_rows() {
  BlockMap L;
  for (long row = 0; row < 4; ++row) circulant_terms(L, row, 4);
  return L;
}

class HeraInstance : public KeystreamInstance {
 public:
  explicit HeraInstance(const InstanceSpec& s) : KeystreamInstance(s), ref_(s.p) {}

  long state_size() const override { return Hera::kN; }

  std::vector<KsRound> program() const override {
    const long n = Hera::kN;
    const KsStep mc{"mixcolumns", {KsOp::linear(mix_columns())}};
    const KsStep mr{"mixrows", {KsOp::linear(mix_rows())}};
    const KsStep cube{"cube", {KsOp::power(3)}};
    const KsStep ark{"ark", {KsOp::key_mul(0, n)}};
    std::vector<KsRound> rounds;
    rounds.push_back({{"ic", {KsOp::affine(0, n, false)}}, ark, mc, mr, cube, ark});
    for (long r = 2; r < Hera::kRounds; ++r) rounds.push_back({mc, mr, cube, ark});
    rounds.push_back({mc, mr, cube, mc, mr, ark});
    return rounds;
  }

  KsMaterial material(uint64_t nonce, uint64_t counter) const override {
    KsMaterial m;
    Elements ic(Hera::kN);
    for (long j = 0; j < Hera::kN; ++j) ic[j] = uint64_t(j + 1);
    m.c.push_back(ic);
    m.rc = ref_.round_constants(nonce, counter);
    return m;
  }

  Elements keystream(const Elements& key, uint64_t nonce, uint64_t counter) const override {
    return ref_.keystream(key, nonce, counter);
  }

 private:
  Hera ref_;
};

}  // namespace

const CipherEntry& hera_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "hera";
    e.display = "HERA";
    e.description =
        "HERA-5 over F_p, a keystream generator for transciphering: a 4 x 4 state of F_p elements starts at "
        "(1, ..., 16); after a key addition ARK (state += key * rc, element-wise, rc public), 4 rounds of "
        "MixColumns, MixRows (each column, then each row, times circ(2, 3, 1, 1)), the cube x^3 and ARK, and a "
        "final round MixColumns, MixRows, cube, MixColumns, MixRows, ARK give 16 keystream elements. The 96 round "
        "constants of a block are drawn from SHAKE128(nonce || counter) by masked rejection, as IAIK's hybrid-HE "
        "framework draws them (its known-answer tests at p = 65537, 8088322049, 1096486890805657601 are the "
        "instances). Only the key is secret: depth 2 per round (the cube), 10 in all.";
    e.citation =
        "J. Cho, J. Ha, S. Kim, B. Lee, J. Lee, J. Lee, D. Moon, H. Yoon, Transciphering Framework for Approximate "
        "Homomorphic Encryption, ASIACRYPT 2021 (ePrint 2020/1335); over F_p as in IAIK's hybrid-HE framework "
        "(github.com/IAIK/hybrid-HE-framework, ciphers/hera_5)";
    for (uint64_t p : Hera::primes()) {
      const Hera h(p);
      e.instances.push_back({msg("hera5p", h.field().bits()), 1, 0, Hera::kN, Hera::kRounds, Hera::kN, p});
    }
    e.excludes = &Hera::excluded;
    e.make_keystream = [](const InstanceSpec& s) -> std::unique_ptr<KeystreamInstance> {
      return std::make_unique<HeraInstance>(s);
    };
    return e;
  }();
  return e;
}

}  // namespace cb
