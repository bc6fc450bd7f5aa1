#include "engine/util/primes.h"

#include <algorithm>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"

namespace cb::util {

bool is_prime(uint64_t n) {
  static const uint64_t kBases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  if (n < 2) return false;
  for (uint64_t p : kBases) {
    if (n % p == 0) return n == p;
  }
  // n - 1 = d * 2^s with d odd.
  uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) d >>= 1, ++s;
  for (uint64_t a : kBases) {
    uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool witness = true;
    for (int r = 1; r < s && witness; ++r) {
      x = mul_mod(x, x, n);
      if (x == n - 1) witness = false;
    }
    if (witness) return false;
  }
  return true;
}

std::vector<uint64_t> ntt_primes(long count, int bits, uint64_t step,
                                 const std::vector<uint64_t>& exclude) {
  if (bits < 2 || bits > 61)
    throw ParameterError(msg("ntt_primes: bits=", bits, " is outside [2, 61]"));
  if (step < 1) throw ParameterError(msg("ntt_primes: step=", step, " must be >= 1"));
  if (count < 0) throw ParameterError(msg("ntt_primes: count=", count, " is negative"));
  std::vector<uint64_t> out;
  if (count == 0) return out;
  const uint64_t hi = uint64_t(1) << bits;        // q < 2^bits
  const uint64_t lo = uint64_t(1) << (bits - 1);  // q > 2^(bits-1)
  // Largest q < 2^bits with q = 1 mod step.
  uint64_t q = hi - 1;
  q -= (q - 1) % step;  // now q = 1 mod step (q - 1 >= 0 since hi - 1 >= 3)
  for (; q > lo; q -= step) {
    if (is_prime(q) && std::find(exclude.begin(), exclude.end(), q) == exclude.end()) {
      out.push_back(q);
      if (long(out.size()) == count) return out;
    }
    if (q < step) break;  // the next candidate would wrap below zero
  }
  throw ParameterError(msg("ntt_primes: only ", out.size(), " primes q = 1 mod ", step,
                           " with 2^", bits - 1, " < q < 2^", bits,
                           " are available (excluding ", exclude.size(), "), but ", count,
                           " were requested"));
}

std::vector<uint64_t> prime_factors(uint64_t n) {
  std::vector<uint64_t> f;
  for (uint64_t p = 2; p * p <= n; p += (p == 2 ? 1 : 2)) {
    if (n % p == 0) {
      f.push_back(p);
      while (n % p == 0) n /= p;
    }
  }
  if (n > 1) f.push_back(n);
  return f;
}

uint64_t primitive_root_of_unity(uint64_t order, uint64_t q) {
  if (!is_prime(q)) throw ParameterError(msg("primitive_root_of_unity: q=", q, " is not prime"));
  if (order == 0 || (q - 1) % order != 0)
    throw ParameterError(msg("primitive_root_of_unity: order=", order,
                             " does not divide q-1=", q - 1));
  if (order == 1) return 1;
  const std::vector<uint64_t> ps = prime_factors(order);
  for (uint64_t g = 2; g < q; ++g) {
    uint64_t w = pow_mod(g, (q - 1) / order, q);
    bool exact = true;
    for (uint64_t p : ps) {
      if (pow_mod(w, order / p, q) == 1) {
        exact = false;
        break;
      }
    }
    if (exact) return w;
  }
  // Unreachable for prime q: Z_q^* is cyclic, so some g is a generator.
  throw Error(msg("primitive_root_of_unity: no root of order ", order, " mod ", q));
}

int max_fast_prime_bits() {
  static_assert(kMaxIfmaModulus == uint64_t(1) << 50, "50-bit primes are below kMaxIfmaModulus");
  return kIfmaCompiled ? 50 : 60;
}

long bluestein_length(long m) {
  if (m < 1) throw ParameterError(msg("bluestein_length: m=", m, " must be >= 1"));
  long n = 1;
  while (n < 2 * m - 1) n <<= 1;
  return n;
}

}  // namespace cb::util
