// security_info: the engine's security models (engine/bgv/security_model.h: HElib's formula,
// core-SVP) in batch, for the parameter explorer and the analysis (one source of truth).
//
//   security_info < requests     one request a line:
//     "m log2_q hwt"             HElib's formula on ring m (phi and sigma from m), log2 Q of
//                                ciphertext and special primes, key weight (0: dense)
//     "level phi log2_alpha_inv hwt"   the formula on phi and log2(1/alpha) directly
//     "coresvp n log2_q hwt [sigma=S] [cost_model=M]"   core-SVP uSVP (engine/bgv/coresvp.h) on
//                                LWE of dimension n (sigma 3.2, cost model ADPS16 by default)
//     "model name m log2_q hwt"  the registry's model `name` on ring m
//     "models"                   the registry: each model's name, title, citation and keys
//     "weights"                  the key weights a target search tries when none is given
//
// Prints one JSON object a line, in request order, flushed when no request waits; HElib's
// formula: m (for the first form), phi, log2_q, sigma, log2_alpha_inv, hwt, helib_bits;
// core-SVP: n, log2_q, hwt, sigma, cost_model, beta, coresvp_bits; a model: model, m, phi,
// log2_q, hwt, bits; the registry: models (a list); or {"error": msg}.
#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "apps/batch_serve.h"
#include "engine/algebra/zmstar.h"
#include "engine/bgv/coresvp.h"
#include "engine/bgv/security.h"
#include "engine/bgv/security_model.h"

namespace {

nlohmann::json answer(const std::string& line) {
  std::istringstream is(line);
  std::string first;
  is >> first;
  nlohmann::json j;
  try {
    if (first == "models") {
      nlohmann::json models = nlohmann::json::array();
      for (const auto& m : cb::bgv::security_models())
        models.push_back({{"name", m.name}, {"title", m.title}, {"citation", m.citation}, {"keys", m.keys}});
      return {{"models", models}};
    }
    if (first == "weights") return {{"weights", cb::bgv::target_search_weights()}};
    if (first == "coresvp") {
      long n = 0, hwt = 0;
      double log2_q = 0, sigma = cb::bgv::kCoreSvpSigma;
      std::string cost_model = "ADPS16";
      if (!(is >> n >> log2_q >> hwt)) throw std::invalid_argument("bad numbers");
      for (std::string opt; is >> opt;) {
        if (opt.rfind("sigma=", 0) == 0) sigma = std::stod(opt.substr(6));
        else if (opt.rfind("cost_model=", 0) == 0) cost_model = opt.substr(11);
        else throw std::invalid_argument("bad option");
      }
      const double bits = cb::bgv::coresvp_bits(n, log2_q, hwt, sigma, cost_model);
      return {{"n", n}, {"log2_q", log2_q}, {"hwt", hwt}, {"sigma", sigma}, {"cost_model", cost_model},
              {"beta", cb::bgv::usvp_beta(n, log2_q, hwt, sigma)}, {"coresvp_bits", bits}};
    }
    if (first == "model") {
      std::string name;
      long m = 0, hwt = 0;
      double log2_q = 0;
      if (!(is >> name >> m >> log2_q >> hwt)) throw std::invalid_argument("bad numbers");
      const auto& model = cb::bgv::security_model(name);
      const long phi = cb::zmstar_basics(m, m % 2 == 0 ? 3 : 2).phi;
      return {{"model", name}, {"m", m}, {"phi", phi}, {"log2_q", log2_q}, {"hwt", hwt},
              {"bits", model.bits({m, phi, log2_q, hwt})}};
    }
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
    return {{"error", "security_info: a request is \"m log2_q hwt\", \"level phi log2_alpha_inv hwt\", "
                          "\"coresvp n log2_q hwt [sigma=S] [cost_model=M]\", \"model name m log2_q hwt\", \"models\" or \"weights\", got \"" +
                          line + "\""}};
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
  return j;
}

}  // namespace

int main() { return cb::apps::serve_lines(answer); }
