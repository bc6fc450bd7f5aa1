#include "engine/util/vecmod.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace cb::util {
namespace {

struct VecCase {
  uint64_t q;
  long n;  // not a multiple of 8 where possible, to exercise the scalar tail
  friend std::ostream& operator<<(std::ostream& os, const VecCase& c) {
    return os << "q" << c.q << "_n" << c.n;
  }
};

class VecMod : public ::testing::TestWithParam<VecCase> {};

TEST_P(VecMod, ArrayKernelsMatchScalarArithmetic) {
  const auto [q, n] = GetParam();
  std::mt19937_64 rng(q ^ n);
  std::vector<uint64_t> a(n), b(n), x(n), w(n), wp(n), out(n);
  for (long i = 0; i < n; ++i) {
    a[i] = rng() % q, b[i] = rng() % q, w[i] = rng() % q, wp[i] = shoup(w[i], q);
    x[i] = i % 5 == 0 ? ~uint64_t(0) - i : rng();  // Shoup inputs may be any word
  }
  mul_shoup_array(out.data(), x.data(), w.data(), wp.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(x[i]) * w[i] % q)) << i;
  const ShoupMul s(w[0], q);
  mul_scalar_array(out.data(), x.data(), s, n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(x[i]) * w[0] % q)) << i;
  mul_mod_array(out.data(), a.data(), b.data(), n, Barrett(q));
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], uint64_t(u128(a[i]) * b[i] % q)) << i;
  add_mod_array(out.data(), a.data(), b.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], (a[i] + b[i]) % q) << i;
  sub_mod_array(out.data(), a.data(), b.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], (a[i] + q - b[i]) % q) << i;
  // In place.
  auto y = x;
  mul_shoup_array(y.data(), y.data(), w.data(), wp.data(), n, q);
  for (long i = 0; i < n; ++i) ASSERT_EQ(y[i], uint64_t(u128(x[i]) * w[i] % q)) << i;
}

INSTANTIATE_TEST_SUITE_P(Moduli, VecMod,
                         ::testing::Values(VecCase{3, 17}, VecCase{1073741789ULL, 1000},
                                           VecCase{1152921504606830593ULL, 1003},
                                           VecCase{(uint64_t(1) << 62) - 57, 64},
                                           VecCase{(uint64_t(1) << 62) - 57, 5}),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace cb::util
