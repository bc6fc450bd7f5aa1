// lanes_test: for_each_lane (lanes.h) runs every lane once, at the lane width it is given,
// on min(threads, width) threads for a backend that opts in and on the caller's thread for
// one that does not, and rethrows a lane's exception after all lanes finish.
#include "backend/lanes.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cb {
namespace {

struct Concurrent {
  static constexpr bool kConcurrent = true;
};
struct Serial {};

template <class B>
std::pair<std::vector<long>, std::set<std::thread::id>> run(long w) {
  std::vector<long> seen(size_t(w), 0);
  std::set<std::thread::id> ids;
  std::mutex mu;
  for_each_lane<B>(w, [&](long i) {
    seen[size_t(i)] += current_lanes();
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
  });
  return {seen, ids};
}

TEST(Lanes, EachLaneOnceAtItsWidthOnMinOfThreadsAndWidth) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(3);
  EXPECT_EQ(current_lanes(), 1);
  const auto [seen, ids] = run<Concurrent>(16);
  EXPECT_EQ(seen, std::vector<long>(16, 16));
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(lane_threads<Concurrent>(2), 2);
  EXPECT_EQ(lane_threads<Concurrent>(1), 1);
  const auto [serial_seen, serial_ids] = run<Serial>(16);
  EXPECT_EQ(serial_seen, std::vector<long>(16, 16));
  EXPECT_EQ(serial_ids, std::set<std::thread::id>{std::this_thread::get_id()});
  EXPECT_EQ(current_lanes(), 1);
  // Inside a parallel region, lanes run on the thread that meets them.
  int inner = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    inner = lane_threads<Concurrent>(16);
  }
  EXPECT_EQ(inner, 1);
  omp_set_num_threads(saved);
}

TEST(Lanes, ALanesExceptionIsRethrownAfterAllFinish) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(4);
  std::atomic<long> done{0};
  try {
    for_each_lane<Concurrent>(8, [&](long i) {
      ++done;
      if (i == 5 || i == 6) throw std::runtime_error("lane " + std::to_string(i));
    });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "lane 5");  // the lowest failing lane's
  }
  EXPECT_EQ(done, 8);
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace cb
