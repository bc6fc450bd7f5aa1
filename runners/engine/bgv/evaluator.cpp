#include "engine/bgv/evaluator.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "engine/bgv/plaintext_factor.h"
#include "engine/bgv/rns_rounding.h"
#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {

namespace {
void check_context(const Context& ctx, const Ciphertext& a, const char* op) {
  if (&a.context() != &ctx) throw Error(msg(op, ": ciphertext from another context"));
}

uint64_t residue(long x, uint64_t q) {
  const uint64_t r = (x >= 0 ? uint64_t(x) : uint64_t(0) - uint64_t(x)) % q;
  return x >= 0 || r == 0 ? r : q - r;
}
}  // namespace

uint64_t Evaluator::switch_factor(const std::vector<int>& have, const std::vector<int>& target) const {
  return bgv::switch_factor(ctx_.chain(), uint64_t(ctx_.p()), have, target);
}

std::pair<long, long> Evaluator::align_factors(uint64_t fa, double log2_a, uint64_t fb, double log2_b) const {
  return bgv::align_factors(uint64_t(ctx_.p()), fa, log2_a, fb, log2_b);
}

void Evaluator::scale_by(Ciphertext& a, long x) const {
  if (x == 1) return;
  std::vector<uint64_t> sc;
  for (int i : a.primes()) sc.push_back(residue(x, ctx_.q(i)));
  a.c0.mul_scalars(sc);
  a.c1.mul_scalars(sc);
  a.noise.scale(std::log2(std::fabs(double(x))));
  a.factor = util::mul_mod(a.factor, residue(x, uint64_t(ctx_.p())), uint64_t(ctx_.p()));
}

void Evaluator::switch_polys(const std::vector<DCRTPoly*>& polys, const std::vector<int>& have,
                             const std::vector<int>& target) const {
  if (target.empty()) throw ParameterError("mod_switch_to: the target prime set is empty");
  std::vector<int> add, drop, both;
  std::set_difference(target.begin(), target.end(), have.begin(), have.end(), std::back_inserter(add));
  std::set_difference(have.begin(), have.end(), target.begin(), target.end(), std::back_inserter(drop));
  if (add.empty() && drop.empty()) return;
  OpProfile::Scope step(profile_, "mod_switch", long(target.size()), long(drop.size()));
  for (int p : add)
    if (p >= ctx_.L()) throw ParameterError(msg("mod_switch_to: prime index ", p, " is not a ciphertext prime"));
  if (!add.empty()) {
    // Mod up: c * A over T u A is c modulo Q_T times A = prod(add), and 0 modulo each
    // added prime; the plaintext is multiplied by A = 1 (mod 2), the noise by A.
    std::set_union(have.begin(), have.end(), add.begin(), add.end(), std::back_inserter(both));
    std::vector<uint64_t> scale;
    for (int p : have) {
      uint64_t A = 1;
      for (int x : add) A = util::mul_mod(A, ctx_.q(x) % ctx_.q(p), ctx_.q(p));
      scale.push_back(A);
    }
    for (DCRTPoly* c : polys) {
      c->mul_scalars(scale);
      DCRTPoly up(ctx_, both);
      for (size_t i = 0; i < have.size(); ++i) {
        const long j = long(std::lower_bound(both.begin(), both.end(), have[i]) - both.begin());
        std::copy_n(c->limb(long(i)), ctx_.phi(), up.limb(j));
      }
      *c = std::move(up);
    }
  }
  if (!drop.empty()) {
    auto r = divide_round(std::vector<const DCRTPoly*>(polys.begin(), polys.end()), target, drop);
    for (size_t i = 0; i < polys.size(); ++i) *polys[i] = std::move(r[i]);
  }
  n_ms_ += long(add.size() + drop.size());
}

void Evaluator::mod_switch_to(Ciphertext& a, const std::vector<int>& target) const {
  const auto have = a.primes();
  if (target == have) return;
  if (target.empty()) throw ParameterError("mod_switch_to: the target prime set is empty");
  RootBound noise = levels_.switched(have, a.noise, target);
  switch_polys({&a.c0, &a.c1}, have, target);
  a.noise = std::move(noise);
  if (ctx_.p() != 2) a.factor = util::mul_mod(a.factor, switch_factor(have, target), uint64_t(ctx_.p()));
}

void Evaluator::align(const std::vector<Ciphertext*>& cs) const {
  std::vector<PrimeSet> sets;
  for (const Ciphertext* c : cs) sets.push_back(c->primes());
  if (sets.empty() || std::all_of(sets.begin(), sets.end(), [&](const PrimeSet& s) { return s == sets[0]; })) return;
  const PrimeSet target = levels_.common_set(sets);
  if (target.empty()) return;
  for (Ciphertext* c : cs) mod_switch_to(*c, target);
}

void Evaluator::mod_switch_to(Ciphertext& a, long level) const {
  if (level < 1 || level > a.level())
    throw ParameterError(msg("mod_switch_to: level=", level, " must be in [1, ", a.level(), "]"));
  mod_switch_to(a, std::vector<int>(a.primes().begin(), a.primes().begin() + level));
}

void Evaluator::reduce_level(Ciphertext& a) const { mod_switch_to(a, levels_.key_switch_set(a.primes(), a.noise)); }

double Evaluator::capacity_bits(const Ciphertext& a) const { return levels_.capacity(a.primes(), a.noise); }

void Evaluator::add(Ciphertext& a, const Ciphertext& b) const {
  check_context(ctx_, a, "add");
  if (a.primes() == b.primes() && a.factor != b.factor) {
    Ciphertext bb = b;
    const auto [x, y] = align_factors(a.factor, a.noise.log2_max(), bb.factor, bb.noise.log2_max());
    scale_by(a, x);
    scale_by(bb, y);
    return add(a, bb);
  }
  if (a.primes() == b.primes()) {
    OpProfile::Scope step(profile_, "add", a.level());
    a.c0 += b.c0;
    a.c1 += b.c1;
    a.noise += b.noise;
  } else {
    std::vector<int> target;
    {
      OpProfile::Scope step(profile_, "add_decide", std::max(a.level(), b.level()));
      target = levels_.sum_set(a.primes(), a.noise, b.primes(), b.noise);
    }
    Ciphertext bb = b;
    mod_switch_to(a, target);
    mod_switch_to(bb, target);
    if (a.factor != bb.factor) {  // p > 2: align the plaintext factors (evaluator.h)
      const auto [x, y] = align_factors(a.factor, a.noise.log2_max(), bb.factor, bb.noise.log2_max());
      scale_by(a, x);
      scale_by(bb, y);
    }
    OpProfile::Scope step(profile_, "add", a.level());
    a.c0 += bb.c0;
    a.c1 += bb.c1;
    a.noise += bb.noise;
  }
  ++n_add_;
}

void Evaluator::add_plain(Ciphertext& a, const Plaintext& mu) const {
  check_context(ctx_, a, "add_plain");
  if (mu.is_zero()) return;
  if (a.factor != 1) {
    // p > 2: a holds f mu_a; add y mu to x a with x f = y (mod p), x and y small (evaluator.h).
    const auto [x, y] = align_factors(a.factor, a.noise.log2_max(), 1, mu.log2_norm());
    scale_by(a, x);
    OpProfile::Scope step(profile_, "add_plain", a.level());
    const auto p = constant(mu, a.primes());
    for_limb_chunks(ctx_, a.level(), ctx_.phi(), [&](long i, long lo, long n) {
      const uint64_t q = a.c0.modulus(i);
      const util::ShoupMul w(residue(y, q), q);
      uint64_t* c = a.c0.limb(i) + lo;
      const uint64_t* m = p->limb_of(a.primes()[i]) + lo;
      for (long t = 0; t < n; ++t) c[t] = util::add_mod(c[t], util::mul_shoup(m[t], w.w, w.wp, q), q);
    });
    RootBound ym = mu.roots();
    ym.scale(std::log2(std::fabs(double(y))));
    a.noise += ym;
    ++n_add_;
    return;
  }
  OpProfile::Scope step(profile_, "add_plain", a.level());
  const auto p = constant(mu, a.primes());
  for_limb_chunks(ctx_, a.level(), ctx_.phi(), [&](long i, long lo, long n) {
    uint64_t* x = a.c0.limb(i) + lo;
    util::add_mod_array(x, x, p->limb_of(a.primes()[i]) + lo, n, a.c0.modulus(i));
  });
  a.noise += mu.roots();
  ++n_add_;
}

void Evaluator::mul_plain(Ciphertext& a, const Plaintext& mu) const {
  check_context(ctx_, a, "mul_plain");
  ++n_mul_plain_;
  OpProfile::Scope step(profile_, "mul_plain", a.level());
  if (mu.is_zero()) {
    a.c0 = DCRTPoly(ctx_, a.c0.primes());
    a.c1 = DCRTPoly(ctx_, a.c1.primes());
    a.noise = RootBound();
    return;
  }
  const auto p = constant(mu, a.primes());
  for_limb_chunks(ctx_, a.level(), ctx_.phi(), [&](long i, long lo, long n) {
    const uint64_t q = a.c0.modulus(i);
    const uint64_t* y = p->limb_of(a.primes()[i]) + lo;
    uint64_t *x0 = a.c0.limb(i) + lo, *x1 = a.c1.limb(i) + lo;
    util::mul_mod_array(x0, x0, y, n, q);
    util::mul_mod_array(x1, x1, y, n, q);
  });
  a.noise *= mu.roots();
}

Evaluator::Digits Evaluator::decompose(const DCRTPoly& c) const {
  if (!c.primes().empty() && c.primes().front() < ctx_.S())
    throw Error("key switching at a prime set with small primes: keys have none (chain.h)");
  Digits dg;
  dg.targets = c.primes();
  const auto special = ctx_.special_primes();
  dg.targets.insert(dg.targets.end(), special.begin(), special.end());
  std::vector<std::vector<int>> digits;
  for (long j = 0; j < long(ctx_.digits().size()); ++j) {
    std::vector<int> digit;
    double bits = 0;
    for (int i : ctx_.digits()[j])
      if (c.has_prime(i)) {
        digit.push_back(i);
        bits += ctx_.log2_q(i);
      }
    if (digit.empty()) continue;
    digits.push_back(std::move(digit));
    dg.which.push_back(j);
    dg.log2_d.push_back(bits);
  }
  dg.d = lift_digits(c, digits, dg.targets);  // all digits in one parallel pass
  return dg;
}

void Evaluator::apply_key(const Digits& dg, const KeySwitchKey& key, const std::vector<int>* perm,
                          DCRTPoly& e0, DCRTPoly& e1) const {
  DCRTPoly acc0(ctx_, dg.targets, DCRTPoly::Uninitialized{}), acc1(ctx_, dg.targets, DCRTPoly::Uninitialized{});
  const long phi = ctx_.phi();
  const long nd = long(dg.d.size());
#pragma omp parallel if(ctx_.parallel())
  {
    // Per thread: room for the regenerated a_j and the unpacked b_j of one prime.
    std::vector<uint64_t> scratch((key.seeded() ? nd : 0) * phi + (key.compact() ? nd : 0) * phi);
    std::vector<const uint64_t*> dj(nd), bj(nd), aj(nd);
#pragma omp for schedule(static)
    for (long r = 0; r < long(dg.targets.size()); ++r) {
      const int p = dg.targets[r];
      uint64_t* o0 = acc0.limb(r);
      uint64_t* o1 = acc1.limb(r);
      uint64_t* room = scratch.data();
      for (long j = 0; j < nd; ++j) {
        dj[j] = dg.d[j].limb(r);
        bj[j] = key.b_limb(dg.which[j], p, key.compact() ? room : nullptr);
        if (key.compact()) room += phi;
        aj[j] = key.a_limb(dg.which[j], p, key.seeded() ? room : nullptr, ctx_);
        if (key.seeded()) room += phi;
      }
      util::dot2_array(o0, o1, dj.data(), bj.data(), aj.data(), nd, perm ? perm->data() : nullptr, phi, ctx_.q(p));
    }
  }
  const auto special = ctx_.special_primes();
  const std::vector<int> keep(dg.targets.begin(), dg.targets.end() - ctx_.K());
  auto e = divide_round(std::vector<const DCRTPoly*>{&acc0, &acc1}, keep, special);
  e0 = std::move(e[0]);
  e1 = std::move(e[1]);
  ++n_ks_;
}

std::shared_ptr<const DCRTPoly> Evaluator::constant(const Plaintext& mu, const std::vector<int>& primes) const {
  if (mu.dcrt_cached(primes)) return mu.dcrt(primes);
  OpProfile::Scope step(profile_, "encode", long(primes.size()));
  long made = 0;
  auto p = mu.dcrt(primes, &made);
  // The limbs this use lacked, kept; or, once the plaintext cache is full
  // (Plaintext::cache_limit()), the ciphertext's primes, again at each use (PlanBackend
  // counts each of those too).
  step.set(made);
  return p;
}

const KeySwitchKey& Evaluator::automorphism_key(long k) const {
  auto it = autos_.find(k);
  if (it == autos_.end())
    throw KeyError(msg("no key-switching key for the automorphism X -> X^", k, " (m=", ctx_.m(),
                       "): generate it at setup (require_automorphisms)"));
  return it->second;
}

void Evaluator::mul(Ciphertext& a, const Ciphertext& b) const {
  check_context(ctx_, a, "mul");
  if (&a == &b) return square(a);
  OpProfile::Scope step(profile_, "mul", a.level());  // its level decision and tensor
  const auto target = levels_.product_set(a.primes(), a.noise, b.primes(), b.noise);
  // A copy: the fused branch below replaces a's parts (so a.primes()) before it takes the
  // switch's factor from `have`, which a reference would then read as `target` (factor 1).
  const std::vector<int> have = a.primes();
  if (have == b.primes() && have != target && std::includes(have.begin(), have.end(), target.begin(), target.end())) {
    // Both operands at one prime set, dropping primes (the usual product): their four
    // polynomials rounded in one pass (rns_rounding.h) into new ones, b's never copied;
    // counted as the two mod_switch_to calls it replaces.
    std::vector<int> drop;
    std::set_difference(have.begin(), have.end(), target.begin(), target.end(), std::back_inserter(drop));
    RootBound na = levels_.switched(have, a.noise, target), nb = levels_.switched(have, b.noise, target);
    std::vector<DCRTPoly> r;
    {
      OpProfile::Scope both(profile_, "mod_switch", long(target.size()), long(drop.size()), 2);
      r = divide_round(std::vector<const DCRTPoly*>{&a.c0, &a.c1, &b.c0, &b.c1}, target, drop);
    }
    n_ms_ += 2 * long(drop.size());
    a.c0 = std::move(r[0]);
    a.c1 = std::move(r[1]);
    a.noise = std::move(na);
    uint64_t fb = b.factor;
    if (ctx_.p() != 2) {
      const uint64_t sf = switch_factor(have, target), p = uint64_t(ctx_.p());
      a.factor = util::mul_mod(a.factor, sf, p);
      fb = util::mul_mod(fb, sf, p);
    }
    step.set(a.level());
    return tensor_relinearize(a, r[2], r[3], nb, fb);
  }
  mod_switch_to(a, target);
  step.set(a.level());
  if (b.primes() == target) return tensor_relinearize(a, b.c0, b.c1, b.noise, b.factor);
  Ciphertext bb = b;
  mod_switch_to(bb, target);
  tensor_relinearize(a, bb.c0, bb.c1, bb.noise, bb.factor);
}

void Evaluator::tensor_relinearize(Ciphertext& a, const DCRTPoly& b0, const DCRTPoly& b1, const RootBound& bn,
                                   uint64_t fb) const {
  if (ctx_.p() != 2) a.factor = util::mul_mod(a.factor, fb, uint64_t(ctx_.p()));  // f_a f_b
  // (d0, d1, d2) = (a0 b0, a0 b1 + a1 b0, a1 b1), written in one parallel pass over the
  // limbs' chunks (the threads stay even at a few primes) into fresh polynomials.
  if (b0.primes() != a.primes() || b1.primes() != a.primes())
    throw Error("mul: operands over different prime sets after the switch");
  DCRTPoly d0(ctx_, a.primes(), DCRTPoly::Uninitialized{}), d1(ctx_, a.primes(), DCRTPoly::Uninitialized{}),
      d2(ctx_, a.primes(), DCRTPoly::Uninitialized{});
  for_limb_chunks(ctx_, a.level(), ctx_.phi(), [&](long i, long t0, long n) {
    const uint64_t q = a.c0.modulus(i);
    const uint64_t *x0 = a.c0.limb(i) + t0, *x1 = a.c1.limb(i) + t0, *y0 = b0.limb(i) + t0, *y1 = b1.limb(i) + t0;
    util::mul_mod_array(d0.limb(i) + t0, x0, y0, n, q);
    util::mul_mod_array(d1.limb(i) + t0, x0, y1, n, q);
    util::mul_add_mod_array(d1.limb(i) + t0, x1, y0, d1.limb(i) + t0, n, q);
    util::mul_mod_array(d2.limb(i) + t0, x1, y1, n, q);
  });
  relinearize(a, std::move(d0), std::move(d1), std::move(d2), a.noise, bn);
}

void Evaluator::relinearize(Ciphertext& out, DCRTPoly d0, DCRTPoly d1, DCRTPoly d2, const RootBound& a,
                            const RootBound& b) const {
  const std::vector<int> tp = d0.primes();
  RootBound n = a;
  n *= b;
  const std::vector<int> tr = levels_.relin_set(tp, n);
  switch_polys({&d0, &d1, &d2}, tp, tr);
  if (ctx_.p() != 2) out.factor = util::mul_mod(out.factor, switch_factor(tp, tr), uint64_t(ctx_.p()));
  {
    OpProfile::Scope step(profile_, "relin", long(tr.size()));  // the key switch of d2
    DCRTPoly e0, e1;
    apply_key(decompose(d2), relin_, nullptr, e0, e1);
    d0 += e0;
    d1 += e1;
  }
  out.noise = levels_.product(a, b, tp, tr);
  out.c0 = std::move(d0);
  out.c1 = std::move(d1);
  ++n_mul_;
}

void Evaluator::square(Ciphertext& a) const {
  check_context(ctx_, a, "square");
  OpProfile::Scope step(profile_, "mul", a.level());
  mod_switch_to(a, levels_.product_set(a.primes(), a.noise, a.primes(), a.noise));
  step.set(a.level());
  if (ctx_.p() != 2) a.factor = util::mul_mod(a.factor, a.factor, uint64_t(ctx_.p()));  // f^2
  DCRTPoly d0 = a.c0, d1 = a.c0, d2 = a.c1;
  d0 *= a.c0;
  d1 *= a.c1;
  d1 += d1;
  d2 *= a.c1;
  const RootBound na = a.noise;
  relinearize(a, std::move(d0), std::move(d1), std::move(d2), na, na);
}

void Evaluator::automorph(Ciphertext& a, long k) const {
  check_context(ctx_, a, "automorph");
  const long m = ctx_.m();
  k = ((k % m) + m) % m;
  if (k == 1) return;
  const KeySwitchKey& key = automorphism_key(k);
  OpProfile::Scope step(profile_, "automorph", a.level());
  reduce_level(a);
  step.set(a.level());
  const auto& perm = ctx_.automorphism_perm(k);
  DCRTPoly c0 = a.c0.permuted(perm);
  DCRTPoly e0, e1;
  apply_key(decompose(a.c1.permuted(perm)), key, nullptr, e0, e1);
  c0 += e0;
  a.noise = levels_.automorphism(a.noise, perm, a.primes());
  a.c0 = std::move(c0);
  a.c1 = std::move(e1);
  ++n_auto_;
}

std::vector<Ciphertext> Evaluator::automorph_many(const Ciphertext& a, const std::vector<long>& ks) const {
  check_context(ctx_, a, "automorph_many");
  const long m = ctx_.m();
  long hoisted = 0;
  for (long k : ks) hoisted += ((k % m) + m) % m != 1;
  OpProfile::Scope step(profile_, "automorph_hoisted", a.level(), 0, hoisted);  // the digits' time shared
  Ciphertext base = a;
  reduce_level(base);
  step.set(base.level(), 0, hoisted);
  std::vector<Ciphertext> out;
  out.reserve(ks.size());
  std::unique_ptr<Digits> dg;
  for (long k : ks) {
    k = ((k % m) + m) % m;
    if (k == 1) {
      out.push_back(base);
      continue;
    }
    const KeySwitchKey& key = automorphism_key(k);
    if (!dg) dg = std::make_unique<Digits>(decompose(base.c1));
    const auto& perm = ctx_.automorphism_perm(k);
    DCRTPoly e0, e1;
    apply_key(*dg, key, &perm, e0, e1);
    DCRTPoly c0 = base.c0.permuted(perm);
    c0 += e0;
    out.emplace_back(std::move(c0), std::move(e1), levels_.automorphism(base.noise, perm, base.primes()));
    out.back().factor = base.factor;  // X -> X^k and key switching keep f (keys.h)
    ++n_auto_;
  }
  return out;
}

Evaluator::Counters Evaluator::counters() const {
  Counters c;
  c.mul = n_mul_;
  c.mul_plain = n_mul_plain_;
  c.add = n_add_;
  c.automorph = n_auto_;
  c.key_switch = n_ks_;
  c.mod_switch = n_ms_;
  return c;
}

}  // namespace cb::bgv
