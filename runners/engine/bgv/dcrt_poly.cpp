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
  if (!ctx_) return;
  uint64_t* d = data_.data();
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    const long at = i * phi_ + lo;
    if (src) std::copy_n(src + at, n, d + at);
    else std::fill_n(d + at, n, 0);
  });
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

namespace {
uint64_t residue(long c, uint64_t q) {
  const uint64_t a = c >= 0 ? uint64_t(c) : uint64_t(0) - uint64_t(c);
  const uint64_t r = a < q ? a : a % q;
  return c >= 0 || r == 0 ? r : q - r;
}
// max_k |c_k| (c_k > -2^63).
uint64_t max_abs(const std::vector<long>& c) {
  uint64_t mx = 0;
  for (long x : c) mx = std::max(mx, x >= 0 ? uint64_t(x) : uint64_t(0) - uint64_t(x));
  return mx;
}
}  // namespace

void DCRTPoly::coeffs_limb(const Context& ctx, int p, const std::vector<long>& coeffs, uint64_t* tmp,
                           uint64_t* out) {
  const uint64_t q = ctx.q(p);
  const long n = long(coeffs.size());
  if (max_abs(coeffs) < q) {
    // Coefficients are mostly small (keys, noise, plaintexts): c, or q + c below 0, in
    // one vectorized pass.
    const long* c = coeffs.data();
    for (long k = 0; k < n; ++k) tmp[k] = uint64_t(c[k]) + (c[k] < 0 ? q : 0);
  } else {
    for (long k = 0; k < n; ++k) tmp[k] = residue(coeffs[k], q);
  }
  ctx.ntt(p).forward(tmp, n, out);
}

void DCRTPoly::scaled_coeffs_limb(const Context& ctx, int p, long scale, const std::vector<long>& e,
                                  const std::vector<long>& plus, uint64_t* tmp, uint64_t* out) {
  const uint64_t q = ctx.q(p);
  const long n = long(e.size()), np = long(plus.size());
  if (np > n) throw ParameterError(msg("from_scaled_coeffs: ", plus.size(), " > ", n, " coefficients"));
  const uint64_t s = uint64_t(scale >= 0 ? scale : -scale);
  if (max_abs(plus) <= q / 2 && (s == 0 || max_abs(e) <= (q / 2) / s)) {
    // |scale e_k + plus_k| <= 2 floor(q / 2) < q (encryption's p e at any p < 2^61 with a
    // Gaussian e): the integers themselves, as coeffs_limb takes them.
    const long *x = e.data(), *y = plus.data();
    for (long k = 0; k < np; ++k) {
      const long c = scale * x[k] + y[k];
      tmp[k] = uint64_t(c) + (c < 0 ? q : 0);
    }
    for (long k = np; k < n; ++k) {
      const long c = scale * x[k];
      tmp[k] = uint64_t(c) + (c < 0 ? q : 0);
    }
  } else {
    const util::ShoupMul w(residue(scale, q), q);
    for (long k = 0; k < n; ++k) {
      const uint64_t x = util::mul_shoup(residue(e[k], q), w.w, w.wp, q);
      tmp[k] = k < np ? util::add_mod(x, residue(plus[k], q), q) : x;
    }
  }
  ctx.ntt(p).forward(tmp, n, out);
}

DCRTPoly DCRTPoly::from_scaled_coeffs(const Context& ctx, std::vector<int> primes, long scale,
                                      const std::vector<long>& e, const std::vector<long>& plus) {
  DCRTPoly r(ctx, std::move(primes), Uninitialized{});
  const long n = long(e.size());
  if (n > ctx.m()) throw ParameterError(msg("from_scaled_coeffs: ", n, " coefficients exceed m=", ctx.m()));
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> tmp(n);
#pragma omp for schedule(static)
    for (long i = 0; i < r.num_limbs(); ++i)
      scaled_coeffs_limb(ctx, r.primes_[i], scale, e, plus, tmp.data(), r.limb(i));
  }
  return r;
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
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    uint64_t* x = limb(i) + lo;
    util::add_mod_array(x, x, b.limb(i) + lo, n, modulus(i));
  });
  return *this;
}

DCRTPoly& DCRTPoly::operator-=(const DCRTPoly& b) {
  check_same(b, "-=");
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    uint64_t* x = limb(i) + lo;
    util::sub_mod_array(x, x, b.limb(i) + lo, n, modulus(i));
  });
  return *this;
}

DCRTPoly& DCRTPoly::operator*=(const DCRTPoly& b) {
  check_same(b, "*=");
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    uint64_t* x = limb(i) + lo;
    util::mul_mod_array(x, x, b.limb(i) + lo, n, modulus(i));
  });
  return *this;
}

void DCRTPoly::negate() {
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i) + lo;
    for (long t = 0; t < n; ++t) x[t] = util::neg_mod(x[t], q);
  });
}

void DCRTPoly::add_product(const DCRTPoly& a, const DCRTPoly& b) {
  check_same(a, "add_product");
  check_same(b, "add_product");
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    uint64_t* x = limb(i) + lo;
    util::mul_add_mod_array(x, a.limb(i) + lo, b.limb(i) + lo, x, n, modulus(i));
  });
}

void DCRTPoly::mul_scalars(const std::vector<uint64_t>& scalars) {
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    const uint64_t q = modulus(i);
    uint64_t* x = limb(i) + lo;
    util::mul_scalar_array(x, x, util::ShoupMul(scalars[i] % q, q), n, q);
  });
}

DCRTPoly DCRTPoly::permuted(const std::vector<int>& perm) const {
  DCRTPoly r(*ctx_, primes_, Uninitialized{});
  for_limb_chunks(*ctx_, num_limbs(), phi_, [&](long i, long lo, long n) {
    const uint64_t* x = limb(i);
    uint64_t* y = r.limb(i);
    const int* p = perm.data();
    for (long t = lo; t < lo + n; ++t) y[t] = x[p[t]];
  });
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
