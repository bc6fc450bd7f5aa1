// bench_vecmod: what a constant product (Evaluator::mul_plain) costs beyond moving its words.
// On two polynomials of `limbs` limbs of phi words (a ciphertext) and one of a constant,
// warm in cache, single thread, median (and minimum) wall time of:
//   product   x_j = x_j y mod q for both polynomials (mul_mod_array: the engine's kernel);
//   stream    the same loads and stores with no arithmetic (x_j = x_j XOR y): the floor
//             any product kernel pays for moving the words;
//   add       x_j = x_j + z_j mod q (add_mod_array: a ciphertext addition's kernel).
// The product's kernel is checked against the scalar Barrett product before anything is
// timed; a wrong value stops the run with exit status 1. The timed passes then rewrite the
// arrays (the XOR leaves words outside [0, q), which the addition's timing does not depend
// on); their values are not used. BENCHMARKS.md, "Engine vs HElib".
//
//   build/bin/bench_vecmod [reps] [phi limbs]   (default 31 reps, m=53261's phi 46080, 17 limbs)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "engine/util/bench_timing.h"
#include "engine/util/modarith.h"
#include "engine/util/primes.h"
#include "engine/util/vecmod.h"

using namespace cb::util;

namespace {

template <class F>
void report(const char* name, int reps, double mbytes, F&& f) {
  const Timing t = time_ms(reps, f);
  std::printf("%-8s %8.3f ms median  %8.3f ms min  %6.1f MB moved  %5.1f GB/s at the median\n", name, t.median, t.min,
              mbytes, mbytes / t.median);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 31;
  const long phi = argc > 3 ? std::atol(argv[2]) : 46080, limbs = argc > 3 ? std::atol(argv[3]) : 17;
  if (phi < 1 || limbs < 1) {
    std::fprintf(stderr, "bench_vecmod: phi=%ld and limbs=%ld must be at least 1\n", phi, limbs);
    return 2;
  }
  const long n = phi * limbs;
  const auto q = ntt_primes(limbs, max_fast_prime_bits(), 2);  // the engine's fastest prime size
  std::mt19937_64 g(1);
  std::vector<uint64_t> x0(n), x1(n), y(n), z0(n), z1(n);
  for (long i = 0; i < n; ++i) {
    const uint64_t qi = q[i / phi];
    x0[i] = g() % qi, x1[i] = g() % qi, y[i] = g() % qi, z0[i] = g() % qi, z1[i] = g() % qi;
  }
  {  // the kernel against the scalar Barrett product
    std::vector<uint64_t> out(phi);
    for (long j = 0; j < limbs; ++j) {
      mul_mod_array(out.data(), &x0[j * phi], &y[j * phi], phi, q[j]);
      for (long t = 0; t < phi; ++t)
        if (out[t] != mul_mod(x0[j * phi + t], y[j * phi + t], q[j])) {
          std::fprintf(stderr, "bench_vecmod: mul_mod_array differs from mul_mod at limb %ld, word %ld\n", j, t);
          return 1;
        }
    }
  }
  const double word_mb = 8.0 * double(n) / 1e6;
  std::printf("phi=%ld, %ld limbs of %d-bit primes, one thread, %d repetitions, warm\n", phi, limbs,
              max_fast_prime_bits(), reps);
  report("product", reps, 5 * word_mb, [&] {
    for (long j = 0; j < limbs; ++j) {
      mul_mod_array(&x0[j * phi], &x0[j * phi], &y[j * phi], phi, q[j]);
      mul_mod_array(&x1[j * phi], &x1[j * phi], &y[j * phi], phi, q[j]);
    }
  });
  report("stream", reps, 5 * word_mb, [&] {
    uint64_t* __restrict a = x0.data();
    uint64_t* __restrict b = x1.data();
    const uint64_t* __restrict c = y.data();
    for (long i = 0; i < n; ++i) a[i] ^= c[i], b[i] ^= c[i];
  });
  report("add", reps, 6 * word_mb, [&] {
    for (long j = 0; j < limbs; ++j) {
      add_mod_array(&x0[j * phi], &x0[j * phi], &z0[j * phi], phi, q[j]);
      add_mod_array(&x1[j * phi], &x1[j * phi], &z1[j * phi], phi, q[j]);
    }
  });
  return 0;
}
