// The catalog entry of Pasta (Dobraunig, Grassi, Helminger, Rechberger, Schofnegger, Walch,
// TCHES 2023(3), ePrint 2021/731): Pasta-3 (t = 128, r = 3) and Pasta-4 (t = 32, r = 4),
// keystream generators over F_p (pasta.h). A block's program on the state of w = 2t
// elements (x_L = x[0, t), x_R = x[t, 2t)):
//     round 1:      addkey  AddKey(0, 2t)                        the state is the key
//                   affine  Affine(0, t), Affine(t, t)           A_0: M x_L + c, M x_R + c
//                   mix     Linear (2L + R, L + 2R)
//                   sbox    Quadratic: x_i += x_(i-1)^2, i = 1..t-1 in each half
//     round i < r:  affine, mix, sbox (Feistel) as above         A_(i-1), S_feistel
//     round r:      affine, mix                                  A_(r-1)
//                   sbox    Power(3)                             S_cube
//                   affine, mix + Truncate(t)                    A_r, the left half out
// so the program has r + 1 affine layers (2(r + 1) companion Affine operations: each matrix
// is C^t for the companion matrix C of one drawn row) and material() lists
// their matrices and constants in that order: M = (M_(0,L), M_(0,R), M_(1,L), ...) and
// c = (c_(0,L), c_(0,R), ...), drawn from SHAKE128(nonce, counter) as the reference draws
// them (per layer: the row of M_L, the row of M_R, c_L, c_R); compact_material() the same
// with each matrix as that row. Under FHE the affine layers
// and the mix are public (constant products and additions), the Feistel layers are
// squarings (depth 1 each) and the cube a square and a product (depth 2): depth r + 1.
#include <memory>

#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/pasta/pasta.h"
#include "engine/errors.h"

namespace cb {
namespace {

class PastaInstance : public KeystreamInstance {
 public:
  explicit PastaInstance(const InstanceSpec& s) : KeystreamInstance(s), ref_(s.s, s.rounds, s.p) {
    if (s.key_elements != 2 * s.s)
      throw ParameterError(msg(s.id, ": key_elements=", s.key_elements, ", Pasta's key is 2t = ", 2 * s.s));
  }

  long state_size() const override { return 2 * ref_.t(); }

  std::vector<KsRound> program() const override {
    const long t = ref_.t(), r = ref_.rounds();
    const KsStep affine{"affine", {KsOp::companion_affine(0, t), KsOp::companion_affine(t, t)}};
    const KsStep mix{"mix", {KsOp::linear(mix_map())}};
    const KsStep feistel{"sbox", {KsOp::quadratic({}, feistel_terms())}};
    const KsStep cube{"sbox", {KsOp::power(3)}};
    std::vector<KsRound> rounds;
    for (long i = 1; i <= r; ++i) {
      KsRound round;
      if (i == 1) round.push_back({"addkey", {KsOp::add_key(0, 2 * t)}});
      round.push_back(affine);
      round.push_back(mix);
      round.push_back(i < r ? feistel : cube);
      if (i == r) {
        round.push_back(affine);
        KsStep out = mix;
        out.ops.push_back(KsOp::truncate(t));
        round.push_back(out);
      }
      rounds.push_back(round);
    }
    return rounds;
  }

  KsMaterial material(uint64_t nonce, uint64_t counter) const override {
    return expand_material(*this, compact_material(nonce, counter));
  }

  // Each matrix by its row a (M = C^t, C the companion matrix of a: a companion Affine).
  KsMaterial compact_material(uint64_t nonce, uint64_t counter) const override {
    const long t = ref_.t();
    const auto& F = ref_.field();
    PastaXof xof(F, nonce, counter, 2 * ref_.xof_bytes());
    KsMaterial m;
    for (long j = 0; j <= ref_.rounds(); ++j) {
      const auto aL = xof.vector(t, true);
      const auto aR = xof.vector(t, true);
      m.M.push_back({aL});
      m.M.push_back({aR});
      m.c.push_back(xof.vector(t, false));
      m.c.push_back(xof.vector(t, false));
    }
    return m;
  }

  Elements keystream(const Elements& key, uint64_t nonce, uint64_t counter) const override {
    return ref_.keystream(key, nonce, counter);
  }

 private:
  // (L, R) -> (2L + R, L + 2R), element by element.
  BlockMap mix_map() const {
    const long t = ref_.t();
    BlockMap L;
    for (long i = 0; i < t; ++i) {
      L.push_back({i, i, 2});
      L.push_back({i, t + i, 1});
      L.push_back({t + i, i, 1});
      L.push_back({t + i, t + i, 2});
    }
    return L;
  }
  // x_i += x_(i-1)^2 for i = 1..t-1 in each half (x_0 of each half unchanged).
  std::vector<ProductTerm> feistel_terms() const {
    const long t = ref_.t();
    std::vector<ProductTerm> Q;
    for (long h : {0L, t})
      for (long i = 1; i < t; ++i) Q.push_back({h + i, h + i - 1, h + i - 1, 1});
    return Q;
  }
  Pasta ref_;
};

}  // namespace

const CipherEntry& pasta_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "pasta";
    e.display = "Pasta";
    e.description =
        "Pasta-3 (t = 128, r = 3) and Pasta-4 (t = 32, r = 4), keystream generators over F_p for hybrid "
        "homomorphic encryption: the state is the key (2t elements, two halves); r + 1 affine layers each take "
        "each half through its own matrix and constants and mix the halves (2L + R, L + 2R); rounds 1..r-1 end "
        "with the Feistel S-box x_i + x_(i-1)^2 on each half, round r with the cube; the keystream is the left "
        "half, t elements. Matrices and constants are public and new for every block: SHAKE128(nonce, counter) "
        "read by rejection sampling, each matrix the t-th power of the companion matrix of one random row (the "
        "reading of IAIK's hybrid-HE framework, whose known-answer tests it passes). Multiplicative depth r + 1.";
    e.citation =
        "C. Dobraunig, L. Grassi, L. Helminger, C. Rechberger, M. Schofnegger, R. Walch, Pasta: A Case for Hybrid "
        "Homomorphic Encryption, TCHES 2023(3) (ePrint 2021/731)";
    for (uint64_t p : Pasta::primes())
      for (const auto& v : Pasta::variants()) {
        const long bits = PrimeField(p).bits();
        e.instances.push_back({msg("pasta", v.r, "p", bits), 1, 0, v.t, v.r, 2 * v.t, p});
      }
    e.excludes = &Pasta::excluded;
    e.make_keystream = [](const InstanceSpec& s) -> std::unique_ptr<KeystreamInstance> {
      return std::make_unique<PastaInstance>(s);
    };
    return e;
  }();
  return e;
}

}  // namespace cb
