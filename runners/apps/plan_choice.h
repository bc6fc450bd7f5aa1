// plan_choice.h: the chain of a block cipher's run on BGV, and the digits and key weight
// it runs at.
//
// The planner (backend/chain_planner.h) runs the same circuit on clear slots with the
// engine's noise bounds beside them and finds the least chain on which no bound reaches
// its modulus. A plan is a deterministic function of what plan_key names (the circuit,
// ring, digits, key weight and seed), so it is kept by that key: in this process (the
// target search asks again for the plan it chose) and, with --plan-cache, on disk
// (backend/plan_cache.h). Without --blocks the plan is looked up before the circuit is
// built. For a seeded run the plan knows the run's secret key and predicts its capacity
// per round exactly.
//
// --security-target T picks the key-switching digits c and, without --hwt, the key weight:
// the cheapest run whose planned chain reaches T bits by every model --security-models
// names (HElib's formula by default; core-SVP; the lattice estimator, read from
// --estimator-table: engine/bgv/security_model.h), apps/security_target.h says how and
// plan.choice why. The options are read, never changed: the choice comes back as a
// ChosenParams.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "apps/run_request.h"
#include "backend/chain_planner.h"
#include "backend/plan_cache.h"

namespace cb {

// The parameters a block run uses on BGV: its plan, the digits and key weight it was
// planned at (--c and --hwt, or --security-target's choice), and its chain (--bits when
// given, else the plan's).
struct ChosenParams {
  ChainPlan plan;
  long c = 0, hwt = 0;
  long bits = 0;
};

// The plans of one process: this process's own, and the plan cache's when --plan-cache
// names one.
class PlanChooser {
 public:
  explicit PlanChooser(const std::string& cache_dir);  // empty: no cache
  const PlanCache* cache() const { return cache_ ? &*cache_ : nullptr; }

  // The plan of the run's circuit at --c and --hwt, or the target search's choice with
  // --security-target. bits stays 0 here: run_bits sets it once --plan has had its say.
  ChosenParams choose(const Options& o, const Instance& in, const RunRing& ring);

  // The circuit's plan at digits c and key weight hwt, the search starting at bits_hint
  // (0: 150 bits a round), a hint that is this circuit's plan at other digits taken
  // without a search when it holds (chain_planner.h's hint_is_plan).
  ChainPlan plan_at(const Options& o, const Instance& in, long c, long hwt, long bits_hint, bool hint_is_plan);

 private:
  template <template <class> class Rep>
  ChainPlan plan_circuit(const Options& o, const Instance& in, long c, long hwt, long bits_hint, bool hint_is_plan);

  std::optional<PlanCache> cache_;
  std::map<std::string, ChainPlan> plans_;  // by plan_key
};

// Everything a plan depends on (backend/plan_cache.h), as the cache's key; blocks: the
// run's count, 0 for all the ciphertexts hold (fixed by the instance, packing and ring, so
// that without --blocks a plan is found before the circuit is built).
std::string plan_key(const Options& o, const Instance& in, long c, long hwt, long blocks);

// The run's chain: --bits, else the plan's. ParameterError for a --bits below the plan
// (naming the plan's figure) unless --force.
long run_bits(const Options& o, const Instance& in, const ChainPlan& plan);

// The chosen chain's memory: a fresh ciphertext's bytes, and what the key-switching keys
// take (for an allocation failure's message).
struct ChainMemory {
  double ciphertext_bytes = 0;
  std::string note;
};

// The key-switching keys alone, as stored (engine/bgv/memory.h), against the memory
// allowed: ParameterError unless they fit (or --force).
ChainMemory check_memory(const Options& o, const RunRing& ring, const ChosenParams& cp);

}  // namespace cb
