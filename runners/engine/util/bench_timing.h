// bench_timing.h: the micro-benchmarks' timer (bench_ntt, bench_vecmod): the median and the
// minimum wall time of `reps` calls, in milliseconds. The minimum shows the unloaded speed on
// a shared machine.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace cb::util {

struct Timing {
  double median, min;
};

template <class F>
Timing time_ms(int reps, F&& f) {
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t[r] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  std::sort(t.begin(), t.end());
  return {t[reps / 2], t[0]};
}

}  // namespace cb::util
