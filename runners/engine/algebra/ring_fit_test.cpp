#include "engine/algebra/ring_fit.h"

#include <gtest/gtest.h>

#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb {
namespace {

// ord_m(p) by its definition: the first d with p^d = 1 mod m.
long order(long p, long m) {
  long d = 1;
  for (long x = p % m; x != 1; x = x * p % m) ++d;
  return d;
}

// The rings near m=3277 holding GF(2^31), the case issue 47 names: 3163 below, then the
// smallest odd m >= 3277 with 31 | ord_m(2) (the explorer's sweep lists the same:
// cbparams sweep --degrees 31 --m-min 1638 --m-max 6554).
TEST(RingFit, Gf2_31NearM3277) {
  const auto r = rings_holding(2, 31, 3277);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].m, 3163);
  EXPECT_EQ(r[1].m, 3351);
  EXPECT_EQ(r[2].m, 3357);
  EXPECT_EQ(r[3].m, 3421);
  EXPECT_EQ(r[3].d, 310);
  EXPECT_EQ(r[3].ell, 10);
}

// Against the definition: every listed ring holds the field, and no odd m between the one
// below and the last one listed is skipped.
TEST(RingFit, MatchesDefinition) {
  for (long n : {8L, 16L, 31L, 63L})
    for (long m : {257L, 1001L, 4369L, 9000L}) {
      const auto r = rings_holding(2, n, m);
      for (const auto& f : r) {
        EXPECT_EQ(f.d, order(2, f.m)) << "m=" << f.m;
        EXPECT_EQ(f.d % n, 0) << "n=" << n << " m=" << f.m;
        EXPECT_EQ(f.ell, zmstar_basics(f.m).phi / f.d);
      }
      if (r.empty()) continue;
      const long from = r.front().m < m ? r.front().m : m;
      long at = 0;
      for (long k = from; k <= r.back().m; ++k) {
        if (k % 2 == 0) continue;
        const bool fits = order(2, k) % n == 0;
        const bool listed = at < long(r.size()) && r[at].m == k;
        EXPECT_EQ(fits, listed) << "n=" << n << " m=" << k;
        if (listed) ++at;
      }
    }
}

// At an odd prime, powers of two count (coprime to p) and multiples of p do not.
TEST(RingFit, OddPrime) {
  const auto r = rings_holding(65537, 1, 256, 3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].m, 255);
  EXPECT_EQ(r[1].m, 256);
  EXPECT_EQ(r[2].m, 257);
  EXPECT_EQ(r[1].d, 1);
  for (const auto& f : rings_holding(3, 2, 9, 8)) EXPECT_NE(f.m % 3, 0);
}

TEST(RingFit, Hint) {
  EXPECT_EQ(rings_holding_hint(2, 31, 3277),
            "rings near m=3277 whose slots hold GF(2^31): m=3163 (d=1054, 3 slots), m=3351 (d=1116, 2 slots), "
            "m=3357 (d=372, 6 slots), m=3421 (d=310, 10 slots) (cbparams sweep --degrees 31 lists more)");
  // GF(2^64): 64 | ord_m(2) needs 2^64 = 1 mod m with order a multiple of 64; none below 8.
  EXPECT_EQ(rings_holding_hint(2, 64, 7),
            "no ring in [3, 14] has slots holding GF(2^64) (cbparams sweep --degrees 64 lists more)");
}

TEST(RingFit, RefusesBadField) {
  EXPECT_THROW(rings_holding(2, 0, 100), ParameterError);
  try {
    rings_holding(9, 1, 100);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_STREQ(e.what(), "p=9: the plaintext modulus is a prime below 2^61");
  }
}

}  // namespace
}  // namespace cb
