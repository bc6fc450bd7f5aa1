// chain_info: the engine's modulus chains, in batch, for the parameter explorer.
//
//   chain_info < requests      one request a line: "m bits c [ks_margin_bits]", or
//                              "m transform" (m odd or 2^k; only transform_ops and transform_ops_bluestein,
//                              for a chain's usual primes)
//
// Prints one JSON object a line, in request order: the chain exactly as the engine builds
// it (engine/bgv/chain.h): m, bits, c, ks_margin_bits, S, L, K, b_ct (bits of the largest
// ciphertext prime), b_sp (of the largest special prime), digits (primes per digit),
// primes, log2_q_ct, log2_p, log2_max_digit, transform_ops (the mean over the primes of
// one limb's transform operation count, CyclotomicTransform::cost: Bluestein's or the
// prime-factor algorithm's, whichever the engine uses for that prime), transform_ops_bluestein
// (the part of that mean from the primes that use Bluestein's algorithm: the cost model
// prices the two algorithms' operations apart), chain (how it was built),
// keep_uniform_bytes (keys whose uniform half is larger are stored compact), memory (what the
// engine's data takes at this chain, engine/bgv/memory.h: bytes of a limb, the transform
// tables, the secret and public key, one key-switching key as stored and in full, a fresh
// ciphertext, one key switch's temporaries); or {"error": msg}
// for a request the engine refuses. So the Python side asks the engine instead of
// mirroring its chain construction.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "apps/batch_serve.h"
#include "apps/memory_json.h"
#include "engine/algebra/zmstar.h"
#include "engine/bgv/chain.h"
#include "engine/bgv/keys.h"
#include "engine/bgv/memory.h"
#include "engine/errors.h"
#include "engine/util/cyclotomic_transform.h"

int main() {
  return cb::apps::serve_lines([](const std::string& line) {
    nlohmann::json j;
    std::istringstream is(line);
    long m = 0, bits = 0, c = 0, margin = cb::bgv::ChainParams{}.ks_margin_bits;
    std::string word;
    if (line.find("transform") != std::string::npos) {  // "m transform"
      std::istringstream ts(line);
      // odd m, or m = 2^k (the F_p rings, the negacyclic transform)
      if (ts >> m >> word && word == "transform" && m >= 3 && (m % 2 || (m >= 4 && (m & (m - 1)) == 0))) {
        j["m"] = m;
        using T = cb::util::CyclotomicTransform;
        j["transform_ops"] = T::cost(m);
        j["transform_ops_bluestein"] = T::algorithm_for(m) == T::Algorithm::bluestein ? T::cost(m) : 0.0;
      } else {
        j["error"] = "chain_info: a transform request is \"m transform\" with odd m >= 3 or m = 2^k >= 4, got \"" +
                     line + "\"";
      }
      return j;
    }
    if (!(is >> m >> bits >> c)) {
      j["error"] = "chain_info: a request is \"m bits c [ks_margin_bits]\", got \"" + line + "\"";
      return j;
    }
    is >> margin;
    try {
      cb::bgv::ChainParams p;  // the engine's defaults (ladder size), as the planner builds them
      p.m = m, p.bits = bits, p.c = c, p.ks_margin_bits = margin;
      const cb::bgv::Chain ch(p);
      j["m"] = m, j["bits"] = bits, j["c"] = c, j["ks_margin_bits"] = margin;
      j["S"] = ch.S(), j["L"] = ch.L(), j["K"] = ch.K();
      double b_ct = 0, b_sp = 0;
      for (long i = ch.S(); i < ch.L(); ++i) b_ct = std::max(b_ct, std::ceil(ch.log2_q(i)));
      for (long i = ch.L(); i < ch.num_primes(); ++i) b_sp = std::max(b_sp, std::ceil(ch.log2_q(i)));
      j["b_ct"] = long(b_ct), j["b_sp"] = long(b_sp);
      nlohmann::json digits = nlohmann::json::array();
      for (const auto& d : ch.digits()) digits.push_back(d.size());
      j["digits"] = digits;
      j["primes"] = ch.primes();
      j["log2_q_ct"] = ch.log2_Q(), j["log2_p"] = ch.log2_P(), j["log2_max_digit"] = ch.log2_max_digit();
      using T = cb::util::CyclotomicTransform;
      double ops = 0, bluestein = 0;
      for (uint64_t q : ch.primes()) {
        const double x = T::cost(m, q);
        ops += x;
        if (T::algorithm_for(m, q) == T::Algorithm::bluestein) bluestein += x;
      }
      j["transform_ops"] = ops / double(ch.primes().size());
      j["transform_ops_bluestein"] = bluestein / double(ch.primes().size());
      j["chain"] = ch.describe();
      j["keep_uniform_bytes"] = cb::bgv::KeySwitchKey::kKeepUniformBytes;  // keys above it stored compact
      // phi(2^k) = m/2 (a power-of-two ring is one at an odd p; ZmStar(m) is the ring at p = 2)
      const long phi = m % 2 ? cb::ZmStar(m).phi() : m / 2;
      j["memory"] = cb::apps::memory_model_json(
          cb::bgv::MemoryModel(ch, m, phi, cb::bgv::KeySwitchKey::kKeepUniformBytes));
    } catch (const std::exception& e) {
      j = nlohmann::json::object();
      j["error"] = e.what();
    }
    return j;
  });
}
