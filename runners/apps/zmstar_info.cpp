// zmstar_info: the engine's facts of Z_m^* and its slots, in batch, for the parameter explorer.
//
//   zmstar_info < requests      one request a line:
//     "m"          the ring: m, factors [[p, e], ...], phi, d = ord_m(2), ell (slots), the
//                  hypercube of Z_m^*/<2> as engine/algebra/zmstar.h builds it (gens g_i,
//                  ords ord_i, twists f_i with g_i^ord_i = 2^f_i, good = twist 0), ghs16,
//                  and slots_ok (d <= max_slot_degree: the engine builds this ring's slots)
//     "m basic"    only m, factors, phi, d, ell (no hypercube: cheap, for sweeps over many m)
//     "limits"     what the engine accepts: m_max, max_slot_degree, and prime_bits, the size
//                  of the engine's full chain primes in this build (engine/util/primes.h)
//
// Prints one JSON object a line, in request order, flushed after each, so a caller may keep
// it open and ask one request at a time. A ring the engine refuses answers {"m": m,
// "error": msg} (with the basics when only the hypercube failed). So the Python side asks
// the engine instead of mirroring its algebra (one source of truth).
#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>
#include <string>

#include "apps/batch_serve.h"
#include "engine/algebra/slot_ring.h"
#include "engine/algebra/zmstar.h"
#include "engine/util/primes.h"

namespace {

nlohmann::json basics_json(const cb::ZmStarBasics& b) {
  nlohmann::json j;
  j["m"] = b.m;
  nlohmann::json f = nlohmann::json::array();
  for (auto [p, e] : b.factors) f.push_back({p, e});
  j["factors"] = f, j["phi"] = b.phi, j["d"] = b.d, j["ell"] = b.ell();
  return j;
}

nlohmann::json answer(const std::string& line) {
  std::istringstream is(line);
  std::string first, mode;
  is >> first >> mode;
  if (first == "limits")
    return {{"m_max", cb::kMaxM}, {"max_slot_degree", cb::kMaxSlotDegree}, {"prime_bits", cb::util::max_fast_prime_bits()}};
  long m = 0;
  try {
    size_t used = 0;
    m = std::stol(first, &used);
    if (used != first.size()) throw std::invalid_argument(first);
  } catch (const std::exception&) {
    return {{"error", "zmstar_info: a request is \"m\", \"m basic\" or \"limits\", got \"" + line + "\""}};
  }
  if (!mode.empty() && mode != "basic")
    return {{"m", m}, {"error", "zmstar_info: unknown mode \"" + mode + "\" (use \"basic\" or nothing)"}};
  nlohmann::json j;
  try {
    j = basics_json(cb::zmstar_basics(m));
  } catch (const std::exception& e) {
    return {{"m", m}, {"error", e.what()}};
  }
  if (mode == "basic") return j;
  try {
    const cb::ZmStar z(m);
    nlohmann::json gens = nlohmann::json::array(), ords = gens, twists = gens, good = gens;
    for (long i = 0; i < z.dims(); ++i) {
      gens.push_back(z.gen(i)), ords.push_back(z.ord(i)), twists.push_back(z.twist(i)), good.push_back(z.good(i));
    }
    j["gens"] = gens, j["ords"] = ords, j["twists"] = twists, j["good"] = good;
    j["ghs16"] = z.ghs16();
    j["slots_ok"] = z.d() <= cb::kMaxSlotDegree;
  } catch (const std::exception& e) {
    j["error"] = e.what();
  }
  return j;
}

}  // namespace

int main() { return cb::apps::serve_lines(answer); }
