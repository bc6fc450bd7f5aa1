// record_sizes.h: the sizes a record gives (issue 46 item 4): bytes of the public key and
// of the evaluation keys, of one fresh and one output ciphertext, and the expansion, as
// one JSON object that run_cipher and bench_ops report alike.
//
// The bytes come from the backend's own objects (the optional members key_sizes() and
// ciphertext_bytes() of backend/backend.h): the engine counts the residues it stores,
// HElib its binary serialization, the clear backend its slot words (no keys). Expansion is
// ciphertext bits per plaintext bit: 8 x ciphertext bytes / the plaintext bits one
// ciphertext carries (slots used x bits per element, given by the caller: n for GF(2^n)
// elements, log2 p for F_p; slot_element_bits below).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

#include "backend/backend.h"
#include "engine/errors.h"

namespace cb::apps {

// Bits of one slot element of B: n for GF(2^n), log2 p for F_p.
template <class B>
double slot_element_bits(const B& be) {
  if (slot_characteristic(be) != 2) return std::log2(double(be.prime_field().p()));
  return double(be.field().n());
}

// {"public_key_bytes", "eval_key_bytes" (relinearization + automorphism keys), "eval_keys"
// (their count), "relin_key_bytes", "automorphism_key_bytes", "automorphism_keys",
// "fresh_ciphertext_bytes", "output_ciphertext_bytes" (`output` at the primes the circuit
// left it), "plaintext_bits", "expansion" (output ciphertext bits per plaintext bit),
// "fresh_expansion" (the same for `fresh`), "counted" (how the backend counted)}.
// ParameterError unless plaintext_bits > 0. Keys are those generated so far: call after
// the circuit's require_automorphisms.
template <class B>
nlohmann::json record_sizes_json(const B& be, const typename B::Ctxt& fresh, const typename B::Ctxt& output,
                                 double plaintext_bits) {
  if (!(plaintext_bits > 0))
    throw ParameterError(msg("record_sizes_json: plaintext_bits=", plaintext_bits, " (slots used x bits per element) must be > 0"));
  const KeySizes k = be.key_sizes();
  const size_t fresh_bytes = be.ciphertext_bytes(fresh), out_bytes = be.ciphertext_bytes(output);
  return {{"public_key_bytes", k.public_key},
          {"eval_key_bytes", k.eval_key_bytes()},
          {"eval_keys", k.eval_keys()},
          {"relin_key_bytes", k.relin_key},
          {"automorphism_key_bytes", k.automorphism_keys},
          {"automorphism_keys", k.n_automorphism_keys},
          {"fresh_ciphertext_bytes", fresh_bytes},
          {"output_ciphertext_bytes", out_bytes},
          {"plaintext_bits", plaintext_bits},
          {"expansion", 8.0 * double(out_bytes) / plaintext_bits},
          {"fresh_expansion", 8.0 * double(fresh_bytes) / plaintext_bits},
          {"counted", k.counted}};
}

}  // namespace cb::apps
