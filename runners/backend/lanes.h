// lanes.h: the ciphertexts of a state evaluated side by side ("lanes"), one thread each.
//
// A sliced state (packing.h) is s ciphertexts, and an element-wise step (the S-box's power
// map, its affine map, a Frobenius map) does the same independent work on each. The
// engine's own threads split one operation across its primes, 2 to 30 items, several
// regions per key switch; on 16 cores that leaves a third of byte-sliced AES's time serial.
// Running the s ciphertexts' operations on min(T, s) threads instead (each operation then
// on one thread: the engine's inner regions see omp_in_parallel(), bgv::Context::parallel)
// keeps every core on a whole operation. The values are those of a serial run, bit for bit:
// each lane touches only its own ciphertext, and every operation is deterministic.
//
// A backend opts in with `static constexpr bool kConcurrent = true`, promising that its
// const operations may run at once on distinct ciphertexts (backend.h); the others (HElib,
// whose safety for concurrent operations is not established) run the lanes in turn.
//
// The chain planner counts each operation with the width of the lane group it ran in
// (PlanBackend::OpCount::lanes, from current_lanes()): the cost model prices an operation
// in a group of w lanes at T threads as one thread's time, ceil(w / T) / w of it per
// operation (sage/cbparams/cost_model.py).
#pragma once

#include <omp.h>

#include <algorithm>
#include <exception>
#include <type_traits>
#include <vector>

namespace cb {

namespace detail {
inline thread_local long t_lanes = 1;
}

// The width of the lane group the calling thread evaluates in (1 outside any).
inline long current_lanes() { return detail::t_lanes; }

// Sets current_lanes() for the calling thread while it lives.
class LaneScope {
 public:
  explicit LaneScope(long w) : old_(detail::t_lanes) { detail::t_lanes = w; }
  ~LaneScope() { detail::t_lanes = old_; }
  LaneScope(const LaneScope&) = delete;
  LaneScope& operator=(const LaneScope&) = delete;

 private:
  long old_;
};

template <class B, class = void>
struct IsConcurrent : std::false_type {};
template <class B>
struct IsConcurrent<B, std::void_t<decltype(B::kConcurrent)>> : std::bool_constant<B::kConcurrent> {};

// How many threads lanes of width w get: min(T, w) for a concurrent backend outside any
// parallel region (T: OpenMP's thread count), else 1.
template <class B>
int lane_threads(long w) {
  if constexpr (!IsConcurrent<B>::value) return 1;
  if (w < 2 || omp_in_parallel()) return 1;
  return int(std::min<long>(omp_get_max_threads(), w));
}

// f(i) for i in [0, w), each in a lane group of width w, on lane_threads<B>(w) threads.
// An exception in any lane is rethrown (the lowest lane's) after all have finished.
template <class B, class F>
void for_each_lane(long w, F&& f) {
  const int T = lane_threads<B>(w);
  if (T <= 1) {
    LaneScope scope(w);
    for (long i = 0; i < w; ++i) f(i);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<size_t>(w));
#pragma omp parallel for num_threads(T) schedule(static)
  for (long i = 0; i < w; ++i) {
    LaneScope scope(w);
    try {
      f(i);
    } catch (...) {
      errors[size_t(i)] = std::current_exception();
    }
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cb
