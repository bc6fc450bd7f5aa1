#include "backend/plan_backend.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <xxhash.h>

#include "backend/lanes.h"
#include "engine/algebra/prime_slot_ring.h"
#include "engine/algebra/slot_ring.h"
#include "engine/algebra/subfield.h"
#include "engine/bgv/plaintext.h"
#include "engine/bgv/plaintext_factor.h"
#include "engine/bgv/sampler.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb {

using namespace cb::bgv;

struct PlanRing::Impl {
  ZmStar zm;                                        // Z_m^*/<p>
  std::shared_ptr<const SlotRing> slots;            // p = 2
  std::shared_ptr<const Subfield> sub;              // p = 2
  std::unique_ptr<const PrimeSlotRing> prime_slots;  // p > 2 (holds a reference to zm)
  // |mu(zeta_t)| of each slot vector encoded so far: the planner encrypts the same inputs
  // and subkeys anew for every chain it tries, and the encoding (the slots' CRT, then the
  // lift) depends on none of chain, key or digits. Up to kRootsMemo vectors are kept.
  static constexpr size_t kRootsMemo = 4096;
  std::mutex encodings_mu;
  std::map<std::vector<uint64_t>, std::shared_ptr<const RootBound>> encodings;
  // At p > 2 a bound is flat (Plaintext::centered_lift, which remembers it by the lift):
  // one number, so every vector is kept here too, by its 128-bit XXH3 hash, sparing the
  // encoding itself (a keystream's public constants, 10^5 slot vectors, met again on
  // every chain the planner tries). Up to kFlatMemo of them.
  static constexpr size_t kFlatMemo = size_t(1) << 22;
  std::map<std::pair<uint64_t, uint64_t>, std::shared_ptr<const RootBound>> flat_encodings;
  std::mutex perms_mu;
  std::map<long, std::vector<int>> perms;  // root_permutation(m, k) by k

  Impl(long m, long n, uint64_t f_low, uint64_t p) : zm(m, long(p)) {
    if (p != 2) {
      prime_slots = std::make_unique<const PrimeSlotRing>(zm);
      return;
    }
    slots = std::make_shared<const SlotRing>(zm);
    sub = std::make_shared<const Subfield>(*slots, n, f_low);
  }
};

PlanRing::PlanRing(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PlanRing::~PlanRing() = default;

namespace {

// The rings alive by (m, n, f_low, p), and those kept while tokens of PlanRing::keep live.
struct RingSlot {
  std::weak_ptr<PlanRing> alive;
  std::shared_ptr<PlanRing> kept;
  long tokens = 0;
};
using RingKey = std::tuple<long, long, uint64_t, uint64_t>;
std::mutex rings_mu;
std::map<RingKey, RingSlot> rings;

}  // namespace

std::shared_ptr<PlanRing> PlanRing::of(long m, long n, uint64_t f_low, uint64_t p) {
  std::lock_guard<std::mutex> lock(rings_mu);
  auto& slot = rings[{m, n, f_low, p}];
  if (auto r = slot.alive.lock()) return r;
  std::shared_ptr<PlanRing> r(new PlanRing(std::make_unique<Impl>(m, n, f_low, p)));
  slot.alive = r;
  if (slot.tokens > 0) slot.kept = r;
  return r;
}

std::shared_ptr<void> PlanRing::keep(long m, long n, uint64_t f_low, uint64_t p) {
  const RingKey key{m, n, f_low, p};
  std::lock_guard<std::mutex> lock(rings_mu);
  auto& slot = rings[key];
  if (slot.tokens++ == 0) slot.kept = slot.alive.lock();
  return std::shared_ptr<void>(nullptr, [key](void*) {
    std::shared_ptr<PlanRing> last;  // freed after the lock is released
    std::lock_guard<std::mutex> lock(rings_mu);
    auto& slot = rings[key];
    if (--slot.tokens == 0) last = std::move(slot.kept);
  });
}

struct PlanBackend::Impl {
  PlanParams params;
  std::shared_ptr<PlanRing> ring;  // shared with lane() backends and any other backend at this ring
  const ZmStar& zm;
  NoiseModel noise;
  std::unique_ptr<Chain> chain;
  std::unique_ptr<Levels> levels;
  OpProfile targets;  // Levels' arrangements of switch targets: their count is the step "targets"

  long n;
  uint64_t f_low;
  std::optional<PrimeField> Fp;  // F_p in the slots (p > 2)
  uint64_t p() const { return Fp ? Fp->p() : 2; }

  PlanRing::Impl& shared() const { return ring->impl(); }

  Impl(const PlanParams& pp, long n_, uint64_t f_low_, std::optional<PrimeField> F = std::nullopt)
      : params(pp),
        ring(PlanRing::of(pp.m, n_, f_low_, F ? F->p() : 2)),
        zm(ring->impl().zm),
        n(n_),
        f_low(f_low_),
        Fp(F) {
    if (pp.hwt < 0 || pp.hwt > zm.phi())
      throw ParameterError(msg("hwt=", pp.hwt, " must be 0 (dense) or in [1, phi=", zm.phi(), "]"));
    // The secret key as BgvBackend draws it: the first draw of Sampler(seed).
    Sampler rng(pp.seed);
    const std::vector<long> s = pp.hwt > 0 ? rng.hamming(zm.phi(), pp.hwt) : rng.ternary(zm.phi());
    noise = NoiseModel(pp.m, s, long(p()));
  }
  // What a lane shares with `like` (PlanBackend::lane); its own chain, bounds and counts.
  explicit Impl(const Impl& like)
      : params(like.params), ring(like.ring), zm(like.zm), noise(like.noise), n(like.n), f_low(like.f_low),
        Fp(like.Fp) {}
};

ClearBackend PlanBackend::make_clear(const Impl& impl) {
  if (impl.Fp) return ClearBackend(impl.params.m, *impl.Fp);
  return ClearBackend(impl.params.m, impl.n, impl.f_low);
}

PlanBackend::PlanBackend(const PlanParams& p, long n, uint64_t f_low)
    : impl_(std::make_unique<Impl>(p, n, f_low)), clear_(p.m, n, f_low) {
  set_bits(p.bits);
}
PlanBackend::PlanBackend(const PlanParams& p, const PrimeField& F)
    : impl_(std::make_unique<Impl>(p, 1, 0, F)), clear_(p.m, F) {
  set_bits(p.bits);
}
PlanBackend::~PlanBackend() = default;

PlanBackend::PlanBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)), clear_(make_clear(*impl_)) {
  set_bits(impl_->params.bits);
}

std::shared_ptr<PlanBackend> PlanBackend::lane() const {
  return std::shared_ptr<PlanBackend>(new PlanBackend(std::make_unique<Impl>(*impl_)));
}

void PlanBackend::set_bits(long bits) {
  impl_->levels.reset();
  ChainParams cp{impl_->params.m, bits, impl_->params.c};
  cp.p = impl_->p();
  auto chain = std::make_unique<Chain>(cp);
  if (const uint64_t p = impl_->p(); p != 2) {  // the chains bgv::Context refuses at p, refused alike
    if (std::log2(double(p)) >= chain->log2_Q())
      throw ParameterError(msg("p=", p, " is too large for the chain: log2 p = ", std::log2(double(p)),
                               " is not below log2 Q = ", chain->log2_Q(), " (bits=", bits, ")"));
    for (uint64_t q : chain->primes())
      if (q == p)
        throw ParameterError(msg("p=", p, " is one of the chain's primes: modulus switching needs every q_i "
                                 "invertible mod p"));
  }
  impl_->chain = std::move(chain);
  impl_->levels = std::make_unique<Levels>(*impl_->chain, impl_->noise);
  impl_->levels->set_profile(&impl_->targets);
  impl_->params.bits = bits;
  reset_min_capacity();
  reset_op_counts();
}

void PlanBackend::count(const char* op, size_t primes, long dropped) const {
  std::lock_guard<std::mutex> lock(count_mu_);
  ++counts_[{op, long(primes), dropped, current_lanes()}];
}

std::vector<PlanBackend::OpCount> PlanBackend::op_counts() const {
  std::lock_guard<std::mutex> lock(count_mu_);
  std::vector<OpCount> out;
  for (const auto& [key, n] : counts_)
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), n, std::get<3>(key)});
  for (const auto& e : impl_->targets.entries()) out.push_back({e.op, e.primes, e.dropped, e.count});
  return out;
}

void PlanBackend::reset_op_counts() {
  std::lock_guard<std::mutex> lock(count_mu_);
  counts_.clear();
  impl_->targets.reset();
  cached_bytes_ = 0;
  ++generation_;
}

void PlanBackend::use_constant(const Ptxt& p, const PrimeSet& primes) const {
  if (p.roots->is_zero()) return;
  const long g = generation_;
  if (p.refused_in->load() == g) return count("encode", primes.size());
  std::lock_guard<std::mutex> lock(p.limbs->mu);
  const size_t L = size_t(impl_->chain->L());
  if (p.limbs->generation != g) {  // its first use: kept, within the engine's cache
    const size_t bytes = L * size_t(impl_->zm.phi()) * sizeof(uint64_t);
    if (cached_bytes_.fetch_add(bytes) + bytes > Plaintext::cache_limit()) {
      cached_bytes_.fetch_sub(bytes);
      p.refused_in->store(g);
      return count("encode", primes.size());
    }
    p.limbs->generation = g;
    p.limbs->have.assign(L, 0);
  }
  size_t added = 0;
  for (int q : primes)
    if (!p.limbs->have[size_t(q)]) {
      p.limbs->have[size_t(q)] = 1;
      ++added;
    }
  if (added) count("encode", added);
}

const Chain& PlanBackend::chain() const { return *impl_->chain; }
const Levels& PlanBackend::levels() const { return *impl_->levels; }

BackendInfo PlanBackend::info() const {
  const Chain& c = *impl_->chain;
  BackendInfo i;
  i.name = "plan";
  i.p = impl_->p();
  i.m = impl_->zm.m();
  i.phi = impl_->zm.phi();
  i.d = impl_->zm.d();
  i.slots = impl_->zm.ell();
  i.bits = impl_->params.bits;
  i.c = impl_->params.c;
  i.hwt = impl_->params.hwt;
  i.log2_q_ct = c.log2_Q();
  i.log2_p = c.log2_P();
  i.log2_q = i.log2_q_ct + i.log2_p;
  i.security = helib_security(i.m, i.phi, i.log2_q, i.hwt);
  return i;
}

PlanBackend::Ptxt PlanBackend::encode(const std::vector<uint64_t>& v) const {
  Ptxt p{clear_.encode(v), nullptr};
  auto& r = impl_->shared();
  if (r.prime_slots) {  // as BgvBackend encodes at p: (x, 0, ..., 0) in each slot, from_coeffs's lift
    const XXH128_hash_t h = XXH3_128bits(v.data(), v.size() * sizeof(uint64_t));
    const std::pair<uint64_t, uint64_t> key{h.high64, h.low64};
    {
      std::lock_guard<std::mutex> lock(r.encodings_mu);
      if (const auto it = r.flat_encodings.find(key); it != r.flat_encodings.end()) {
        p.roots = it->second;
        return p;
      }
    }
    p.roots = Plaintext::centered_lift(impl_->zm.m(), impl_->p(), r.prime_slots->encode_fp(v)).second;
    std::lock_guard<std::mutex> lock(r.encodings_mu);
    if (r.flat_encodings.size() < PlanRing::Impl::kFlatMemo) r.flat_encodings.emplace(key, p.roots);
    return p;
  }
  {
    std::lock_guard<std::mutex> lock(r.encodings_mu);
    if (const auto it = r.encodings.find(v); it != r.encodings.end()) {
      p.roots = it->second;
      return p;
    }
  }
  {
    std::vector<NTL::GF2X> k(v.size());
    for (size_t i = 0; i < v.size(); ++i) k[i] = r.sub->embed(v[i]);
    p.roots = Plaintext::embedding_ptr(*r.slots, impl_->zm.m(), r.slots->encode(k));
  }
  std::lock_guard<std::mutex> lock(r.encodings_mu);
  if (r.encodings.size() < PlanRing::Impl::kRootsMemo) r.encodings.emplace(v, p.roots);
  return p;
}

PlanBackend::Ctxt PlanBackend::encrypt(const std::vector<uint64_t>& v) const {
  const Ptxt p = encode(v);
  Ctxt c{clear_.encrypt(v), impl_->chain->ciphertext_primes(), impl_->levels->fresh(*p.roots)};
  ++random_terms_;
  note(c);
  return c;
}

void PlanBackend::note(const Ctxt& a) const {
  const double cap = capacity_bits(a);
  double now = min_capacity_.load();
  while (cap < now && !min_capacity_.compare_exchange_weak(now, cap)) {
  }
}

void PlanBackend::align(const std::vector<Ctxt*>& cs) const {
  std::vector<PrimeSet> sets;
  for (const Ctxt* c : cs) sets.push_back(c->primes);
  if (sets.empty() || std::all_of(sets.begin(), sets.end(), [&](const PrimeSet& s) { return s == sets[0]; })) return;
  const PrimeSet target = impl_->levels->common_set(sets);
  if (target.empty()) return;
  for (Ctxt* c : cs) switch_to(*c, target);
}

void PlanBackend::switch_to(Ctxt& a, const PrimeSet& target) const {
  if (a.primes == target) return;
  std::vector<int> drop;
  std::set_difference(a.primes.begin(), a.primes.end(), target.begin(), target.end(), std::back_inserter(drop));
  count("mod_switch", target.size(), long(drop.size()));
  if (!drop.empty()) ++random_terms_;  // a rounding
  a.noise = impl_->levels->switched(a.primes, a.noise, target);
  a.factor = util::mul_mod(a.factor, switch_factor(*impl_->chain, impl_->p(), a.primes, target), impl_->p());
  a.primes = target;
}

void PlanBackend::scale_by(Ctxt& a, long x) const {
  if (x == 1) return;
  a.noise.scale(std::log2(std::fabs(double(x))));
  const uint64_t p = impl_->p(), r = uint64_t(x >= 0 ? x : -x) % p;
  a.factor = util::mul_mod(a.factor, x >= 0 || r == 0 ? r : p - r, p);
}

const std::vector<int>& PlanBackend::perm(long k) const {
  auto& r = impl_->shared();
  std::lock_guard<std::mutex> lock(r.perms_mu);
  auto it = r.perms.find(k);
  if (it == r.perms.end()) it = r.perms.emplace(k, root_permutation(impl_->zm.m(), k)).first;
  return it->second;
}

// Each operation below mirrors bgv::Evaluator's member of the same name.
void PlanBackend::add(Ctxt& a, const Ctxt& b) const {
  clear_.add(a.clear, b.clear);
  // p > 2: x a + y b where the factors differ (plaintext_factor.h), as the evaluator does.
  auto align = [&](Ctxt& x, Ctxt& y) {
    if (x.factor == y.factor) return;
    const auto [fx, fy] = align_factors(impl_->p(), x.factor, x.noise.log2_max(), y.factor, y.noise.log2_max());
    scale_by(x, fx);
    scale_by(y, fy);
  };
  if (a.primes == b.primes) {
    if (a.factor != b.factor) {
      Ctxt bb = b;
      align(a, bb);
      a.noise += bb.noise;
    } else {
      a.noise += b.noise;
    }
  } else {
    count("add_decide", std::max(a.primes.size(), b.primes.size()));
    const PrimeSet target = impl_->levels->sum_set(a.primes, a.noise, b.primes, b.noise);
    Ctxt bb = b;
    switch_to(a, target);
    switch_to(bb, target);
    align(a, bb);
    a.noise += bb.noise;
  }
  count("add", a.primes.size());
  note(a);
}

void PlanBackend::add_plain(Ctxt& a, const Ptxt& p) const {
  clear_.add_plain(a.clear, p.clear);
  if (p.roots->is_zero()) return;  // the engine adds nothing
  if (a.factor != 1) {  // p > 2: y mu added to x a, x f = y (mod p), as the evaluator does
    const auto [x, y] = align_factors(impl_->p(), a.factor, a.noise.log2_max(), 1, p.roots->log2_max());
    scale_by(a, x);
    use_constant(p, a.primes);
    RootBound ym = *p.roots;
    ym.scale(std::log2(std::fabs(double(y))));
    a.noise += ym;
  } else {
    use_constant(p, a.primes);
    a.noise += *p.roots;
  }
  count("add_plain", a.primes.size());
  note(a);
}

void PlanBackend::mul_plain(Ctxt& a, const Ptxt& p) const {
  clear_.mul_plain(a.clear, p.clear);
  if (p.roots->is_zero()) a.noise = RootBound();
  else a.noise *= *p.roots;
  use_constant(p, a.primes);
  count("mul_plain", a.primes.size());
  note(a);
}

void PlanBackend::mul(Ctxt& a, const Ctxt& b) const {
  if (&a == &b) return square(a);
  clear_.mul(a.clear, b.clear);
  Ctxt bb = b;
  const PrimeSet target = impl_->levels->product_set(a.primes, a.noise, bb.primes, bb.noise);
  switch_to(a, target);
  switch_to(bb, target);
  a.factor = util::mul_mod(a.factor, bb.factor, impl_->p());  // f_a f_b
  relinearize(a, bb.noise);
}

void PlanBackend::relinearize(Ctxt& a, const RootBound& b) const {
  RootBound n = a.noise;
  n *= b;
  const PrimeSet tr = impl_->levels->relin_set(a.primes, n);
  count("mul", a.primes.size());  // the level decision and the tensor here
  if (tr != a.primes) {
    std::vector<int> drop;
    std::set_difference(a.primes.begin(), a.primes.end(), tr.begin(), tr.end(), std::back_inserter(drop));
    count("mod_switch", tr.size(), long(drop.size()));
  }
  count("relin", tr.size());
  random_terms_ += 2 + !std::includes(tr.begin(), tr.end(), a.primes.begin(), a.primes.end());
  a.noise = impl_->levels->product(a.noise, b, a.primes, tr);
  a.factor = util::mul_mod(a.factor, switch_factor(*impl_->chain, impl_->p(), a.primes, tr), impl_->p());
  a.primes = tr;
  note(a);
}

void PlanBackend::square(Ctxt& a) const {
  clear_.square(a.clear);
  switch_to(a, impl_->levels->product_set(a.primes, a.noise, a.primes, a.noise));
  a.factor = util::mul_mod(a.factor, a.factor, impl_->p());  // f^2
  const RootBound na = a.noise;
  relinearize(a, na);
}

void PlanBackend::automorph(Ctxt& a, long k) const {
  const long m = impl_->zm.m();
  k = ((k % m) + m) % m;
  clear_.automorph(a.clear, k);  // checks the key
  if (k == 1) return;
  switch_to(a, impl_->levels->key_switch_set(a.primes, a.noise));
  a.noise = impl_->levels->automorphism(a.noise, perm(k), a.primes);
  random_terms_ += 2;
  count("automorph", a.primes.size());
  note(a);
}

std::vector<PlanBackend::Ctxt> PlanBackend::automorph_many(const Ctxt& a, const std::vector<long>& ks) const {
  const long m = impl_->zm.m();
  Ctxt base = a;
  switch_to(base, impl_->levels->key_switch_set(base.primes, base.noise));
  std::vector<Ctxt> out;
  out.reserve(ks.size());
  for (long k : ks) {
    k = ((k % m) + m) % m;
    out.push_back(base);
    if (k == 1) continue;
    clear_.automorph(out.back().clear, k);
    out.back().noise = impl_->levels->automorphism(base.noise, perm(k), base.primes);
    random_terms_ += 2;
    count("automorph_hoisted", base.primes.size());
    note(out.back());
  }
  return out;
}

double PlanBackend::capacity_bits(const Ctxt& c) const { return impl_->levels->capacity(c.primes, c.noise); }

}  // namespace cb
