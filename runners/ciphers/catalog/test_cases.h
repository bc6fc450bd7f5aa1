// test_cases.h (tests only): every instance of the catalog as a printable test parameter,
// and the smallest ring whose slots hold its field, so that an entry added to the catalog
// is tested by the catalog's tests without a line of test code.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ciphers/catalog/catalog.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb::testing {

struct InstanceCase {
  const CipherEntry* entry;
  InstanceSpec spec;
};
inline void PrintTo(const InstanceCase& c, std::ostream* os) { *os << c.spec.id; }
inline std::string case_name(const ::testing::TestParamInfo<InstanceCase>& i) { return i.param.spec.id; }

// Every block cipher's instances (keystream_instances(): the keystream generators').
inline std::vector<InstanceCase> all_instances() {
  std::vector<InstanceCase> out;
  for (const CipherEntry* e : cipher_catalog())
    if (!e->keystream())
      for (const auto& s : e->instances) out.push_back({e, s});
  return out;
}
inline std::vector<InstanceCase> keystream_instances() {
  std::vector<InstanceCase> out;
  for (const CipherEntry* e : cipher_catalog())
    if (e->keystream())
      for (const auto& s : e->instances) out.push_back({e, s});
  return out;
}

// The smallest odd m whose slots hold GF(2^n) (n | d = ord_m(2)) with at least `slots`
// slots (GF(2^63): m = 379, d = 378, one slot; GF(2^31): m = 311, d = 155, two slots).
inline long small_ring(long n, long slots) {
  for (long m = 3; m < 40000; m += 2) {
    long d = 1;
    for (long x = 2 % m; x != 1 && d <= 4 * n + 256; x = 2 * x % m) ++d;  // ord_m(2), small ones only
    if (d % n || d > 4 * n + 256) continue;
    const ZmStar zm(m);
    if (zm.d() % n == 0 && zm.ell() >= slots) return m;
  }
  throw Error("no odd m < 40000 has slots holding GF(2^" + std::to_string(n) + ")");
}

// The smallest m >= 3 (odd, or a power of two) coprime to p with at least `slots` slots of
// F_p (ell = phi(m) / ord_m(p)): the clear backend's ring for an F_p instance (p > 2).
inline long small_prime_ring(uint64_t p, long slots) {
  for (long m = 3; m < 40000; ++m) {
    if ((m % 2 == 0 && (m & (m - 1))) || (p < 40000 && m % long(p) == 0)) continue;  // rings ZmStar refuses
    if (zmstar_basics(m, long(p)).ell() >= slots) return m;
  }
  throw Error("no m < 40000 has " + std::to_string(slots) + " slots of F_" + std::to_string(p));
}

}  // namespace cb::testing
