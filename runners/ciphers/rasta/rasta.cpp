#include "ciphers/rasta/rasta.h"

#include <cstring>

#include "ciphers/rasta/keccak.h"
#include "engine/errors.h"

namespace cb {
namespace {

constexpr size_t kRateBytes = 136;  // 1088 bits

bool get(const Rasta::Bits& v, long j) { return (v[j / 64] >> (j % 64)) & 1; }

// The block's stream, squeezed a permutation at a time as it is read, taken `width` bits
// at a time into packed words.
class BitReader {
 public:
  BitReader(const std::vector<uint8_t>& state, size_t expect) {
    for (int i = 0; i < 25; ++i) {
      lanes_[i] = 0;
      for (int b = 7; b >= 0; --b) lanes_[i] = (lanes_[i] << 8) | state[8 * i + b];
    }
    out_.reserve(expect + kRateBytes + 16);
  }

  void ensure(size_t bytes) {
    while (out_.size() < bytes) {
      keccak_f1600(lanes_);
      for (size_t i = 0; i < kRateBytes / 8; ++i)
        for (int b = 0; b < 8; ++b) out_.push_back(uint8_t(lanes_[i] >> (8 * b)));
    }
  }

  // The next `width` bits into words[0..ceil(width / 64)), bits above width zero.
  void take(uint64_t* words, long width) {
    const size_t end = pos_ + size_t(width);
    ensure((end + 7) / 8 + 9);  // 64-bit reads at any offset up to the end stay inside
    const long W = (width + 63) / 64;
    for (long w = 0; w < W; ++w) {
      const size_t bit = pos_ + 64 * size_t(w), byte = bit / 8;
      const unsigned sh = bit % 8;
      uint64_t lo = 0;
      for (int b = 7; b >= 0; --b) lo = (lo << 8) | out_[byte + b];
      words[w] = sh ? (lo >> sh) | (uint64_t(out_[byte + 8]) << (64 - sh)) : lo;
    }
    if (width % 64) words[W - 1] &= (uint64_t(1) << (width % 64)) - 1;
    pos_ = end;
  }

  const std::vector<uint8_t>& bytes() const { return out_; }

 private:
  uint64_t lanes_[25];
  std::vector<uint8_t> out_;
  size_t pos_ = 0;
};

}  // namespace

Rasta::Rasta(long n, long rounds) : n_(n), rounds_(rounds) {
  for (const auto& [in, ir] : instances())
    if (in == n && ir == rounds) return;
  throw ParameterError(msg("Rasta with n=", n, ", r=", rounds, ": IAIK's instances are n=525, r=5 and n=351, r=6"));
}

std::vector<std::pair<long, long>> Rasta::instances() { return {{525, 5}, {351, 6}}; }

std::vector<uint8_t> Rasta::initial_state(uint64_t nonce, uint64_t counter) const {
  std::vector<uint8_t> s(200, 0);
  auto put = [&](size_t at, uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) s[at + b] = uint8_t(v >> (8 * b));
  };
  put(0, uint64_t(rounds_), 4);
  put(4, uint64_t(rounds_), 4);
  put(8, uint64_t(n_), 4);
  put(12, uint64_t(n_), 4);
  put(24, nonce, 8);
  s[32] = 0x1F;
  put(40, counter, 8);
  s[kRateBytes - 1] ^= 0x80;
  return s;
}

std::vector<uint8_t> Rasta::stream(uint64_t nonce, uint64_t counter, size_t count) const {
  BitReader r(initial_state(nonce, counter), count);
  r.ensure(count);
  return {r.bytes().begin(), r.bytes().begin() + long(count)};
}

long Rasta::rank(std::vector<Bits> rows, long n) {
  long rk = 0;
  const long m = long(rows.size());
  for (long col = 0; col < n && rk < m; ++col) {
    const long w = col / 64;
    const uint64_t bit = uint64_t(1) << (col % 64);
    long piv = rk;
    while (piv < m && !(rows[piv][w] & bit)) ++piv;
    if (piv == m) continue;
    std::swap(rows[rk], rows[piv]);
    const Bits& p = rows[rk];
    for (long i = rk + 1; i < m; ++i)
      if (rows[i][w] & bit)
        for (size_t k = w; k < p.size(); ++k) rows[i][k] ^= p[k];  // words below w are zero in both
    ++rk;
  }
  return rk;
}

Rasta::Instance Rasta::instance(uint64_t nonce, uint64_t counter) const {
  // About 3.5 draws of n^2 bits per matrix, then the constants.
  const size_t expect = size_t(3.6 * double(rounds_ + 1) * double(n_) * double(n_) / 8) + size_t((rounds_ + 1) * n_ / 8);
  BitReader r(initial_state(nonce, counter), expect);
  Instance in;
  for (long i = 0; i <= rounds_; ++i) {
    std::vector<Bits> M(n_, Bits(words()));
    do {
      for (auto& row : M) r.take(row.data(), n_);
    } while (rank(M, n_) != n_);
    in.M.push_back(std::move(M));
  }
  for (long i = 0; i <= rounds_; ++i) {
    Bits c(words());
    r.take(c.data(), n_);
    in.c.push_back(std::move(c));
  }
  return in;
}

Rasta::Bits Rasta::mul(const std::vector<Bits>& M, const Bits& x) const {
  Bits y(words(), 0);
  for (long i = 0; i < n_; ++i) {
    uint64_t acc = 0;
    for (long w = 0; w < words(); ++w) acc ^= M[i][w] & x[w];
    if (__builtin_parityll(acc)) y[i / 64] |= uint64_t(1) << (i % 64);
  }
  return y;
}

Rasta::Bits Rasta::chi(const Bits& x) const {
  Bits y(words(), 0);
  for (long j = 0; j < n_; ++j) {
    const bool a = get(x, j), b = get(x, (j + 1) % n_), c = get(x, (j + 2) % n_);
    if (a ^ c ^ (b & c)) y[j / 64] |= uint64_t(1) << (j % 64);
  }
  return y;
}

Rasta::Bits Rasta::keystream(const Bits& key, uint64_t nonce, uint64_t counter) const {
  if (long(key.size()) != words() || (n_ % 64 && (key.back() >> (n_ % 64))))
    throw ParameterError(msg("Rasta n=", n_, ": the key is not ", n_, " packed bits"));
  const Instance in = instance(nonce, counter);
  Bits x = key;
  for (long i = 0; i < rounds_; ++i) {
    x = mul(in.M[i], x);
    for (long w = 0; w < words(); ++w) x[w] ^= in.c[i][w];
    x = chi(x);
  }
  x = mul(in.M[rounds_], x);
  for (long w = 0; w < words(); ++w) x[w] ^= in.c[rounds_][w] ^ key[w];
  return x;
}

}  // namespace cb
