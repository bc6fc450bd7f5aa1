// chain_planner.h: the bits a circuit needs at a ring, found by running the circuit.
//
// The circuit runs on PlanBackend (clear slots, the engine's bounds and level decisions
// beside them) at a candidate chain; the chain suffices when no ciphertext of the run,
// intermediate or final, has a noise bound above Q_T/2 (capacity >= 0), so every
// decryption, and every product on the way, is within its modulus with the bounds'
// probability (engine/bgv/noise.h). The planner raises the chain from its hint until it
// suffices (by what the failing chain lacked, at most doubling), guesses from the capacity
// the sufficing chain leaves, then bisects on the bit count between a failing and a
// sufficing chain. The ladder's position changes with the bit count, so sufficiency is
// not strictly monotone in it: from a sufficing chain that leaves c bits of capacity
// somewhere, a few chains from c bits shorter upward are tried too, and the plan is the
// least chain found sufficient (verified by a run, never extrapolated); the chain one bit
// shorter fails.
// Any circuit over the backend interface gets its chain this way, present or future.
//
// With lanes (backends of their own, like b) and more than one thread, the chains the
// search may ask for next are run side by side, one thread each: the scan's next chains,
// the step-down's, and from 3 lanes the bisection's next mids (its tree, breadth first).
// A chain's run is a function of the chain alone, so the search takes the same path and
// finds the same plan; the runs it did not need are spent threads (chains_tried counts
// them too).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include "backend/plan_backend.h"
#include "engine/errors.h"

namespace cb {

struct ChainPlan {
  long bits = 0;                       // planned ciphertext-modulus bits (the chain's `bits`)
  BackendInfo info;                    // the parameters at that chain (m, phi, log2_q, security...)
  std::string chain;                   // how the chain is built (Chain::describe)
  double fresh_capacity = 0;           // capacity of the fresh inputs
  std::vector<double> round_capacity;  // capacity after each round, as the run will report it
  double min_capacity = 0;             // least capacity of any ciphertext of the run (>= 0)
  double bits_per_round = 0;           // (fresh - last) / rounds
  long chains_tried = 0;
  std::string choice;                  // what was chosen beyond the chain, and why
  long keys = 0;                       // key-switching keys the circuit needs (set by the caller)
  long random_terms = 0;               // random terms the run's bounds met (PlanBackend::random_terms)
  std::vector<PlanBackend::OpCount> op_counts;  // a run's operations at op_counts_bits (set by the caller)
  long op_counts_bits = 0;
};

// What one simulated run reports: the capacity of the inputs and after each round.
struct PlanRun {
  double fresh_capacity = 0;
  std::vector<double> round_capacity;
};

// Another backend like b (same ring, digits, key weight and seed) with a circuit of its
// own: run(*backend) is what run(b) is, at any chain.
struct PlanLane {
  std::shared_ptr<PlanBackend> backend;
  std::function<PlanRun(PlanBackend&)> run;
};
using PlanLanes = std::function<PlanLane()>;

// At most this many chains at once (each lane keeps its circuit's encoded constants).
constexpr int kMaxPlanLanes = 8;
// The chains a pass of the final scan tries, upward from the chain as much shorter as the
// plan leaves capacity (below). Of the 8 passes on the papers' rows that found a shorter
// chain, 7 found it among their first 5 (BENCHMARKS.md, "Planning"); 24 a pass had cost a
// third of a plan's runs, nearly all failing.
constexpr long kScanChains = 8;

// run(b) evaluates the whole circuit once on b, inputs encrypted anew. bits_hint: a first
// chain to try (raised while it fails, up to max_bits; ParameterError beyond). lanes:
// where chains may run side by side (none: one at a time on b, with all the threads).
// hint_is_plan: bits_hint is this circuit's plan under other key-switching digits (c sets
// P, and P divides a digit's noise away with the same margin at any c, so on the papers'
// rings the bounds differ by a fraction of a bit; on short chains c can move the plan,
// e.g. 134 -> 151 bits at m=1285 from c=3 to 4): when it suffices here and the chain one
// bit shorter fails, it is the plan, without a new search; otherwise the search starts there.
inline ChainPlan plan_chain(PlanBackend& b, const std::function<PlanRun(PlanBackend&)>& run, long bits_hint,
                            long max_bits = 40000, const PlanLanes& lanes = {}, bool hint_is_plan = false) {
  ChainPlan plan;
  // A chain's run is deterministic: each is simulated once (the search comes back to some,
  // e.g. the plan itself after the bisection); last_min is the least capacity of the chain
  // last asked about, state_bits the chain b last ran (its state is the plan's at the end).
  struct Seen {
    bool ok;
    double min_capacity;
    PlanRun run;
  };
  std::map<long, Seen> seen;
  double last_min = 0;
  long state_bits = -1;
  auto attempt = [&](long bits, PlanRun* out) {
    if (const auto it = seen.find(bits); it != seen.end()) {
      last_min = it->second.min_capacity;
      if (out) *out = it->second.run;
      return it->second.ok;
    }
    try {
      b.set_bits(bits);
    } catch (const ParameterError&) {
      return false;  // too short for the digits (c > L): not a chain for this circuit
    }
    PlanRun r = run(b);
    ++plan.chains_tried;
    state_bits = bits;
    last_min = b.min_capacity();
    const bool ok = last_min >= 0;
    seen.emplace(bits, Seen{ok, last_min, r});
    if (out) *out = r;
    return ok;
  };
  // Side by side: the chains of `next` not yet run, at most W, on b and the lanes, one
  // thread each; a single chain is left to attempt() (on b, with every thread).
  const int W = lanes ? std::min(kMaxPlanLanes, omp_get_max_threads()) : 1;
  std::vector<PlanLane> extra;
  auto prefetch = [&](const std::vector<long>& next) {
    std::vector<long> todo;
    for (long bits : next)
      if (bits >= 20 && bits <= max_bits && !seen.count(bits) && std::find(todo.begin(), todo.end(), bits) == todo.end() &&
          long(todo.size()) < W)
        todo.push_back(bits);
    if (todo.size() < 2) return;
    while (extra.size() + 1 < todo.size()) extra.push_back(lanes());
    const long n = long(todo.size());
    std::vector<Seen> out(todo.size());
    std::vector<int> ran(todo.size(), 0);
    std::vector<std::exception_ptr> err(todo.size());
#pragma omp parallel for num_threads(int(n)) schedule(static, 1)
    for (long i = 0; i < n; ++i) {
      PlanBackend& pb = i == 0 ? b : *extra[size_t(i - 1)].backend;
      try {
        pb.set_bits(todo[size_t(i)]);
        PlanRun r = i == 0 ? run(pb) : extra[size_t(i - 1)].run(pb);
        out[size_t(i)] = Seen{pb.min_capacity() >= 0, pb.min_capacity(), std::move(r)};
        ran[size_t(i)] = 1;
      } catch (const ParameterError&) {
        // not a chain for this circuit: attempt() finds that again
      } catch (...) {
        err[size_t(i)] = std::current_exception();
      }
    }
    state_bits = ran[0] ? todo[0] : -1;
    for (const auto& e : err)
      if (e) std::rethrow_exception(e);
    for (size_t i = 0; i < todo.size(); ++i)
      if (ran[i]) seen.emplace(todo[i], std::move(out[i])), ++plan.chains_tried;
  };
  // The bisection's next mids over (lo, hi), breadth first: the mid, then each half's; from
  // 3 lanes on (with 2, the one extra chain is needed half the time, and a level took as
  // long as one chain on both threads: BENCHMARKS.md, "Planning").
  auto mids = [&](long lo, long hi) {
    std::vector<long> out;
    if (W < 3) return out;
    std::vector<std::pair<long, long>> level{{lo, hi}};
    while (!level.empty() && long(out.size()) < W) {
      std::vector<std::pair<long, long>> below;
      for (auto [l, h] : level)
        if (h - l > 1) {
          const long mid = (l + h) / 2;
          out.push_back(mid);
          below.emplace_back(l, mid), below.emplace_back(mid, h);
        }
      level = std::move(below);
    }
    return out;
  };
  long hi = std::max<long>(bits_hint, 40);
  long lo = 0;  // a failing chain below hi (0: none run)
  PlanRun r;
  const bool settled = hint_is_plan && bits_hint > 20 && [&] {
    prefetch({bits_hint, bits_hint - 1});
    return !attempt(bits_hint - 1, nullptr) && attempt(bits_hint, &r);
  }();
  // Up from a failing chain t (last_min its capacity) to one that holds: by what t lacked
  // (its capacity below 0, plus 8 bits) and at least 8, 16, 32... bits, never more than
  // doubling, nor past `ok` (a chain known to hold; 0: none). lo is the last that failed.
  // Hints and guesses are usually within a few bits of the plan (an earlier plan at
  // another key weight or other digits; the capacity a long chain leaves), so the bracket
  // stays narrow where doubling the chain had cost a dozen bisection steps.
  auto ascend = [&](long t, long ok) {
    for (long step = 8;; step *= 2) {
      lo = t;
      const long lacked = std::isfinite(last_min) && last_min < 0 ? long(std::ceil(-last_min)) + 8 : 0;
      t = std::min(t + std::min(t, std::max(step, lacked)), max_bits);
      if (ok && t >= ok) return ok;
      if (attempt(t, &r)) return t;
      if (t >= max_bits)
        throw ParameterError(msg("no chain up to ", max_bits, " bits holds the circuit at m=", b.info().m));
    }
  };
  if (!settled) {
    if (!attempt(hi, &r)) hi = ascend(hi, 0);
    // A first guess from the capacity left, then bracket and bisect.
    const long guess = std::max<long>(20, hi - long(std::floor(last_min)));
    if (guess < hi && guess > lo) {
      if (attempt(guess, nullptr)) {
        hi = guess;
        std::vector<long> steps;  // the chains the step-down tries while they suffice
        for (long step = 8, t = hi; long(steps.size()) < W && t > std::max<long>(20, lo + 1); step *= 2)
          steps.push_back(t = std::max<long>({20, lo + 1, t - step}));
        prefetch(steps);
        for (long step = 8;; step *= 2) {
          const long t = std::max<long>(20, hi - step);
          if (t == hi) { lo = hi - 1; break; }
          if (t <= lo) break;  // lo fails: bisect (lo, hi)
          if (!attempt(t, nullptr)) { lo = t; break; }
          hi = t;
        }
      } else {
        hi = ascend(guess, hi);
      }
    } else if (guess >= hi) {
      lo = std::max<long>({lo, 19, hi - 1});
    }
  }
  while (!settled && hi - lo > 1) {
    prefetch(mids(lo, hi));
    const long mid = (lo + hi) / 2;
    if (attempt(mid, nullptr)) hi = mid;
    else lo = mid;
  }
  // Sufficiency is not monotone in the bit count (the ladder's position changes), so the
  // capacity a sufficing chain leaves is worth a second look: scan upward from the chain
  // that much shorter to the first that suffices (a few rounds, bounded attempts).
  for (int pass = 0; pass < 3 && !settled; ++pass) {
    if (!attempt(hi, nullptr)) throw Error(msg("chain planner: the chain of ", hi, " bits failed on re-run"));
    const long from = std::max<long>(20, hi - long(std::floor(last_min)));
    long found = hi;
    for (long t = from; t < hi && t < from + kScanChains && found == hi; ++t) {
      std::vector<long> next;
      for (long u = t; u < hi && u < from + kScanChains && long(next.size()) < W; ++u) next.push_back(u);
      prefetch(next);
      if (attempt(t, nullptr)) found = t;
    }
    if (found == hi) break;
    hi = found;
  }
  if (!attempt(hi, &r)) throw Error(msg("chain planner: the chain of ", hi, " bits failed on re-run"));
  if (state_bits != hi) {  // b's state (op counts, bounds) must be the plan's
    b.set_bits(hi);
    r = run(b);
    ++plan.chains_tried;
    if (b.min_capacity() < 0) throw Error(msg("chain planner: the chain of ", hi, " bits failed on re-run"));
  }
  plan.bits = hi;
  plan.info = b.info();
  plan.chain = b.chain().describe();
  plan.fresh_capacity = r.fresh_capacity;
  plan.round_capacity = r.round_capacity;
  plan.min_capacity = b.min_capacity();
  plan.random_terms = b.random_terms();
  const long R = long(r.round_capacity.size());
  plan.bits_per_round = R ? (r.fresh_capacity - r.round_capacity.back()) / double(R) : 0;
  return plan;
}

}  // namespace cb
