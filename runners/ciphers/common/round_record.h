// round_record.h: what a circuit reports per round (JSON "per_round" of run_cipher).
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "ciphers/common/evaluator.h"

namespace cb {

struct RoundRecord {
  long round = 0;
  double seconds = 0;                  // wall time of the whole round
  double capacity_bits = 0;            // min over the state's ciphertexts after the round
  std::map<std::string, double> ops;   // seconds per cipher step, the papers' names
  OpCounts counts;                     // ciphertext operations in the round
};

// Wall-clock seconds since construction or the last lap().
class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  double lap() {
    const auto t = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t - t0_).count();
    t0_ = t;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

// CPU seconds of the whole process (all threads).
inline double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Times one round: step("subbytes", [&]{...}) adds the step's seconds to ops["subbytes"].
template <class B>
class RoundTimer {
 public:
  RoundTimer(Evaluator<B>& ev, long round) : ev_(ev), start_(ev.counts()) { rec_.round = round; }
  template <class F>
  void step(const std::string& name, F&& f) {
    Stopwatch w;
    f();
    rec_.ops[name] += w.seconds();
  }
  // Takes seconds spent inside step `name` on other work (not the round's) out of it.
  void exclude(const std::string& name, double seconds) {
    if (seconds <= 0) return;
    rec_.ops[name] -= seconds;
    excluded_ += seconds;
  }
  // Closes the round with the capacity of the state after it.
  RoundRecord finish(double capacity_bits) {
    rec_.seconds = total_.seconds() - excluded_;
    rec_.capacity_bits = capacity_bits;
    rec_.counts = ev_.counts() - start_;
    if (ev_.on_round) ev_.on_round(rec_);
    return rec_;
  }

 private:
  Evaluator<B>& ev_;
  OpCounts start_;
  Stopwatch total_;
  double excluded_ = 0;
  RoundRecord rec_;
};

// The capacity left in a state of ciphertexts: the least of its elements'.
template <class B, class State>
double min_capacity(const B& b, const State& st) {
  double c = b.capacity_bits(st[0]);
  for (const auto& x : st) c = std::min(c, b.capacity_bits(x));
  return c;
}

}  // namespace cb
