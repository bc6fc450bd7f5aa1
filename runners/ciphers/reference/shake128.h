// shake128.h: SHAKE128 (FIPS 202) as a byte stream, from OpenSSL's libcrypto.
//
// The hybrid-HE ciphers (Pasta, HERA, Rasta) draw their per-block matrices and constants
// from SHAKE128 seeded with the public nonce and block counter, squeezing as they go.
// OpenSSL 3.0 (Debian's) has no incremental squeeze (EVP_DigestSqueeze is 3.3), but a
// XOF's output of length L is the prefix of its output of any length L' > L, so the stream
// computes a prefix at once (EVP_DigestFinalXOF) and recomputes a prefix twice as long
// when a reader runs past it: the same bytes as squeezing, at most twice the work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cb {

class Shake128 {
 public:
  // expect: the bytes a reader will likely take (the first prefix computed; 0: 4096).
  explicit Shake128(std::vector<uint8_t> seed, size_t expect = 0) : seed_(std::move(seed)), expect_(expect) {}
  // The seed IAIK's framework uses: the nonce then the block counter, each 8 bytes big-endian.
  static Shake128 for_block(uint64_t nonce, uint64_t counter, size_t expect = 0);

  // The next `count` bytes of the output stream.
  void squeeze(uint8_t* out, size_t count);
  // The next 8 bytes as a big-endian integer.
  uint64_t next_u64_be();
  // Bytes read so far.
  size_t position() const { return pos_; }

 private:
  void extend(size_t need);
  std::vector<uint8_t> seed_, out_;
  size_t expect_ = 0;
  size_t pos_ = 0;
};

}  // namespace cb
