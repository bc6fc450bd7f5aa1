// Tests of prg.h: the stream is AES-256-CTR from counter 0, one sequence however it is read.
#include "engine/bgv/prg.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace cb::bgv {
namespace {

std::string hex(const unsigned char* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) s += {d[p[i] >> 4], d[p[i] & 15]};
  return s;
}

Prg::Key counting_key() {
  Prg::Key k;
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<unsigned char>(i);
  return k;
}

// AES-256 of the zero block under the zero key (the known answer published for AES-256,
// e.g. in the NESSIE test vectors): the stream's first block.
TEST(Prg, FirstBlockIsAes256OfCounterZero) {
  Prg g(Prg::Key{});
  unsigned char b[16];
  g.fill(b, sizeof b);
  EXPECT_EQ(hex(b, 16), "dc95c078a2408989ad48a21492842087");
}

// Counter blocks 0, 1, 2 under the key 00 01 .. 1f (Python's `cryptography`, AES-256-CTR
// from a zero counter block, gives the same 48 bytes).
TEST(Prg, CounterRunsAcrossBlocks) {
  Prg g(counting_key());
  unsigned char b[48];
  g.fill(b, sizeof b);
  EXPECT_EQ(hex(b, 48),
            "f29000b62a499fd0a9f39a6add2e7780f05d76ae4ab99fe5a6f69b3148c2363d"
            "0ebcb5deb52c83bd08a8a935182c9199");
}

// fill() and next_u64() read one stream: any interleaving gives the bytes of one fill().
TEST(Prg, OneStreamHoweverRead) {
  const size_t n = 8 * 1000 + 5;
  std::vector<unsigned char> whole(n), parts(n);
  Prg(counting_key()).fill(whole.data(), n);
  Prg g(counting_key());
  size_t at = 0;
  for (size_t step = 0; at < n; ++step) {
    if (step % 3 == 0 && n - at >= 8) {
      const uint64_t x = g.next_u64();
      std::memcpy(parts.data() + at, &x, 8);
      at += 8;
    } else {
      const size_t k = std::min(n - at, size_t(1 + 37 * step % 700));
      g.fill(parts.data() + at, k);
      at += k;
    }
  }
  EXPECT_EQ(whole, parts);
}

TEST(Prg, MovedStreamGoesOn) {
  Prg a(counting_key());
  const uint64_t first = a.next_u64();
  Prg b(std::move(a));
  const uint64_t second = b.next_u64();
  Prg ref(counting_key());
  EXPECT_EQ(ref.next_u64(), first);
  EXPECT_EQ(ref.next_u64(), second);
}

}  // namespace
}  // namespace cb::bgv
