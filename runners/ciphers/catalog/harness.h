// harness.h: a catalog circuit on a backend with its clear workload, checked against the
// entry's reference. What run_cipher runs and plans, and what the tests run.
//
// One cipher key per run. Block 0 may be given; the other blocks, and the key when none is
// given, come from a generator seeded by `seed`, one byte per draw, in the byte codec of
// cipher_spec.h (the bits above x^(n-1) of each element cleared; F_p: each element drawn
// as a 64-bit word masked to p's bit length, drawn again until below p). Encryption maps the
// plaintexts to the reference's R-round ciphertexts; decryption (the transciphering
// direction) takes those ciphertexts and must return the plaintexts.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ciphers/catalog/circuit.h"
#include "ciphers/common/evaluator.h"
#include "engine/errors.h"

namespace cb {

struct Workload {
  Elements key;
  std::vector<Elements> plain, cipher;  // per block: plaintext and R-round ciphertext
};

// key_bytes / block0_bytes: empty for random ones.
inline Workload make_workload(const CipherInstance& inst, long rounds, long blocks, uint64_t seed,
                              const std::vector<uint8_t>& key_bytes = {},
                              const std::vector<uint8_t>& block0_bytes = {}) {
  const auto& sp = inst.spec();
  std::mt19937_64 rng(seed);
  const long eb = inst.element_bytes();
  const uint8_t top = sp.n % 8 ? uint8_t((1u << (sp.n % 8)) - 1) : uint8_t(0xff);
  auto random_elements = [&](long count) {
    if (sp.p != 2) {
      const uint64_t mask = (uint64_t(1) << (64 - __builtin_clzll(sp.p))) - 1;
      Elements v(count);
      for (auto& x : v)
        do x = rng() & mask;
        while (x >= sp.p);
      return v;
    }
    std::vector<uint8_t> v(count * eb);
    for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(rng()) & (i % eb == 0 ? top : 0xff);
    return inst.from_bytes(v, count, "random");
  };
  Workload w;
  w.key = key_bytes.empty() ? random_elements(sp.key_elements) : inst.from_bytes(key_bytes, sp.key_elements, "--key");
  for (long b = 0; b < blocks; ++b) {
    Elements p = random_elements(sp.s);
    if (b == 0 && !block0_bytes.empty()) p = inst.from_bytes(block0_bytes, sp.s, "--plaintext");
    w.plain.push_back(p);
  }
  for (auto& p : w.plain) w.cipher.push_back(inst.encrypt(w.key, p, rounds));
  return w;
}

template <class B, template <class> class Rep>
struct CipherHarness {
  using Circuit = CipherCircuit<B, Rep>;
  using State = typename Circuit::State;

  // blocks = 0: as many as the ciphertexts hold. Generates the keys of every automorphism
  // the circuit applies.
  CipherHarness(B& b, const CipherInstance& inst, long rounds, bool decrypt, bool fused, long blocks, uint64_t seed,
                const std::vector<uint8_t>& key_bytes = {}, const std::vector<uint8_t>& block0_bytes = {},
                const std::string& name = "")
      : decrypt(decrypt), circ(b, inst, rounds, decrypt, fused) {
    this->blocks = blocks ? blocks : circ.max_blocks();
    if (this->blocks < 1 || this->blocks > circ.max_blocks())
      throw ParameterError(msg("--blocks ", this->blocks, ": m=", b.info().m, " holds ", circ.max_blocks(),
                               " blocks of ", name.empty() ? inst.spec().id : name, " ", Rep<B>::kName));
    autos = circ.automorphisms();
    b.require_automorphisms(autos);
    w = make_workload(inst, rounds, this->blocks, seed, key_bytes, block0_bytes);
  }
  const std::vector<Elements>& inputs() const { return decrypt ? w.cipher : w.plain; }
  const std::vector<Elements>& expected() const { return decrypt ? w.plain : w.cipher; }
  void load_keys(bool per_round = false) { circ.load_subkeys(circ.instance().subkeys(w.key, circ.rounds()), per_round); }
  State encrypt_inputs() const { return circ.encrypt_input(inputs()); }
  std::vector<Elements> decrypt_outputs(const State& st) const { return circ.decrypt_output(st, blocks); }

  bool decrypt;
  Circuit circ;
  long blocks = 0;
  std::vector<long> autos;
  Workload w;
};

}  // namespace cb
