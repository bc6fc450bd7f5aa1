#include "engine/bgv/context.h"

#include <cmath>
#include <mutex>
#include <numeric>

#include "engine/bgv/security.h"
#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::bgv {

namespace {
// Big primes as large as the fastest transform path takes (50 bits with AVX-512 IFMA,
// else 60): more, cheaper limbs win over fewer, dearer ones.
const long kMaxPrimeBits = util::max_fast_prime_bits();

long ceil_div(long a, long b) { return (a + b - 1) / b; }
}  // namespace

Context::Context(const ContextParams& p) : params_(p) {
  if (p.m % 2 == 0) throw ParameterError(msg("m=", p.m, " is even: the ring needs odd m"));
  zm_ = std::make_unique<ZmStar>(p.m);
  if (p.bits < 20)
    throw ParameterError(msg("bits=", p.bits, " is too small: the chain needs at least 20 bits"));
  if (p.c < 1) throw ParameterError(msg("c=", p.c, ": key switching needs at least 1 digit"));
  if (p.hwt < 0 || p.hwt > zm_->phi())
    throw ParameterError(msg("hwt=", p.hwt, " must be 0 (dense) or in [1, phi=", zm_->phi(), "]"));
  if (p.ks_margin_bits < 0 || p.ks_margin_bits > 120)
    throw ParameterError(msg("ks_margin_bits=", p.ks_margin_bits, " must be in [0, 120]"));

  const uint64_t step = uint64_t(p.m) * uint64_t(util::bluestein_length(p.m));
  const int min_bits = int(std::ceil(std::log2(double(step)))) + 2;

  if (p.small_primes < 0 || p.small_primes > 3)
    throw ParameterError(msg("small_primes=", p.small_primes, " must be in [0, 3]"));
  // The small primes: the smallest NTT primes of the ring, while they leave at least 20
  // bits of the chain to big primes.
  std::vector<uint64_t> ct;
  double small_bits = 0;
  for (int b = min_bits; long(ct.size()) < p.small_primes && b <= int(kMaxPrimeBits); ++b) {
    for (long want = p.small_primes - long(ct.size()); want >= 1; --want) {
      try {
        const auto found = util::ntt_primes(want, b, step, ct);
        double add = 0;
        for (uint64_t q : found) add += std::log2(double(q));
        if (small_bits + add > p.bits - 20) break;
        ct.insert(ct.end(), found.begin(), found.end());
        small_bits += add;
        break;
      } catch (const ParameterError&) {
      }
    }
    if (small_bits > p.bits - 20 - b) break;
  }
  S_ = long(ct.size());
  const long big_bits = std::max<long>(p.bits - long(small_bits), 20);
  const long L_big = ceil_div(big_bits, kMaxPrimeBits);
  L_ = S_ + L_big;
  if (p.c > L_)
    throw ParameterError(msg("c=", p.c, " exceeds the ", L_, " ciphertext primes of a ", p.bits,
                             "-bit chain: use c <= ", L_));
  const int b_ct = std::max<int>(int(ceil_div(big_bits, L_big)), min_bits);
  const std::vector<uint64_t> big = util::ntt_primes(L_big, b_ct, step, ct);
  ct.insert(ct.end(), big.begin(), big.end());

  // Digits: consecutive groups, sizes as equal as possible, larger groups first.
  long next = 0;
  for (long j = 0; j < p.c; ++j) {
    const long size = L_ / p.c + (j < L_ % p.c ? 1 : 0);
    std::vector<int> d(size);
    std::iota(d.begin(), d.end(), int(next));
    next += size;
    digits_.push_back(d);
  }
  double max_digit = 0;
  for (const auto& d : digits_) {
    double s = 0;
    for (int i : d) s += std::log2(double(ct[i]));
    max_digit = std::max(max_digit, s);
  }
  const long needed = long(std::ceil(max_digit)) + p.ks_margin_bits;
  K_ = ceil_div(needed, kMaxPrimeBits);
  const int b_sp = std::max<int>(int(ceil_div(needed, K_)), min_bits);
  std::vector<uint64_t> sp = util::ntt_primes(K_, b_sp, step, ct);

  q_ = ct;
  q_.insert(q_.end(), sp.begin(), sp.end());
  for (uint64_t q : q_) log2_q_.push_back(std::log2(double(q)));
  ntt_.resize(q_.size());
#pragma omp parallel for schedule(dynamic)
  for (long i = 0; i < long(q_.size()); ++i)
    ntt_[i] = std::make_unique<util::CyclotomicTransform>(p.m, q_[i]);

  pos_.assign(p.m, -1);
  const auto& units = ntt_[0]->zmstar();
  for (long t = 0; t < long(units.size()); ++t) pos_[units[t]] = t;
}

const SlotRing& Context::slots() const {
  std::call_once(slots_once_, [this] { slots_ = std::make_unique<SlotRing>(*zm_); });
  return *slots_;
}

std::vector<int> Context::ciphertext_primes() const {
  std::vector<int> r(L_);
  std::iota(r.begin(), r.end(), 0);
  return r;
}

std::vector<int> Context::special_primes() const {
  std::vector<int> r(K_);
  std::iota(r.begin(), r.end(), int(L_));
  return r;
}

double Context::log2_Q(const std::vector<int>& primes) const {
  double s = 0;
  for (int i : primes) s += log2_q_[i];
  return s;
}

double Context::log2_Q() const { return log2_Q(ciphertext_primes()); }

double Context::log2_P() const {
  double s = 0;
  for (long i = L_; i < L_ + K_; ++i) s += log2_q_[i];
  return s;
}

double Context::log2_max_digit() const {
  double best = 0;
  for (const auto& d : digits_) {
    double s = 0;
    for (int i : d) s += log2_q_[i];
    best = std::max(best, s);
  }
  return best;
}

double Context::security() const {
  return helib_security(m(), phi(), log2_Q() + log2_P(), params_.hwt);
}

std::vector<int> Context::automorphism_perm(long k) const {
  const long m = params_.m;
  k %= m;
  if (k < 0) k += m;
  if (std::gcd(k, m) != 1)
    throw ParameterError(msg("automorphism X -> X^", k, ": k must be a unit modulo m=", m));
  const auto& units = ntt_[0]->zmstar();
  std::vector<int> perm(units.size());
  for (size_t t = 0; t < units.size(); ++t) perm[t] = int(pos_[(units[t] * k) % m]);
  return perm;
}

}  // namespace cb::bgv
