#include "engine/util/negacyclic.h"

#include <algorithm>
#include <cmath>

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"
#include "engine/util/vecmod.h"

namespace cb::util {

namespace {

int log2_of(long n) {  // n a power of two
  int k = 0;
  while ((long(1) << k) < n) ++k;
  return k;
}

// The negacyclic Ntt of length phi = m/2 with psi = zeta, (m, q) validated first.
Ntt checked_ntt(long m, uint64_t q) {
  NegacyclicTransform::check(m, q);
  return Ntt::negacyclic(log2_of(m / 2), q, primitive_root_of_unity(uint64_t(m), q));
}

// [0, 8q) -> [0, q).
inline uint64_t reduce_lazy(uint64_t x, uint64_t q) {
  x = x >= 4 * q ? x - 4 * q : x;
  x = x >= 2 * q ? x - 2 * q : x;
  return x >= q ? x - q : x;
}

// Any word -> [0, q): one comparison for residues and lazy ones below 2q.
inline uint64_t reduce_any(uint64_t x, uint64_t q) { return x < q ? x : x < 2 * q ? x - q : x % q; }

}  // namespace

void NegacyclicTransform::check(long m, uint64_t q) {
  if (!applies(m) || m > (long(1) << 24))
    throw ParameterError(msg("NegacyclicTransform: m=", m, " must be a power of two with 4 <= m <= 2^24"));
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("NegacyclicTransform: q=", q, " must be a prime below 2^61"));
  if ((q - 1) % uint64_t(m) != 0)
    throw ParameterError(msg("NegacyclicTransform: q=", q, " is not 1 mod m=", m,
                             " (the roots of Phi_m = X^", m / 2, " + 1 are primitive m-th roots of unity)"));
}

NegacyclicTransform::NegacyclicTransform(long m, uint64_t q)
    : m_(m), q_(q), ntt_(checked_ntt(m, q)) {
  const long phi = m / 2;
  const int bits = ntt_.log_n();
  bitrev_.resize(phi);
  for (long t = 0; t < phi; ++t) {
    uint32_t r = 0;
    for (int i = 0; i < bits; ++i) r |= uint32_t((t >> i) & 1) << (bits - 1 - i);
    bitrev_[t] = r;
  }
  zmstar_.resize(phi);
  for (long t = 0; t < phi; ++t) zmstar_[t] = 2 * t + 1;
  phi_inv_ = ShoupMul(inv_mod(uint64_t(phi) % q, q), q);
}

double NegacyclicTransform::cost(long m) {
  const double phi = double(m / 2);
  return phi / 2 * std::log2(phi) + 2 * phi;
}

size_t NegacyclicTransform::bytes() const {
  return ntt_.bytes() + bitrev_.capacity() * sizeof(uint32_t) + zmstar_.capacity() * sizeof(long);
}

size_t NegacyclicTransform::table_bytes(long m) {
  const size_t phi = size_t(m / 2);
  return Ntt::table_bytes(long(phi)) + phi * sizeof(uint32_t) + phi * sizeof(long);
}

namespace {

// Per-thread scratch of at least n words (const methods stay thread-safe).
uint64_t* scratch(long n) {
  thread_local std::vector<uint64_t> buf;
  if (long(buf.size()) < n) buf.resize(n);
  return buf.data();
}

// dst[bitrev(i)] = f(src[i]) for i < 2^bits (bitrev over `bits` bits; br its table). The
// permutation sends a word of a power-of-two array to the far end of it, and done word by
// word its accesses hit the same cache sets (2.4x an NTT at phi = 2^15, measured). In
// 8 x 8 tiles instead: with i = (a, b, c), a and c of 3 bits, bitrev(i) = (rev c, rev b,
// rev a), so for each middle b the 8 source lines (a, b, 0..7) fill the 8 destination lines
// (rev c, rev b, 0..7): every access is a whole cache line.
template <class F>
void bitrev_move(const uint64_t* src, uint64_t* dst, int bits, const uint32_t* br, F f) {
  const long n = long(1) << bits;
  if (bits < 6) {
    for (long i = 0; i < n; ++i) dst[br[i]] = f(src[i]);
    return;
  }
  static constexpr int rev3[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  const int hi = bits - 3;                   // a and rev c sit at bit hi
  const long mids = long(1) << (bits - 6);   // b ranges over bits - 6 bits
  for (long b = 0; b < mids; ++b) {
    // bitrev over `bits` of (b << 3) is rev_(bits-6)(b) << 3: the table gives it.
    const long rb = long(br[b << 3]);
    uint64_t tile[8][8];
    for (int a = 0; a < 8; ++a) {
      const uint64_t* s = src + (long(a) << hi) + (b << 3);
      for (int c = 0; c < 8; ++c) tile[a][c] = s[c];
    }
    for (int c = 0; c < 8; ++c) {
      uint64_t* d = dst + (long(rev3[c]) << hi) + rb;
      for (int a = 0; a < 8; ++a) d[rev3[a]] = f(tile[a][c]);
    }
  }
}

}  // namespace

void NegacyclicTransform::forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
  if (ncoeffs < 0 || ncoeffs > m_)
    throw ParameterError(msg("NegacyclicTransform::forward: ncoeffs=", ncoeffs, " is outside [0, m=", m_, "]"));
  const uint64_t q = q_;
  const long phi = m_ / 2;
  uint64_t* x = scratch(phi);
  // a mod X^phi + 1 into x, in [0, F q) as the forward levels take it.
  const uint64_t bound = uint64_t(ntt_.forward_bound()) * q;
  const long folded = std::max<long>(ncoeffs - phi, 0), top = std::min(ncoeffs, phi);
  // Branch-free (vectorized) for the usual words, residues lazy below 2q; any larger word
  // sends the loop to the division of reduce_any.
  const uint64_t two_q = 2 * q;
  uint64_t large = 0;
  for (long i = 0; i < folded; ++i) {
    const uint64_t a = coeffs[i], b = coeffs[i + phi];
    large |= uint64_t(a >= two_q) | uint64_t(b >= two_q);
    const uint64_t u = a >= q ? a - q : a, v = b >= q ? b - q : b;
    x[i] = u >= v ? u - v : u + q - v;
  }
  if (large)
    for (long i = 0; i < folded; ++i) x[i] = sub_mod(reduce_any(coeffs[i], q), reduce_any(coeffs[i + phi], q), q);
  large = 0;
  for (long i = folded; i < top; ++i) {
    const uint64_t w = coeffs[i];
    large |= uint64_t(w >= bound);
    x[i] = w;
  }
  if (large)
    for (long i = folded; i < top; ++i) x[i] = x[i] < bound ? x[i] : x[i] % q;
  std::fill(x + top, x + phi, 0);
  ntt_.forward_levels(x, 0);
  // x[i] = a(zeta^(2 bitrev(i) + 1)), lazy: value t (j = 2t + 1) is x[bitrev(t)], reduced.
  bitrev_move(x, values, ntt_.log_n(), bitrev_.data(), [q](uint64_t w) { return reduce_lazy(w, q); });
}

void NegacyclicTransform::inverse(const uint64_t* values, uint64_t* coeffs) const {
  const uint64_t q = q_;
  const long phi = m_ / 2;
  const uint64_t bound = uint64_t(ntt_.inverse_bound()) * q;  // the inverse levels' input range
  bitrev_move(values, coeffs, ntt_.log_n(), bitrev_.data(),
              [q, bound](uint64_t w) { return w < bound ? w : w % q; });
  ntt_.inverse_levels(coeffs, 0);  // phi b, in [0, I q)
  mul_scalar_array(coeffs, coeffs, phi_inv_, phi, q);
  std::fill(coeffs + phi, coeffs + m_, 0);
}

}  // namespace cb::util
