// The catalog entry of AES-128 (FIPS-197), as Gentry, Halevi and Smart evaluate it
// (CRYPTO 2012): bytes in GF(2^8) slots, SubBytes as the inversion x^254 followed by the
// affine map A written as a linearized polynomial, ShiftRows and MixColumns as one linear
// map of the 16 bytes (ShiftRows alone in round 10), the round keys expanded in the clear.
// The clear reference is ciphers/aes128/aes128.h.
//
// Bit-sliced (GHS's third variant): the same rounds on the 128 state bits, SubBytes as
// Boyar and Peralta's depth-16 S-box circuit (boyar_peralta.h: 34 AND, AND-depth 4) and
// its inverse for decryption; ShiftRows, MixColumns and AddRoundKey are GF(2)-linear.
// The round keys are expanded in the clear and encrypted, as in the other packings.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/aes128/aes128.h"
#include "ciphers/aes128/boyar_peralta.h"

namespace cb {
namespace {

// MixColumns∘ShiftRows (mix) or ShiftRows alone, on one block's byte indices (FIPS order).
BlockMap linear_layer(bool mix) {
  const auto src = aes128::shift_rows_source();
  BlockMap t;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      if (!mix) {
        t.push_back({r + 4 * c, src[r + 4 * c], 1});
        continue;
      }
      for (int j = 0; j < 4; ++j) t.push_back({r + 4 * c, src[j + 4 * c], aes128::kMixColumns[r][j]});
    }
  return t;
}

aes128::Block block(const Elements& v) {
  aes128::Block b;
  for (int i = 0; i < 16; ++i) b[i] = uint8_t(v.at(i));
  return b;
}

class Aes128Instance : public CipherInstance {
 public:
  using CipherInstance::CipherInstance;

  Round round(long r, long R) const override {
    Round steps;
    if (r == 1) steps.push_back({"addroundkey", {Op::add_key(0)}});
    Linearized A{aes128::kAffineConstant, {}};
    for (uint8_t g : aes128::sbox_pieces().affine_gamma) A.gamma.push_back(g);
    steps.push_back({"inversion", {Op::power(254)}, "subbytes"});
    steps.push_back({"affine", {Op::affine(A)}, "subbytes"});
    steps.push_back({"shiftrows_mixcolumns", {Op::linear(linear_layer(r != aes128::kRounds))}});
    steps.push_back({"addroundkey", {Op::add_key(r)}});
    return steps;
  }
  // SubBytes as one Boolean circuit (inversion and affine map together).
  Round bit_round(long r, long R) const override {
    static const auto sbox = std::make_shared<const BooleanCircuit>(aes128::sbox_circuit());
    static const auto inv = std::make_shared<const BooleanCircuit>(aes128::inv_sbox_circuit());
    Round steps;
    if (r == 1) steps.push_back({"addroundkey", {Op::add_key(0)}});
    steps.push_back({"subbytes", {Op::boolean(sbox, inv)}});
    steps.push_back({"shiftrows_mixcolumns", {Op::linear(linear_layer(r != aes128::kRounds))}});
    steps.push_back({"addroundkey", {Op::add_key(r)}});
    return steps;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    std::vector<Elements> out;
    for (const auto& k : aes128::expand_key(block(key))) out.emplace_back(k.begin(), k.end());
    out.resize(R + 1);
    return out;
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    const auto c = aes128::Aes128(block(key)).round_states(block(pt))[R - 1];
    return {c.begin(), c.end()};
  }
  // FIPS order and its transpose (GHS lay the bytes along a dimension of size 16).
  std::vector<std::vector<long>> packed_orders() const override {
    std::vector<long> id(16), tr(16);
    for (long i = 0; i < 16; ++i) id[i] = i, tr[i] = 4 * (i % 4) + i / 4;
    return {id, tr};
  }
};

}  // namespace

const CipherEntry& aes128_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "aes128";
    e.display = "AES-128";
    e.description =
        "AES-128 (FIPS-197): 16 bytes of GF(2^8) mod x^8 + x^4 + x^3 + x + 1, 10 rounds of SubBytes, ShiftRows, "
        "MixColumns (not in round 10) and AddRoundKey. Evaluated as Gentry, Halevi and Smart do: SubBytes is the "
        "inversion x^254 (4 products, depth 3) and the affine map A as a linearized polynomial; ShiftRows and "
        "MixColumns are one linear map of the block. The round keys are expanded in the clear and encrypted. "
        "Bit-sliced (GHS's third variant): one ciphertext per state bit, one block per slot; SubBytes is Boyar and "
        "Peralta's depth-16 S-box circuit (34 AND, AND-depth 4), the rest additions.";
    e.citation =
        "NIST FIPS-197 (2001); C. Gentry, S. Halevi, N. P. Smart, Homomorphic Evaluation of the AES Circuit, "
        "CRYPTO 2012 (ePrint 2012/099); bit-sliced S-box: J. Boyar, R. Peralta, A depth-16 circuit for the AES S-box, "
        "SEC 2012 (ePrint 2011/332)";
    e.sliced_name = "byte-sliced";
    e.name_instances = false;
    e.instances = {{"aes", 8, aes128::kModulusLow, 16, aes128::kRounds, 16}};
    e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<Aes128Instance>(s); };
    return e;
  }();
  return e;
}

}  // namespace cb
