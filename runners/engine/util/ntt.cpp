#include "engine/util/ntt.h"

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>
// GCC 12 reports its own _mm512_undefined_* placeholders as maybe-uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <algorithm>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"
#include "engine/util/vecmod.h"

namespace cb::util {

namespace {

long bitrev(long x, int bits) {
  long r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

}  // namespace

Ntt::Ntt(int log_n, uint64_t q, uint64_t omega)
    : n_(0), log_n_(log_n), q_(q), omega_(omega), fast_(kIfmaCompiled && q < kMaxIfmaModulus) {
  check(log_n, q, 1);
  if (omega_ == 0) omega_ = primitive_root_of_unity(n_, q);
  if (omega_ >= q || pow_mod(omega_, n_ / 2, q) != q - 1)
    throw ParameterError(msg("Ntt: omega=", omega_, " is not a primitive ", n_, "-th root of unity mod q=", q));
  build_tables(omega_, 1, 0);
}

Ntt::Ntt(Negacyclic, int log_n, uint64_t q, uint64_t psi)
    : n_(0), log_n_(log_n), q_(q), omega_(0), psi_(psi), fast_(kIfmaCompiled && q < kMaxIfmaModulus) {
  check(log_n, q, 2);
  if (psi_ == 0) psi_ = primitive_root_of_unity(2 * uint64_t(n_), q);
  if (psi_ >= q || pow_mod(psi_, n_, q) != q - 1)
    throw ParameterError(msg("Ntt: psi=", psi_, " is not a primitive ", 2 * n_, "-th root of unity mod q=", q));
  omega_ = mul_mod(psi_, psi_, q);
  build_tables(psi_, 2, 1);
}

Ntt Ntt::negacyclic(int log_n, uint64_t q, uint64_t psi) { return Ntt(Negacyclic{}, log_n, q, psi); }

void Ntt::check(int log_n, uint64_t q, uint64_t order) {
  if (log_n < 1 || log_n > 30) throw ParameterError(msg("Ntt: log_n=", log_n, " is outside [1, 30]"));
  n_ = long(1) << log_n;
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("Ntt: q=", q, " must be a prime below 2^61"));
  if (order == 1 && (q - 1) % uint64_t(n_) != 0)
    throw ParameterError(msg("Ntt: q=", q, " is not 1 mod N=", n_));
  if (order == 2 && (q - 1) % (2 * uint64_t(n_)) != 0)
    throw ParameterError(msg("Ntt: q=", q, " is not 1 mod 2N=", 2 * n_, ": the negacyclic transform of length N=",
                             n_, " needs a primitive 2N-th root of unity"));
}

void Ntt::build_tables(uint64_t w, long f, long g) {
  const uint64_t q = q_;
  // Powers w^e for e < f N/2: the largest exponent, (f (2^l - 1) + g) N/2^(l+1), is below
  // N/2 (cyclic) or N (negacyclic).
  const long count = f * n_ / 2;
  std::vector<uint64_t> pw(count), ipw(count);
  const uint64_t w_inv = inv_mod(w, q);
  pw[0] = ipw[0] = 1;
  for (long e = 1; e < count; ++e) {
    pw[e] = mul_mod(pw[e - 1], w, q);
    ipw[e] = mul_mod(ipw[e - 1], w_inv, q);
  }
  tw_.assign(n_, 0), twp_.assign(n_, 0), itw_.assign(n_, 0), itwp_.assign(n_, 0);
  for (int l = 0; l < log_n_; ++l) {
    const long blocks = long(1) << l;
    for (long b = 0; b < blocks; ++b) {
      const long e = (f * bitrev(b, l) + g) * (n_ >> (l + 1));
      tw_[blocks + b] = pw[e];
      twp_[blocks + b] = companion(pw[e]);
      itw_[blocks + b] = ipw[e];
      itwp_[blocks + b] = companion(ipw[e]);
    }
  }
  n_inv_ = ShoupMul(inv_mod(uint64_t(n_) % q, q), q);
}

size_t Ntt::bytes() const {
  return (tw_.capacity() + twp_.capacity() + itw_.capacity() + itwp_.capacity()) * sizeof(uint64_t);
}

namespace {

// ---- Portable scalar levels (also the fallback for tiny N). ----
// Fast = the modulus takes the 52-bit kernels (q < 2^50, companions from shoup52, ranges
// of ifma.h); otherwise the 64-bit Shoup product and the ranges of ntt.h. Both forms keep
// the ranges the vector kernels of the same modulus promise.

template <bool Fast>
inline uint64_t mul_lazy(uint64_t x, uint64_t w, uint64_t wp, uint64_t q) {
  return Fast ? mul_shoup52_lazy(x, w, wp, q) : mul_shoup_lazy(x, w, wp, q);
}

template <bool Fast>
void forward_levels_scalar(uint64_t* a, long n, int log_n, int from_level, const uint64_t* tw,
                           const uint64_t* twp, uint64_t q) {
  // 64-bit: x in [0, 8q) is reduced to [0, 4q); W y in [0, 2q); outputs in [0, 6q).
  // Fast: x in [0, 4q) is reduced to [0, 2q); W y in [0, 2q); outputs in [0, 4q).
  const uint64_t two_q = 2 * q, red = Fast ? 2 * q : 4 * q;
  for (int l = from_level; l < log_n; ++l) {
    const long blocks = long(1) << l;
    const long t = n >> (l + 1);
    const uint64_t* w = tw + blocks;
    const uint64_t* wp = twp + blocks;
    for (long b = 0; b < blocks; ++b) {
      uint64_t* x = a + 2 * b * t;
      uint64_t* y = x + t;
      const uint64_t W = w[b], Wp = wp[b];
      for (long i = 0; i < t; ++i) {
        uint64_t u = x[i];
        u = u >= red ? u - red : u;
        const uint64_t v = mul_lazy<Fast>(y[i], W, Wp, q);
        x[i] = u + v;
        y[i] = u - v + two_q;
      }
    }
  }
}

template <bool Fast>
void inverse_levels_scalar(uint64_t* a, long n, int log_n, int to_level, const uint64_t* itw,
                           const uint64_t* itwp, uint64_t q) {
  // Inputs in [0, c) with c = 4q (64-bit) or 2q (fast): x + y reduced to [0, c),
  // (x - y + c) W^-1 in [0, 2q).
  const uint64_t red = Fast ? 2 * q : 4 * q;
  for (int l = log_n - 1; l >= to_level; --l) {
    const long blocks = long(1) << l;
    const long t = n >> (l + 1);
    const uint64_t* w = itw + blocks;
    const uint64_t* wp = itwp + blocks;
    for (long b = 0; b < blocks; ++b) {
      uint64_t* x = a + 2 * b * t;
      uint64_t* y = x + t;
      const uint64_t W = w[b], Wp = wp[b];
      for (long i = 0; i < t; ++i) {
        const uint64_t u = x[i], v = y[i];
        const uint64_t s = u + v;
        x[i] = s >= red ? s - red : s;
        y[i] = mul_lazy<Fast>(u - v + red, W, Wp, q);
      }
    }
  }
}

template <bool Fast>
void pointwise_scalar(uint64_t* a, long n, const uint64_t* k, const uint64_t* kp, uint64_t q) {
  for (long i = 0; i < n; ++i) a[i] = mul_lazy<Fast>(a[i], k[i], kp[i], q);
}

#if defined(__AVX512F__) && defined(__AVX512DQ__)
constexpr bool kVectorized = true;

// ---- AVX-512: eight residues per register. ----
// The kernels below are written once against an arithmetic policy A with
//     A::fwd(x, y, w, wp), A::inv(x, y, w, wp), A::mul(x, w, wp),
// and instantiated for the 64-bit Shoup product (Arith64) and, when compiled with IFMA,
// for the 52-bit one (Arith52, ifma.h).
//
// Arith64: there is no 64x64 -> 128 vector multiply, so the Shoup quotient
// floor(x w' / 2^64) is assembled from 32x32 -> 64 products; the low words use vpmullq.
// With
//     x = x1 2^32 + x0,  w' = w1 2^32 + w0,
//     floor(x w' / 2^64) = x1 w1 + (x0 w1 >> 32) + (x1 w0 >> 32) + c,  c in {0, 1, 2},
// where c collects the carries of the low halves and of x0 w0. We drop c (saving one
// multiply and six other operations), so the quotient may be up to 3 below
// floor(x w / q) and r = x w - Q q lies in [0, 4q). The vector butterflies therefore run
// one notch lazier than the scalar ones: forward values in [0, 8q), inverse values in
// [0, 4q), which needs 8q < 2^64 (q < 2^61, kMaxModulus).

// x * W mod q in [0, 4q), lane-wise, with wp = Shoup companion and wp_hi = wp >> 32.
inline __m512i shoup_lazy(__m512i x, __m512i w, __m512i wp, __m512i wp_hi, __m512i q) {
  const __m512i x_hi = _mm512_srli_epi64(x, 32);
  const __m512i p01 = _mm512_mul_epu32(x, wp_hi);
  const __m512i p10 = _mm512_mul_epu32(x_hi, wp);
  const __m512i p11 = _mm512_mul_epu32(x_hi, wp_hi);
  const __m512i quot = _mm512_add_epi64(
      p11, _mm512_add_epi64(_mm512_srli_epi64(p01, 32), _mm512_srli_epi64(p10, 32)));
  return _mm512_sub_epi64(_mm512_mullo_epi64(x, w), _mm512_mullo_epi64(quot, q));
}

// u in [0, 2c) -> [0, c): if u >= c then u - c < u, else u - c wraps above u.
inline __m512i reduce_once(__m512i u, __m512i c) {
  return _mm512_min_epu64(u, _mm512_sub_epi64(u, c));
}

struct Arith64 {
  __m512i q, four_q;
  explicit Arith64(uint64_t q64) : q(_mm512_set1_epi64(q64)), four_q(_mm512_set1_epi64(4 * q64)) {}

  // Forward butterfly: x, y in [0, 8q) -> x + W y, x - W y in [0, 8q)
  // (x reduced to [0, 4q), W y in [0, 4q)).
  void fwd(__m512i& x, __m512i& y, __m512i w, __m512i wp) const {
    const __m512i u = reduce_once(x, four_q);
    const __m512i v = shoup_lazy(y, w, wp, _mm512_srli_epi64(wp, 32), q);
    x = _mm512_add_epi64(u, v);
    y = _mm512_add_epi64(_mm512_sub_epi64(u, v), four_q);
  }
  // Inverse butterfly: x, y in [0, 4q) -> x + y, (x - y) W^-1 in [0, 4q).
  void inv(__m512i& x, __m512i& y, __m512i w, __m512i wp) const {
    const __m512i s = reduce_once(_mm512_add_epi64(x, y), four_q);
    const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), four_q);
    x = s;
    y = shoup_lazy(d, w, wp, _mm512_srli_epi64(wp, 32), q);
  }
  // x * K mod q in [0, 4q), any x.
  __m512i mul(__m512i x, __m512i w, __m512i wp) const {
    return shoup_lazy(x, w, wp, _mm512_srli_epi64(wp, 32), q);
  }
};

#ifdef CB_UTIL_IFMA
struct Arith52 {
  Ifma52 ifma;
  __m512i two_q;
  explicit Arith52(uint64_t q64) : ifma(q64), two_q(_mm512_set1_epi64(2 * q64)) {}

  // Forward butterfly: x, y in [0, 4q) -> x + W y, x - W y + 2q in [0, 4q)
  // (x reduced to [0, 2q), W y in [0, 2q)).
  void fwd(__m512i& x, __m512i& y, __m512i w, __m512i wp) const {
    const __m512i u = reduce_once(x, two_q);
    const __m512i v = ifma.mul_lazy(y, w, wp);
    x = _mm512_add_epi64(u, v);
    y = _mm512_add_epi64(_mm512_sub_epi64(u, v), two_q);
  }
  // Inverse butterfly: x, y in [0, 2q) -> x + y reduced to [0, 2q), (x - y + 2q) W^-1 in
  // [0, 2q).
  void inv(__m512i& x, __m512i& y, __m512i w, __m512i wp) const {
    const __m512i s = reduce_once(_mm512_add_epi64(x, y), two_q);
    const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), two_q);
    x = s;
    y = ifma.mul_lazy(d, w, wp);
  }
  // x * K mod q in [0, 2q), x < 2^52.
  __m512i mul(__m512i x, __m512i w, __m512i wp) const { return ifma.mul_lazy(x, w, wp); }
};
#endif

// One level with half-block t >= 8 on the blocks [b_begin, b_end) of level l: one
// twiddle per block, broadcast over the lanes.
template <class A>
void fwd_wide(uint64_t* a, long n, int l, long b_begin, long b_end, const uint64_t* tw,
              const uint64_t* twp, const A& ar) {
  const long blocks = long(1) << l;
  const long t = n >> (l + 1);
  for (long b = b_begin; b < b_end; ++b) {
    uint64_t* x = a + 2 * b * t;
    uint64_t* y = x + t;
    const __m512i w = _mm512_set1_epi64(tw[blocks + b]);
    const __m512i wp = _mm512_set1_epi64(twp[blocks + b]);
    for (long i = 0; i < t; i += 8) {
      __m512i xv = _mm512_loadu_si512(x + i), yv = _mm512_loadu_si512(y + i);
      ar.fwd(xv, yv, w, wp);
      _mm512_storeu_si512(x + i, xv);
      _mm512_storeu_si512(y + i, yv);
    }
  }
}

template <class A>
void inv_wide(uint64_t* a, long n, int l, long b_begin, long b_end, const uint64_t* itw,
              const uint64_t* itwp, const A& ar) {
  const long blocks = long(1) << l;
  const long t = n >> (l + 1);
  for (long b = b_begin; b < b_end; ++b) {
    uint64_t* x = a + 2 * b * t;
    uint64_t* y = x + t;
    const __m512i w = _mm512_set1_epi64(itw[blocks + b]);
    const __m512i wp = _mm512_set1_epi64(itwp[blocks + b]);
    for (long i = 0; i < t; i += 8) {
      __m512i xv = _mm512_loadu_si512(x + i), yv = _mm512_loadu_si512(y + i);
      ar.inv(xv, yv, w, wp);
      _mm512_storeu_si512(x + i, xv);
      _mm512_storeu_si512(y + i, yv);
    }
  }
}

// Two levels at once (radix 4): levels l and l+1 on the blocks [b_begin, b_end) of level
// l, whose half-block t must be >= 16. Block b splits with W_b into children 2b and 2b+1,
// which split with W_2b and W_2b+1; the four quarters are loaded and stored once.
template <class A>
void fwd_wide2(uint64_t* a, long n, int l, long b_begin, long b_end, const uint64_t* tw,
               const uint64_t* twp, const A& ar) {
  const long blocks = long(1) << l;
  const long t = n >> (l + 1), h = t / 2;
  for (long b = b_begin; b < b_end; ++b) {
    uint64_t* x0 = a + 2 * b * t;
    uint64_t *x1 = x0 + h, *x2 = x0 + t, *x3 = x0 + t + h;
    const __m512i w = _mm512_set1_epi64(tw[blocks + b]);
    const __m512i wp = _mm512_set1_epi64(twp[blocks + b]);
    const __m512i w0 = _mm512_set1_epi64(tw[2 * blocks + 2 * b]);
    const __m512i wp0 = _mm512_set1_epi64(twp[2 * blocks + 2 * b]);
    const __m512i w1 = _mm512_set1_epi64(tw[2 * blocks + 2 * b + 1]);
    const __m512i wp1 = _mm512_set1_epi64(twp[2 * blocks + 2 * b + 1]);
    for (long i = 0; i < h; i += 8) {
      __m512i v0 = _mm512_loadu_si512(x0 + i), v1 = _mm512_loadu_si512(x1 + i);
      __m512i v2 = _mm512_loadu_si512(x2 + i), v3 = _mm512_loadu_si512(x3 + i);
      ar.fwd(v0, v2, w, wp);
      ar.fwd(v1, v3, w, wp);
      ar.fwd(v0, v1, w0, wp0);
      ar.fwd(v2, v3, w1, wp1);
      _mm512_storeu_si512(x0 + i, v0);
      _mm512_storeu_si512(x1 + i, v1);
      _mm512_storeu_si512(x2 + i, v2);
      _mm512_storeu_si512(x3 + i, v3);
    }
  }
}

// Inverse of fwd_wide2: levels l+1 then l on the blocks [b_begin, b_end) of level l.
template <class A>
void inv_wide2(uint64_t* a, long n, int l, long b_begin, long b_end, const uint64_t* itw,
               const uint64_t* itwp, const A& ar) {
  const long blocks = long(1) << l;
  const long t = n >> (l + 1), h = t / 2;
  for (long b = b_begin; b < b_end; ++b) {
    uint64_t* x0 = a + 2 * b * t;
    uint64_t *x1 = x0 + h, *x2 = x0 + t, *x3 = x0 + t + h;
    const __m512i w = _mm512_set1_epi64(itw[blocks + b]);
    const __m512i wp = _mm512_set1_epi64(itwp[blocks + b]);
    const __m512i w0 = _mm512_set1_epi64(itw[2 * blocks + 2 * b]);
    const __m512i wp0 = _mm512_set1_epi64(itwp[2 * blocks + 2 * b]);
    const __m512i w1 = _mm512_set1_epi64(itw[2 * blocks + 2 * b + 1]);
    const __m512i wp1 = _mm512_set1_epi64(itwp[2 * blocks + 2 * b + 1]);
    for (long i = 0; i < h; i += 8) {
      __m512i v0 = _mm512_loadu_si512(x0 + i), v1 = _mm512_loadu_si512(x1 + i);
      __m512i v2 = _mm512_loadu_si512(x2 + i), v3 = _mm512_loadu_si512(x3 + i);
      ar.inv(v0, v1, w0, wp0);
      ar.inv(v2, v3, w1, wp1);
      ar.inv(v0, v2, w, wp);
      ar.inv(v1, v3, w, wp);
      _mm512_storeu_si512(x0 + i, v0);
      _mm512_storeu_si512(x1 + i, v1);
      _mm512_storeu_si512(x2 + i, v2);
      _mm512_storeu_si512(x3 + i, v3);
    }
  }
}

// Forward levels [l_begin, l_end) (all with t >= 8) on the part of the array covered by
// the blocks [b_begin, b_end) of level l_begin; pairs of levels go through fwd_wide2.
template <class A>
void fwd_wide_range(uint64_t* a, long n, int l_begin, int l_end, long b_begin, long b_end,
                    const uint64_t* tw, const uint64_t* twp, const A& ar) {
  int l = l_begin;
  for (; l + 1 < l_end; l += 2) {
    fwd_wide2(a, n, l, b_begin, b_end, tw, twp, ar);
    b_begin <<= 2, b_end <<= 2;
  }
  if (l < l_end) fwd_wide(a, n, l, b_begin, b_end, tw, twp, ar);
}

// Inverse levels l_end-1 down to l_begin (all with t >= 8) on the block range
// [b_begin, b_end) of level l_begin.
template <class A>
void inv_wide_range(uint64_t* a, long n, int l_begin, int l_end, long b_begin, long b_end,
                    const uint64_t* itw, const uint64_t* itwp, const A& ar) {
  if (l_end <= l_begin) return;  // no wide level (a short transform): nor a shift by -1
  int l = l_end - 1;
  const int shift = l - l_begin;
  long bb = b_begin << shift, be = b_end << shift;  // block range at level l
  if ((l_end - l_begin) % 2 == 1) {
    inv_wide(a, n, l, bb, be, itw, itwp, ar);
    --l, bb >>= 1, be >>= 1;
  }
  for (; l > l_begin; l -= 2) {
    bb >>= 1, be >>= 1;  // level l-1
    inv_wide2(a, n, l - 1, bb, be, itw, itwp, ar);
    bb >>= 1, be >>= 1;
  }
}

// The three innermost levels (t = 4, 2, 1) act inside each 16-word chunk held in two
// registers v0, v1 (words 0-7, 8-15). For the level with half-block t the words are
// split into an x register (the words p with bit t of p clear) and a y register (p + t),
// the butterfly's two halves. Each split is one pair of two-source permutations, taken
// straight from the previous level's (x, y) layout rather than from (v0, v1), and one
// more pair restores (v0, v1) after the last level: 8 permutations for three levels.
struct LaneMap {
  long long x[8], y[8];  // the chunk words in the x and y lanes at half-block t
  int loc[16];           // where word p sits: lane i of x (i) or of y (8 + i)
};

inline LaneMap lane_map(long t) {
  LaneMap L{};
  int i = 0;
  for (int p = 0; p < 16; ++p)
    if ((p / t) % 2 == 0) {
      L.x[i] = p, L.y[i] = p + t;
      L.loc[p] = i, L.loc[p + t] = 8 + i;
      ++i;
    }
  return L;
}

// Index vectors for _mm512_permutex2var_epi64(a, idx, b) that gather the words `want`
// from registers (a, b) laid out as `from` (loc: where each word is).
inline __m512i gather_index(const int* from_loc, const long long* want) {
  long long idx[8];
  for (int i = 0; i < 8; ++i) idx[i] = from_loc[want[i]];
  return _mm512_loadu_si512(idx);
}

struct InnerShuffles {
  __m512i x[3], y[3];  // into level s's (x, y) from level s-1's (from (v0, v1) for s = 0)
  __m512i out0, out1;  // from the last level's (x, y) back to (v0, v1)
  __m512i w[3];        // spread the loaded twiddles over the lanes of their blocks
};

// Shuffles for the levels with half-blocks ts[0], ts[1], ts[2] in that order.
inline InnerShuffles inner_shuffles(const long* ts) {
  static const int natural[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  static const long long lo[8] = {0, 1, 2, 3, 4, 5, 6, 7}, hi[8] = {8, 9, 10, 11, 12, 13, 14, 15};
  InnerShuffles sh;
  const int* prev = natural;
  LaneMap maps[3];
  for (int s = 0; s < 3; ++s) {
    maps[s] = lane_map(ts[s]);
    sh.x[s] = gather_index(prev, maps[s].x);
    sh.y[s] = gather_index(prev, maps[s].y);
    long long w[8];
    for (int i = 0; i < 8; ++i) w[i] = maps[s].x[i] / (2 * ts[s]);  // block within the chunk
    sh.w[s] = _mm512_loadu_si512(w);
    prev = maps[s].loc;
  }
  sh.out0 = gather_index(prev, lo);
  sh.out1 = gather_index(prev, hi);
  return sh;
}

// Twiddles of the (16 / 2t) blocks in chunk c at the level with half-block T; tables are
// the level's slices (tw + 2^l). Reads 8 entries, which stay inside the N-entry table.
// At T = 1 the eight blocks take one twiddle each, already in lane order.
template <long T>
inline void chunk_twiddles(__m512i spread, const uint64_t* w, const uint64_t* wp, long c,
                           __m512i& wv, __m512i& wpv) {
  const long first = c * (8 / T);
  if constexpr (T == 1) {
    wv = _mm512_loadu_si512(w + first);
    wpv = _mm512_loadu_si512(wp + first);
  } else {
    wv = _mm512_permutexvar_epi64(spread, _mm512_loadu_si512(w + first));
    wpv = _mm512_permutexvar_epi64(spread, _mm512_loadu_si512(wp + first));
  }
}

struct InnerLevels {
  InnerShuffles sh;                // levels in the order they run
  const uint64_t* w[3];            // twiddle slices of those levels, forward or inverse
  const uint64_t* wp[3];
};

// Forward: t = 4, 2, 1 (levels k-3, k-2, k-1); inverse: t = 1, 2, 4.
inline InnerLevels inner_levels(long n, const uint64_t* tw, const uint64_t* twp, bool inverse) {
  static const long fwd_t[3] = {4, 2, 1}, inv_t[3] = {1, 2, 4};
  const long* ts = inverse ? inv_t : fwd_t;
  InnerLevels il;
  il.sh = inner_shuffles(ts);
  for (int s = 0; s < 3; ++s) {
    il.w[s] = tw + n / (2 * ts[s]);  // level slice: 2^l = N / (2t)
    il.wp[s] = twp + n / (2 * ts[s]);
  }
  return il;
}

// Stage S (half-block T) of the in-register levels on K chunks held as (x, y): move to
// this level's layout (S > 0), then one butterfly per chunk.
template <int K, int S, long T, bool Inverse, class A>
inline void inner_stage(__m512i* x, __m512i* y, const InnerLevels& il, long c0, const A& ar) {
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
    if constexpr (S > 0) {
      const __m512i nx = _mm512_permutex2var_epi64(x[k], il.sh.x[S], y[k]);
      y[k] = _mm512_permutex2var_epi64(x[k], il.sh.y[S], y[k]);
      x[k] = nx;
    }
    __m512i w, wp;
    chunk_twiddles<T>(il.sh.w[S], il.w[S], il.wp[S], c0 + k, w, wp);
    if constexpr (Inverse) {
      ar.inv(x[k], y[k], w, wp);
    } else {
      ar.fwd(x[k], y[k], w, wp);
    }
  }
}

// The three in-register levels on K consecutive chunks c0..c0+K-1 (v0[k], v1[k] hold
// chunk c0+k), forward or inverse butterflies. Working on several independent chunks per
// stage hides the latency of the multiply chains.
template <int K, bool Inverse, class A>
inline void inner3(__m512i* v0, __m512i* v1, const InnerLevels& il, long c0, const A& ar) {
  __m512i x[K], y[K];
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
    x[k] = _mm512_permutex2var_epi64(v0[k], il.sh.x[0], v1[k]);
    y[k] = _mm512_permutex2var_epi64(v0[k], il.sh.y[0], v1[k]);
  }
  inner_stage<K, 0, Inverse ? 1 : 4, Inverse>(x, y, il, c0, ar);
  inner_stage<K, 1, 2, Inverse>(x, y, il, c0, ar);
  inner_stage<K, 2, Inverse ? 4 : 1, Inverse>(x, y, il, c0, ar);
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
    v0[k] = _mm512_permutex2var_epi64(x[k], il.sh.out0, y[k]);
    v1[k] = _mm512_permutex2var_epi64(x[k], il.sh.out1, y[k]);
  }
}

// x * K mod q, lazy, for the fixed kernel values K (and Shoup companions).
template <class A>
inline __m512i pointwise(__m512i x, const uint64_t* k, const uint64_t* kp, const A& ar) {
  return ar.mul(x, _mm512_loadu_si512(k), _mm512_loadu_si512(kp));
}

#else
constexpr bool kVectorized = false;
#endif

}  // namespace

bool Ntt::vectorized() { return kVectorized; }

#if defined(__AVX512F__) && defined(__AVX512DQ__)
namespace {

// Cache blocking, depth first: a block larger than 2^kLogTile words does two levels
// (radix 4) over itself, then recurses into its four sub-blocks, and on the way back
// does the two inverse levels. Each sub-block is finished while it is still in cache
// (L2 for the large ones), and a tile of 2^kLogTile words (32 KiB) runs all its
// remaining levels in L1. Only the top pass streams the whole array.
constexpr int kLogTile = 12;

// Chunks c0..c0+K-1: forward inner levels, pointwise product, inverse inner levels (each
// step optional), loaded and stored once.
// The steps are template flags so that v0, v1 stay in registers throughout.
template <int K, bool Fwd, bool Mul, bool Inv, class A>
inline void inner_chunks(uint64_t* a, long c0, const InnerLevels& fl, const InnerLevels& il,
                         const uint64_t* kk, const uint64_t* kkp, const A& ar) {
  __m512i v0[K], v1[K];
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
    v0[k] = _mm512_loadu_si512(a + 16 * (c0 + k));
    v1[k] = _mm512_loadu_si512(a + 16 * (c0 + k) + 8);
  }
  if constexpr (Fwd) inner3<K, false>(v0, v1, fl, c0, ar);
  if constexpr (Mul) {
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) {
      const long c = c0 + k;
      v0[k] = pointwise(v0[k], kk + 16 * c, kkp + 16 * c, ar);
      v1[k] = pointwise(v1[k], kk + 16 * c + 8, kkp + 16 * c + 8, ar);
    }
  }
  if constexpr (Inv) inner3<K, true>(v0, v1, il, c0, ar);
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) {
    _mm512_storeu_si512(a + 16 * (c0 + k), v0[k]);
    _mm512_storeu_si512(a + 16 * (c0 + k) + 8, v1[k]);
  }
}

// Chunks [c_begin, c_end), K at a time, with the steps enabled.
template <int K, bool Fwd, bool Mul, bool Inv, class A>
void chunk_range(uint64_t* a, long c_begin, long c_end, const InnerLevels& fl,
                 const InnerLevels& il, const uint64_t* kk, const uint64_t* kkp, const A& ar) {
  for (long c = c_begin; c < c_end; c += K) inner_chunks<K, Fwd, Mul, Inv>(a, c, fl, il, kk, kkp, ar);
}

template <int K, class A>
void chunk_range(uint64_t* a, long c_begin, long c_end, const InnerLevels& fl,
                 const InnerLevels& il, const uint64_t* kk, const uint64_t* kkp, bool fwd,
                 bool inv, const A& ar) {
  if (fwd && kk && inv) {
    chunk_range<K, true, true, true>(a, c_begin, c_end, fl, il, kk, kkp, ar);
  } else if (fwd && !kk && !inv) {
    chunk_range<K, true, false, false>(a, c_begin, c_end, fl, il, kk, kkp, ar);
  } else if (!fwd && !kk && inv) {
    chunk_range<K, false, false, true>(a, c_begin, c_end, fl, il, kk, kkp, ar);
  } else if (fwd && !kk && inv) {
    chunk_range<K, true, false, true>(a, c_begin, c_end, fl, il, kk, kkp, ar);
  } else if (kk) {  // the product alone (not used by the entry points)
    chunk_range<K, false, true, false>(a, c_begin, c_end, fl, il, kk, kkp, ar);
  }
}

template <class A>
struct Schedule {
  uint64_t* a;
  long n;
  int inner;  // first of the three in-register levels, k - 3
  const uint64_t *tw, *twp, *itw, *itwp;
  const uint64_t *kk, *kkp;  // pointwise kernel or nullptr
  bool do_forward, do_inverse;
  A ar;
  InnerLevels fl, il;
};

// Block b of level l (the words [b, b+1) * N/2^l): forward levels l..k-1, pointwise
// product, inverse levels k-1..l, as enabled.
template <class A>
void run_block(const Schedule<A>& S, int l, long b) {
  const long size = S.n >> l;
  if (size <= (long(1) << kLogTile) || l + 2 > S.inner) {
    if (S.do_forward) fwd_wide_range(S.a, S.n, l, S.inner, b, b + 1, S.tw, S.twp, S.ar);
    const long c_begin = b * (size / 16), c_end = (b + 1) * (size / 16);
    if ((size / 16) % 4 == 0) {
      chunk_range<4>(S.a, c_begin, c_end, S.fl, S.il, S.kk, S.kkp, S.do_forward, S.do_inverse, S.ar);
    } else {
      chunk_range<1>(S.a, c_begin, c_end, S.fl, S.il, S.kk, S.kkp, S.do_forward, S.do_inverse, S.ar);
    }
    if (S.do_inverse) inv_wide_range(S.a, S.n, l, S.inner, b, b + 1, S.itw, S.itwp, S.ar);
    return;
  }
  if (S.do_forward) fwd_wide2(S.a, S.n, l, b, b + 1, S.tw, S.twp, S.ar);
  for (long c = 4 * b; c < 4 * b + 4; ++c) run_block(S, l + 2, c);
  if (S.do_inverse) inv_wide2(S.a, S.n, l, b, b + 1, S.itw, S.itwp, S.ar);
}

// The vector schedule: forward levels [from, k), then the pointwise product with
// (kk, kkp) if kk != nullptr, then inverse levels k-1 down to `to`, each part optional.
// Requires k >= 4 and from, to <= k - 4 (the start level's blocks hold whole chunks).
template <class A>
void vector_schedule(uint64_t* a, long n, int log_n, int from, int to, const uint64_t* tw,
                     const uint64_t* twp, const uint64_t* itw, const uint64_t* itwp,
                     const uint64_t* kk, const uint64_t* kkp, bool do_forward, bool do_inverse,
                     uint64_t q64) {
  const A ar(q64);
  const int inner = log_n - 3;
  const Schedule<A> S{a, n, inner, tw, twp, itw, itwp, kk, kkp, do_forward, do_inverse, ar,
                      inner_levels(n, tw, twp, false), inner_levels(n, itw, itwp, true)};
  // The recursion starts at the deeper of the two end levels; the levels between them
  // run breadth-first (in practice from == to).
  const int start = std::max(do_forward ? from : 0, do_inverse ? to : 0);
  if (do_forward) fwd_wide_range(a, n, from, start, 0, long(1) << from, tw, twp, ar);
  for (long b = 0; b < (long(1) << start); ++b) run_block(S, start, b);
  if (do_inverse) inv_wide_range(a, n, to, start, 0, long(1) << to, itw, itwp, ar);
}

}  // namespace
#endif

void Ntt::run(uint64_t* a, int from, int to, const uint64_t* k, const uint64_t* kp,
              bool do_forward, bool do_inverse) const {
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  // The recursion needs blocks of >= 16 words (one in-register chunk) at its start level.
  if (log_n_ >= 4 && (!do_forward || from <= log_n_ - 4) && (!do_inverse || to <= log_n_ - 4)) {
#ifdef CB_UTIL_IFMA
    if (fast_) {
      vector_schedule<Arith52>(a, n_, log_n_, from, to, tw_.data(), twp_.data(), itw_.data(),
                               itwp_.data(), k, kp, do_forward, do_inverse, q_);
      return;
    }
#endif
    vector_schedule<Arith64>(a, n_, log_n_, from, to, tw_.data(), twp_.data(), itw_.data(),
                             itwp_.data(), k, kp, do_forward, do_inverse, q_);
    return;
  }
#endif
  if (fast_) {
    if (do_forward) forward_levels_scalar<true>(a, n_, log_n_, from, tw_.data(), twp_.data(), q_);
    if (k) pointwise_scalar<true>(a, n_, k, kp, q_);
    if (do_inverse) inverse_levels_scalar<true>(a, n_, log_n_, to, itw_.data(), itwp_.data(), q_);
  } else {
    if (do_forward) forward_levels_scalar<false>(a, n_, log_n_, from, tw_.data(), twp_.data(), q_);
    if (k) pointwise_scalar<false>(a, n_, k, kp, q_);
    if (do_inverse) inverse_levels_scalar<false>(a, n_, log_n_, to, itw_.data(), itwp_.data(), q_);
  }
}

void Ntt::forward_levels(uint64_t* a, int from_level) const {
  run(a, from_level, 0, nullptr, nullptr, true, false);
}

void Ntt::inverse_levels(uint64_t* a, int to_level) const {
  run(a, 0, to_level, nullptr, nullptr, false, true);
}

void Ntt::convolve_levels(uint64_t* a, const uint64_t* k, const uint64_t* kp, int from_level,
                          int to_level) const {
  run(a, from_level, to_level, k, kp, true, true);
}

void Ntt::forward(uint64_t* a) const {
  forward_levels(a, 0);
  const uint64_t q = q_, two_q = 2 * q_, four_q = 4 * q_;
  for (long i = 0; i < n_; ++i) {
    uint64_t x = a[i];
    x = x >= four_q ? x - four_q : x;
    x = x >= two_q ? x - two_q : x;
    a[i] = x >= q ? x - q : x;
  }
}

void Ntt::inverse(uint64_t* a) const {
  inverse_levels(a, 0);
  mul_scalar_array(a, a, n_inv_, n_, q_);
}

uint64_t Ntt::companion(uint64_t w) const { return fast_ ? shoup52(w, q_) : shoup(w, q_); }

}  // namespace cb::util
