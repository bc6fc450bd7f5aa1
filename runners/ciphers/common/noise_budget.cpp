#include "ciphers/common/noise_budget.h"

#include "engine/errors.h"

namespace cb {

NoiseBudget noise_budget(const std::string& cipher, long n, bool sliced) {
  // Bits per round, from the papers' chains (see the header); same depth packed and sliced.
  (void)sliced;
  if (cipher == "aes128") return {60, 76};
  if (cipher == "vision") {
    switch (n) {
      case 8: return {60, 149};   // 1550 bits, 10 rounds
      case 16: return {60, 194};  // 2000 bits, 10 rounds
      case 32: return {60, 224};  // 2300 bits, 10 rounds
      case 64: return {60, 238};  // 3150 bits, 13 rounds
    }
  }
  throw ParameterError(msg("no noise budget for cipher ", cipher, " over GF(2^", n, ")"));
}

}  // namespace cb
