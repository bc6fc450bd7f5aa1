#include "engine/bgv/chain.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>

#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::bgv {

namespace {
long ceil_div(long a, long b) { return (a + b - 1) / b; }

// Splits sizes[0..n) into c consecutive non-empty groups minimizing the largest sum.
std::vector<std::vector<int>> balanced_digits(const std::vector<double>& sizes, long c) {
  const long n = long(sizes.size());
  std::vector<double> pre(n + 1, 0);
  for (long i = 0; i < n; ++i) pre[i + 1] = pre[i] + sizes[i];
  // best[k][i]: the least max over splits of the first i sizes into k groups.
  std::vector<std::vector<double>> best(c + 1, std::vector<double>(n + 1, INFINITY));
  std::vector<std::vector<long>> cut(c + 1, std::vector<long>(n + 1, 0));
  best[0][0] = 0;
  for (long k = 1; k <= c; ++k)
    for (long i = k; i <= n; ++i)
      for (long j = k - 1; j < i; ++j) {
        const double v = std::max(best[k - 1][j], pre[i] - pre[j]);
        if (v < best[k][i] - 1e-9) best[k][i] = v, cut[k][i] = j;
      }
  std::vector<std::vector<int>> out(c);
  long i = n;
  for (long k = c; k >= 1; --k) {
    const long j = cut[k][i];
    for (long x = j; x < i; ++x) out[k - 1].push_back(int(x));
    i = j;
  }
  return out;
}
}  // namespace

Chain::Chain(const ChainParams& p) : p_(p) {
  const bool pow2 = p.m >= 1 && (p.m & (p.m - 1)) == 0;
  if (p.m % 2 == 0 && p.m > 0 && !pow2)
    throw ParameterError(msg("m=", p.m, " is even but not a power of two: the ring needs odd m or m = 2^k"));
  if (p.m < 3 || p.m > (1L << 20))
    throw ParameterError(msg("m=", p.m, ": the ring needs odd m with 3 <= m <= 2^20, or m = 2^k with 4 <= m <= 2^20"));
  if (p.bits < 20) throw ParameterError(msg("bits=", p.bits, " is too small: the chain needs at least 20 bits"));
  if (p.c < 1) throw ParameterError(msg("c=", p.c, ": key switching needs at least 1 digit"));
  if (p.small_primes < 0 || p.small_primes > 8)
    throw ParameterError(msg("small_primes=", p.small_primes, " must be in [0, 8]"));
  if (p.ks_margin_bits < 0 || p.ks_margin_bits > 120)
    throw ParameterError(msg("ks_margin_bits=", p.ks_margin_bits, " must be in [0, 120]"));
  const long max_bits = util::max_fast_prime_bits();
  N_ = pow2 ? p.m / 2 : util::bluestein_length(p.m);
  step_ = pow2 ? uint64_t(p.m) : uint64_t(p.m) * uint64_t(N_);
  const uint64_t step = step_;
  const int min_bits = int(std::ceil(std::log2(double(step)))) + 2;
  if (min_bits > max_bits)
    throw ParameterError(msg("m=", p.m, ": its primes need ", min_bits, " bits, above the ", max_bits, "-bit limit"));

  // The ladder: one prime of each size from the smallest available, below the big size.
  std::vector<uint64_t> ct;
  auto taken = [&] {  // the primes chosen so far, and p, which none may be
    std::vector<uint64_t> t = ct;
    t.push_back(p.p);
    return t;
  };
  for (int b = min_bits; long(ct.size()) < p.small_primes && b < max_bits; ++b) {
    try {
      ct.push_back(util::ntt_primes(1, b, step, taken())[0]);
    } catch (const ParameterError&) {
      continue;  // no prime of this size: try the next
    }
  }
  S_ = long(ct.size());
  // Big primes of the full size, the remainder shared by the top k primes (dropped
  // first), k the fewest that keeps each of them at least 8 bits above the smallest size
  // (below that, primes q = 1 mod m N are few and the ladder has taken them): a longer
  // chain differs from a shorter one only at its top, and log2 Q stays within a bit or
  // so of `bits`.
  const long big_bits = std::max<long>(p.bits, min_bits);
  const long n = ceil_div(big_bits, max_bits);
  const long share_min = std::min<long>(min_bits + 8, max_bits);
  std::vector<int> sizes(n, int(max_bits));
  const long rem = big_bits - (n - 1) * max_bits;  // in (0, max_bits]
  for (long k = 1; k <= n; ++k) {
    const long share = rem + (k - 1) * max_bits;   // bits of the top k primes
    if (share >= k * share_min || k == n) {
      for (long i = 0; i < k; ++i) sizes[n - 1 - i] = int(std::max<long>(min_bits, share / k + (i < share % k)));
      break;
    }
  }
  L_ = S_ + n;
  if (p.c > n)
    throw ParameterError(msg("c=", p.c, " exceeds the ", n, " ciphertext primes of a ", p.bits,
                             "-bit chain: use c <= ", n));
  for (long i = 0; i < n; ++i) {
    for (int b = sizes[i];; ++b) {  // the first size from there that has a prime
      try {
        ct.push_back(util::ntt_primes(1, b, step, taken())[0]);
        break;
      } catch (const ParameterError&) {
        if (b >= max_bits) throw;
      }
    }
  }
  for (uint64_t q : ct) log2_q_.push_back(std::log2(double(q)));

  digits_ = balanced_digits(std::vector<double>(log2_q_.begin() + S_, log2_q_.end()), p.c);
  for (auto& d : digits_)
    for (int& i : d) i += int(S_);
  const long needed = long(std::ceil(log2_max_digit())) + p.ks_margin_bits;
  K_ = ceil_div(needed, max_bits);
  const int b_sp = std::max<int>(int(ceil_div(needed, K_)), int(share_min));  // where primes are plentiful
  const std::vector<uint64_t> sp = util::ntt_primes(K_, b_sp, step, taken());
  q_ = ct;
  q_.insert(q_.end(), sp.begin(), sp.end());
  for (uint64_t q : sp) log2_q_.push_back(std::log2(double(q)));
}

std::vector<int> Chain::ciphertext_primes() const {
  std::vector<int> r(L_ - S_);
  std::iota(r.begin(), r.end(), int(S_));
  return r;
}

std::vector<int> Chain::small_primes() const {
  std::vector<int> r(S_);
  std::iota(r.begin(), r.end(), 0);
  return r;
}

std::vector<int> Chain::special_primes() const {
  std::vector<int> r(K_);
  std::iota(r.begin(), r.end(), int(L_));
  return r;
}

double Chain::log2_Q(const std::vector<int>& primes) const {
  double s = 0;
  for (int i : primes) s += log2_q_[i];
  return s;
}

double Chain::log2_Q() const { return log2_Q(ciphertext_primes()); }

double Chain::log2_P() const { return log2_Q(special_primes()); }

double Chain::log2_max_digit() const {
  double best = 0;
  for (const auto& d : digits_) best = std::max(best, log2_Q(d));
  return best;
}

std::string Chain::describe() const {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(1);
  os << (L_ - S_) << " ciphertext primes of " << (L_ > S_ ? log2_q_[S_] : 0.0) << " bits (top "
     << (L_ > S_ ? log2_q_[L_ - 1] : 0.0) << "): log2 Q = " << log2_Q() << "; " << S_
     << " small ladder primes of";
  for (long i = 0; i < S_; ++i) os << (i ? "," : " ") << log2_q_[i];
  os << " bits (the smallest with q = 1 mod " << (step_ == uint64_t(p_.m) ? std::string("m") : "m*N, N=" + std::to_string(N_)) << "; transient, not in Q); " << digits_.size()
     << " digits of";
  for (size_t j = 0; j < digits_.size(); ++j) os << (j ? "," : " ") << log2_Q(digits_[j]);
  os << " bits; " << K_ << " special primes, log2 P = " << log2_P() << " (largest digit + "
     << p_.ks_margin_bits << ")";
  return os.str();
}

}  // namespace cb::bgv
