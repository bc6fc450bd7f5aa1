// op_profile.h: where a circuit's time goes, step by step, under the chain planner's names.
//
// The evaluator times each of its steps with a Scope named as PlanBackend::OpCount names
// the same step (mul, relin, mul_plain, add, add_plain, encode, automorph,
// automorph_hoisted, mod_switch, add_decide), keyed by the same prime count (a mod switch:
// its target's, with the primes it drops; mul, the level decision and tensor: the
// tensor's; relin, its key switch: the primes it ran at; encode, a constant's double-CRT
// form made on its first use and cached (Plaintext::dcrt): the chain's L (past the cache's
// limit, made at the ciphertext's primes at every use: the planner counts those too); add_decide: the
// larger operand's; targets, the arrangement of an operand pair's switch targets that a
// level decision builds the first time it meets the pair (Levels::targets): the larger
// operand's). A step's time is its own: a Scope opened inside another (a product's
// mod switches and relinearization, a constant's first encoding inside mul_plain) is
// subtracted from the outer one, so the entries add up to the time spent in the
// evaluator, and a run's profile stands beside its plan's op_counts step for step.
//
// The cost model (sage/cbparams/cost_model.py) reads a run's profile (run_cipher's
// "op_profile") beside its prediction per step. Each step costs two clock reads and a
// locked map update, under a microsecond against the 10 us of the cheapest step at the
// smallest ring the tests use. Scopes nest per thread: a step run inside an OpenMP team
// of another step's is that step's time. Steps of ciphertexts evaluated side by side
// (lanes, backend/lanes.h) are each timed on their own thread and added: thread-seconds,
// more than the wall time when lanes overlap.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace cb::bgv {

class OpProfile {
 public:
  struct Entry {
    std::string op;
    long primes = 0, dropped = 0, count = 0;
    double seconds = 0;  // wall time of the step itself, nested steps excluded
  };

  // Times one step from construction to destruction (count: how many planner steps it
  // stands for, e.g. one rounding pass that switches both operands of a product).
  class Scope {
   public:
    Scope(const OpProfile& p, const char* op, long primes, long dropped = 0, long count = 1);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    // The key as known only later (a product's primes after its level decision).
    void set(long primes, long dropped = 0, long count = 1) { primes_ = primes, dropped_ = dropped, count_ = count; }

   private:
    const OpProfile& p_;
    const char* op_;
    long primes_, dropped_, count_;
    std::chrono::steady_clock::time_point t0_;
    double nested_ = 0;
    Scope* outer_;
  };

  std::vector<Entry> entries() const;  // sorted by op, primes, dropped
  void reset();

 private:
  void add(const char* op, long primes, long dropped, long count, double seconds) const;
  mutable std::mutex mu_;
  mutable std::map<std::tuple<std::string, long, long>, std::pair<long, double>> acc_;
};

}  // namespace cb::bgv
