// plan_cache.h: chain plans kept on disk, keyed by everything a plan depends on.
//
// A plan (chain_planner.h) is the least chain on which a simulated run of the circuit
// keeps every noise bound inside its modulus. It is a deterministic function of:
//   * the circuit: the cipher instance, packing, linear-layer form, rounds, direction,
//     blocks, and the key and plaintext when given (the simulation checks its clear
//     result against the reference);
//   * the ring and key switching: m, the plaintext modulus p, digits c;
//   * the secret key: its weight and the seed it is drawn from (the planner bounds the
//     noise with the run's own key, so a seeded run accepts its plan exactly);
//   * the engine that planned it: this executable, named by its size and modification time
//     (a rebuilt engine may plan otherwise).
// Planning runs the circuit a dozen times on clear slots with the engine's bounds beside
// them: minutes on the papers' rings, where the run itself can take less. The explorer
// plans each candidate, measures the best, and the pipeline runs the chosen one: three
// processes asking for the same plan. The cache answers the second and third from disk.
//
// The key is that description as text; the file is <dir>/<64-bit FNV-1a of the key>.json,
// holding the key (checked on load: a collision or a foreign file is a miss) and the plan,
// its doubles written with round-trip precision. A file that does not parse is a miss and
// is rewritten. Writes go to a temporary file renamed into place, so concurrent runs (a
// Snakemake pipeline, a SLURM array) never read half a plan.
#pragma once

#include <optional>
#include <string>

#include "backend/chain_planner.h"

namespace cb {

class PlanCache {
 public:
  // dir empty: no cache (every lookup misses, nothing is stored).
  explicit PlanCache(std::string dir = {});

  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }

  // The running executable's identity, part of every key.
  static std::string engine_identity();

  std::optional<ChainPlan> load(const std::string& key) const;
  void store(const std::string& key, const ChainPlan& plan) const;

  // What this process did: lookups answered from disk, and plans computed.
  long hits() const { return hits_; }
  long misses() const { return misses_; }

 private:
  std::string path_of(const std::string& key) const;
  std::string dir_;
  mutable long hits_ = 0, misses_ = 0;
};

}  // namespace cb
