#include "engine/bgv/rns_rounding.h"

#include <algorithm>
#include <cmath>

#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb::bgv {

namespace {

using util::Barrett;
using util::mul_mod;
using util::u128;

long index_in(const DCRTPoly& x, int prime) {
  const auto& p = x.primes();
  auto it = std::find(p.begin(), p.end(), prime);
  if (it == p.end()) throw Error(msg("rns: prime index ", prime, " is not among the operand's limbs"));
  return long(it - p.begin());
}

// The centered CRT lift of x modulo T = prod(drop): y[k][i] and the integer v[i] with
// lift_i = sum_k y[k][i] * (T/t_k) - v[i] * T. With even_fix, v is moved by one where
// needed so that the lift is even.
struct Lift {
  long m = 0;
  std::vector<int> drop;
  std::vector<std::vector<uint64_t, NoInitAllocator<uint64_t>>> y;  // written in full by the transforms
  std::vector<int64_t, NoInitAllocator<int64_t>> v;
};

// The lifts of several polynomials at once (x[i] modulo prod(drop[i])), in one parallel
// region of each kind: the inverse transforms of every (polynomial, prime) pair, then
// the quotients of every (polynomial, chunk) pair. One polynomial's primes are few (a
// digit's, the K special primes), so pooling them keeps the threads evenly busy and
// waiting at one barrier where each lift had its own. Each lift's words are those of
// lifting it alone.
std::vector<Lift> crt_lift_many(const std::vector<const DCRTPoly*>& x,
                                const std::vector<std::vector<int>>& drop, bool even_fix) {
  const Context& ctx = x.front()->context();
  const long nx = long(x.size());
  std::vector<Lift> L(nx);
  std::vector<std::pair<long, long>> items;  // (lift, k)
  for (long i = 0; i < nx; ++i) {
    L[i].m = ctx.ntt(0).coeff_count();  // m, or phi for m = 2^k (the rest are zeros)
    L[i].drop = drop[i];
    L[i].y.resize(drop[i].size());
    for (auto& yk : L[i].y) yk.resize(ctx.m());  // inverse() writes m words
    L[i].v.resize(L[i].m);
    for (long k = 0; k < long(drop[i].size()); ++k) items.emplace_back(i, k);
  }
  // y_k = [b_k * (T/t_k)^-1]_{t_k}, b_k the coefficients of x modulo t_k.
#pragma omp parallel for schedule(dynamic) if(ctx.parallel())
  for (long it = 0; it < long(items.size()); ++it) {
    const auto [i, k] = items[it];
    const auto& dr = L[i].drop;
    const uint64_t t = ctx.q(dr[k]);
    uint64_t hat = 1;  // T/t_k mod t_k
    for (long j = 0; j < long(dr.size()); ++j)
      if (j != k) hat = mul_mod(hat, ctx.q(dr[j]) % t, t);
    const util::ShoupMul w(util::inv_mod(hat, t), t);
    auto& yk = L[i].y[k];
    ctx.ntt(dr[k]).inverse(x[i]->limb(index_in(*x[i], dr[k])), yk.data());
    util::mul_scalar_array(yk.data(), yk.data(), w, L[i].m, t);
  }
  const long m = ctx.ntt(0).coeff_count(), chunk = 4096, chunks = (m + chunk - 1) / chunk;
#pragma omp parallel for schedule(static) if(ctx.parallel())
  for (long it = 0; it < nx * chunks; ++it) {
    const long i = it / chunks, c0 = (it % chunks) * chunk;
    const long kT = long(L[i].drop.size());
    std::vector<const uint64_t*> yi(kT);
    std::vector<double> inv_t(kT);
    for (long k = 0; k < kT; ++k) yi[k] = L[i].y[k].data() + c0, inv_t[k] = 1.0 / double(ctx.q(L[i].drop[k]));
    util::crt_quotient_array(L[i].v.data() + c0, yi.data(), inv_t.data(), kT, even_fix, std::min(chunk, m - c0));
  }
  return L;
}

// The lift's coefficients modulo the prime s, in [0, s).
void lift_mod(const Context& ctx, const Lift& L, int s_index, std::vector<uint64_t>& out) {
  const uint64_t s = ctx.q(s_index);
  const long kT = long(L.drop.size());
  std::vector<uint64_t> hat(kT);  // [T/t_k]_s
  uint64_t T_s = 1;
  for (long k = 0; k < kT; ++k) {
    T_s = mul_mod(T_s, ctx.q(L.drop[k]) % s, s);
    hat[k] = 1;
    for (long j = 0; j < kT; ++j)
      if (j != k) hat[k] = mul_mod(hat[k], ctx.q(L.drop[j]) % s, s);
  }
  std::vector<const uint64_t*> y(kT);
  uint64_t bound = 0;
  for (long k = 0; k < kT; ++k) y[k] = L.y[k].data(), bound = std::max(bound, ctx.q(L.drop[k]));
  out.resize(L.m);
  util::crt_combine_array(out.data(), y.data(), hat.data(), kT, bound, L.v.data(), T_s, L.m, s);
}

// For p > 2: per lift and coefficient, the k in [-(p-1)/2, (p-1)/2] with L + k T = 0 (mod p),
// L = sum_k y_k (T/t_k) - v T the centered lift.
std::vector<std::vector<int64_t>> multiples_of_T(const Context& ctx, const std::vector<Lift>& L) {
  const uint64_t p = uint64_t(ctx.p());
  std::vector<std::vector<int64_t>> out(L.size());
  for (size_t i = 0; i < L.size(); ++i) {
    const auto& dr = L[i].drop;
    const long kT = long(dr.size()), m = L[i].m;
    std::vector<uint64_t> hat(kT, 1);  // [T/t_k]_p
    uint64_t T_p = 1;
    for (long a = 0; a < kT; ++a) {
      T_p = mul_mod(T_p, ctx.q(dr[a]) % p, p);
      for (long b = 0; b < kT; ++b)
        if (b != a) hat[a] = mul_mod(hat[a], ctx.q(dr[b]) % p, p);
    }
    // Shoup products (any operand below 2^64, no division): y_a [T/t_a]_p, |v| [T]_p.
    std::vector<util::ShoupMul> w_hat;
    for (long a = 0; a < kT; ++a) w_hat.emplace_back(hat[a], p);
    const util::ShoupMul w_T(T_p, p), w_minus_inv_T(p - util::inv_mod(T_p, p), p);  // -T^-1 mod p
    out[i].resize(m);
    int64_t* ki = out[i].data();
#pragma omp parallel for schedule(static) if(ctx.parallel())
    for (long c = 0; c < m; ++c) {
      uint64_t l = 0;  // L mod p
      for (long a = 0; a < kT; ++a)
        l = util::add_mod(l, util::mul_shoup(L[i].y[a][c], w_hat[a].w, w_hat[a].wp, p), p);
      const int64_t v = L[i].v[c];
      const uint64_t vT = util::mul_shoup(v >= 0 ? uint64_t(v) : uint64_t(-v), w_T.w, w_T.wp, p);
      l = v >= 0 ? util::sub_mod(l, vT, p) : util::add_mod(l, vT, p);
      const uint64_t kk = util::mul_shoup(l, w_minus_inv_T.w, w_minus_inv_T.wp, p);
      ki[c] = kk > p / 2 ? int64_t(kk) - int64_t(p) : int64_t(kk);
    }
  }
  return out;
}

}  // namespace

std::vector<DCRTPoly> lift_digits(const DCRTPoly& x, const std::vector<std::vector<int>>& digits,
                                  const std::vector<int>& targets) {
  const Context& ctx = x.context();
  const long nd = long(digits.size()), nt = long(targets.size());
  const std::vector<Lift> L = crt_lift_many(std::vector<const DCRTPoly*>(nd, &x), digits, /*even_fix=*/false);
  std::vector<DCRTPoly> r;
  r.reserve(nd);
  for (long d = 0; d < nd; ++d) r.emplace_back(ctx, targets, DCRTPoly::Uninitialized{});
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> z;
#pragma omp for schedule(dynamic)
    for (long it = 0; it < nd * nt; ++it) {
      const long d = it / nt, j = it % nt;
      const int s = targets[j];
      if (std::find(digits[d].begin(), digits[d].end(), s) != digits[d].end()) {
        std::copy_n(x.limb(index_in(x, s)), ctx.phi(), r[d].limb(j));
        continue;
      }
      lift_mod(ctx, L[d], s, z);
      ctx.ntt(s).forward(z.data(), L[d].m, r[d].limb(j));
    }
  }
  return r;
}

std::vector<DCRTPoly> divide_round(const std::vector<const DCRTPoly*>& x, const std::vector<int>& keep,
                                   const std::vector<int>& drop) {
  const Context& ctx = x.front()->context();
  const long nx = long(x.size()), nk = long(keep.size());
  const uint64_t pt = uint64_t(ctx.p());
  std::vector<Lift> L = crt_lift_many(x, std::vector<std::vector<int>>(nx, drop), /*even_fix=*/pt == 2);
  // p > 2: k[i] per coefficient of each lift (rns_rounding.h), delta = L + k T. Where
  // |v - k| stays below every kept prime (p/2 plus the few units of v, e.g. p = 65537 on
  // the 50-bit primes) k goes into the quotient v itself, which crt_combine_array takes
  // signed below q: delta's residues then cost nothing more than L's. Otherwise (p near
  // or past a kept prime) k T is added to each residue apart.
  std::vector<std::vector<int64_t>> k = pt == 2 ? std::vector<std::vector<int64_t>>() : multiples_of_T(ctx, L);
  if (!k.empty()) {
    uint64_t q_min = ~uint64_t(0);
    for (int i : keep) q_min = std::min(q_min, ctx.q(i));
    if (pt / 2 + uint64_t(drop.size()) + 2 < q_min) {
      for (long i = 0; i < nx; ++i)
        for (long c = 0; c < L[i].m; ++c) L[i].v[c] -= k[i][c];
      k.clear();
    }
  }
  std::vector<DCRTPoly> r;
  r.reserve(nx);
  for (long i = 0; i < nx; ++i) r.emplace_back(ctx, keep, DCRTPoly::Uninitialized{});
  const long phi = ctx.phi();
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> z;
    std::vector<uint64_t> dv(phi);
#pragma omp for schedule(dynamic)
    for (long it = 0; it < nx * nk; ++it) {
      const long i = it / nk, j = it % nk;
      const int s_index = keep[j];
      const uint64_t s = ctx.q(s_index);
      uint64_t T_s = 1;
      for (int t : drop) T_s = mul_mod(T_s, ctx.q(t) % s, s);
      const util::ShoupMul w(util::inv_mod(T_s, s), s);
      lift_mod(ctx, L[i], s_index, z);
      if (!k.empty()) {  // z = delta mod s = L + k T
        const util::ShoupMul wt(T_s, s);
        const int64_t* ki = k[i].data();
        for (long c = 0; c < L[i].m; ++c) {  // |k| T mod s by one Shoup product, then its sign
          const uint64_t kt = util::mul_shoup(uint64_t(ki[c] >= 0 ? ki[c] : -ki[c]), wt.w, wt.wp, s);
          z[c] = ki[c] >= 0 ? util::add_mod(z[c], kt, s) : util::sub_mod(z[c], kt, s);
        }
      }
      ctx.ntt(s_index).forward(z.data(), L[i].m, dv.data());
      const uint64_t* xs = x[i]->limb(index_in(*x[i], s_index));
      uint64_t* out = r[i].limb(j);
      for (long t = 0; t < phi; ++t) out[t] = util::mul_shoup(util::sub_mod(xs[t], dv[t], s), w.w, w.wp, s);
    }
  }
  return r;
}

DCRTPoly lift_digit(const DCRTPoly& x, const std::vector<int>& digit, const std::vector<int>& targets) {
  return std::move(lift_digits(x, {digit}, targets).front());
}

DCRTPoly divide_round(const DCRTPoly& x, const std::vector<int>& keep, const std::vector<int>& drop) {
  return std::move(divide_round(std::vector<const DCRTPoly*>{&x}, keep, drop).front());
}

}  // namespace cb::bgv
