// aes_test_circuit.h (tests only): the catalog's circuit for AES-128 with the reference's
// types (aes128::Block, round keys), so the AES tests read as the paper's steps.
#pragma once

#include <vector>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/circuit.h"
#include "ciphers/aes128/aes128.h"

namespace cb {

inline const CipherInstance& aes128_instance() {
  static const auto inst = [] {
    const CipherEntry& e = find_cipher("aes128");
    return e.make(e.instances.front());
  }();
  return *inst;
}

template <class B, template <class> class Rep>
class AesCircuit : public CipherCircuit<B, Rep> {
  using Base = CipherCircuit<B, Rep>;

 public:
  AesCircuit(const B& b, long rounds, bool decrypt, bool fused = false)
      : Base(b, aes128_instance(), rounds, decrypt, fused) {}
  void load_round_keys(const std::vector<aes128::Block>& rk) {
    std::vector<Elements> v;
    for (auto& k : rk) v.emplace_back(k.begin(), k.end());
    Base::load_subkeys(v);
  }
  typename Base::State encrypt_input(const std::vector<aes128::Block>& blocks) const {
    std::vector<Elements> v;
    for (auto& b : blocks) v.emplace_back(b.begin(), b.end());
    return Base::encrypt_input(v);
  }
  std::vector<aes128::Block> decrypt_output(const typename Base::State& st, long blocks) const {
    std::vector<aes128::Block> out;
    for (auto& v : Base::decrypt_output(st, blocks)) {
      aes128::Block b;
      for (int i = 0; i < 16; ++i) b[i] = uint8_t(v[i]);
      out.push_back(b);
    }
    return out;
  }
};

}  // namespace cb
