#include "engine/bgv/plaintext.h"

#include <atomic>
#include <cmath>

#include "engine/util/canonical.h"

namespace cb::bgv {

namespace {
std::atomic<size_t> g_cache_bytes{0};
}

Plaintext::Plaintext(const Context& ctx, const NTL::GF2X& mu)
    : ctx_(&ctx), poly_(mu), cache_(std::make_shared<Cache>()) {
  const long deg = NTL::deg(mu);
  if (deg >= ctx.phi()) {
    NTL::rem(poly_, mu, ctx.slots().Phi());
  }
  const long d2 = NTL::deg(poly_);
  if (d2 >= 0) {
    coeffs_.resize(d2 + 1);
    for (long i = 0; i <= d2; ++i) coeffs_[i] = NTL::IsOne(NTL::coeff(poly_, i)) ? 1 : 0;
    log2_norm_ = std::log2(util::canonical_norm(coeffs_, ctx.m()));
  } else {
    log2_norm_ = -INFINITY;
  }
}

Plaintext::Cache::~Cache() { g_cache_bytes.fetch_sub(bytes); }

std::shared_ptr<const DCRTPoly> Plaintext::dcrt(const std::vector<int>& primes) const {
  std::lock_guard<std::mutex> lock(cache_->mu);
  if (!cache_->full && !cache_->refused) {
    const size_t bytes = size_t(ctx_->L()) * ctx_->phi() * sizeof(uint64_t);
    if (g_cache_bytes.fetch_add(bytes) + bytes <= kPlaintextCacheBytes) {
      cache_->bytes = bytes;
      cache_->full = std::make_shared<DCRTPoly>(
          DCRTPoly::from_coeffs(*ctx_, ctx_->ciphertext_primes(), coeffs_));
    } else {
      g_cache_bytes.fetch_sub(bytes);
      cache_->refused = true;
    }
  }
  if (!cache_->full)
    return std::make_shared<DCRTPoly>(DCRTPoly::from_coeffs(*ctx_, primes, coeffs_));
  return cache_->full;
}

}  // namespace cb::bgv
