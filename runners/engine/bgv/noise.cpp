#include "engine/bgv/noise.h"

#include <numeric>

#include "engine/errors.h"
#include "engine/util/canonical.h"

namespace cb::bgv {

NoiseModel::NoiseModel(long m, const std::vector<long>& s_coeffs, long p) : m_(m), p_(p) {
  if (p < 2) throw ParameterError(msg("NoiseModel: p=", p, " must be a prime >= 2"));
  std::vector<long> units;
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) units.push_back(j);
  phi_ = long(units.size());
  if (long(s_coeffs.size()) > phi_)
    throw ParameterError(msg("NoiseModel: the secret key has ", s_coeffs.size(), " coefficients, phi(", m, ")=", phi_));
  const double K = kDirections;
  tail_factor_ = std::sqrt(2 * (std::log(K * double(phi_)) + kKappa * std::log(2.0))) / std::cos(M_PI / K);

  const std::vector<double> s = util::canonical_embedding(m)->magnitudes(s_coeffs);
  s_ = RootBound::from_values(s);
  const double sig2 = (kSigma + 0.5) * (kSigma + 0.5);
  const double half_p2 = (double(p) / 2) * (double(p) / 2);  // (p/2)^2: exactly 1 at p = 2
  std::vector<double> r(phi_), r2(phi_), e(phi_);
  w_.resize(phi_);
  double e_max = 0;
  for (long t = 0; t < phi_; ++t) {
    const double a = 2 * M_PI * double(units[t]) / double(m);
    const double S = std::fabs(std::sin(a * double(phi_)) / std::sin(a));
    w_[t] = (double(phi_) + S) / 2;
    r[t] = tail(double(m) * (1 + s[t] * s[t]) / 6 * half_p2);
    r2[t] = tail(double(m) * (1 + s[t] * s[t] + s[t] * s[t] * s[t] * s[t]) / 6 * half_p2);
    e[t] = tail(sig2 * w_[t]);
    e_max = std::max(e_max, e[t]);
  }
  round_ = RootBound::from_values(r);
  round2_ = RootBound::from_values(r2);
  log2_e_ = std::log2(e_max);
}

RootBound NoiseModel::fresh(const RootBound& mu) const {
  const double sig2 = (kSigma + 0.5) * (kSigma + 0.5);
  const auto& s = s_.normalized();
  const double s_scale = std::exp2(s_.exponent());
  std::vector<double> f(phi_);
  for (long t = 0; t < phi_; ++t) {
    const double st = s[t] * s_scale;
    const double et = tail(sig2 * w_[t]);
    f[t] = double(p_) * tail(w_[t] * (et * et / 2 + sig2 * (1 + st * st)));
  }
  RootBound out = RootBound::from_values(std::move(f));
  out += mu;
  return out;
}

double NoiseModel::log2_key_switch(const std::vector<double>& log2_digits, double log2_P) const {
  // p tail(m E^2 sum_j D_j^2 / 24) / P, in logs: sum_j D_j^2 = 2^(2 max) sum 2^(2 (d - max)).
  double mx = -INFINITY;
  for (double d : log2_digits) mx = std::max(mx, d);
  if (std::isinf(mx)) return -INFINITY;
  double acc = 0;
  for (double d : log2_digits) acc += std::exp2(2 * (d - mx));
  return std::log2(double(p_)) + std::log2(tail(double(m_) * acc / 24)) + log2_e_ + mx - log2_P;
}

RootBound NoiseModel::key_switch(const std::vector<double>& log2_digits, double log2_P) const {
  RootBound out = RootBound::flat(phi_, log2_key_switch(log2_digits, log2_P));
  out += round_;
  return out;
}

}  // namespace cb::bgv
