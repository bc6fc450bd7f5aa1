// harness.h: a catalog circuit on a backend with its clear workload, checked against the
// entry's reference. What run_cipher runs and plans, and what the tests run.
//
// One cipher key per run. Block 0 may be given; the other blocks, and the key when none is
// given, come from a generator seeded by `seed`, one byte per draw, in the byte codec of
// cipher_spec.h (the bits above x^(n-1) of each element cleared; F_p: each element drawn
// as a 64-bit word masked to p's bit length, drawn again until below p). Encryption maps the
// plaintexts to the reference's R-round ciphertexts; decryption (the transciphering
// direction) takes those ciphertexts and must return the plaintexts.
//
// CTR mode (run_cipher --mode ctr, apps/ctr_run.h): block j's keystream is E_k(ctr_j), the
// counter block ctr_j the 128-bit integer T_j = nonce 2^64 + (counter + j) written as the
// instance's s elements, big-endian: element 0 the most significant digit, element s-1 the
// least, in base 2^n for GF(2^n) (the digit's bits are the element's coefficients, bit i
// of x^i) and in base p for F_p. For AES-128 (GF(2^8)^16, element i = byte i) that is NIST
// SP 800-38A's counter block as OpenSSL's AES-128-CTR takes it: the 16-byte IV
// nonce (8 bytes, big-endian) || counter (8 bytes, big-endian), incremented as one
// big-endian number (which never carries into the nonce: counters past 2^64 - 1 are
// refused). The encoding is injective; a block smaller than 128 bits (MiMC: one element,
// F_p^1 or GF(2^n)^1; Chaghri GF(2^63)^3 holds it all) takes only the T below |K|^s, and a
// (nonce, counter, blocks) reaching past that is refused (ctr_refusal), never wrapped:
// a repeated counter block would repeat the keystream.
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

// |K|^s, saturated at 2^128 (every T fits).
inline unsigned __int128 counter_space(const CipherInstance& inst) {
  const auto& sp = inst.spec();
  const unsigned __int128 base = sp.p != 2 ? sp.p : (unsigned __int128)1 << sp.n;
  unsigned __int128 all = 1;
  for (long i = 0; i < sp.s; ++i) {
    if (all > ~(unsigned __int128)0 / base) return ~(unsigned __int128)0;
    all *= base;
  }
  return all;
}

// Why the counter blocks of (nonce, counter .. counter + blocks - 1) cannot be encoded, or
// "": the counters pass 2^64 - 1, or the last T does not fit the block (see the header).
inline std::string ctr_refusal(const CipherInstance& inst, uint64_t nonce, uint64_t counter, long blocks) {
  if (blocks < 1) return msg("--blocks ", blocks, ": at least one block");
  if (counter > ~uint64_t(0) - uint64_t(blocks - 1))
    return msg("--counter ", counter, " with ", blocks, " blocks: the counters pass 2^64 - 1");
  const unsigned __int128 last = ((unsigned __int128)nonce << 64) | (counter + uint64_t(blocks - 1));
  const unsigned __int128 all = counter_space(inst);
  if (all != ~(unsigned __int128)0 && last >= all) {
    const auto& sp = inst.spec();
    return msg("--nonce ", nonce, " --counter ", counter, " with ", blocks, " blocks: the last counter block, T = ", nonce,
               " 2^64 + ", counter + uint64_t(blocks - 1), ", does not fit one ", CipherEntry::instance_label(sp), " block (",
               sp.s, " element", sp.s > 1 ? "s" : "", " of ", CipherEntry::field_label(sp),
               "); with nonce 0 the counters must stay below ", (all >> 64) ? msg("2^64") : msg(uint64_t(all)));
  }
  return "";
}

// The counter block ctr = nonce 2^64 + counter as the instance's block (see the header);
// ParameterError when it does not fit.
inline Elements counter_block(const CipherInstance& inst, uint64_t nonce, uint64_t counter) {
  if (const std::string why = ctr_refusal(inst, nonce, counter, 1); !why.empty()) throw ParameterError(why);
  const auto& sp = inst.spec();
  unsigned __int128 t = ((unsigned __int128)nonce << 64) | counter;
  Elements v(size_t(sp.s), 0);
  for (long i = sp.s - 1; i >= 0; --i) {
    if (sp.p != 2) {
      v[size_t(i)] = uint64_t(t % sp.p), t /= sp.p;
    } else {
      const uint64_t mask = sp.n == 64 ? ~uint64_t(0) : (uint64_t(1) << sp.n) - 1;
      v[size_t(i)] = uint64_t(t) & mask;
      t >>= sp.n;
    }
  }
  return v;
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
