#include "engine/bgv/dcrt_poly.h"

#include <omp.h>

#include <algorithm>

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {

using util::add_mod;
using util::sub_mod;

DCRTPoly::DCRTPoly(const Context& ctx, std::vector<int> primes)
    : ctx_(&ctx), primes_(std::move(primes)), phi_(ctx.phi()), data_(primes_.size() * phi_) {
  fill_limbs(nullptr);
}

DCRTPoly::DCRTPoly(const DCRTPoly& o) : ctx_(o.ctx_), primes_(o.primes_), phi_(o.phi_), data_(o.data_.size()) {
  fill_limbs(o.data_.data());
}

DCRTPoly& DCRTPoly::operator=(const DCRTPoly& o) {
  if (this == &o) return *this;
  ctx_ = o.ctx_;
  primes_ = o.primes_;
  phi_ = o.phi_;
  data_.resize(o.data_.size());
  fill_limbs(o.data_.data());
  return *this;
}

void DCRTPoly::fill_limbs(const uint64_t* src) {
  const long limbs = long(primes_.size());
  const bool par = ctx_ && ctx_->parallel() && limbs > 1 && !omp_in_parallel();
#pragma omp parallel for schedule(static) if(par)
  for (long i = 0; i < limbs; ++i) {
    uint64_t* d = data_.data() + i * phi_;
    if (src) std::copy_n(src + i * phi_, phi_, d);
    else std::fill_n(d, phi_, 0);
  }
}

DCRTPoly::DCRTPoly(const Context& ctx, std::vector<int> primes, Uninitialized)
    : ctx_(&ctx), primes_(std::move(primes)), phi_(ctx.phi()), data_(primes_.size() * phi_) {}

DCRTPoly DCRTPoly::from_coeffs(const Context& ctx, std::vector<int> primes,
                               const std::vector<long>& coeffs) {
  DCRTPoly r(ctx, std::move(primes), Uninitialized{});
  const long n = long(coeffs.size());
  if (n > ctx.m()) throw ParameterError(msg("from_coeffs: ", n, " coefficients exceed m=", ctx.m()));
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> tmp(n);
#pragma omp for schedule(static)
    for (long i = 0; i < r.num_limbs(); ++i) coeffs_limb(ctx, r.primes_[i], coeffs, tmp.data(), r.limb(i));
  }
  return r;
}

void DCRTPoly::coeffs_limb(const Context& ctx, int p, const std::vector<long>& coeffs, uint64_t* tmp,
                           uint64_t* out) {
  const uint64_t q = ctx.q(p);
  const long n = long(coeffs.size());
  for (long k = 0; k < n; ++k) {
    // Coefficients are mostly small (keys, noise, plaintexts): no division for those.
    const long c = coeffs[k];
    const uint64_t a = c >= 0 ? uint64_t(c) : uint64_t(0) - uint64_t(c);
    const uint64_t r = a < q ? a : a % q;
    tmp[k] = c >= 0 || r == 0 ? r : q - r;
  }
  ctx.ntt(p).forward(tmp, n, out);
}

bool DCRTPoly::has_prime(int p) const {
  return std::find(primes_.begin(), primes_.end(), p) != primes_.end();
}

const uint64_t* DCRTPoly::limb_of(int p) const {
  if (p < long(primes_.size()) && primes_[p] == p) return limb(p);  // full chains: index = prime
  auto it = std::find(primes_.begin(), primes_.end(), p);
  if (it == primes_.end()) throw ParameterError(msg("DCRTPoly: no limb for prime index ", p));
  return limb(it - primes_.begin());
}

void DCRTPoly::check_same(const DCRTPoly& b, const char* op) const {
  if (ctx_ != b.ctx_ || primes_ != b.primes_)
    throw Error(msg("DCRTPoly ", op, ": operands over different prime sets (", primes_.size(),
                    " vs ", b.primes_.size(), " limbs)"));
}

DCRTPoly& DCRTPoly::operator+=(const DCRTPoly& b) {
  check_same(b, "+=");
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i);
    const uint64_t* y = b.limb(i);
    util::add_mod_array(x, x, y, phi_, q);  // (a loop on the member phi_ does not vectorize)
  }
  return *this;
}

DCRTPoly& DCRTPoly::operator-=(const DCRTPoly& b) {
  check_same(b, "-=");
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i);
    const uint64_t* y = b.limb(i);
    util::sub_mod_array(x, x, y, phi_, q);
  }
  return *this;
}

DCRTPoly& DCRTPoly::operator*=(const DCRTPoly& b) {
  check_same(b, "*=");
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) util::mul_mod_array(limb(i), limb(i), b.limb(i), phi_, modulus(i));
  return *this;
}

void DCRTPoly::negate() {
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i);
    const long n = phi_;
    for (long t = 0; t < n; ++t) x[t] = util::neg_mod(x[t], q);
  }
}

void DCRTPoly::add_product(const DCRTPoly& a, const DCRTPoly& b) {
  check_same(a, "add_product");
  check_same(b, "add_product");
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i)
    util::mul_add_mod_array(limb(i), a.limb(i), b.limb(i), limb(i), phi_, modulus(i));
}

void DCRTPoly::mul_scalars(const std::vector<uint64_t>& scalars) {
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i);
    util::mul_scalar_array(x, x, util::ShoupMul(scalars[i] % q, q), phi_, q);
  }
}

DCRTPoly DCRTPoly::permuted(const std::vector<int>& perm) const {
  DCRTPoly r(*ctx_, primes_, Uninitialized{});
#pragma omp parallel for schedule(static) if(ctx_->parallel())
  for (long i = 0; i < num_limbs(); ++i) {
    const uint64_t* x = limb(i);
    uint64_t* y = r.limb(i);
    const long n = phi_;
    for (long t = 0; t < n; ++t) y[t] = x[perm[t]];
  }
  return r;
}

void DCRTPoly::truncate(long count) {
  primes_.resize(count);
  data_.resize(count * phi_);
}

DCRTPoly DCRTPoly::restricted(const std::vector<int>& primes) const {
  DCRTPoly r(*ctx_, primes, Uninitialized{});
  for (size_t j = 0; j < primes.size(); ++j) {
    auto it = std::find(primes_.begin(), primes_.end(), primes[j]);
    if (it == primes_.end()) throw Error(msg("DCRTPoly::restricted: prime index ", primes[j], " absent"));
    std::copy_n(limb(it - primes_.begin()), phi_, r.limb(j));
  }
  return r;
}

}  // namespace cb::bgv
