#include "engine/bgv/plaintext.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <list>
#include <map>
#include <numeric>
#include <optional>
#include <random>

#include <omp.h>
#include <xxhash.h>

#include "engine/bgv/decryptor.h"
#include "engine/errors.h"
#include "engine/util/canonical.h"
#include "engine/util/modarith.h"

namespace cb::bgv {

namespace {
std::atomic<size_t> g_cache_bytes{0};
std::atomic<size_t> g_cache_limit{Plaintext::kPlaintextCacheBytes};

// small_lift's work: Plaintext::kLiftTrials + 1 embeddings, each an FFT of length >= 2m.
std::pair<std::vector<long>, RootBound> compute_lift(long m, std::vector<long> mu01) {
  const auto& emb = *util::canonical_embedding(m);
  long nonzero = 0;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the positions of the nonzero coefficients
  for (size_t i = 0; i < mu01.size(); ++i)
    if (mu01[i]) {
      ++nonzero;
      for (int k = 0; k < 8; ++k) h = (h ^ ((uint64_t(i) >> (8 * k)) & 0xff)) * 0x100000001b3ull;
    }
  // The candidates: mu01 itself, then Plaintext::kLiftTrials signings drawn in order from gen.
  std::vector<std::vector<long>> lifts{mu01};
  if (nonzero >= 2) {
    std::mt19937_64 gen(h);  // the standard fixes mt19937_64's sequence: the same lift everywhere
    for (int trial = 0; trial < Plaintext::kLiftTrials; ++trial) {
      std::vector<long> lift = mu01;
      uint64_t bits = 0;
      int left = 0;
      for (long& c : lift) {
        if (!c) continue;
        if (!left) bits = gen(), left = 64;
        if (bits & 1) c = -1;
        bits >>= 1, --left;
      }
      lifts.push_back(std::move(lift));
    }
  }
  // Their embeddings two by two (one FFT of length >= 2m for each pair, canonical.h),
  // the pairs side by side; the first strictly smallest wins, as in a sequential scan.
  std::vector<RootBound> bounds(lifts.size());
  const long pairs = long(lifts.size() + 1) / 2;
#pragma omp parallel for schedule(static, 1) if (pairs > 1 && !omp_in_parallel())
  for (long k = 0; k < pairs; ++k) {
    const size_t i = size_t(2 * k);
    if (i + 1 < lifts.size()) {
      auto [a, b] = emb.magnitudes(lifts[i], lifts[i + 1]);
      bounds[i] = RootBound::from_values(std::move(a));
      bounds[i + 1] = RootBound::from_values(std::move(b));
    } else {
      bounds[i] = RootBound::from_values(emb.magnitudes(lifts[i]));
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < lifts.size(); ++i)
    if (bounds[i].log2_max() < bounds[best].log2_max()) best = i;
  return {std::move(lifts[best]), std::move(bounds[best])};
}

// The lifts already computed, by (m, mu01): the chain planner meets the same plaintexts at
// every chain it tries (the subkeys and blocks of each run, the constants of each key
// weight's circuit) and the run meets them again; each costs three FFTs of length >= 2m
// (five lifts, in pairs).
// Least recently used first out past kLiftMemoBytes.
struct LiftMemo {
  static constexpr size_t kLiftMemoBytes = size_t(256) << 20;
  struct Entry {
    std::vector<int8_t> lift;
    std::shared_ptr<const RootBound> roots;
    size_t bytes;
  };
  using Key = std::pair<long, std::vector<uint64_t>>;  // m, mu01's bits
  std::mutex mu;
  std::list<Key> order;  // most recent first
  std::map<Key, std::pair<Entry, std::list<Key>::iterator>> entries;
  size_t bytes = 0;

  static Key key_of(long m, const std::vector<long>& mu01) {
    Key k{m, std::vector<uint64_t>((mu01.size() + 63) / 64 + 1, 0)};
    k.second.back() = mu01.size();
    for (size_t i = 0; i < mu01.size(); ++i)
      if (mu01[i]) k.second[i / 64] |= uint64_t(1) << (i % 64);
    return k;
  }
  std::optional<Entry> find(const Key& k) {
    std::lock_guard<std::mutex> lock(mu);
    const auto it = entries.find(k);
    if (it == entries.end()) return std::nullopt;
    order.splice(order.begin(), order, it->second.second);
    return it->second.first;
  }
  void put(Key k, Entry e) {
    std::lock_guard<std::mutex> lock(mu);
    if (e.bytes > kLiftMemoBytes || entries.count(k)) return;
    while (bytes + e.bytes > kLiftMemoBytes) {
      const auto last = entries.find(order.back());
      bytes -= last->second.first.bytes;
      entries.erase(last);
      order.pop_back();
    }
    order.push_front(k);
    bytes += e.bytes;
    entries.emplace(std::move(k), std::make_pair(std::move(e), order.begin()));
  }
};

LiftMemo& lift_memo() {
  static LiftMemo* memo = new LiftMemo;  // never destroyed: plaintexts may outlive static destruction
  return *memo;
}

std::pair<std::vector<long>, std::shared_ptr<const RootBound>> memo_lift(long m, std::vector<long> mu01) {
  LiftMemo::Key key = LiftMemo::key_of(m, mu01);
  if (auto e = lift_memo().find(key)) return {std::vector<long>(e->lift.begin(), e->lift.end()), e->roots};
  auto [lift, roots] = compute_lift(m, std::move(mu01));
  auto r = std::make_shared<const RootBound>(std::move(roots));
  LiftMemo::Entry e{std::vector<int8_t>(lift.begin(), lift.end()), r, 0};
  e.bytes = e.lift.size() + sizeof(double) * size_t(r->size());
  lift_memo().put(std::move(key), std::move(e));
  return {std::move(lift), std::move(r)};
}

}  // namespace

Plaintext::Plaintext(const Context& ctx, const NTL::GF2X& mu)
    : ctx_(&ctx), poly_(mu), cache_(std::make_shared<Cache>()) {
  if (ctx.p() != 2)
    throw ParameterError(msg("Plaintext from GF(2)[X] at p=", ctx.p(), ": use Plaintext::from_coeffs"));
  const long deg = NTL::deg(mu);
  if (deg >= ctx.phi()) {
    NTL::rem(poly_, mu, ctx.slots().Phi());
  }
  const long d2 = NTL::deg(poly_);
  if (d2 >= 0) {
    coeffs_.resize(d2 + 1);
    for (long i = 0; i <= d2; ++i) coeffs_[i] = NTL::IsOne(NTL::coeff(poly_, i)) ? 1 : 0;
    auto [lift, roots] = memo_lift(ctx.m(), std::move(coeffs_));
    coeffs_ = std::move(lift);
    roots_ = std::move(roots);
  }
}

std::vector<uint64_t> Plaintext::reduce(const Context& ctx, const std::vector<long>& coeffs) {
  const uint64_t p = uint64_t(ctx.p());
  const long phi = ctx.phi();
  std::vector<uint64_t> a(std::max<size_t>(coeffs.size(), size_t(phi)), 0);
  for (size_t i = 0; i < coeffs.size(); ++i) {
    const long c = coeffs[i];
    const uint64_t r = (c >= 0 ? uint64_t(c) : uint64_t(0) - uint64_t(c)) % p;
    a[i] = c >= 0 || r == 0 ? r : p - r;
  }
  if (long(a.size()) > phi) {
    // Long division by the monic Phi_m mod p, from the top coefficient down.
    std::vector<uint64_t> phi_p;
    for (long c : cyclotomic_coeffs(ctx.m())) {
      const uint64_t r = (c >= 0 ? uint64_t(c) : uint64_t(0) - uint64_t(c)) % p;
      phi_p.push_back(c >= 0 || r == 0 ? r : p - r);
    }
    for (long i = long(a.size()) - 1; i >= phi; --i) {
      const uint64_t top = a[i];
      if (!top) continue;
      for (long j = 0; j <= phi; ++j)  // a -= top X^(i - phi) Phi_m
        a[i - phi + j] = util::sub_mod(a[i - phi + j], util::mul_mod(top, phi_p[j], p), p);
    }
    a.resize(phi);
  }
  return a;
}

std::pair<std::vector<long>, std::shared_ptr<const RootBound>> Plaintext::centered_lift(long m, uint64_t p,
                                                                                        const std::vector<uint64_t>& r) {
  long deg = long(r.size()) - 1;
  while (deg >= 0 && r[deg] == 0) --deg;
  if (deg < 0) return {{}, std::make_shared<const RootBound>()};
  std::vector<long> lift(deg + 1);
  for (long i = 0; i <= deg; ++i) lift[i] = r[i] > p / 2 ? long(r[i]) - long(p) : long(r[i]);  // (-p/2, p/2]
  if (p == 2) {
    std::vector<double> mags = util::canonical_embedding(m)->magnitudes(lift);
    return {std::move(lift), std::make_shared<const RootBound>(RootBound::from_values(std::move(mags)))};
  }
  // p > 2: flat at the largest root, remembered by the lift's 128-bit XXH3 hash (seeded
  // with m and p): the planner and then the run meet each of a keystream's constants.
  static std::mutex mu;
  static std::map<std::pair<uint64_t, uint64_t>, std::pair<long, double>> flat_memo;  // -> (phi, log2 max)
  static constexpr size_t kFlatMemo = size_t(1) << 22;
  const XXH128_hash_t h = XXH3_128bits_withSeed(lift.data(), lift.size() * sizeof(long), uint64_t(m) * 0x9E3779B97F4A7C15ULL ^ p);
  const std::pair<uint64_t, uint64_t> key{h.high64, h.low64};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (const auto it = flat_memo.find(key); it != flat_memo.end())
      return {std::move(lift), std::make_shared<const RootBound>(RootBound::flat(it->second.first, it->second.second))};
  }
  const std::vector<double> mags = util::canonical_embedding(m)->magnitudes(lift);
  const double log2_max = std::log2(*std::max_element(mags.begin(), mags.end()));  // mu != 0: > 0
  {
    std::lock_guard<std::mutex> lock(mu);
    if (flat_memo.size() < kFlatMemo) flat_memo.emplace(key, std::make_pair(long(mags.size()), log2_max));
  }
  return {std::move(lift), std::make_shared<const RootBound>(RootBound::flat(long(mags.size()), log2_max))};
}

Plaintext Plaintext::from_coeffs(const Context& ctx, const std::vector<long>& coeffs) {
  const std::vector<uint64_t> r = reduce(ctx, coeffs);
  Plaintext pt;
  pt.ctx_ = &ctx;
  pt.cache_ = std::make_shared<Cache>();
  auto [lift, roots] = centered_lift(ctx.m(), uint64_t(ctx.p()), r);
  if (lift.empty()) return pt;
  if (ctx.p() == 2)
    for (size_t i = 0; i < lift.size(); ++i)
      if (r[i]) NTL::SetCoeff(pt.poly_, long(i));
  pt.coeffs_ = std::move(lift);
  pt.roots_ = std::move(roots);
  return pt;
}

std::pair<std::vector<long>, RootBound> Plaintext::small_lift(long m, std::vector<long> mu01) {
  auto [lift, roots] = memo_lift(m, std::move(mu01));
  return {std::move(lift), *roots};
}

std::shared_ptr<const RootBound> Plaintext::embedding_ptr(const SlotRing& slots, long m, const NTL::GF2X& mu) {
  NTL::GF2X r = mu;
  if (NTL::deg(r) >= slots.zmstar().phi()) NTL::rem(r, mu, slots.Phi());
  const long d = NTL::deg(r);
  if (d < 0) return std::make_shared<const RootBound>();
  std::vector<long> coeffs(d + 1);
  for (long i = 0; i <= d; ++i) coeffs[i] = NTL::IsOne(NTL::coeff(r, i)) ? 1 : 0;
  return memo_lift(m, std::move(coeffs)).second;
}

RootBound Plaintext::embedding_of(const SlotRing& slots, long m, const NTL::GF2X& mu) {
  return *embedding_ptr(slots, m, mu);
}

Plaintext::Cache::~Cache() { g_cache_bytes.fetch_sub(bytes); }

size_t Plaintext::cache_limit() { return g_cache_limit.load(); }
void Plaintext::set_cache_limit(size_t bytes) { g_cache_limit.store(bytes); }

bool Plaintext::dcrt_cached(const std::vector<int>& primes) const {
  std::lock_guard<std::mutex> lock(cache_->mu);
  if (!cache_->full) return false;
  for (int p : primes)
    if (!cache_->have[size_t(p)]) return false;
  return true;
}

std::shared_ptr<const DCRTPoly> Plaintext::dcrt(const std::vector<int>& primes, long* transformed) const {
  std::lock_guard<std::mutex> lock(cache_->mu);
  if (!cache_->full && !cache_->refused) {
    const size_t bytes = size_t(ctx_->L()) * ctx_->phi() * sizeof(uint64_t);
    if (g_cache_bytes.fetch_add(bytes) + bytes <= g_cache_limit.load()) {
      cache_->bytes = bytes;
      std::vector<int> all(ctx_->L());  // small and ciphertext primes: any set a ciphertext has
      std::iota(all.begin(), all.end(), 0);
      cache_->full = std::make_shared<DCRTPoly>(*ctx_, all, DCRTPoly::Uninitialized{});
      cache_->have.assign(size_t(ctx_->L()), 0);
    } else {
      g_cache_bytes.fetch_sub(bytes);
      cache_->refused = true;
    }
  }
  if (!cache_->full) {
    if (transformed) *transformed = long(primes.size());
    return std::make_shared<DCRTPoly>(DCRTPoly::from_coeffs(*ctx_, primes, coeffs_));
  }
  // The limbs not yet transformed; others may be reading the kept ones meanwhile (each
  // limb is written once, under the lock, before any caller is given it).
  std::vector<int> missing;
  for (int p : primes)
    if (!cache_->have[size_t(p)]) missing.push_back(p);
  if (transformed) *transformed = long(missing.size());
  if (!missing.empty()) {
    if (coeffs_.empty()) {  // mu = 0
      for (int p : missing) std::fill_n(cache_->full->limb(p), ctx_->phi(), uint64_t(0));
    } else {
      DCRTPoly& full = *cache_->full;
      const long n = long(missing.size());
#pragma omp parallel if(ctx_->parallel() && n > 1)
      {
        std::vector<uint64_t> tmp(coeffs_.size());
#pragma omp for schedule(static)
        for (long k = 0; k < n; ++k) DCRTPoly::coeffs_limb(*ctx_, missing[size_t(k)], coeffs_, tmp.data(), full.limb(missing[size_t(k)]));
      }
    }
    for (int p : missing) cache_->have[size_t(p)] = 1;
  }
  return cache_->full;
}

}  // namespace cb::bgv
