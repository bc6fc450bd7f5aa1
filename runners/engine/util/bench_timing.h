// bench_timing.h: the benchmarks' timers. time_ms for the micro-benchmarks (bench_ntt,
// bench_vecmod): the median and the minimum wall time of `reps` calls, in milliseconds (the
// minimum shows the unloaded speed on a shared machine). OpTimes for bench_ops, the engine's
// and the peers' (OpenFHE's) alike: each named operation's wall and process-CPU milliseconds,
// reported as medians.
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <string>
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

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// CPU time of the whole process (all threads) in ms: with one thread, an operation's cost
// even when other jobs share the cores (wall time then includes waiting for a core).
inline double process_cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Each call of time(name, f) runs f once and keeps its wall and process-CPU ms under name.
struct OpTimes {
  std::map<std::string, std::vector<double>> wall, cpu;
  template <class F>
  void time(const std::string& name, F&& f) {
    const double c0 = process_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    wall[name].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu[name].push_back(process_cpu_ms() - c0);
  }
};

}  // namespace cb::util
