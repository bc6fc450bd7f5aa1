#include "ciphers/common/noise_budget.h"

#include <cmath>

#include "engine/errors.h"

namespace cb {

NoiseBudget noise_budget(const std::string& cipher, long n, long phi) {
  constexpr double kPerLevel = 0.8;  // bits per level and per doubling of phi
  long levels = 0;
  double measured = 0, log2_phi_measured = 0;  // bits per round at a measured ring
  if (cipher == "aes128") {
    levels = 5, measured = 89, log2_phi_measured = 12;  // m=4369
  } else if (cipher == "vision") {
    switch (n) {
      case 8: levels = 10, measured = 134, log2_phi_measured = 8; break;                // m=257
      case 16: levels = 12, measured = 162, log2_phi_measured = 8; break;               // m=257
      case 32: levels = 14, measured = 218, log2_phi_measured = std::log2(640); break;  // m=641
      case 64: levels = 16, measured = 267, log2_phi_measured = std::log2(640); break;  // m=641
    }
  }
  if (!levels) throw ParameterError(msg("no noise budget for cipher ", cipher, " over GF(2^", n, ")"));
  const double b = kPerLevel * levels;
  return {40, measured + b * (std::log2(double(phi)) - log2_phi_measured)};
}

}  // namespace cb
