#include "engine/util/prime_factor.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"
#include "engine/util/short_convolution.h"

namespace cb::util {

namespace {

bool is_pow2(long x) { return x > 0 && (x & (x - 1)) == 0; }
long pow2_at_least(long x) {
  long n = 1;
  while (n < x) n <<= 1;
  return n;
}
long round8(long w) { return (w + 7) / 8 * 8; }

// How the Rader convolution of length L = p - 1 runs: a power-of-two NTT of length n,
// and (r > 1) the Agarwal-Cooley split L = n r, r odd, with one short convolution of
// length r per frequency; r = 1 with n = L (L a power of two) or n >= 2L - 1 (padded).
struct Scheme {
  long n, r;
};
// Operations per column, in cost()'s unit: two NTTs (n/2 log2 n butterflies each, over r
// sub-columns), then n kernel products or n short convolutions.
double scheme_cost(Scheme s) {
  const double log_n = __builtin_ctzl(s.n);  // n = 2^ctz(n)
  return s.r == 1 ? double(s.n) * log_n + double(s.n)
                  : double(s.r) * double(s.n) * log_n + double(s.n) * ShortConvolution::cost(s.r);
}
// The cheaper of the padded and the split convolution (for every column of every m).
Scheme scheme(long p) {
  const long L = p - 1;
  if (is_pow2(L)) return {L, 1};
  const Scheme padded{pow2_at_least(2 * L - 1), 1};
  long n = 1;
  while (L % (2 * n) == 0) n *= 2;
  const Scheme split{n, L / n};
  return scheme_cost(split) < scheme_cost(padded) ? split : padded;
}

// The smallest generator of Z_p^*, p an odd prime.
long generator(long p) {
  const auto fs = prime_factors(uint64_t(p - 1));
  for (long g = 2; g < p; ++g) {
    bool ok = true;
    for (uint64_t f : fs)
      if (pow_mod(uint64_t(g), uint64_t(p - 1) / f, uint64_t(p)) == 1) ok = false;
    if (ok) return g;
  }
  return 1;  // p = 2 or 3 ends here only for p = 2, which m (odd) never has
}

}  // namespace

// ---- The plan: everything that depends on m alone, shared by the transforms of all
// primes through a cache (one per m).

struct PrimeFactorTransform::Plan {
  struct Stage {
    int dim;       // the factor this pass runs along
    long wp;       // words per row: the other coordinates' count rounded up to 8
    long rows;     // rows gathered: forward 1 + L (row 0 holds i_d = 0), inverse L (rows 1..L)
    std::vector<int32_t> gather;  // rows * wp source positions (-1: zero)
  };
  long m = 0, phi = 0;
  std::vector<long> p, L, N, R, e;      // per factor: p, p - 1, N_p, odd length r (1: none), CRT idempotent
  // pos[d][t]: the row (after row 0) of the convolution's index t < L: t itself, or under
  // the Agarwal-Cooley split (t mod N_p) R + (t mod R).
  std::vector<std::vector<long>> pos;
  std::vector<std::vector<long>> pw;    // pw[d][s] = g^s mod p
  std::vector<std::vector<long>> dlog;  // dlog[d][x] = s with g^s = x, x != 0
  std::vector<Stage> fwd, inv;          // passes: forward by increasing p, inverse decreasing
  std::vector<int32_t> fwd_out;         // values[t] = last forward buffer[fwd_out[t]]
  std::vector<int32_t> inv_out;         // coeffs[i] = last inverse buffer[inv_out[i]]
  long buf_words = 0;                   // largest (1 + N_p) * wp of the passes

  explicit Plan(long m);
  size_t bytes() const {
    size_t w = fwd_out.size() + inv_out.size();
    for (const auto* v : {&fwd, &inv})
      for (const auto& s : *v) w += s.gather.size();
    return w * sizeof(int32_t);
  }

 private:
  // How a buffer stores the entry labelled by the residues x[0..k): its row is the
  // coordinate of dimension `row` (forward output: 1 + dlog x; inverse output: 0 for
  // x = 0, else 1 + dlog x; input of a pass: see the constructor), its column the
  // mixed-radix number of the other coordinates in increasing dimension order, each a
  // dlog (extent L) where s_kind says so and the residue itself (extent p) otherwise.
  struct Layout {
    int row;
    std::vector<bool> s_kind;
    long wp;
  };
  long width(int row, const std::vector<bool>& s_kind) const {
    long w = 1;
    for (size_t d = 0; d < p.size(); ++d)
      if (int(d) != row) w *= s_kind[d] ? L[d] : p[d];
    return w;
  }
  long column(const Layout& l, const std::vector<long>& x) const {
    long c = 0;
    for (size_t d = 0; d < p.size(); ++d) {
      if (int(d) == l.row) continue;
      c = c * (l.s_kind[d] ? L[d] : p[d]) + (l.s_kind[d] ? dlog[d][x[d]] : x[d]);
    }
    return c;
  }
  // The residues of column c (inverse of column(), for the coordinates other than row).
  void decode(const Layout& l, long c, std::vector<long>& x) const {
    for (long d = long(p.size()) - 1; d >= 0; --d) {
      if (d == l.row) continue;
      const long ext = l.s_kind[d] ? L[d] : p[d];
      const long v = c % ext;
      c /= ext;
      x[d] = l.s_kind[d] ? pw[d][v] : v;
    }
  }
  long crt(const std::vector<long>& x) const {
    long i = 0;
    for (size_t d = 0; d < p.size(); ++d) i = (i + x[d] * e[d]) % m;
    return i;
  }
};

PrimeFactorTransform::Plan::Plan(long m_) : m(m_) {
  for (uint64_t f : prime_factors(uint64_t(m))) p.push_back(long(f));
  const long k = long(p.size());
  for (long d = 0; d < k; ++d) {
    L.push_back(p[d] - 1);
    const Scheme sc = scheme(p[d]);
    N.push_back(sc.n);
    R.push_back(sc.r);
    pos.emplace_back(L[d]);
    for (long t = 0; t < L[d]; ++t) pos[d][t] = sc.r == 1 ? t : (t % sc.n) * sc.r + t % sc.r;
    const long rest = m / p[d];
    e.push_back(rest * long(inv_mod(uint64_t(rest % p[d]), uint64_t(p[d]))) % m);
    const long g = generator(p[d]);
    pw.emplace_back(L[d]);
    dlog.emplace_back(p[d], -1);
    long x = 1;
    for (long s = 0; s < L[d]; ++s, x = x * g % p[d]) pw[d][s] = x, dlog[d][x] = s;
  }
  std::vector<long> rank(m, -1);
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) rank[j] = phi++;

  std::vector<long> x(k);
  auto neg_pow = [&](long d, long r) { return pw[d][(L[d] - r) % L[d]]; };  // g^(-r)

  // Forward: pass n runs along dimension n (factors increase); dimensions below it hold
  // output indices (dlogs), the others input residues.
  Layout prev{-1, std::vector<bool>(k, false), 0};
  for (long d = 0; d < k; ++d) {
    Layout in{int(d), prev.s_kind, 0};
    in.wp = round8(width(int(d), in.s_kind));
    Stage st{int(d), in.wp, 1 + L[d], {}};
    st.gather.assign(st.rows * st.wp, -1);
    const long w = width(int(d), in.s_kind);
    for (long c = 0; c < w; ++c) {
      decode(in, c, x);
      for (long row = 0; row < st.rows; ++row) {
        x[d] = row == 0 ? 0 : neg_pow(d, row - 1);
        const long dst = row == 0 ? 0 : 1 + pos[d][row - 1];
        st.gather[dst * st.wp + c] =
            int32_t(d == 0 ? crt(x) : (1 + pos[prev.row][dlog[prev.row][x[prev.row]]]) * prev.wp + column(prev, x));
      }
    }
    buf_words = std::max(buf_words, (1 + N[d] * R[d]) * st.wp);
    fwd.push_back(std::move(st));
    prev = in;
    prev.s_kind[d] = true;
  }
  for (long j = 1; j < m; ++j) {
    if (rank[j] < 0) continue;
    for (long d = 0; d < k; ++d) x[d] = j % p[d];
    fwd_out.push_back(int32_t((1 + pos[prev.row][dlog[prev.row][x[prev.row]]]) * prev.wp + column(prev, x)));
  }

  // Inverse: passes by decreasing factor; dimensions already passed hold residues i_d,
  // the others dlogs of the units j_d. Output rows: 0 for i_d = 0, 1 + dlog i_d.
  auto out_row = [&](long d, long xd) { return xd == 0 ? 0 : 1 + pos[d][dlog[d][xd]]; };
  prev = Layout{-1, std::vector<bool>(k, true), 0};
  for (long d = k - 1; d >= 0; --d) {
    Layout in{int(d), prev.s_kind, 0};
    in.wp = round8(width(int(d), in.s_kind));
    Stage st{int(d), in.wp, L[d], {}};
    st.gather.assign(st.rows * st.wp, -1);
    const long w = width(int(d), in.s_kind);
    for (long c = 0; c < w; ++c) {
      decode(in, c, x);
      for (long r = 0; r < L[d]; ++r) {
        x[d] = neg_pow(d, r);
        st.gather[pos[d][r] * st.wp + c] = int32_t(
            d == k - 1 ? rank[crt(x)] : out_row(prev.row, x[prev.row]) * prev.wp + column(prev, x));
      }
    }
    buf_words = std::max(buf_words, (1 + N[d] * R[d]) * st.wp);
    inv.push_back(std::move(st));
    prev = in;
    prev.s_kind[d] = false;
  }
  for (long i = 0; i < m; ++i) {
    for (long d = 0; d < k; ++d) x[d] = i % p[d];
    inv_out.push_back(int32_t(out_row(prev.row, x[prev.row]) * prev.wp + column(prev, x)));
  }
}

namespace {

std::shared_ptr<const PrimeFactorTransform::Plan> plan_for(long m) {
  static std::mutex mu;
  static std::map<long, std::weak_ptr<const PrimeFactorTransform::Plan>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto p = cache[m].lock()) return p;
  auto p = std::make_shared<const PrimeFactorTransform::Plan>(m);
  cache[m] = p;
  return p;
}

// ---- Kernels. The convolutions of a pass: n rows of wp words, each column one
// convolution; the len rows of a half-block are contiguous, so each butterfly level is a
// run of len * wp words per twiddle. (Cutting the columns into cache-sized blocks was
// measured slower at m = 164737: 1.9 ms per transform unblocked against 2.2 with 256 KiB
// blocks.) Forward levels start at half-length first_len, then the product by the kernel
// k, then all inverse levels; vector code needs wp a multiple of 8.

// Scalar (any q < 2^61), fully reduced values; companions are shoup(w, q). The forward
// levels alone also transform the kernels at set-up (one column).
void forward_levels(uint64_t* a, long n, long wp, long first_len, const uint64_t* tw, const uint64_t* twp,
                    uint64_t q) {
  for (long len = first_len, blocks = n / (2 * std::max<long>(first_len, 1)); len >= 1; len /= 2, blocks *= 2)
    for (long b = 0; b < blocks; ++b) {
      const uint64_t w = tw[blocks + b], wq = twp[blocks + b];
      uint64_t* x = a + 2 * b * len * wp;
      uint64_t* y = x + len * wp;
      for (long i = 0; i < len * wp; ++i) {
        const uint64_t t = mul_shoup(y[i], w, wq, q), u = x[i];
        x[i] = add_mod(u, t, q);
        y[i] = sub_mod(u, t, q);
      }
    }
}
void inverse_levels(uint64_t* a, long n, long wp, const uint64_t* itw, const uint64_t* itwp, uint64_t q) {
  for (long len = 1, blocks = n / 2; len < n; len *= 2, blocks /= 2)
    for (long b = 0; b < blocks; ++b) {
      const uint64_t w = itw[blocks + b], wq = itwp[blocks + b];
      uint64_t* x = a + 2 * b * len * wp;
      uint64_t* y = x + len * wp;
      for (long i = 0; i < len * wp; ++i) {
        const uint64_t u = x[i], v = y[i];
        x[i] = add_mod(u, v, q);
        y[i] = mul_shoup(sub_mod(u, v, q), w, wq, q);
      }
    }
}
void convolve(uint64_t* a, long n, long wp, long first_len, const uint64_t* tw, const uint64_t* twp,
              const uint64_t* itw, const uint64_t* itwp, const uint64_t* k, const uint64_t* kp, uint64_t q) {
  forward_levels(a, n, wp, first_len, tw, twp, q);
  for (long r = 0; r < n; ++r)
    for (long i = 0; i < wp; ++i) a[r * wp + i] = mul_shoup(a[r * wp + i], k[r], kp[r], q);
  inverse_levels(a, n, wp, itw, itwp, q);
}
// dst[t] = src[tab[t]] (0 where tab[t] is -1 or >= limit), times w when wq != 0.
void gather(uint64_t* dst, const int32_t* tab, long n, const uint64_t* src, uint64_t limit, uint64_t w,
            uint64_t wq, uint64_t q) {
  for (long t = 0; t < n; ++t) {
    const uint32_t s = uint32_t(tab[t]);
    const uint64_t v = s < limit ? src[s] : 0;
    dst[t] = wq ? mul_shoup(v, w, wq, q) : v;
  }
}

#ifdef CB_UTIL_IFMA
// q < 2^50: 52-bit Shoup products, lazy ranges as in ntt.h: forward [0, 4q) -> [0, 4q),
// the kernel product [0, 4q) -> [0, 2q), inverse [0, 2q) -> [0, 2q).
// Two levels at a time where it can (radix 4: half the sweeps over the rows), then one.
void forward_levels52(uint64_t* a, long n, long wp, long first_len, const uint64_t* tw, const uint64_t* twp,
                      uint64_t q) {
  const Ifma52 ar(q);
  const __m512i two_q = _mm512_set1_epi64(2 * q);
  // x, y in [0, 4q) -> x + W y, x - W y + 2q in [0, 4q)
  auto bfly = [&](__m512i& x, __m512i& y, __m512i w, __m512i wq) {
    const __m512i u = reduce_once52(x, two_q), t = ar.mul_lazy(y, w, wq);
    x = _mm512_add_epi64(u, t);
    y = _mm512_add_epi64(_mm512_sub_epi64(u, t), two_q);
  };
  auto set = [](uint64_t v) { return _mm512_set1_epi64(v); };
  long len = first_len, blocks = n / (2 * std::max<long>(first_len, 1));
  for (; len >= 2; len /= 4, blocks *= 4)
    for (long b = 0; b < blocks; ++b) {
      const __m512i w1 = set(tw[blocks + b]), w1q = set(twp[blocks + b]);
      const __m512i w2 = set(tw[2 * blocks + 2 * b]), w2q = set(twp[2 * blocks + 2 * b]);
      const __m512i w3 = set(tw[2 * blocks + 2 * b + 1]), w3q = set(twp[2 * blocks + 2 * b + 1]);
      const long h = len / 2 * wp;
      uint64_t* pa = a + 2 * b * len * wp;
      for (long i = 0; i < h; i += 8) {
        __m512i A = _mm512_loadu_si512(pa + i), B = _mm512_loadu_si512(pa + h + i);
        __m512i C = _mm512_loadu_si512(pa + 2 * h + i), D = _mm512_loadu_si512(pa + 3 * h + i);
        bfly(A, C, w1, w1q);
        bfly(B, D, w1, w1q);
        bfly(A, B, w2, w2q);
        bfly(C, D, w3, w3q);
        _mm512_storeu_si512(pa + i, A);
        _mm512_storeu_si512(pa + h + i, B);
        _mm512_storeu_si512(pa + 2 * h + i, C);
        _mm512_storeu_si512(pa + 3 * h + i, D);
      }
    }
  if (len == 1)
    for (long b = 0; b < blocks; ++b) {
      const __m512i w = set(tw[blocks + b]), wq = set(twp[blocks + b]);
      uint64_t* x = a + 2 * b * wp;
      uint64_t* y = x + wp;
      for (long i = 0; i < wp; i += 8) {
        __m512i u = _mm512_loadu_si512(x + i), v = _mm512_loadu_si512(y + i);
        bfly(u, v, w, wq);
        _mm512_storeu_si512(x + i, u);
        _mm512_storeu_si512(y + i, v);
      }
    }
}
void inverse_levels52(uint64_t* a, long n, long wp, const uint64_t* itw, const uint64_t* itwp, uint64_t q) {
  const Ifma52 ar(q);
  const __m512i two_q = _mm512_set1_epi64(2 * q);
  // x, y in [0, 2q) -> x + y, (x - y) W^-1 in [0, 2q)
  auto bfly = [&](__m512i& x, __m512i& y, __m512i w, __m512i wq) {
    const __m512i u = x, v = y;
    x = reduce_once52(_mm512_add_epi64(u, v), two_q);
    y = ar.mul_lazy(_mm512_add_epi64(_mm512_sub_epi64(u, v), two_q), w, wq);
  };
  auto set = [](uint64_t v) { return _mm512_set1_epi64(v); };
  long len = 1, blocks = n / 2;
  for (; 2 * len < n; len *= 4, blocks /= 4)
    for (long b = 0; b < blocks / 2; ++b) {
      const __m512i w1 = set(itw[blocks + 2 * b]), w1q = set(itwp[blocks + 2 * b]);
      const __m512i w2 = set(itw[blocks + 2 * b + 1]), w2q = set(itwp[blocks + 2 * b + 1]);
      const __m512i w3 = set(itw[blocks / 2 + b]), w3q = set(itwp[blocks / 2 + b]);
      const long h = len * wp;
      uint64_t* pa = a + 4 * b * len * wp;
      for (long i = 0; i < h; i += 8) {
        __m512i A = _mm512_loadu_si512(pa + i), B = _mm512_loadu_si512(pa + h + i);
        __m512i C = _mm512_loadu_si512(pa + 2 * h + i), D = _mm512_loadu_si512(pa + 3 * h + i);
        bfly(A, B, w1, w1q);
        bfly(C, D, w2, w2q);
        bfly(A, C, w3, w3q);
        bfly(B, D, w3, w3q);
        _mm512_storeu_si512(pa + i, A);
        _mm512_storeu_si512(pa + h + i, B);
        _mm512_storeu_si512(pa + 2 * h + i, C);
        _mm512_storeu_si512(pa + 3 * h + i, D);
      }
    }
  if (len < n) {  // one level left: len = n / 2, one block
    const __m512i w = set(itw[1]), wq = set(itwp[1]);
    uint64_t* x = a;
    uint64_t* y = x + len * wp;
    for (long i = 0; i < len * wp; i += 8) {
      __m512i u = _mm512_loadu_si512(x + i), v = _mm512_loadu_si512(y + i);
      bfly(u, v, w, wq);
      _mm512_storeu_si512(x + i, u);
      _mm512_storeu_si512(y + i, v);
    }
  }
}
// As gather(); with wq != 0 the product (wq = shoup52(w, q)) reduces any word to [0, q),
// else with reduce words in [0, 2q) are reduced to [0, q).
void gather52(uint64_t* dst, const int32_t* tab, long n, const uint64_t* src, uint64_t limit, uint64_t w,
              uint64_t wq, uint64_t q, bool reduce = false) {
  const Ifma52 ar(q);
  const __m512i qv = _mm512_set1_epi64(q), wv = _mm512_set1_epi64(w), wqv = _mm512_set1_epi64(wq);
  const __m256i lim = _mm256_set1_epi32(int32_t(std::min<uint64_t>(limit, 0x7fffffff)));
  long t = 0;
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (; t + 8 <= n; t += 8) {
    const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tab + t));
    const __mmask8 k = _mm256_cmplt_epu32_mask(idx, lim);
    // Eight consecutive sources (runs along the coordinate both layouts vary fastest): a load.
    const uint32_t first = uint32_t(tab[t]);
    const bool run = k == 0xff &&
                     _mm256_cmpeq_epi32_mask(idx, _mm256_add_epi32(_mm256_set1_epi32(int32_t(first)), iota)) == 0xff;
    __m512i v = run ? _mm512_loadu_si512(src + first)
                    : _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), k, idx, src, 8);
    if (wq) v = reduce_once52(ar.mul_lazy(fit52(v, q), wv, wqv), qv);
    if (reduce) v = reduce_once52(v, qv);
    _mm512_storeu_si512(dst + t, v);
  }
  for (; t < n; ++t) {
    const uint32_t s = uint32_t(tab[t]);
    const uint64_t v = s < limit ? src[s] : 0;
    if (!wq) {
      dst[t] = reduce && v >= q ? v - q : v;
    } else {
      const uint64_t r = mul_shoup52_lazy(fit52(v, q), w, wq, q);
      dst[t] = r >= q ? r - q : r;
    }
  }
}
#endif

// Per-thread ping-pong buffers of at least n words (const methods stay thread-safe).
uint64_t* scratch(int which, long n) {
  thread_local std::vector<uint64_t> buf[2];
  if (long(buf[which].size()) < n) buf[which].resize(n);
  return buf[which].data();
}

}  // namespace

bool PrimeFactorTransform::applies(long m) {
  if (m < 3 || m % 2 == 0 || m > (long(1) << 24)) return false;
  long r = m;
  for (uint64_t f : prime_factors(uint64_t(m)))
    if ((r /= long(f)) % long(f) == 0) return false;
  return true;
}

std::vector<long> PrimeFactorTransform::factors(long m) {
  std::vector<long> f;
  for (uint64_t p : prime_factors(uint64_t(m))) f.push_back(long(p));
  return f;
}

std::vector<long> PrimeFactorTransform::conv_lengths(long m) {
  std::vector<long> n;
  for (long p : factors(m)) n.push_back(scheme(p).n);
  return n;
}

std::vector<long> PrimeFactorTransform::short_lengths(long m) {
  std::vector<long> r;
  for (long p : factors(m)) r.push_back(scheme(p).r);
  return r;
}

double PrimeFactorTransform::cost(long m) {
  const auto p = factors(m);
  std::vector<long> ext = p;
  double total = 0;
  for (size_t d = 0; d < p.size(); ++d) {
    long w = 1;
    for (size_t e = 0; e < p.size(); ++e)
      if (e != d) w *= ext[e];
    // per column: the convolutions (scheme_cost), the gather of p rows, and row 0 added
    // to (forward) or summed from (inverse) the r rows of the NTT's frequency 0
    const Scheme s = scheme(p[d]);
    total += double(round8(w)) * (scheme_cost(s) + double(p[d]) + double(s.r));
    ext[d] = p[d] - 1;
  }
  long phi = 1;
  for (long f : p) phi *= f - 1;
  return total + double(phi);
}

size_t PrimeFactorTransform::table_bytes(long m) {
  // per factor: the NTT's twiddles and inverse twiddles with companions (4 N_p words),
  // the forward and inverse kernels with companions (4 N_p r words)
  size_t w = 0;
  for (long p : factors(m)) {
    const Scheme s = scheme(p);
    w += 4 * size_t(std::max<long>(s.n, 2)) + 4 * size_t(s.n * s.r);
  }
  return w * sizeof(uint64_t);
}

size_t PrimeFactorTransform::shared_bytes(long m) {
  // Counted as Plan builds them, without building: forward pass along p_d (increasing d)
  // gathers (1 + L_d) rows, the inverse pass (decreasing d) L_d rows, of round8(product of
  // the other dimensions' current extents) words; then phi + m output positions.
  const auto p = factors(m);
  const long k = long(p.size());
  size_t words = 0;
  long phi = 1;
  for (long f : p) phi *= f - 1;
  auto width = [&](long d, const std::vector<long>& ext) {
    long w = 1;
    for (long e = 0; e < k; ++e)
      if (e != d) w *= ext[e];
    return round8(w);
  };
  std::vector<long> ext = p;
  for (long d = 0; d < k; ++d) {
    words += size_t(p[d]) * size_t(width(d, ext));
    ext[d] = p[d] - 1;
  }
  for (long d = k - 1; d >= 0; --d) {
    words += size_t(p[d] - 1) * size_t(width(d, ext));
    ext[d] = p[d];
  }
  return (words + size_t(phi) + size_t(m)) * sizeof(int32_t);
}

size_t PrimeFactorTransform::plan_bytes() const { return plan_->bytes(); }

size_t PrimeFactorTransform::bytes() const {
  size_t w = 0;
  for (const Dim& d : dims_)
    w += d.tw.capacity() + d.twp.capacity() + d.itw.capacity() + d.itwp.capacity() + d.kf.capacity() +
         d.kfp.capacity() + d.ki.capacity() + d.kip.capacity();
  return w * sizeof(uint64_t);
}

PrimeFactorTransform::PrimeFactorTransform(long m, uint64_t q, uint64_t zeta) : m_(m), q_(q), fast_(false) {
  if (!applies(m))
    throw ParameterError(msg("PrimeFactorTransform: m=", m, " must be odd, squarefree, in [3, 2^24]"));
  if (q >= kMaxModulus || !is_prime(q))
    throw ParameterError(msg("PrimeFactorTransform: q=", q, " must be a prime below 2^61"));
  for (long n : conv_lengths(m))
    if ((q - 1) % (uint64_t(m) * uint64_t(n)) != 0)
      throw ParameterError(msg("PrimeFactorTransform: q=", q, " is not 1 mod m*N_p=", m, "*", n));
  if (pow_mod(zeta, uint64_t(m), q) != 1)
    throw ParameterError(msg("PrimeFactorTransform: zeta=", zeta, " is not an m-th root of unity mod q=", q));
  fast_ = kIfmaCompiled && q < kMaxIfmaModulus;
  plan_ = plan_for(m);
  const Plan& P = *plan_;
  auto comp = [&](uint64_t w) { return fast_ ? shoup52(w, q) : shoup(w, q); };
  for (size_t d = 0; d < P.p.size(); ++d) {
    Dim D;
    const long n = P.N[d], L = P.L[d], p = P.p[d], r = P.R[d];
    D.n = n;
    D.r = r;
    // Twiddles of the length-n NTT: tw[2^l + b] = root^(bitrev_l(b) n / 2^(l+1)).
    const uint64_t root = primitive_root_of_unity(uint64_t(n), q);
    D.tw.assign(std::max<long>(n, 2), 1);
    D.itw.assign(std::max<long>(n, 2), 1);
    for (long lev = 0, blocks = 1; blocks < n; ++lev, blocks *= 2)
      for (long b = 0; b < blocks; ++b) {
        long rev = 0;
        for (long t = 0; t < lev; ++t) rev |= ((b >> t) & 1) << (lev - 1 - t);
        D.tw[blocks + b] = pow_mod(root, uint64_t(rev) * uint64_t(n / (2 * blocks)), q);
        D.itw[blocks + b] = inv_mod(D.tw[blocks + b], q);
      }
    std::vector<uint64_t> twp64(D.tw.size()), itwp64(D.itw.size());
    for (size_t i = 0; i < D.tw.size(); ++i) twp64[i] = shoup(D.tw[i], q), itwp64[i] = shoup(D.itw[i], q);
    // Kernels w_t = omega^(g^t), w'_t = omega^(-g^t) at pos(t) (padded: also wrapped at
    // n - t), their transforms (along the NTT's axis, r columns) times 1/n; split, each
    // frequency's r values then become its short convolution's constants.
    const uint64_t omega = pow_mod(zeta, uint64_t(P.e[d]), q), n_inv = inv_mod(uint64_t(n) % q, q);
    std::vector<uint64_t> op(p);
    op[0] = 1;
    for (long x = 1; x < p; ++x) op[x] = mul_mod(op[x - 1], omega, q);
    D.kf.assign(n * r, 0);
    D.ki.assign(n * r, 0);
    for (long t = 0; t < L; ++t) {
      const uint64_t w = op[P.pw[d][t]], wi = op[(p - P.pw[d][t]) % p];
      D.kf[P.pos[d][t]] = w, D.ki[P.pos[d][t]] = wi;
      if (n > L && t > 0) D.kf[n - t] = op[P.pw[d][L - t]], D.ki[n - t] = op[(p - P.pw[d][L - t]) % p];
    }
    forward_levels(D.kf.data(), n, r, n / 2, D.tw.data(), twp64.data(), q);
    forward_levels(D.ki.data(), n, r, n / 2, D.tw.data(), twp64.data(), q);
    D.kfp.resize(n * r), D.kip.resize(n * r);
    for (long i = 0; i < n * r; ++i) {
      D.kf[i] = mul_mod(D.kf[i], n_inv, q), D.ki[i] = mul_mod(D.ki[i], n_inv, q);
      D.kfp[i] = comp(D.kf[i]), D.kip[i] = comp(D.ki[i]);
    }
    if (r > 1) {
      D.sc = std::make_shared<const ShortConvolution>(r, q);
      for (long b = 0; b < n; ++b) {
        D.sc->prepare(D.kf.data() + b * r, D.kf.data() + b * r, D.kfp.data() + b * r);
        D.sc->prepare(D.ki.data() + b * r, D.ki.data() + b * r, D.kip.data() + b * r);
      }
    }
    D.twp.resize(D.tw.size()), D.itwp.resize(D.itw.size());
    for (size_t i = 0; i < D.tw.size(); ++i) D.twp[i] = comp(D.tw[i]), D.itwp[i] = comp(D.itw[i]);
    dims_.push_back(std::move(D));
  }
  one_p_ = comp(1);
  minv_ = inv_mod(uint64_t(m) % q, q);
  minv_p_ = comp(minv_);
}

// The convolutions of one pass with D's forward (kf) or inverse (ki) kernel: rows[0..L)
// hold the gathered u_r at rows pos(r) (further rows are junk). Padded (N_p > L, so
// N_p >= 2L - 1 and L <= N_p/2): the rows from L on are zero, and level 0 of the forward
// NTT maps (lo, 0) to (lo, lo), a copy. Split (r > 1): the NTT runs on rows of r * wp words
// (the Agarwal-Cooley map puts t mod N_p outermost), then each frequency's r rows are
// convolved with its short kernel. Scalar kernels, values in [0, q).
void PrimeFactorTransform::convolve_pass(const Dim& D, uint64_t* rows, long L, long wp, bool inv) const {
  const long n = D.n, r = D.r;
  const uint64_t q = q_;
  const uint64_t *k = inv ? D.ki.data() : D.kf.data(), *kp = inv ? D.kip.data() : D.kfp.data();
  if (r > 1) {
    forward_levels(rows, n, r * wp, n / 2, D.tw.data(), D.twp.data(), q);
    for (long b = 0; b < n; ++b) D.sc->apply(rows + b * r * wp, wp, k + b * r, kp + b * r);
    inverse_levels(rows, n, r * wp, D.itw.data(), D.itwp.data(), q);
    return;
  }
  long first_len = n / 2;
  if (n > L) {
    std::memset(rows + L * wp, 0, sizeof(uint64_t) * (n / 2 - L) * wp);
    std::memcpy(rows + n / 2 * wp, rows, sizeof(uint64_t) * n / 2 * wp);
    first_len = n / 4;
  }
  convolve(rows, n, wp, first_len, D.tw.data(), D.twp.data(), D.itw.data(), D.itwp.data(), k, kp, q);
}

#ifdef CB_UTIL_IFMA
// The IFMA pass (q < 2^50), with row 0 folded in at frequency 0 of the NTT (the first r
// rows after the forward levels; padded, r = 1: row 0 there sums the first half, which
// holds u and zeros). Forward: adding x_0 there adds it to every output of the inverse
// NTT (its frequency-0 twiddles are 1), so row0 = x_0 is added to the r rows before the
// inverse levels. Inverse: frequency 0 holds the sums over the NTT's axis, so their sum
// over the r rows is sum_t u_t, written to row0 in [0, 2q). Inputs (rows, and row0
// forward) in [0, 2q); outputs in [0, 2q).
void PrimeFactorTransform::convolve_pass52(const Dim& D, uint64_t* rows, long L, long wp, bool inv,
                                           uint64_t* row0) const {
  const long n = D.n, r = D.r;
  const uint64_t q = q_;
  const uint64_t *k = inv ? D.ki.data() : D.kf.data(), *kp = inv ? D.kip.data() : D.kfp.data();
  const __m512i two_q = _mm512_set1_epi64(2 * q), four_q = _mm512_set1_epi64(4 * q);
  long first_len = n / 2;
  if (r == 1 && n > L) {
    std::memset(rows + L * wp, 0, sizeof(uint64_t) * (n / 2 - L) * wp);
    std::memcpy(rows + n / 2 * wp, rows, sizeof(uint64_t) * n / 2 * wp);
    first_len = n / 4;
  }
  forward_levels52(rows, n, r * wp, first_len, D.tw.data(), D.twp.data(), q);  // [0, 4q)
  if (inv)
    for (long i = 0; i < wp; i += 8) {
      __m512i s = _mm512_setzero_si512();
      for (long j = 0; j < r; ++j) s = reduce_once52(_mm512_add_epi64(s, _mm512_loadu_si512(rows + j * wp + i)), four_q);
      _mm512_storeu_si512(row0 + i, reduce_once52(s, two_q));
    }
  if (r > 1) {
    for (long b = 0; b < n; ++b) D.sc->apply(rows + b * r * wp, wp, k + b * r, kp + b * r);
  } else {
    const Ifma52 ar(q);
    for (long j = 0; j < n; ++j) {
      const __m512i w = _mm512_set1_epi64(k[j]), wq = _mm512_set1_epi64(kp[j]);
      uint64_t* x = rows + j * wp;
      for (long i = 0; i < wp; i += 8) _mm512_storeu_si512(x + i, ar.mul_lazy(_mm512_loadu_si512(x + i), w, wq));
    }
  }
  if (!inv)  // [0, 2q) + [0, 2q) -> [0, 2q)
    for (long j = 0; j < r; ++j)
      for (long i = 0; i < wp; i += 8) {
        const __m512i v = _mm512_add_epi64(_mm512_loadu_si512(rows + j * wp + i), _mm512_loadu_si512(row0 + i));
        _mm512_storeu_si512(rows + j * wp + i, reduce_once52(v, two_q));
      }
  inverse_levels52(rows, n, r * wp, D.itw.data(), D.itwp.data(), q);
}
#endif


// Forward pass along dimension d: row 0 = x_0 (i_d = 0), rows 1 + r = u_r; then rows
// 1 + s = x_0 + (u * w)_s = X_(g^s): in [0, 2q) with the IFMA kernels, fully reduced by
// the last gather; fully reduced by the scalar ones.
void PrimeFactorTransform::forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
  if (ncoeffs < 0 || ncoeffs > m_)
    throw ParameterError(msg("PrimeFactorTransform::forward: ncoeffs=", ncoeffs, " is outside [0, m=", m_, "]"));
  const Plan& P = *plan_;
  const uint64_t q = q_;
  const uint64_t* src = coeffs;
  uint64_t limit = uint64_t(ncoeffs);
  for (size_t k = 0; k < P.fwd.size(); ++k) {
    const Plan::Stage& st = P.fwd[k];
    const Dim& D = dims_[st.dim];
    const long wp = st.wp, L = P.L[st.dim];
    uint64_t* buf = scratch(int(k % 2), P.buf_words);
    uint64_t* rows = buf + wp;
    const uint64_t w = k == 0 ? 1 : 0, wq = k == 0 ? one_p_ : 0;  // reduce the input words
#ifdef CB_UTIL_IFMA
    if (fast_) {
      gather52(buf, st.gather.data(), st.rows * wp, src, limit, w, wq, q);
      convolve_pass52(D, rows, L, wp, false, buf);  // adds row 0; [0, 2q)
    } else
#endif
    {
      gather(buf, st.gather.data(), st.rows * wp, src, limit, w, wq, q);
      convolve_pass(D, rows, L, wp, false);
      for (long r = 0; r < L; ++r)
        for (long i = 0; i < wp; ++i) rows[r * wp + i] = add_mod(rows[r * wp + i], buf[i], q);
    }
    src = buf;
    limit = uint64_t(P.buf_words);
  }
#ifdef CB_UTIL_IFMA
  if (fast_) {
    gather52(values, P.fwd_out.data(), P.phi, src, limit, 0, 0, q, true);
    return;
  }
#endif
  gather(values, P.fwd_out.data(), P.phi, src, limit, 0, 0, q);
}

// Inverse pass along dimension d: rows 1 + r = u_r = v_(g^-r); then row 0 = sum_r u_r
// (i_d = 0) and rows 1 + s = (u * w')_s (i_d = g^s); ranges as forward.
void PrimeFactorTransform::inverse(const uint64_t* values, uint64_t* coeffs) const {
  const Plan& P = *plan_;
  const uint64_t q = q_;
  const uint64_t* src = values;
  uint64_t limit = uint64_t(P.phi);
  for (size_t k = 0; k < P.inv.size(); ++k) {
    const Plan::Stage& st = P.inv[k];
    const Dim& D = dims_[st.dim];
    const long wp = st.wp, L = P.L[st.dim];
    uint64_t* buf = scratch(int(k % 2), P.buf_words);
    uint64_t* rows = buf + wp;
    const uint64_t w = k == 0 ? minv_ : 0, wq = k == 0 ? minv_p_ : 0;  // 1/m, reducing the inputs
#ifdef CB_UTIL_IFMA
    if (fast_) {
      gather52(rows, st.gather.data(), L * wp, src, limit, w, wq, q);
      convolve_pass52(D, rows, L, wp, true, buf);  // writes row 0; [0, 2q)
    } else
#endif
    {
      gather(rows, st.gather.data(), L * wp, src, limit, w, wq, q);
      for (long i = 0; i < wp; ++i) {
        uint64_t s = 0;
        for (long r = 0; r < L; ++r) s = add_mod(s, rows[r * wp + i], q);
        buf[i] = s;
      }
      convolve_pass(D, rows, L, wp, true);
    }
    src = buf;
    limit = uint64_t(P.buf_words);
  }
#ifdef CB_UTIL_IFMA
  if (fast_) {
    gather52(coeffs, P.inv_out.data(), m_, src, limit, 0, 0, q, true);
    return;
  }
#endif
  gather(coeffs, P.inv_out.data(), m_, src, limit, 0, 0, q);
}

}  // namespace cb::util
