// ring_fit.h: which rings' slots hold a field.
//
// The slots of Z_m at a prime p are GF(p^d), d = ord_m(p) (zmstar.h), and GF(p^n) embeds in
// GF(p^d) exactly when n | d. A ring that cannot hold an instance's field is refused with
// the rings near it that can: the smallest m at or above the requested one, up to twice it,
// and the largest below it, down to half, each a ring the engine takes at p (odd m, or
// m = 2^k at odd p; coprime to p; 3 <= m <= kMaxM), with d and the slot count from the
// engine's own zmstar_basics (the explorer's `cbparams sweep --degrees n` lists the same
// rings over a whole range).
#pragma once

#include <string>
#include <vector>

namespace cb {

// A ring whose slots hold GF(p^n): its d = ord_m(p) (a multiple of n) and ell = phi / d slots.
struct RingFit {
  long m;
  long d;
  long ell;
};

// Up to `count` rings near m whose slots hold GF(p^n), in increasing m: the largest one in
// [m/2, m) (when there is one), then the smallest ones in [m, 2m]. Throws ParameterError
// when p is not a prime below 2^61 or n < 1.
std::vector<RingFit> rings_holding(long p, long n, long m, long count = 4);

// The refusal's hint: "rings near m=3277 whose slots hold GF(2^31): m=3007 (d=93, 14
// slots), m=3317 (...), ... (cbparams sweep --degrees 31 lists more)", or, when no ring in
// [m/2, 2m] holds it, "no ring in [1638, 6554] has slots holding GF(2^31) (...)".
std::string rings_holding_hint(long p, long n, long m);

}  // namespace cb
