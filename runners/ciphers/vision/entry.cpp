// The catalog entry of Vision (Aly, Ashur, Ben-Sasson, Dhooghe, Szepieniec, ToSC 2020(3)),
// the four 128-bit instances GF(2^n)^m of docs/vision.md, as the FHE comparison of Vision
// and AES evaluates them (Toprakhisar, Mahzoun, Ashur). A round is two steps s = 2r-1, 2r,
// each the inversion x^(2^n - 2), the affine map B^-1 (odd s) or B (even s), the MDS
// product and the key addition k_s; round 1 first adds k_0. The key schedule (the same
// steps on the key state) runs in the clear. The clear reference is
// ciphers/vision/vision.h.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/vision/vision.h"
#include "engine/errors.h"

namespace cb {
namespace {

class VisionInstance : public CipherInstance {
 public:
  explicit VisionInstance(const InstanceSpec& s) : CipherInstance(s), ref_(VisionParams::get(s.n, s.s)) {}

  Round round(long r, long) const override {
    const auto& p = ref_.params();
    const long n = p.n;
    const Linearized binv{p.B_inv[0], std::vector<uint64_t>(p.B_inv.begin() + 1, p.B_inv.end())};
    Linearized b{p.B[0], std::vector<uint64_t>(n, 0)};
    b.gamma[0] = p.B[1], b.gamma[1] = p.B[2], b.gamma[2] = p.B[3];
    BlockMap mds;
    for (long i = 0; i < p.m; ++i)
      for (long j = 0; j < p.m; ++j)
        if (p.MDS[i * p.m + j]) mds.push_back({i, j, p.MDS[i * p.m + j]});
    const uint64_t inv = n == 64 ? ~uint64_t(1) : (uint64_t(1) << n) - 2;  // x^(2^n - 2)
    Round steps;
    if (r == 1) steps.push_back({"keyadd", {Op::add_key(0)}});
    for (long s = 2 * r - 1; s <= 2 * r; ++s) {
      const bool odd = s % 2 == 1;
      steps.push_back({"inversion", {Op::power(inv)}});
      // affine1 evaluates B^-1, affine2 B; the inverse of either evaluates the other.
      steps.push_back({odd ? "affine1" : "affine2", {Op::affine(odd ? binv : b)}, "", odd ? "affine2" : "affine1"});
      steps.push_back({"matmul", {Op::linear(mds)}});
      steps.push_back({"keyadd", {Op::add_key(s)}});
    }
    return steps;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override { return ref_.key_schedule(key, R); }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override { return ref_.encrypt(key, pt, R); }

 private:
  Vision ref_;
};

}  // namespace

const CipherEntry& vision_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "vision";
    e.display = "Vision";
    e.description =
        "Vision, the Marvellous design for binary fields: m elements of GF(2^n) (n m = 128), 2 steps per round, "
        "each the inversion x^(2^n - 2), an affine linearized map (B^-1 in odd steps, B in even ones), an MDS "
        "product and a subkey addition; the key schedule runs the same steps on the key with injection constants "
        "(derived from SHAKE256, docs/vision.md). Evaluated as the FHE comparison with AES does; GF(2^64)^2 has "
        "18 rounds by the reference's formula (the comparison ran 13).";
    e.citation =
        "A. Aly, T. Ashur, E. Ben-Sasson, S. Dhooghe, A. Szepieniec, Design of Symmetric-Key Primitives for Advanced "
        "Cryptographic Protocols, ToSC 2020(3); A comparative study of Vision and AES in FHE setting (Toprakhisar, "
        "Mahzoun, Ashur)";
    for (const auto& p : VisionParams::all())
      e.instances.push_back({msg("vision", p.n), p.n, p.modulus_low, p.m, p.rounds, p.m});
    e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<VisionInstance>(s); };
    return e;
  }();
  return e;
}

}  // namespace cb
