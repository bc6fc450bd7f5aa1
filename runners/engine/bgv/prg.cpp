#include "engine/bgv/prg.h"

#include <openssl/evp.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

#include "engine/errors.h"

namespace cb::bgv {

namespace {
const EVP_CIPHER* aes256_ctr() {
  static const EVP_CIPHER* c = EVP_aes_256_ctr();
  return c;
}
}  // namespace

Prg::Prg(const Key& key) : ctx_(EVP_CIPHER_CTX_new()) {
  const unsigned char iv[16] = {0};
  if (!ctx_ || EVP_EncryptInit_ex(ctx_, aes256_ctr(), nullptr, key.data(), iv) != 1)
    throw Error("Prg: OpenSSL could not set up AES-256-CTR (libcrypto's EVP_EncryptInit_ex failed)");
}

Prg::~Prg() { EVP_CIPHER_CTX_free(ctx_); }

Prg::Prg(Prg&& o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)), buf_(o.buf_), pos_(o.pos_) {}

Prg& Prg::operator=(Prg&& o) noexcept {
  if (this != &o) {
    EVP_CIPHER_CTX_free(ctx_);
    ctx_ = std::exchange(o.ctx_, nullptr);
    buf_ = o.buf_;
    pos_ = o.pos_;
  }
  return *this;
}

// The key stream is the encryption of zeros, written in place.
void Prg::encrypt_zeros(unsigned char* out, size_t n) {
  std::memset(out, 0, n);
  while (n > 0) {
    const int chunk = int(std::min<size_t>(n, size_t(1) << 30));
    int written = 0;
    if (EVP_EncryptUpdate(ctx_, out, &written, out, chunk) != 1 || written != chunk)
      throw Error("Prg: OpenSSL's AES-256-CTR failed (EVP_EncryptUpdate)");
    out += chunk;
    n -= size_t(chunk);
  }
}

void Prg::fill(void* out, size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  const size_t from_buf = std::min(n, buf_.size() - pos_);  // bytes already drawn come first
  std::memcpy(p, buf_.data() + pos_, from_buf);
  pos_ += from_buf;
  if (n > from_buf) encrypt_zeros(p + from_buf, n - from_buf);
}

uint64_t Prg::next_u64() {
  if (buf_.size() - pos_ < sizeof(uint64_t)) {
    const size_t left = buf_.size() - pos_;
    std::memmove(buf_.data(), buf_.data() + pos_, left);
    encrypt_zeros(buf_.data() + left, buf_.size() - left);
    pos_ = 0;
  }
  uint64_t x;
  std::memcpy(&x, buf_.data() + pos_, sizeof x);
  pos_ += sizeof x;
  return x;
}

}  // namespace cb::bgv
