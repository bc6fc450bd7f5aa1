#include "engine/algebra/ring_fit.h"

#include <algorithm>

#include "engine/algebra/zmstar.h"
#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb {
namespace {

// m's d and ell at p when the engine takes the ring and its slots hold GF(p^n).
bool holds(long p, long n, long m, RingFit& out) {
  try {
    const ZmStarBasics b = zmstar_basics(m, p);
    if (b.d % n != 0) return false;
    out = {m, b.d, b.ell()};
    return true;
  } catch (const ParameterError&) {  // a ring the engine refuses at p (even m, p | m, ...)
    return false;
  }
}

std::string field(long p, long n) { return n == 1 ? msg("F_", p) : msg("GF(", p, "^", n, ")"); }

}  // namespace

std::vector<RingFit> rings_holding(long p, long n, long m, long count) {
  if (n < 1) throw ParameterError(msg("n=", n, ": a field degree is at least 1"));
  if (p < 2 || p >= kMaxP || !util::is_prime(p))
    throw ParameterError(msg("p=", p, ": the plaintext modulus is a prime below 2^61"));
  std::vector<RingFit> out;
  RingFit r{};
  for (long k = m - 1; k >= std::max(3L, m / 2) && count > 0; --k)
    if (holds(p, n, k, r)) {
      out.push_back(r);
      break;
    }
  for (long k = std::max(3L, m); k <= std::min(2 * m, kMaxM) && long(out.size()) < count; ++k)
    if (holds(p, n, k, r)) out.push_back(r);
  return out;
}

std::string rings_holding_hint(long p, long n, long m) {
  const auto rings = rings_holding(p, n, m);
  const std::string more = msg("cbparams sweep --degrees ", n, p == 2 ? "" : msg(" --p ", p), " lists more");
  if (rings.empty())
    return msg("no ring in [", std::max(3L, m / 2), ", ", std::min(2 * m, kMaxM), "] has slots holding ", field(p, n),
               " (", more, ")");
  std::string s = msg("rings near m=", m, " whose slots hold ", field(p, n), ": ");
  for (size_t i = 0; i < rings.size(); ++i)
    s += msg(i ? ", " : "", "m=", rings[i].m, " (d=", rings[i].d, ", ", rings[i].ell, " slots)");
  return s + " (" + more + ")";
}

}  // namespace cb
