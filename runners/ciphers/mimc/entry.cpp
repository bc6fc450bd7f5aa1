// The catalog entry of MiMC over GF(2^n) (Albrecht, Grassi, Rechberger, Roy, Tiessen,
// Asiacrypt 2016): one field element per block, r = ceil(n / log2 3) rounds of
//     x <- (x + k + c_i)^3,   c_0 = 0,
// and a final key addition, E_k(x) = F_(r-1) o ... o F_0(x) + k. Under FHE a round is one
// addition and one product (x^3 = x^2 x: a Frobenius map and a multiplication, depth 1):
// a deep, narrow circuit, unlike AES or Vision. The subkeys are k + c_i and k, computed
// in the clear. Decryption is not offered: x^3's inverse in GF(2^n) is x^e with e of
// about n/2 set bits (catalog: decrypt_note). The clear reference is mimc.h.
//
// Over F_p (p = 2 mod 3; mimc_prime.h) the same rounds with additions mod p and
// r = ceil(log_3 p): the subkeys are k + c_i mod p and k, and the cube is a square and a
// product (power_map.h), depth 2 per round. Instances mimcp17 (p = 65537, a 17-bit prime)
// and mimcp33 (p = 8088322049, 33 bits): the number is the element's bit length, as in
// mimc63 and mimc31.
#include <memory>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/mimc/mimc.h"
#include "ciphers/mimc/mimc_prime.h"
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

// MiMC over F_p: the same steps, additions mod p.
class MimcPrimeInstance : public CipherInstance {
 public:
  explicit MimcPrimeInstance(const InstanceSpec& s) : CipherInstance(s), ref_(s.p) {}

  Round round(long r, long R) const override {
    Round steps{{"keyadd", {Op::add_key(r - 1)}}, {"cube", {Op::power(3)}}};
    if (r == R) steps.push_back({"keyadd", {Op::add_key(R)}});
    return steps;
  }
  std::vector<Elements> subkeys(const Elements& key, long R) const override {
    std::vector<Elements> out;
    const auto& c = ref_.constants();
    for (long i = 0; i < R; ++i) out.push_back({ref_.field().add(key.at(0), c.at(i))});
    out.push_back({key.at(0)});
    return out;
  }
  Elements encrypt(const Elements& key, const Elements& pt, long R) const override {
    return {ref_.encrypt(key.at(0), pt.at(0), R)};
  }

 private:
  MimcPrime ref_;
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
        "has high degree). Over F_p (p = 2 mod 3: mimcp17, mimcp33) the same with additions mod p and "
        "r = ceil(log_3 p) rounds; the cube is a square and a product there (depth 2 per round).";
    e.citation =
        "M. Albrecht, L. Grassi, C. Rechberger, A. Roy, T. Tiessen, MiMC: Efficient Encryption and Cryptographic "
        "Hashing with Minimal Multiplicative Complexity, ASIACRYPT 2016 (ePrint 2016/492)";
    for (long n : Mimc::degrees()) {
      const Mimc m(n);
      e.instances.push_back({msg("mimc", n), n, m.modulus_low(), 1, m.rounds(), 1});
    }
    for (uint64_t p : MimcPrime::primes()) {
      const MimcPrime m(p);
      e.instances.push_back({msg("mimcp", m.field().bits()), 1, 0, 1, m.rounds(), 1, p});
    }
    e.excludes = &MimcPrime::excluded;
    e.make = [](const InstanceSpec& s) -> std::unique_ptr<CipherInstance> {
      if (s.p != 2) return std::make_unique<MimcPrimeInstance>(s);
      return std::make_unique<MimcInstance>(s);
    };
    return e;
  }();
  return e;
}

}  // namespace cb
