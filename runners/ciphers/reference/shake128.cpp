#include "ciphers/reference/shake128.h"

#include <openssl/evp.h>

#include <algorithm>
#include <memory>

#include "engine/errors.h"

namespace cb {

Shake128 Shake128::for_block(uint64_t nonce, uint64_t counter, size_t expect) {
  std::vector<uint8_t> seed(16);
  for (int i = 0; i < 8; ++i) {
    seed[i] = uint8_t(nonce >> (56 - 8 * i));
    seed[8 + i] = uint8_t(counter >> (56 - 8 * i));
  }
  return Shake128(std::move(seed), expect);
}

void Shake128::extend(size_t need) {
  size_t len = std::max<size_t>(out_.empty() ? (expect_ ? expect_ : 4096) : 2 * out_.size(), need);
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::vector<uint8_t> out(len);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_shake128(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), seed_.data(), seed_.size()) != 1 ||
      EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()) != 1)
    throw Error("Shake128: OpenSSL's SHAKE128 failed (EVP_DigestFinalXOF)");
  out_ = std::move(out);
}

void Shake128::squeeze(uint8_t* out, size_t count) {
  if (pos_ + count > out_.size()) extend(pos_ + count);
  std::copy(out_.begin() + long(pos_), out_.begin() + long(pos_ + count), out);
  pos_ += count;
}

uint64_t Shake128::next_u64_be() {
  uint8_t b[8];
  squeeze(b, 8);
  uint64_t x = 0;
  for (uint8_t v : b) x = (x << 8) | v;
  return x;
}

}  // namespace cb
