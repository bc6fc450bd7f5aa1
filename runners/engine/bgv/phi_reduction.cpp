#include "engine/bgv/phi_reduction.h"

#include <NTL/lzz_pX.h>

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {
namespace {

int log2_at_least(long x) {  // the least e >= 1 with 2^e >= x
  int e = 1;
  while ((long(1) << e) < x) ++e;
  return e;
}

util::Ntt ntt_for(long length, uint64_t q, long m) {
  try {
    return util::Ntt(log2_at_least(length), q);
  } catch (const ParameterError& e) {
    throw ParameterError(msg("PhiReduction: the prime q=", q, " has no root of unity of order ",
                             long(1) << log2_at_least(length), " (reduction modulo Phi_", m,
                             " needs q = 1 mod that power of two: ", e.what(), ")"));
  }
}

// Fully reduced residues of a lazy range [0, bound q), bound a power of two <= 8.
inline uint64_t reduce_lazy(uint64_t x, uint64_t q) {
  x = x >= 4 * q ? x - 4 * q : x;
  x = x >= 2 * q ? x - 2 * q : x;
  return x >= q ? x - q : x;
}

// A kernel for convolve_levels: the transform of f (zero-padded to the length), times
// 1/N so the unscaled inverse returns the product itself, with its Shoup companions.
void kernel(const util::Ntt& ntt, std::vector<uint64_t> f, std::vector<uint64_t>& k, std::vector<uint64_t>& kp) {
  const uint64_t q = ntt.q();
  f.resize(size_t(ntt.n()), 0);
  ntt.forward(f.data());
  const util::ShoupMul n_inv(util::inv_mod(uint64_t(ntt.n()) % q, q), q);
  util::mul_scalar_array(f.data(), f.data(), n_inv, ntt.n(), q);
  k = std::move(f);
  kp.resize(k.size());
  for (size_t i = 0; i < k.size(); ++i) kp[i] = ntt.companion(k[i]);
}

// The degree of Phi_m given by its coefficients, checked before any table is built.
long checked_degree(long m, const std::vector<long>& phi_coeffs) {
  const long phi = long(phi_coeffs.size()) - 1;
  if (phi < 1 || phi >= m || phi_coeffs.back() != 1)
    throw ParameterError(msg("PhiReduction: Phi_", m, " must be monic of degree in [1, ", m - 1, "], got degree ",
                             phi, phi >= 1 ? msg(" with leading coefficient ", phi_coeffs.back()) : std::string()));
  return phi;
}

// Phi_m = X^(m/2) + 1 (the power-of-two rings): the reduction is a fold.
bool is_binomial(long m, const std::vector<long>& phi_coeffs) {
  const long phi = long(phi_coeffs.size()) - 1;
  if (2 * phi != m || phi_coeffs.front() != 1) return false;
  for (long j = 1; j < phi; ++j)
    if (phi_coeffs[size_t(j)] != 0) return false;
  return true;
}

}  // namespace

PhiReduction::PhiReduction(long m, const std::vector<long>& phi_coeffs, uint64_t q)
    : m_(m), phi_(checked_degree(m, phi_coeffs)), k_(m - phi_), q_(q) {
  if (is_binomial(m, phi_coeffs)) return;
  ntt1_.emplace(ntt_for(std::max<long>(2 * k_ - 1, 2), q, m));
  ntt2_.emplace(ntt_for(m, q, m));
  auto residue = [&](long c) { return c >= 0 ? uint64_t(c) % q : (q - uint64_t(-c) % q) % q; };
  // I = rev(Phi_m)^-1 mod X^k, by NTL (Newton iteration with its FFTs).
  std::vector<uint64_t> inv(static_cast<size_t>(k_));
  {
    const NTL::zz_pContext zctx{static_cast<long>(q)};
    NTL::zz_pPush push(zctx);
    NTL::zz_pX rev, i;
    rev.SetLength(phi_ + 1);
    for (long j = 0; j <= phi_; ++j) rev[j] = NTL::zz_p(long(residue(phi_coeffs[size_t(phi_ - j)])));
    rev.normalize();
    NTL::InvTrunc(i, rev, k_);
    for (long j = 0; j <= NTL::deg(i); ++j) inv[size_t(j)] = uint64_t(NTL::rep(i[j]));
  }
  kernel(*ntt1_, std::move(inv), inv_hat_, inv_hatp_);
  std::vector<uint64_t> f(static_cast<size_t>(phi_ + 1));
  for (long j = 0; j <= phi_; ++j) f[size_t(j)] = residue(phi_coeffs[size_t(j)]);
  kernel(*ntt2_, std::move(f), phi_hat_, phi_hatp_);
}

void PhiReduction::reduce(const uint64_t* b, uint64_t* r) const {
  const uint64_t q = q_;
  if (!ntt1_) {
    util::sub_mod_array(r, b, b + phi_, phi_, q);  // X^phi = -1
    return;
  }
  // rev(t) = rev(b) I mod X^k.
  std::vector<uint64_t> a(size_t(ntt1_->n()), 0);
  for (long i = 0; i < k_; ++i) a[size_t(i)] = b[m_ - 1 - i];
  ntt1_->convolve_levels(a.data(), inv_hat_.data(), inv_hatp_.data(), 0, 0);
  // t Phi_m, exact at length N2 >= m.
  std::vector<uint64_t> t(size_t(ntt2_->n()), 0);
  for (long j = 0; j < k_; ++j) t[size_t(j)] = reduce_lazy(a[size_t(k_ - 1 - j)], q);
  ntt2_->convolve_levels(t.data(), phi_hat_.data(), phi_hatp_.data(), 0, 0);
  for (long i = 0; i < phi_; ++i) t[size_t(i)] = reduce_lazy(t[size_t(i)], q);
  util::sub_mod_array(r, b, t.data(), phi_, q);
}

}  // namespace cb::bgv
