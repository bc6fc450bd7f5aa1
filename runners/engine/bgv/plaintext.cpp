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
    roots_ = std::make_shared<const RootBound>(
        RootBound::from_values(util::canonical_embedding(ctx.m())->magnitudes(coeffs_)));
  }
}

RootBound Plaintext::embedding_of(const SlotRing& slots, long m, const NTL::GF2X& mu) {
  NTL::GF2X r = mu;
  if (NTL::deg(r) >= slots.zmstar().phi()) NTL::rem(r, mu, slots.Phi());
  const long d = NTL::deg(r);
  if (d < 0) return RootBound();
  std::vector<long> coeffs(d + 1);
  for (long i = 0; i <= d; ++i) coeffs[i] = NTL::IsOne(NTL::coeff(r, i)) ? 1 : 0;
  return RootBound::from_values(util::canonical_embedding(m)->magnitudes(coeffs));
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
