// bench_ntt: median (and minimum) wall time of one forward and one inverse
// CyclotomicTransform on one 60-bit prime and on one prime of max_fast_prime_bits() bits
// (50 with the IFMA kernels), single thread, for the rings the experiments use (and the
// power-of-two rings of the F_p ciphers, m = 2^14..2^17, where the negacyclic NTT is the
// only algorithm), by each algorithm that applies (the one CyclotomicTransform picks is
// marked "*"). The minimum
// shows the unloaded speed on a shared machine. Each configuration's values are checked
// (three roots by Horner's rule, inverse then forward) before its line is printed; a wrong
// one stops the run with exit status 1.
//
//   build/bin/bench_ntt [reps] [m ...]   (default 31 reps, the papers' rings)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/util/bench_timing.h"
#include "engine/util/cyclotomic_transform.h"
#include "engine/util/primes.h"

using namespace cb::util;

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 31;
  std::printf("%8s %8s %5s %5s %-14s %12s %12s %12s %12s %10s %12s\n", "m", "phi", "bits", "fast", "algorithm",
              "forward_ms", "inverse_ms", "fwd_min_ms", "inv_min_ms", "setup_ms", "cost");
  std::vector<int> sizes{60};
  if (max_fast_prime_bits() != 60) sizes.push_back(max_fast_prime_bits());
  using Algorithm = CyclotomicTransform::Algorithm;
  std::vector<long> rings{4369L, 3205L, 49955L, 53261L, 148733L, 163455L, 164737L, 16384L, 32768L, 65536L, 131072L};
  if (argc > 2) rings.clear();
  for (int i = 2; i < argc; ++i) rings.push_back(std::atol(argv[i]));
  for (long m : rings)
  for (int bits : sizes)
  for (Algorithm algo : {Algorithm::bluestein, Algorithm::prime_factor, Algorithm::negacyclic}) {
    if (algo == Algorithm::prime_factor && !PrimeFactorTransform::applies(m)) continue;
    if ((algo == Algorithm::negacyclic) != NegacyclicTransform::applies(m)) continue;
    const uint64_t q = ntt_primes(1, bits, CyclotomicTransform::step(m))[0];
    const auto t0 = std::chrono::steady_clock::now();
    const CyclotomicTransform t(m, q, algo);
    const bool chosen = CyclotomicTransform(m, q).algorithm() == algo;
    const double setup =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::mt19937_64 rng(1);
    std::vector<uint64_t> a(m), v(t.phi()), b(m);
    for (auto& x : a) x = rng() % q;
    t.forward(a.data(), m, v.data());  // warm up the scratch buffer and caches
    const Timing fwd = time_ms(reps, [&] { t.forward(a.data(), m, v.data()); });
    const Timing inv = time_ms(reps, [&] { t.inverse(v.data(), b.data()); });
    // Checked before reporting: values at three roots against Horner's rule, and the
    // inverse's output transforms back to the values.
    std::vector<uint64_t> back(t.phi());
    t.forward(b.data(), m, back.data());
    bool ok = back == v;
    for (long i : {0L, t.phi() / 2, t.phi() - 1}) {
      const uint64_t x = pow_mod(t.zeta(), uint64_t(t.zmstar()[i]), q);
      uint64_t y = 0;
      for (long k = m - 1; k >= 0; --k) y = add_mod(mul_mod(y, x, q), a[k], q);
      ok = ok && y == v[i];
    }
    if (!ok) {
      std::fprintf(stderr, "bench_ntt: m=%ld q=%llu %s: wrong values\n", m, (unsigned long long)q,
                   CyclotomicTransform::name(algo));
      return 1;
    }
    std::printf("%8ld %8ld %5d %5s %-14s %12.3f %12.3f %12.3f %12.3f %10.1f %12.0f\n", m, t.phi(), bits,
                t.fast() ? "yes" : "no", (std::string(CyclotomicTransform::name(algo)) + (chosen ? "*" : "")).c_str(),
                fwd.median, inv.median, fwd.min, inv.min, setup,
                algo == Algorithm::prime_factor ? PrimeFactorTransform::cost(m)
                : algo == Algorithm::negacyclic ? NegacyclicTransform::cost(m)
                                                : CyclotomicTransform::bluestein_cost(m));
  }
  return 0;
}
