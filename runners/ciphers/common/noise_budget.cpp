#include "ciphers/common/noise_budget.h"

#include <cmath>

#include "engine/errors.h"

namespace cb {

NoiseBudget noise_budget(const std::string& cipher, long n, long phi) {
  // Bits per level and per doubling of phi: AES 0.8 (m=257 to 53261); Vision 1.1, fitted
  // to GF(2^8)^16 at m=163455 (phi 81920): 209 bits per round measured.
  double per_level = 0.8;
  long levels = 0;
  double measured = 0, log2_phi_measured = 0;  // bits per round at a measured ring
  if (cipher == "aes128") {
    levels = 5, measured = 89, log2_phi_measured = 12;  // m=4369
  } else if (cipher == "vision") {
    per_level = 1.1;
    switch (n) {
      case 8: levels = 10, measured = 134, log2_phi_measured = 8; break;                // m=257
      case 16: levels = 12, measured = 162, log2_phi_measured = 8; break;               // m=257
      case 32: levels = 14, measured = 218, log2_phi_measured = std::log2(640); break;  // m=641
      case 64: levels = 16, measured = 267, log2_phi_measured = std::log2(640); break;  // m=641
    }
  }
  if (!levels) throw ParameterError(msg("no noise budget for cipher ", cipher, " over GF(2^", n, ")"));
  const double b = per_level * levels;
  return {40, measured + b * (std::log2(double(phi)) - log2_phi_measured)};
}

}  // namespace cb
