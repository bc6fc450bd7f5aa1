// security_info: HElib's security formula as the engine computes it (engine/bgv/security.h),
// in batch, for the parameter explorer and the analysis (one source of truth).
//
//   security_info < requests     one request a line:
//     "m log2_q hwt"             ring m (phi and sigma from m), log2 Q of ciphertext and
//                                special primes, key weight (0: dense)
//     "level phi log2_alpha_inv hwt"   the formula on phi and log2(1/alpha) directly
//
// Prints one JSON object a line, in request order, flushed when no request waits: m (for
// the first form), phi, log2_q, sigma, log2_alpha_inv, hwt, helib_bits; or {"error": msg}.
#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "apps/batch_serve.h"
#include "engine/algebra/zmstar.h"
#include "engine/bgv/security.h"

namespace {

nlohmann::json answer(const std::string& line) {
  std::istringstream is(line);
  std::string first;
  is >> first;
  nlohmann::json j;
  try {
    if (first == "level") {
      double phi = 0, lai = 0;
      long hwt = 0;
      if (!(is >> phi >> lai >> hwt)) throw std::invalid_argument("bad numbers");
      if (lai <= 0)
        return {{"error", "log2_alpha_inv=" + std::to_string(lai) +
                              ": the modulus must exceed the noise (log2 Q > log2 sigma); give a larger modulus chain"}};
      return {{"phi", phi}, {"log2_alpha_inv", lai}, {"hwt", hwt},
              {"helib_bits", cb::bgv::helib_security_level(phi, lai, hwt)}};
    }
    size_t used = 0;
    const long m = std::stol(first, &used);
    double log2_q = 0;
    long hwt = 0;
    if (used != first.size() || !(is >> log2_q >> hwt)) throw std::invalid_argument("bad numbers");
    // The formula needs phi only, whatever the plaintext modulus: ask the ring's basics at
    // a p it takes (2 for odd m, 3 for m = 2^k), which refuses every other m by name.
    const cb::ZmStarBasics b = cb::zmstar_basics(m, m % 2 == 0 ? 3 : 2);
    const double sigma = cb::bgv::helib_sigma(m);
    const double lai = log2_q - std::log2(sigma);
    if (lai <= 0)
      return {{"m", m}, {"error", "m=" + std::to_string(m) + " log2_q=" + std::to_string(log2_q) +
                                      ": the modulus must exceed the noise (log2 Q > log2 sigma); give a larger modulus chain"}};
    j = {{"m", m}, {"phi", b.phi}, {"log2_q", log2_q}, {"sigma", sigma}, {"log2_alpha_inv", lai}, {"hwt", hwt},
         {"helib_bits", cb::bgv::helib_security(m, b.phi, log2_q, hwt)}};
  } catch (const std::invalid_argument&) {
    return {{"error", "security_info: a request is \"m log2_q hwt\" or \"level phi log2_alpha_inv hwt\", got \"" +
                          line + "\""}};
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
  return j;
}

}  // namespace

int main() { return cb::apps::serve_lines(answer); }
