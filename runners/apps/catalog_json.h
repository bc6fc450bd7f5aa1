// catalog_json.h: the cipher catalog as JSON (run_cipher --list-ciphers), what the Python
// side (cbparams.catalog) reads instead of keeping its own list of ciphers.
//
// {"ciphers": [{name, display, description, citation, packings: ["packed", <sliced name>,
//   "bit-sliced"] (those it offers, catalog.h packings()),
//   instances: [{id, label ("GF(2^8)^16", "F_65537^1"), display ("AES-128", "Vision
//   GF(2^8)^16", "MiMC F_65537"), p (the characteristic: 2 for GF(2^n), else the prime of
//   F_p), n (F_p: 1), field_polynomial (F_p: ""), s, rounds, block_bits (F_p: s
//   floor(log2 p), the whole bits a block carries), block_bytes, key_bytes, decrypt (bool),
//   decrypt_note (why not, or ""), steps: {separate: [...], fused: [...], "bit-sliced":
//   [...]} (per packing offered: on elements separate and fused, on bits "bit-sliced")}]}]}
// decrypt is on elements where the entry runs there, else on bits. Each cipher has its kind:
// "block", or "keystream" (a keystream generator, keystream_spec.h), whose instances have
// id, label, display, p, n, s (keystream elements per block), state_size, rounds,
// block_bits, key_elements, key_bytes and steps (the step names of each round).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/catalog/program.h"

namespace cb::apps {

// "x^8 + x^4 + x^3 + x + 1"
inline std::string field_polynomial(long n, uint64_t f_low) {
  std::string s = "x^" + std::to_string(n);
  for (long i = n - 1; i >= 0; --i) {
    if (!((f_low >> i) & 1)) continue;
    s += i == 0 ? " + 1" : i == 1 ? " + x" : " + x^" + std::to_string(i);
  }
  return s;
}

inline nlohmann::json catalog_json() {
  nlohmann::json ciphers = nlohmann::json::array();
  for (const CipherEntry* e : cipher_catalog()) {
    nlohmann::json insts = nlohmann::json::array();
    const auto offered = packings(*e);
    const bool elements = offered.front() == "packed";
    const bool bits = offered.back() == kBitSliced;
    if (e->keystream()) {  // a keystream generator (keystream_spec.h): its program's steps per round
      for (const auto& sp : e->instances) {
        const auto ks = e->make_keystream(sp);
        nlohmann::json rounds = nlohmann::json::array();
        for (const auto& r : ks->program()) {
          nlohmann::json names = nlohmann::json::array();
          for (const auto& st : r) names.push_back(st.name);
          rounds.push_back(names);
        }
        const long eb = ks->element_bytes();
        insts.push_back({{"id", sp.id},
                         {"label", CipherEntry::instance_label(sp)},
                         {"display", e->display_instance(sp)},
                         {"p", sp.p},
                         {"n", sp.n},
                         {"s", sp.s},
                         {"state_size", ks->state_size()},
                         {"rounds", sp.rounds},
                         {"block_bits", sp.p == 2 ? sp.n * sp.s : (63 - __builtin_clzll(sp.p)) * sp.s},
                         {"key_elements", sp.key_elements},
                         {"key_bytes", eb * sp.key_elements},
                         {"steps", rounds}});
      }
      ciphers.push_back({{"name", e->name},
                         {"kind", "keystream"},
                         {"display", e->display},
                         {"description", e->description},
                         {"citation", e->citation},
                         {"packings", offered},
                         {"instances", insts}});
      continue;
    }
    for (const auto& sp : e->instances) {
      const auto inst = e->make(sp);
      const std::string refusal = elements ? decrypt_refusal(*inst) : bits_refusal(*inst, true);
      nlohmann::json steps = nlohmann::json::object();
      if (elements) steps["separate"] = step_names(*inst, false), steps["fused"] = step_names(*inst, true);
      if (bits) steps[kBitSliced] = step_names(*inst, false, false, true);
      const long eb = inst->element_bytes();
      insts.push_back({{"id", sp.id},
                       {"label", CipherEntry::instance_label(sp)},
                       {"display", e->display_instance(sp)},
                       {"p", sp.p},
                       {"n", sp.n},
                       {"field_polynomial", sp.p == 2 ? field_polynomial(sp.n, sp.f_low) : std::string()},
                       {"s", sp.s},
                       {"rounds", sp.rounds},
                       {"block_bits", sp.p == 2 ? sp.n * sp.s : (63 - __builtin_clzll(sp.p)) * sp.s},
                       {"block_bytes", eb * sp.s},
                       {"key_bytes", eb * sp.key_elements},
                       {"decrypt", refusal.empty()},
                       {"decrypt_note", refusal},
                       {"steps", steps}});
    }
    ciphers.push_back({{"name", e->name},
                       {"kind", "block"},
                       {"display", e->display},
                       {"description", e->description},
                       {"citation", e->citation},
                       {"packings", offered},
                       {"instances", insts}});
  }
  return {{"ciphers", ciphers}};
}

}  // namespace cb::apps
