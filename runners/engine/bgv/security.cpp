#include "engine/bgv/security.h"

#include <algorithm>
#include <cmath>

namespace cb::bgv {

namespace {
// HElib 2.3.0 lweEstimateSecurity table for sparse keys, weights 120, 150, ..., 450.
constexpr double kA[] = {2.4, 2.67, 2.83, 3.0, 3.1, 3.3, 3.3, 3.35, 3.4, 3.45, 3.5, 3.55};
constexpr double kB[] = {19, 13, 10, 6, 3, 1, -3, -4, -5, -7, -10, -12};
constexpr long kPoints = 12;
}  // namespace

double helib_security_level(double phi, double log2_alpha_inv, long hwt) {
  if (hwt < 0 || (hwt > 0 && hwt < 120)) return 0.0;
  const double x = phi / log2_alpha_inv;
  double a, b;
  if (hwt == 0) {
    a = 3.8;
    b = -20;
  } else if (hwt >= 450) {
    a = kA[kPoints - 1];
    b = kB[kPoints - 1];
  } else {
    const long i = (hwt - 120) / 30;
    const double t = double(hwt - (120 + 30 * i)) / 30.0;
    a = kA[i] + t * (kA[i + 1] - kA[i]);
    b = kB[i] + t * (kB[i + 1] - kB[i]);
  }
  return std::max(0.0, a * x + b);
}

double helib_sigma(long m) {
  double sigma = 3.2;
  if ((m & (m - 1)) != 0) sigma *= std::sqrt(double(m));
  return sigma;
}

double helib_security(long m, long phi, double log2_q, long hwt) {
  const double log2_alpha_inv = log2_q - std::log2(helib_sigma(m));
  return helib_security_level(double(phi), log2_alpha_inv, hwt);
}

}  // namespace cb::bgv
