// The catalog entry of Rasta (Dobraunig et al., CRYPTO 2018) as IAIK's hybrid-HE framework
// runs it: a keystream generator over GF(2) (n = 1, f = x + 1: an element is a bit), the
// state, the key and a keystream block n bits, instances Rasta-5 (n = 525, r = 5) and
// Rasta-6 (n = 351, r = 6). Its program, with x the n-bit state (zero at the start):
//     round 1      keyadd  AddKey(0, n)                 x = k
//     round i      affine  Affine(0, n)                 x = M_i x + c_i
//                  chi     Quadratic                    x_j += x_(j+2) + x_(j+1) x_(j+2)
//     round r      ... then affine  Affine(0, n)        x = M_(r+1) x + c_(r+1)
//                           keyadd  AddKey(0, n)        the feed-forward x += k
// so r + 1 public matrices and constants per block (material(): exactly rasta.h's draw)
// and n products per round, AND-depth r. Keys and blocks read and print as IAIK's bytes:
// bit k of a block is bit 7 - k mod 8 of byte k / 8, ceil(n / 8) bytes, the padding bits
// of the last byte zero.
#include <memory>

#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/rasta/rasta.h"
#include "ciphers/reference/hex.h"
#include "engine/errors.h"

namespace cb {
namespace {

class RastaInstance : public KeystreamInstance {
 public:
  explicit RastaInstance(const InstanceSpec& s) : KeystreamInstance(s), ref_(s.s, s.rounds) {}

  long state_size() const override { return ref_.n(); }

  std::vector<KsRound> program() const override {
    const long n = ref_.n();
    BlockMap L;
    std::vector<ProductTerm> Q;
    for (long j = 0; j < n; ++j) {
      L.push_back({j, (j + 2) % n, 1});
      Q.push_back({j, (j + 1) % n, (j + 2) % n, 1});
    }
    const KsOp chi = KsOp::quadratic(L, Q);
    std::vector<KsRound> rounds;
    for (long r = 1; r <= ref_.rounds(); ++r) {
      KsRound round;
      if (r == 1) round.push_back({"keyadd", {KsOp::add_key(0, n)}});
      round.push_back({"affine", {KsOp::affine(0, n)}});
      round.push_back({"chi", {chi}});
      if (r == ref_.rounds()) {
        round.push_back({"affine", {KsOp::affine(0, n)}});
        round.push_back({"keyadd", {KsOp::add_key(0, n)}});
      }
      rounds.push_back(std::move(round));
    }
    return rounds;
  }

  KsMaterial material(uint64_t nonce, uint64_t counter) const override {
    const Rasta::Instance in = ref_.instance(nonce, counter);
    KsMaterial m;
    for (const auto& M : in.M) {
      std::vector<Elements> rows;
      rows.reserve(M.size());
      for (const auto& row : M) rows.push_back(unpack(row));
      m.M.push_back(std::move(rows));
    }
    for (const auto& c : in.c) m.c.push_back(unpack(c));
    return m;
  }

  Elements keystream(const Elements& key, uint64_t nonce, uint64_t counter) const override {
    if (long(key.size()) != ref_.n())
      throw ParameterError(msg(spec().id, ": a key of ", key.size(), " bits, not ", ref_.n()));
    return unpack(ref_.keystream(pack(key, "key"), nonce, counter));
  }

  // IAIK's byte form: bit k is bit 7 - k mod 8 of byte k / 8.
  Elements parse(const std::string& text, long count, const std::string& what) const override {
    const std::vector<uint8_t> bytes = from_hex(text, what);
    const long need = (count + 7) / 8;
    if (long(bytes.size()) != need)
      throw ParameterError(msg(what, " ", text, " has ", bytes.size(), " bytes: ", spec().id, " needs ", count,
                               " bits, ", need, " bytes (bit k is bit 7 - k mod 8 of byte k/8)"));
    Elements v(count);
    for (long k = 0; k < 8 * need; ++k) {
      const uint64_t b = (bytes[k / 8] >> (7 - k % 8)) & 1;
      if (k < count)
        v[k] = b;
      else if (b)
        throw ParameterError(msg(what, " ", text, ": bit ", k, " is set, past the ", count, " bits of ", spec().id,
                                 " (the last ", 8 * need - count, " bits of byte ", need - 1,
                                 " are padding and must be zero)"));
    }
    return v;
  }

  std::string format(const Elements& v) const override {
    std::vector<uint8_t> bytes((v.size() + 7) / 8, 0);
    for (size_t k = 0; k < v.size(); ++k) {
      if (v[k] > 1) throw ParameterError(msg(spec().id, ": element ", k, " is ", v[k], ", not a bit"));
      bytes[k / 8] |= uint8_t(v[k] << (7 - k % 8));
    }
    return to_hex(bytes);
  }

 private:
  Elements unpack(const Rasta::Bits& b) const {
    Elements v(ref_.n());
    for (long j = 0; j < ref_.n(); ++j) v[j] = (b[j / 64] >> (j % 64)) & 1;
    return v;
  }
  Rasta::Bits pack(const Elements& v, const char* what) const {
    Rasta::Bits b(ref_.words(), 0);
    for (long j = 0; j < ref_.n(); ++j) {
      if (v[j] > 1) throw ParameterError(msg(spec().id, ": ", what, " element ", j, " is ", v[j], ", not a bit"));
      b[j / 64] |= v[j] << (j % 64);
    }
    return b;
  }

  Rasta ref_;
};

}  // namespace

const CipherEntry& rasta_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "rasta";
    e.display = "Rasta";
    e.description =
        "Rasta, a keystream generator over GF(2) built for low AND-depth: an n-bit state starts as the key and "
        "goes through r rounds of a public affine layer (an invertible n x n matrix and a constant) and the chi "
        "map on the state as a cycle (x_j + x_(j+2) + x_(j+1) x_(j+2): one AND per bit), then a last affine layer "
        "and the key again (the feed-forward): AND-depth r. The matrices and constants are new for every block, "
        "drawn from a Keccak sponge seeded with the public nonce and counter (IAIK's instance generation: each "
        "matrix redrawn until invertible; runners/ciphers/rasta/README.md). IAIK's instances Rasta-5 (n = 525, "
        "5 rounds) and Rasta-6 (n = 351, 6 rounds); keys and blocks as IAIK's bytes (bit k = bit 7 - k mod 8 of "
        "byte k/8), checked against its known-answer tests.";
    e.citation =
        "C. Dobraunig, M. Eichlseder, L. Grassi, V. Lallemand, G. Leander, E. List, F. Mendel, C. Rechberger, "
        "Rasta: A Cipher with Low ANDdepth and Few ANDs per Bit, CRYPTO 2018 (ePrint 2018/181); instances and "
        "instance generation of IAIK's hybrid-HE framework (github.com/IAIK/hybrid-HE-framework)";
    for (const auto& [n, r] : Rasta::instances())
      e.instances.push_back({msg("rasta", r), 1, 1, n, r, n, 2});
    e.make_keystream = [](const InstanceSpec& s) -> std::unique_ptr<KeystreamInstance> {
      return std::make_unique<RastaInstance>(s);
    };
    return e;
  }();
  return e;
}

}  // namespace cb
