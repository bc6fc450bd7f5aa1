#include "engine/bgv/coresvp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/errors.h"

namespace cb::bgv {

namespace {
constexpr double kPi = 3.141592653589793;  // Python's math.pi and math.e, as the port's source
constexpr double kE = 2.718281828459045;

// Is there a sample count w for which BKZ-beta solves the uSVP instance?
bool usvp_ok(long beta, long n, double log2_q, double sigma, double sigma_s) {
  const double ld = std::log2(delta_0(double(beta)));
  const double lhs = std::log2(sigma) + 0.5 * std::log2(double(beta));
  const double lscale = std::log2(sigma / sigma_s);
  // RHS(w) = (2 beta - d) ld + (w log2_q + n lscale)/d, d = n + w + 1 > beta; concave in w:
  // ternary search over integer w in [max(0, beta - n), 4n].
  auto rhs = [&](long w) {
    const long d = n + w + 1;
    if (d <= beta) return -std::numeric_limits<double>::infinity();
    return double(2 * beta - d) * ld + (double(w) * log2_q + double(n) * lscale) / double(d);
  };
  long lo = std::max(0L, beta - n), hi = 4 * n;
  while (hi - lo > 2) {
    const long a = lo + (hi - lo) / 3;
    const long b = hi - (hi - lo) / 3;
    if (rhs(a) < rhs(b)) lo = a + 1;
    else hi = b - 1;
  }
  double best = -std::numeric_limits<double>::infinity();
  for (long w = lo; w <= hi; ++w) best = std::max(best, rhs(w));
  return lhs <= best;
}

double cost(const std::string& model, long beta) {
  if (model == "ADPS16") return 0.292 * double(beta);          // BDGL16 classical sieve
  if (model == "ADPS16-quantum") return 0.265 * double(beta);  // Laarhoven's quantum sieve
  std::string known;
  for (const auto& k : coresvp_cost_models()) known += msg(known.empty() ? "" : ", ", "'", k, "'");
  throw ParameterError(msg("cost model '", model, "' is unknown: use one of [", known, "]"));
}
}  // namespace

double delta_0(double beta) {
  return std::pow(beta / (2 * kPi * kE) * std::pow(kPi * beta, 1 / beta), 1 / (2 * (beta - 1)));
}

double secret_stddev(long n, long hwt) {
  if (hwt == 0) return std::sqrt(2.0 / 3.0);
  if (hwt < 0 || hwt > n)
    throw ParameterError(msg("hwt=", hwt, ": the key weight must lie in [0, phi=", n, "] (0 = dense key)"));
  return std::sqrt(double(hwt) / double(n));
}

long usvp_beta(long n, double log2_q, long hwt, double sigma) {
  if (n < 2) throw ParameterError(msg("n=", n, ": the LWE dimension must be at least 2"));
  if (!(log2_q > std::log2(sigma)))
    throw ParameterError(msg("log2_q=", log2_q, ": the modulus must exceed the error size sigma=", sigma));
  const double s = secret_stddev(n, hwt);
  long lo = 40, hi = std::max(41L, n);
  if (usvp_ok(lo, n, log2_q, sigma, s)) return lo;
  if (!usvp_ok(hi, n, log2_q, sigma, s)) return hi;
  while (hi - lo > 1) {
    const long mid = (lo + hi) / 2;
    if (usvp_ok(mid, n, log2_q, sigma, s)) hi = mid;
    else lo = mid;
  }
  return hi;
}

const std::vector<std::string>& coresvp_cost_models() {
  static const std::vector<std::string> models{"ADPS16", "ADPS16-quantum"};
  return models;
}

double coresvp_bits(long n, double log2_q, long hwt, double sigma, const std::string& cost_model) {
  cost(cost_model, 40);  // an unknown model is refused before any work
  return cost(cost_model, usvp_beta(n, log2_q, hwt, sigma));
}

}  // namespace cb::bgv
