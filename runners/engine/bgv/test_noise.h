// test_noise.h (tests only): whether a ciphertext's noise bound dominates its exact noise,
// measured from the secret key, at every root of the canonical embedding (noise.h's claim).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "engine/bgv/ciphertext.h"
#include "engine/bgv/decryptor.h"
#include "engine/bgv/keys.h"

namespace cb::bgv::testing {

// Every root: measured <= bound (a relative 1e-6 for the floating-point embedding).
inline ::testing::AssertionResult noise_dominated(const Context& ctx, const SecretKey& sk, const Ciphertext& c,
                                                  const std::string& what) {
  const RootBound measured = Decryptor(ctx, sk).noise_embedding(c);
  if (measured.is_zero()) return ::testing::AssertionSuccess();
  for (long t = 0; t < measured.size(); ++t) {
    const double m = measured.log2_at(t), b = c.noise.log2_at(t);
    if (m > b + 1e-6)
      return ::testing::AssertionFailure() << what << ": at root " << t << " the noise is 2^" << m
                                           << " above its bound 2^" << b;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cb::bgv::testing
