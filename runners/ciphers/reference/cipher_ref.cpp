// cipher_ref: encrypt or decrypt one block with the plaintext AES-128 or Vision reference.
//
//   cipher_ref --cipher aes128 --key HEX --plaintext HEX [--decrypt]
//   cipher_ref --cipher vision --field-bits 64 [--state-size 2] [--rounds 13] --key HEX --plaintext HEX
//
// Prints the output block as hex (the byte encoding of vectors/README.md). With
// --decrypt the input block (--plaintext, or its alias --ciphertext) is decrypted.
#include <CLI/CLI.hpp>

#include <iostream>

#include "ciphers/reference/aes128.h"
#include "ciphers/reference/hex.h"
#include "ciphers/reference/vision.h"
#include "engine/errors.h"

namespace {

struct Args {
  std::string cipher;
  long field_bits = 0, state_size = 0, rounds = 0;
  std::string key, input;
  bool decrypt = false;
};

std::string run(const Args& a) {
  const std::vector<uint8_t> key = cb::from_hex(a.key, "key");
  const std::vector<uint8_t> in = cb::from_hex(a.input, a.decrypt ? "ciphertext" : "plaintext");
  const char* in_name = a.decrypt ? "ciphertext" : "plaintext";
  if (a.cipher == "aes128") {
    if (a.field_bits != 0 || a.state_size != 0)
      throw cb::ParameterError("--field-bits and --state-size apply to Vision only: AES-128 is GF(2^8)^16");
    if (a.rounds != 0 && a.rounds != cb::aes128::kRounds)
      throw cb::ParameterError(cb::msg("rounds=", a.rounds, ": the AES-128 reference runs all 10 rounds"));
    if (key.size() != 16) throw cb::ParameterError(cb::msg("key has ", key.size(), " bytes: AES-128 needs 16"));
    if (in.size() != 16)
      throw cb::ParameterError(cb::msg(in_name, " has ", in.size(), " bytes: the AES block is 16"));
    cb::aes128::Block k, x;
    std::copy(key.begin(), key.end(), k.begin());
    std::copy(in.begin(), in.end(), x.begin());
    const cb::aes128::Aes128 aes(k);
    const cb::aes128::Block y = a.decrypt ? aes.decrypt(x) : aes.encrypt(x);
    return cb::to_hex({y.begin(), y.end()});
  }
  // vision
  if (a.field_bits == 0) throw cb::ParameterError("--field-bits is required for Vision (8, 16, 32 or 64)");
  const long m = a.state_size ? a.state_size : 128 / a.field_bits;
  const cb::Vision v(cb::VisionParams::get(a.field_bits, m));
  const std::string inst = cb::msg("Vision GF(2^", v.n(), ")^", v.m());
  const size_t block = size_t(v.n() * v.m() / 8);
  if (key.size() != block) throw cb::ParameterError(cb::msg("key has ", key.size(), " bytes: ", inst, " needs ", block));
  if (in.size() != block)
    throw cb::ParameterError(cb::msg(in_name, " has ", in.size(), " bytes: ", inst, " needs ", block));
  const auto ks = v.from_bytes(key), xs = v.from_bytes(in);
  const auto ys = a.decrypt ? v.decrypt(ks, xs, a.rounds) : v.encrypt(ks, xs, a.rounds);
  return cb::to_hex(v.to_bytes(ys));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Encrypt or decrypt one block with the plaintext AES-128 / Vision reference"};
  Args a;
  app.add_option("--cipher", a.cipher, "aes128 or vision")->required()->check(CLI::IsMember({"aes128", "vision"}));
  app.add_option("--field-bits", a.field_bits, "Vision field degree n: 8, 16, 32 or 64");
  app.add_option("--state-size", a.state_size, "Vision state size m (default 128/n)");
  app.add_option("--rounds", a.rounds, "Vision rounds (default: the instance's; fewer = reduced-round)");
  app.add_option("--key", a.key, "key as hex")->required();
  app.add_option("--plaintext,--ciphertext,--input", a.input, "input block as hex")->required();
  app.add_flag("--decrypt", a.decrypt, "decrypt the input block instead of encrypting it");
  CLI11_PARSE(app, argc, argv);
  try {
    std::cout << run(a) << "\n";
  } catch (const cb::Error& e) {
    std::cerr << "cipher_ref: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
