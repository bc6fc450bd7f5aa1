// zmstar_info: the engine's facts of Z_m^* and its slots, in batch, for the parameter explorer.
//
//   zmstar_info < requests      one request a line:
//     "m"          the ring at p = 2: m, factors [[q, e], ...], phi, d = ord_m(2), ell
//                  (slots), the hypercube of Z_m^*/<2> as engine/algebra/zmstar.h builds it
//                  (gens g_i, ords ord_i, twists f_i with g_i^ord_i = 2^f_i, good = twist 0),
//                  ghs16, and slots_ok (d <= max_slot_degree: the engine builds this ring's
//                  slots)
//     "m basic"    only m, factors, phi, d, ell (no hypercube: cheap, for sweeps over many m)
//     "m p=P", "m basic p=P"
//                  the same at the prime plaintext modulus P (2 <= P < 2^61): d = ord_m(P),
//                  the hypercube of Z_m^*/<P>, twists f_i with g_i^ord_i = P^f_i; m odd, or
//                  m = 2^k at odd P. These answers carry "p": P (ghs16, GHS's p = 2
//                  condition, is false at P != 2); the answers without p= stay as they were.
//     "limits"     what the engine accepts: m_max, max_slot_degree, and prime_bits, the size
//                  of the engine's full chain primes in this build (engine/util/primes.h)
//
// Prints one JSON object a line, in request order, flushed after each, so a caller may keep
// it open and ask one request at a time. A ring the engine refuses answers {"m": m,
// "error": msg} ({"m": m, "p": P, "error": msg} when p= was asked; with the basics when
// only the hypercube failed). So the Python side asks the engine instead of mirroring its
// algebra (one source of truth).
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

// Parses "p=P" into P; false when the token is no such field.
bool parse_p(const std::string& tok, long& p) {
  if (tok.rfind("p=", 0) != 0 || tok.size() == 2) return false;
  try {
    size_t used = 0;
    p = std::stol(tok.substr(2), &used);
    return used == tok.size() - 2;
  } catch (const std::exception&) {
    return false;
  }
}

nlohmann::json answer(const std::string& line) {
  std::istringstream is(line);
  std::string first, tok;
  is >> first;
  if (first == "limits")
    return {{"m_max", cb::kMaxM}, {"max_slot_degree", cb::kMaxSlotDegree}, {"prime_bits", cb::util::max_fast_prime_bits()}};
  long m = 0;
  try {
    size_t used = 0;
    m = std::stol(first, &used);
    if (used != first.size()) throw std::invalid_argument(first);
  } catch (const std::exception&) {
    return {{"error", "zmstar_info: a request is \"m\", \"m basic\", \"m p=P\", \"m basic p=P\" or \"limits\", got \"" +
                          line + "\""}};
  }
  std::string mode;
  long p = 2;
  bool has_p = false;
  while (is >> tok) {
    if (tok == "basic" && mode.empty()) {
      mode = tok;
    } else if (!has_p && tok.rfind("p=", 0) == 0) {
      if (!parse_p(tok, p))
        return {{"m", m}, {"error", "zmstar_info: \"" + tok + "\" is no plaintext modulus (use p=P, P a prime)"}};
      has_p = true;
    } else {
      return {{"m", m}, {"error", "zmstar_info: unknown mode \"" + tok + "\" (use \"basic\" or nothing)"}};
    }
  }
  nlohmann::json j;
  try {
    j = basics_json(cb::zmstar_basics(m, p));
  } catch (const std::exception& e) {
    j = {{"m", m}, {"error", e.what()}};
    if (has_p) j["p"] = p;
    return j;
  }
  if (has_p) j["p"] = p;
  if (mode == "basic") return j;
  try {
    const cb::ZmStar z(m, p);
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
