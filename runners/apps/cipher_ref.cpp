// cipher_ref: encrypt or decrypt one block with a cipher of the catalog, in the clear.
//
//   cipher_ref --cipher NAME [--field-bits n] [--state-size s] [--rounds R] --key HEX --plaintext HEX [--decrypt]
//   cipher_ref --cipher NAME --p P [--rounds R] --key 1,2,3 --plaintext 4,5,6 [--decrypt]
//   cipher_ref --instance ID ...
//   cipher_ref --cipher pasta --p 65537 --key K --nonce N --counter C   a keystream entry
//
// Encryption is the entry's own reference (written apart from its round description);
// decryption runs the description's inverse in the clear (ciphers/catalog/program.h), where
// the entry offers one. Prints the output block as hex in the catalog's byte codec
// (cipher_spec.h: each element as ceil(n/8) bytes big-endian, the usual AES byte string).
// A prime-field instance (--p P, or its --instance id: mimcp17) reads its key and input and
// prints its output as decimal elements mod p, comma-separated; a value that is not a
// number, is not below p, or a wrong count is refused naming it.
// A keystream entry (Pasta, HERA, Rasta: keystream_spec.h) prints the keystream block of
// (--nonce, --counter) under --key, from its clear reference, in the instance's text codec.
#include <CLI/CLI.hpp>

#include <iostream>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/catalog/program.h"
#include "ciphers/reference/hex.h"
#include "engine/errors.h"

namespace {

struct Args {
  std::string cipher, instance;
  long field_bits = 0, state_size = 0, rounds = 0;
  uint64_t p = 0;
  std::string key, input;
  bool decrypt = false;
  uint64_t nonce = 0, counter = 0;
  bool nonce_given = false;
};

// The instance: --instance ID, or --cipher with --p / --field-bits / --state-size.
std::pair<const cb::CipherEntry*, const cb::InstanceSpec*> select(const Args& a) {
  if (a.instance.empty()) {
    if (a.cipher.empty()) throw cb::ParameterError("--cipher or --instance is required");
    const cb::CipherEntry& e = cb::find_cipher(a.cipher);
    return {&e, &cb::find_instance(e, a.field_bits, a.state_size, a.p)};
  }
  const auto [e, sp] = cb::find_instance_id(a.instance);
  if (!a.cipher.empty() && a.cipher != e->name)
    throw cb::ParameterError(cb::msg("--instance ", a.instance, " is ", e->name, "'s, not --cipher ", a.cipher, "'s"));
  if (a.field_bits || a.state_size || a.p)
    throw cb::ParameterError(cb::msg("--instance ", a.instance, " names the instance: drop --field-bits, --state-size "
                                     "and --p"));
  return {e, sp};
}

// A prime-field instance: decimal elements in and out.
std::string run_prime(const Args& a, const cb::CipherEntry& e, const cb::InstanceSpec& sp, long R) {
  const auto inst = e.make(sp);
  const auto k = inst->parse(a.key, sp.key_elements, "--key");
  const auto x = inst->parse(a.input, sp.s, a.decrypt ? "--ciphertext" : "--plaintext");
  if (!a.decrypt) return inst->format(inst->encrypt(k, x, R));
  const auto prog = cb::compile_program(*inst, R, true, false);  // refused where no cheap inverse
  return inst->format(cb::evaluate_clear(inst->element_field(), prog, inst->subkeys(k, R), x));
}

std::string run(const Args& a) {
  const auto [ep, spp] = select(a);
  const cb::CipherEntry& e = *ep;
  const cb::InstanceSpec& sp = *spp;
  const std::string name = e.display_instance(sp);
  if (e.keystream()) {
    if (a.decrypt || !a.input.empty() || a.rounds)
      throw cb::ParameterError(cb::msg(e.name, " is a keystream generator: --key, --nonce and --counter give a keystream "
                                       "block; --plaintext, --decrypt and --rounds are the block ciphers'"));
    if (!a.nonce_given) throw cb::ParameterError(cb::msg(e.name, " is a keystream generator: --nonce is required"));
    const auto inst = e.make_keystream(sp);
    return inst->format(inst->keystream(inst->parse(a.key, sp.key_elements, "--key"), a.nonce, a.counter));
  }
  if (a.input.empty()) throw cb::ParameterError("--plaintext is required");
  const long R = a.rounds ? a.rounds : sp.rounds;
  if (R < 1 || R > sp.rounds) throw cb::ParameterError(cb::msg("rounds=", R, " is outside [1, ", sp.rounds, "] for ", name));
  if (sp.p != 2) return run_prime(a, e, sp, R);
  const std::vector<uint8_t> key = cb::from_hex(a.key, "key");
  const std::vector<uint8_t> in = cb::from_hex(a.input, a.decrypt ? "ciphertext" : "plaintext");
  const auto inst = e.make(sp);
  const long eb = inst->element_bytes();
  if (long(key.size()) != eb * sp.key_elements)
    throw cb::ParameterError(cb::msg("key has ", key.size(), " bytes: ", name, " needs ", eb * sp.key_elements));
  if (long(in.size()) != eb * sp.s)
    throw cb::ParameterError(cb::msg(a.decrypt ? "ciphertext" : "plaintext", " has ", in.size(), " bytes: ", name,
                                     " needs ", eb * sp.s));
  const auto k = inst->from_bytes(key, sp.key_elements, "key");
  const auto x = inst->from_bytes(in, sp.s, a.decrypt ? "ciphertext" : "plaintext");
  if (!a.decrypt) return cb::to_hex(inst->to_bytes(inst->encrypt(k, x, R)));
  const auto prog = cb::compile_program(*inst, R, true, false);  // refused where no cheap inverse
  return cb::to_hex(inst->to_bytes(cb::evaluate_clear(inst->element_field(), prog, inst->subkeys(k, R), x)));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Encrypt or decrypt one block with a cipher of the catalog, in the clear"};
  Args a;
  app.add_option("--cipher", a.cipher, "a cipher of the catalog (run_cipher --list-ciphers)");
  app.add_option("--instance", a.instance, "an instance id of the catalog (mimc63, mimcp17, ...) instead of --cipher");
  app.add_option("--p", a.p, "the prime of a prime-field instance (F_p; default: GF(2^n))");
  app.add_option("--field-bits", a.field_bits, "the instance's field degree n (default: the cipher's first)");
  app.add_option("--state-size", a.state_size, "the instance's state size in field elements");
  app.add_option("--rounds", a.rounds, "rounds (default: the instance's; fewer = reduced-round)");
  app.add_option("--key", a.key, "key as hex (F_p: decimal elements, comma-separated)")->required();
  app.add_option("--plaintext,--ciphertext,--input", a.input, "input block as hex (F_p: decimal elements, comma-separated)");
  auto* nonce = app.add_option("--nonce", a.nonce, "a keystream entry's public nonce (0..2^64-1)");
  app.add_option("--counter", a.counter, "a keystream entry's block counter (0..2^64-1, default 0)");
  app.add_flag("--decrypt", a.decrypt, "decrypt the input block instead of encrypting it");
  CLI11_PARSE(app, argc, argv);
  a.nonce_given = nonce->count() > 0;
  try {
    std::cout << run(a) << "\n";
  } catch (const cb::Error& e) {
    std::cerr << "cipher_ref: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
