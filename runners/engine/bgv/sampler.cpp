#include "engine/bgv/sampler.h"

#include <cmath>
#include <cstring>
#include <random>

namespace cb::bgv {

namespace {
// Spreads a 64-bit seed over a stream key with splitmix64, so nearby seeds give
// unrelated keys.
Prg::Key expand_seed(uint64_t x) {
  Prg::Key key;
  for (size_t i = 0; i < key.size(); i += 8) {
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::memcpy(key.data() + i, &z, 8);
  }
  return key;
}

void fill_uniform(Prg& stream, uint64_t q, uint64_t* x, long n, std::vector<uint64_t>& buf) {
  const int bits = 64 - __builtin_clzll(q);
  const uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
  buf.resize(n);
  long t = 0;
  while (t < n) {
    const long want = n - t;
    stream.fill(buf.data(), sizeof(uint64_t) * size_t(want));
    for (long k = 0; k < want; ++k) {
      const uint64_t v = buf[k] & mask;  // rejection sampling: uniform in [0, q)
      if (v < q) x[t++] = v;
    }
  }
}
}  // namespace

void Sampler::uniform_limb(uint64_t seed, uint64_t tag, uint64_t q, uint64_t* out, long n) {
  Prg stream(expand_seed(seed ^ (tag * 0xd1b54a32d192ed03ULL)));
  thread_local std::vector<uint64_t> buf;
  fill_uniform(stream, q, out, n, buf);
}

namespace {
Prg::Key fresh_or_seeded(uint64_t seed) {
  if (seed != 0) return expand_seed(seed);
  Prg::Key key;
  std::random_device rd;
  for (size_t i = 0; i < key.size(); i += 4) {
    const uint32_t w = rd();
    std::memcpy(key.data() + i, &w, 4);
  }
  return key;
}
}  // namespace

Sampler::Sampler(uint64_t seed) : stream_(fresh_or_seeded(seed)) {}

uint64_t Sampler::next_u64() { return stream_.next_u64(); }

double Sampler::next_unit() { return (double(next_u64() >> 11) + 0.5) * 0x1.0p-53; }

DCRTPoly Sampler::uniform(const Context& ctx, const std::vector<int>& primes) {
  DCRTPoly r(ctx, primes);
  std::vector<uint64_t> buf;
  for (long i = 0; i < r.num_limbs(); ++i) fill_uniform(stream_, r.modulus(i), r.limb(i), ctx.phi(), buf);
  return r;
}

std::vector<long> Sampler::ternary(long n) {
  std::vector<long> r(n);
  for (long i = 0; i < n; i += 32) {
    uint64_t bits = next_u64();
    for (long k = i; k < std::min(n, i + 32); ++k, bits >>= 2) {
      const unsigned two = bits & 3;  // 0 -> -1, 1 -> +1, 2,3 -> 0
      r[k] = two == 0 ? -1 : two == 1 ? 1 : 0;
    }
  }
  return r;
}

std::vector<long> Sampler::hamming(long n, long h) {
  std::vector<long> r(n, 0);
  long placed = 0;
  while (placed < h) {
    const uint64_t x = next_u64();
    const long pos = long((x >> 1) % uint64_t(n));
    if (r[pos] != 0) continue;
    r[pos] = (x & 1) ? 1 : -1;
    ++placed;
  }
  return r;
}

std::vector<long> Sampler::gaussian(long n, double sigma) {
  std::vector<long> r(n);
  for (long i = 0; i < n; i += 2) {
    const double u1 = next_unit(), u2 = next_unit();
    const double rad = sigma * std::sqrt(-2.0 * std::log(u1));
    r[i] = std::lround(rad * std::cos(2 * M_PI * u2));
    if (i + 1 < n) r[i + 1] = std::lround(rad * std::sin(2 * M_PI * u2));
  }
  return r;
}

}  // namespace cb::bgv
