#include "engine/bgv/keys.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/errors.h"
#include "engine/util/canonical.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {

namespace {
std::vector<int> all_primes(const Context& ctx) {
  std::vector<int> r(ctx.num_primes());
  std::iota(r.begin(), r.end(), 0);
  return r;
}

// The primes of a key: the ciphertext and special primes, never the small ones (chain.h).
std::vector<int> key_primes(const Context& ctx) {
  std::vector<int> r = ctx.ciphertext_primes();
  const auto sp = ctx.special_primes();
  r.insert(r.end(), sp.begin(), sp.end());
  return r;
}

double log2_canonical(const std::vector<long>& coeffs, long m) {
  return std::log2(util::canonical_norm(coeffs, m));
}
}  // namespace

SecretKey KeyGenerator::secret_key(long hwt) {
  SecretKey sk;
  sk.hwt = hwt;
  sk.coeffs = hwt > 0 ? rng_.hamming(ctx_.phi(), hwt) : rng_.ternary(ctx_.phi());
  sk.s = DCRTPoly::from_coeffs(ctx_, all_primes(ctx_), sk.coeffs);
  sk.norm = util::canonical_norm(sk.coeffs, ctx_.m());
  return sk;
}

PublicKey KeyGenerator::public_key(const SecretKey& sk) {
  const auto ct = ctx_.ciphertext_primes();
  PublicKey pk;
  pk.a = rng_.uniform(ctx_, ct);
  const std::vector<long> e = rng_.gaussian(ctx_.phi());
  pk.log2_e = log2_canonical(e, ctx_.m());
  if (ctx_.p() == 2) {
    std::vector<long> e2(e.size());
    for (size_t i = 0; i < e.size(); ++i) e2[i] = 2 * e[i];
    pk.b = DCRTPoly::from_coeffs(ctx_, ct, e2);
  } else {
    pk.b = DCRTPoly::from_scaled_coeffs(ctx_, ct, ctx_.p(), e, {});  // p e
  }
  DCRTPoly as = pk.a;
  as *= sk.s.restricted(ct);
  pk.b -= as;
  return pk;
}

KeyGenerator::Draws KeyGenerator::draw_switch_key() {
  Draws d;
  d.a_seed = rng_.next_u64() | 1;
  for (size_t j = 0; j < ctx_.digits().size(); ++j) d.e.push_back(rng_.gaussian(ctx_.phi()));
  return d;
}

KeySwitchKey KeyGenerator::switch_key(const SecretKey& sk, const DCRTPoly& s_prime) {
  return switch_key(sk, s_prime, draw_switch_key());
}

KeySwitchKey KeyGenerator::switch_key(const SecretKey& sk, const DCRTPoly& s_prime, Draws draws) const {
  const auto all = key_primes(ctx_);
  KeySwitchKey key;
  const bool seeded =
      KeySwitchKey::stored_compact(long(ctx_.digits().size()), long(all.size()), ctx_.phi(), keep_uniform_bytes_);
  key.a_seed = draws.a_seed;
  std::vector<uint64_t> P_mod(all.size());  // P mod q_i
  for (size_t r = 0; r < all.size(); ++r) {
    const uint64_t q = ctx_.q(all[r]);
    uint64_t P = 1;
    for (long k = ctx_.L(); k < ctx_.num_primes(); ++k) P = util::mul_mod(P, ctx_.q(k) % q, q);
    P_mod[r] = P;
  }
  for (long j = 0; j < long(ctx_.digits().size()); ++j) {
    const auto& digit = ctx_.digits()[j];
    std::vector<long>& e = draws.e[j];
    const bool p2 = ctx_.p() == 2;
    if (p2)
      for (long& x : e) x *= 2;
    // b_j = p e_j - a_j s (+ P s' modulo the digit's primes), limb by limb: each limb's
    // a, e and product stay in cache, where whole polynomials would stream memory 6 times.
    // A seeded key keeps a_j as its seed: its limbs only pass through a scratch limb.
    DCRTPoly b(ctx_, all, DCRTPoly::Uninitialized{});
    DCRTPoly a = seeded ? DCRTPoly(ctx_, {}) : DCRTPoly(ctx_, all, DCRTPoly::Uninitialized{});
#pragma omp parallel if(ctx_.parallel())
    {
      std::vector<uint64_t> tmp(std::max<size_t>(e.size(), size_t(ctx_.phi())));
      std::vector<uint64_t> a_scratch(seeded ? size_t(ctx_.phi()) : 0);
      // Each limb of a from its own (seed, tag) stream: the same words at any thread count.
#pragma omp for schedule(static)
      for (size_t r = 0; r < all.size(); ++r) {
        const int p = all[r];
        const uint64_t q = ctx_.q(p);
        uint64_t* ar = seeded ? a_scratch.data() : a.limb(long(r));
        uint64_t* br = b.limb(long(r));
        Sampler::uniform_limb(key.a_seed, KeySwitchKey::tag(j, p), q, ar, ctx_.phi());
        if (p2) DCRTPoly::coeffs_limb(ctx_, p, e, tmp.data(), br);
        else DCRTPoly::scaled_coeffs_limb(ctx_, p, ctx_.p(), e, {}, tmp.data(), br);  // p e_j
        util::mul_mod_array(tmp.data(), ar, sk.s.limb_of(p), ctx_.phi(), q);
        util::sub_mod_array(br, br, tmp.data(), ctx_.phi(), q);
        if (std::find(digit.begin(), digit.end(), p) != digit.end()) {
          const util::ShoupMul w(P_mod[r], q);
          const uint64_t* si = s_prime.limb_of(p);
          for (long t = 0; t < ctx_.phi(); ++t) br[t] = util::add_mod(br[t], util::mul_shoup(si[t], w.w, w.wp, q), q);
        }
      }
    }
    if (seeded) {
      key.b_packed.emplace_back(b);
    } else {
      key.b.push_back(std::move(b));
      key.a.push_back(std::move(a));
    }
  }
  return key;
}

const uint64_t* KeySwitchKey::b_limb(long j, int p, uint64_t* scratch) const {
  if (!b.empty()) return b[j].limb_of(p);
  return b_packed[j].limb(p, scratch);
}

size_t KeySwitchKey::bytes() const {
  size_t r = 0;
  for (const auto& x : b) r += x.bytes();
  for (const auto& x : a) r += x.bytes();
  for (const auto& x : b_packed) r += x.bytes();
  return r;
}

const uint64_t* KeySwitchKey::a_limb(long j, int p, uint64_t* scratch, const Context& ctx) const {
  if (!a.empty()) return a[j].limb_of(p);
  Sampler::uniform_limb(a_seed, tag(j, p), ctx.q(p), scratch, ctx.phi());
  return scratch;
}

KeySwitchKey KeyGenerator::relin_key(const SecretKey& sk) {
  DCRTPoly s2 = sk.s;
  s2 *= sk.s;
  KeySwitchKey key = switch_key(sk, s2);
  key.k = 0;
  return key;
}

KeySwitchKey KeyGenerator::automorphism_key(const SecretKey& sk, long k) {
  KeySwitchKey key = switch_key(sk, sk.s.permuted(ctx_.automorphism_perm(k)));
  key.k = ((k % ctx_.m()) + ctx_.m()) % ctx_.m();
  return key;
}

std::vector<KeySwitchKey> KeyGenerator::automorphism_keys(const SecretKey& sk, const std::vector<long>& ks) {
  std::vector<Draws> draws;
  for (size_t i = 0; i < ks.size(); ++i) draws.push_back(draw_switch_key());
  std::vector<KeySwitchKey> keys(ks.size());
  // One key per thread; the loops inside run on that thread (nested regions are inactive).
#pragma omp parallel for schedule(dynamic) if(ctx_.parallel() && ks.size() > 1)
  for (long i = 0; i < long(ks.size()); ++i) {
    keys[i] = switch_key(sk, sk.s.permuted(ctx_.automorphism_perm(ks[i])), std::move(draws[i]));
    keys[i].k = ((ks[i] % ctx_.m()) + ctx_.m()) % ctx_.m();
  }
  return keys;
}

}  // namespace cb::bgv
