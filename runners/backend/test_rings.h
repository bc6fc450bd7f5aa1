// test_rings.h: small rings for the backend tests, found by searching m instead of
// hard-coding them, so each test names the property it needs ("a bad dimension").
#pragma once

#include <functional>
#include <string>

#include "engine/algebra/subfield.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb::testing {

// The smallest odd m in [3, 5000) whose ZmStar satisfies pred; throws when none does.
inline long find_ring(const std::function<bool(const ZmStar&)>& pred, const std::string& what) {
  for (long m = 3; m < 5000; m += 2) {
    const ZmStar zm(m);
    if (pred(zm)) return m;
  }
  throw Error("no odd m < 5000 has " + what);
}

inline bool has_bad_dim(const ZmStar& zm) {
  for (long i = 0; i < zm.dims(); ++i)
    if (!zm.good(i)) return true;
  return false;
}

// The irreducible x^n + f_low of degree n with the smallest f_low.
inline uint64_t first_irreducible(long n) {
  for (uint64_t f = 1;; f += 2) {
    try {
      GF2n F(n, f);
      return f;
    } catch (const ParameterError&) {
    }
  }
}

}  // namespace cb::testing
