// The catalog entry of Chaghri (Ashur, Mahzoun, Toprakhisar, CCS 2022): three elements of
// GF(2^63), 8 rounds of two steps, each the Gold map S(x) = x^(2^32+1) (one Frobenius map
// and one product), the affine map B(x) = c1 x^8 + c2 x^2 + c3 x + c4 (a linearized
// polynomial), the 3 x 3 MDS product and a subkey addition; round 1 first adds K_0. The
// key schedule runs the same steps on the key in the clear. The reference, the reading of
// the authors' code and the constants' source are in chaghri.h.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/chaghri/chaghri.h"
#include "engine/errors.h"

namespace cb {
namespace {

class ChaghriInstance : public CipherInstance {
 public:
  using CipherInstance::CipherInstance;

  Round round(long r, long) const override {
    const Linearized B{ref_.affine_constant(), ref_.affine_gamma()};
    BlockMap M;
    for (long i = 0; i < 3; ++i)
      for (long j = 0; j < 3; ++j) M.push_back({i, j, ref_.mds_matrix()[i][j]});
    Round steps;
    if (r == 1) steps.push_back({"keyadd", {Op::add_key(0)}});
    for (long s = 2 * r - 1; s <= 2 * r; ++s) {
      steps.push_back({"sbox", {Op::power(Chaghri::kSboxExponent)}});
      steps.push_back({"affine", {Op::affine(B)}});
      steps.push_back({"mds", {Op::linear(M)}});
      steps.push_back({"keyadd", {Op::add_key(s)}});
    }
    return steps;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    std::vector<Elements> out;
    for (const auto& k : ref_.key_schedule(state(key), R)) out.emplace_back(k.begin(), k.end());
    return out;
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    const auto c = ref_.encrypt(state(key), state(pt), R);
    return {c.begin(), c.end()};
  }

 private:
  static Chaghri::State state(const Elements& v) { return {v.at(0), v.at(1), v.at(2)}; }
  Chaghri ref_;
};

}  // namespace

const CipherEntry& chaghri_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "chaghri";
    e.display = "Chaghri";
    e.description =
        "Chaghri, an FHE-friendly block cipher for BGV by the Vision authors: three elements of GF(2^63) mod "
        "x^63 + x + 1 (a 189-bit block and key), 8 rounds of two steps, each the Gold map x^(2^32+1) (one product), "
        "the affine map c1 x^8 + c2 x^2 + c3 x + c4, a 3x3 MDS product and a subkey addition; the key schedule runs "
        "the same steps on the key with round constants. Constants: the authors' simpleCHAGHRI.cpp. Reading: their "
        "code is inconsistent; we keep the paper's S-box and the invertible affine map (ordinary powers x^8, x^2: "
        "rank 63, where Frobenius x^(2^8), x^(2^2) gives rank 62), key (k0, k1, k2), no addition of K_17 "
        "(runners/ciphers/chaghri/chaghri.h). 8 rounds were later attacked by coefficient grouping (Liu, Isobe, "
        "Meier et al., EUROCRYPT 2023, about 2^38): measured as published. Decryption is not offered: the Gold "
        "map's inverse x^(2^32-1) takes 5 products at depth 5 against the S-box's 1.";
    e.citation =
        "T. Ashur, M. Mahzoun, D. Toprakhisar, Chaghri - A FHE-friendly Block Cipher, ACM CCS 2022 (ePrint "
        "2022/592); constants from github.com/KULeuven-COSIC/Chaghri";
    e.instances = {{"chaghri", Chaghri::kN, Chaghri::kModulusLow, 3, Chaghri::kRounds, 3}};
    e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<ChaghriInstance>(s); };
    return e;
  }();
  return e;
}

}  // namespace cb
