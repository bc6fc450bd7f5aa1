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

Lift crt_lift(const DCRTPoly& x, const std::vector<int>& drop, bool even_fix) {
  const Context& ctx = x.context();
  Lift L;
  L.m = ctx.m();
  L.drop = drop;
  const long kT = long(drop.size());
  L.y.resize(kT);
  for (auto& yk : L.y) yk.resize(L.m);
  // y_k = [b_k * (T/t_k)^-1]_{t_k}, b_k the coefficients of x modulo t_k.
#pragma omp parallel for schedule(dynamic) if(ctx.parallel())
  for (long k = 0; k < kT; ++k) {
    const uint64_t t = ctx.q(drop[k]);
    uint64_t hat = 1;  // T/t_k mod t_k
    for (long j = 0; j < kT; ++j)
      if (j != k) hat = mul_mod(hat, ctx.q(drop[j]) % t, t);
    const util::ShoupMul w(util::inv_mod(hat, t), t);
    auto& yk = L.y[k];
    ctx.ntt(drop[k]).inverse(x.limb(index_in(x, drop[k])), yk.data());
    util::mul_scalar_array(yk.data(), yk.data(), w, L.m, t);
  }
  std::vector<double> inv_t(kT);
  for (long k = 0; k < kT; ++k) inv_t[k] = 1.0 / double(ctx.q(drop[k]));
  L.v.resize(L.m);
  std::vector<const uint64_t*> y(kT);
  for (long k = 0; k < kT; ++k) y[k] = L.y[k].data();
  const long chunk = 4096;
#pragma omp parallel for schedule(static) if(ctx.parallel())
  for (long i = 0; i < L.m; i += chunk) {
    std::vector<const uint64_t*> yi(kT);
    for (long k = 0; k < kT; ++k) yi[k] = y[k] + i;
    util::crt_quotient_array(L.v.data() + i, yi.data(), inv_t.data(), kT, even_fix, std::min(chunk, L.m - i));
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

}  // namespace

DCRTPoly lift_digit(const DCRTPoly& x, const std::vector<int>& digit,
                    const std::vector<int>& targets) {
  const Context& ctx = x.context();
  const Lift L = crt_lift(x, digit, /*even_fix=*/false);
  DCRTPoly r(ctx, targets, DCRTPoly::Uninitialized{});
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> z;
#pragma omp for schedule(dynamic)
    for (long j = 0; j < long(targets.size()); ++j) {
      const int s = targets[j];
      if (std::find(digit.begin(), digit.end(), s) != digit.end()) {
        std::copy_n(x.limb(index_in(x, s)), ctx.phi(), r.limb(j));
        continue;
      }
      lift_mod(ctx, L, s, z);
      ctx.ntt(s).forward(z.data(), ctx.m(), r.limb(j));
    }
  }
  return r;
}

DCRTPoly divide_round(const DCRTPoly& x, const std::vector<int>& keep,
                      const std::vector<int>& drop) {
  const Context& ctx = x.context();
  const Lift L = crt_lift(x, drop, /*even_fix=*/true);
  DCRTPoly r(ctx, keep, DCRTPoly::Uninitialized{});
  const long phi = ctx.phi();
#pragma omp parallel if(ctx.parallel())
  {
    std::vector<uint64_t> z;
    std::vector<uint64_t> dv(phi);
#pragma omp for schedule(dynamic)
    for (long j = 0; j < long(keep.size()); ++j) {
      const int s_index = keep[j];
      const uint64_t s = ctx.q(s_index);
      uint64_t T_s = 1;
      for (int t : drop) T_s = mul_mod(T_s, ctx.q(t) % s, s);
      const util::ShoupMul w(util::inv_mod(T_s, s), s);
      lift_mod(ctx, L, s_index, z);
      ctx.ntt(s_index).forward(z.data(), ctx.m(), dv.data());
      const uint64_t* xs = x.limb(index_in(x, s_index));
      uint64_t* out = r.limb(j);
      for (long t = 0; t < phi; ++t) out[t] = util::mul_shoup(util::sub_mod(xs[t], dv[t], s), w.w, w.wp, s);
    }
  }
  return r;
}

}  // namespace cb::bgv
