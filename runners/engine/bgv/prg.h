// prg.h: the engine's pseudo-random byte stream, AES-256 in counter mode.
//
// Every random value of key generation and encryption (uniform residues, the ternary and
// Hamming-weight secrets, the Gaussian errors) is read from such a stream, keyed by 32
// bytes. The block cipher is OpenSSL's (libcrypto's EVP interface): with AES-NI it produces
// a 64-bit word in about 1 ns on the project's machine, where NTL's ChaCha20 stream took
// 14 ns, so that the uniform halves a_j of the key-switching keys, 16 keys x 3 digits x 21
// primes x 46080 words for AES-128 at m=53261, cost 0.05 s instead of 0.65 s of key
// generation, and a compact key (keys.h), which regenerates a_j at every use, costs little
// more than a stored one. The counter starts at 0 and the stream is one sequence of bytes
// however it is read: fill() of n bytes and n/8 calls of next_u64() give the same words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;

namespace cb::bgv {

class Prg {
 public:
  static constexpr size_t kKeyBytes = 32;
  using Key = std::array<unsigned char, kKeyBytes>;

  explicit Prg(const Key& key);
  ~Prg();
  Prg(Prg&& o) noexcept;
  Prg& operator=(Prg&& o) noexcept;
  Prg(const Prg&) = delete;
  Prg& operator=(const Prg&) = delete;

  void fill(void* out, size_t n);  // the stream's next n bytes
  uint64_t next_u64();             // its next 8 bytes, little-endian

 private:
  void encrypt_zeros(unsigned char* out, size_t n);

  EVP_CIPHER_CTX* ctx_ = nullptr;
  std::array<unsigned char, 512> buf_{};
  size_t pos_ = 512;  // bytes of buf_ already read
};

}  // namespace cb::bgv
