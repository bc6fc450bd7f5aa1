#include "engine/bgv/context.h"

#include <omp.h>

#include <cmath>
#include <mutex>
#include <numeric>

#include "engine/bgv/memory.h"
#include "engine/bgv/root_bound.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::bgv {

Context::Context(const ContextParams& p)
    : params_(check_p(p)),
      // ZmStar refuses, naming m and the constraint, every even m at p = 2 (m = 2^k has no
      // slots there: Phi_m = (X + 1)^(m/2) mod 2) and the even m not a power of two at odd p.
      zm_(std::make_unique<ZmStar>(p.m, p.p)),
      chain_(check(p, zm_->phi())) {
  if (p.p > 2) {
    if (std::log2(double(p.p)) >= chain_.log2_Q())
      throw ParameterError(msg("p=", p.p, " is too large for the chain: log2 p = ", std::log2(double(p.p)),
                               " is not below log2 Q = ", chain_.log2_Q(), " (bits=", p.bits, ")"));
    for (uint64_t q : chain_.primes())
      if (q == uint64_t(p.p))
        throw ParameterError(msg("p=", p.p, " is one of the chain's primes: modulus switching needs every q_i "
                                 "invertible mod p"));
  }
  static std::once_flag memory_once;
  std::call_once(memory_once, keep_freed_memory);
  const auto& q = chain_.primes();
  ntt_.resize(q.size());
#pragma omp parallel for schedule(dynamic)
  for (long i = 0; i < long(q.size()); ++i) ntt_[i] = std::make_unique<util::CyclotomicTransform>(p.m, q[i]);

  pos_.assign(p.m, -1);
  const auto& units = ntt_[0]->zmstar();
  for (long t = 0; t < long(units.size()); ++t) pos_[units[t]] = t;
}

const ContextParams& Context::check_p(const ContextParams& p) {
  if (p.p < 2 || p.p >= kMaxP || !util::is_prime(uint64_t(p.p)))
    throw ParameterError(msg("p=", p.p, ": the plaintext modulus must be a prime with 2 <= p < 2^61"));
  if (p.p != 2 && p.m > 0 && p.m % p.p == 0)  // p = 2 with even m: the ring's own checks say why
    throw ParameterError(msg("p=", p.p, " divides m=", p.m, ": the plaintext modulus must not divide m"));
  return p;
}

ChainParams Context::check(const ContextParams& p, long phi) {
  if (p.hwt < 0 || p.hwt > phi)
    throw ParameterError(msg("hwt=", p.hwt, " must be 0 (dense) or in [1, phi=", phi, "]"));
  return ChainParams{p.m, p.bits, p.c, p.small_primes, p.ks_margin_bits, uint64_t(p.p)};
}

bool Context::parallel() const { return zm_->phi() >= 4096 && !omp_in_parallel(); }

const SlotRing& Context::slots() const {
  if (params_.p != 2)
    throw ParameterError(msg("slots() is R_2's (GF(2^d) slots): at p=", params_.p, " (m=", params_.m,
                             ") use prime_slots()"));
  std::call_once(slots_once_, [this] { slots_ = std::make_unique<SlotRing>(*zm_); });
  return *slots_;
}

const PrimeSlotRing& Context::prime_slots() const {
  if (params_.p == 2) throw ParameterError(msg("prime_slots() at p=2 (m=", params_.m, "): use slots()"));
  std::call_once(prime_slots_once_, [this] { prime_slots_ = std::make_unique<PrimeSlotRing>(*zm_); });
  return *prime_slots_;
}

double Context::security() const {
  return helib_security(m(), phi(), log2_Q() + log2_P(), params_.hwt);
}

size_t Context::transform_bytes() const {
  size_t b = 0;
  bool shared = false;  // the prime-factor algorithm's index tables, one copy per m
  for (const auto& t : ntt_) {
    b += t->bytes();
    shared |= t->algorithm() == util::CyclotomicTransform::Algorithm::prime_factor;
  }
  return b + (shared ? util::CyclotomicTransform::shared_bytes(params_.m, phi()) : 0);
}

std::map<std::string, long> Context::transform_algorithms() const {
  std::map<std::string, long> n;
  for (const auto& t : ntt_) ++n[util::CyclotomicTransform::name(t->algorithm())];
  return n;
}

const std::vector<int>& Context::automorphism_perm(long k) const {
  const long m = params_.m, kk = ((k % m) + m) % m;
  {
    std::lock_guard<std::mutex> lock(perms_mu_);
    if (const auto it = perms_.find(kk); it != perms_.end()) return it->second;
  }
  std::vector<int> perm = root_permutation(m, kk);  // outside the lock; throws for k not in Z_m^*
  std::lock_guard<std::mutex> lock(perms_mu_);
  return perms_.emplace(kk, std::move(perm)).first->second;
}

}  // namespace cb::bgv
