// The catalog entry of MiMC over GF(2^n) (Albrecht, Grassi, Rechberger, Roy, Tiessen,
// Asiacrypt 2016): one field element per block, r = ceil(n / log2 3) rounds of
//     x <- (x + k + c_i)^3,   c_0 = 0,
// and a final key addition, E_k(x) = F_(r-1) o ... o F_0(x) + k. Under FHE a round is one
// addition and one product (x^3 = x^2 x: a Frobenius map and a multiplication, depth 1):
// a deep, narrow circuit, unlike AES or Vision. The subkeys are k + c_i and k, computed
// in the clear. Decryption is not offered: x^3's inverse in GF(2^n) is x^e with e of
// about n/2 set bits (catalog: decrypt_note). The clear reference is mimc.h.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/mimc/mimc.h"
#include "engine/errors.h"

namespace cb {
namespace {

class MimcInstance : public CipherInstance {
 public:
  explicit MimcInstance(const InstanceSpec& s) : CipherInstance(s), ref_(s.n) {}

  Round round(long r, long R) const override {
    Round steps{{"keyadd", {Op::add_key(r - 1)}}, {"cube", {Op::power(3)}}};
    if (r == R) steps.push_back({"keyadd", {Op::add_key(R)}});
    return steps;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    std::vector<Elements> out;
    const auto& c = ref_.constants();
    for (long i = 0; i < R; ++i) out.push_back({key.at(0) ^ c.at(i)});
    out.push_back({key.at(0)});
    return out;
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    return {ref_.encrypt(key.at(0), pt.at(0), R)};
  }

 private:
  Mimc ref_;
};

}  // namespace

const CipherEntry& mimc_entry() {
  static const CipherEntry e = [] {
    CipherEntry e;
    e.name = "mimc";
    e.display = "MiMC";
    e.description =
        "MiMC over GF(2^n), n odd so that x^3 is a permutation: one field element per block, "
        "r = ceil(n / log2 3) rounds of x <- (x + k + c_i)^3 (c_0 = 0) and a final key addition. One product "
        "per round: the classic arithmetization-oriented cipher, a deep and narrow circuit. Round constants "
        "derived from SHAKE-256 (runners/ciphers/mimc/README.md). Decryption is not offered (x^3's inverse "
        "has high degree).";
    e.citation =
        "M. Albrecht, L. Grassi, C. Rechberger, A. Roy, T. Tiessen, MiMC: Efficient Encryption and Cryptographic "
        "Hashing with Minimal Multiplicative Complexity, ASIACRYPT 2016 (ePrint 2016/492)";
    for (long n : Mimc::degrees()) {
      const Mimc m(n);
      e.instances.push_back({msg("mimc", n), n, m.modulus_low(), 1, m.rounds(), 1});
    }
    e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> { return std::make_unique<MimcInstance>(s); };
    return e;
  }();
  return e;
}

}  // namespace cb
