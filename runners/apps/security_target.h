// security_target.h: --security-target T, the digits c and the key weight of the cheapest
// run that reaches T bits by every security model named (--security-models; HElib's formula
// by default), for any circuit the caller can plan.
//
// The models are the engine's registry's (engine/bgv/security_model.h: helib, coresvp,
// estimator, the last asked only where the others reach the target: lowest_bits_for); a
// chain's security is the lowest of their figures on it (ring m, log2 of ciphertext and
// special primes Q P, key weight), so one search meets them all. What is said below of
// "the formula" holds of any of them: each rises with fewer bits of Q P.
//
// The digits set P, hence the security of a chain (HElib's formula counts Q P), but barely
// the noise; the key weight changes both the formula (its table, docs/references.md §2)
// and the noise (|s| at every root). A run costs about its chain times the key-switching
// work, which grows with c: so the fewest digits win, then the shorter chain, then the
// lighter key. Weights tried: 120, 150, 200, 300 (the table's points; a dense key needs a
// much longer chain, BENCHMARKS.md), each planned once, the c search being arithmetic on
// that chain; the choice is re-planned at its digits (the weight's chain, checked there:
// chain_planner.h's hint_is_plan) and its security checked again. A heavier key is not
// planned when it cannot win: its noise bounds grow with |s|, so its chain is at least the
// lightest key's, and where even that chain does not reach the target by the formula at
// this weight, or needs more than the best digits found (as many, at a weight above the
// best's), the weight loses. So the heavier keys are planned by the digits they need at
// the lightest key's chain, the fewest first: on the papers' Vision rows the first one
// planned settles the digits and a weight fewer is planned (BENCHMARKS.md, "Planning").
// The plan's chains_tried counts the chains of every search here, not the re-plan's alone.
//
// The block ciphers' runs (run_cipher) and the keystream entries' (keystream_run) ask
// this one function; each supplies how its circuit is planned.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/chain_planner.h"

namespace cb {

struct TargetQuery {
  long m = 0, phi = 0;
  uint64_t p = 2;              // the plaintext modulus (the chains avoid it: chain.h)
  double target = 0;           // bits, by every model of `models`
  std::vector<std::string> models{"helib"};  // the registry's names (--security-models)
  long c = 3;                  // the fewest digits tried (--c)
  std::vector<long> weights;   // key weights to try (--hwt given: that one alone)
  bool weight_given = false;   // --hwt on the command line (the error message says so)
  long bits_hint = 0;          // --bits-hint (0: none)
  bool hint_is_plan = false;   // --hint-is-plan: bits_hint is this circuit's plan at other digits
};

// plan(c, hwt, bits_hint, hint_is_plan): the circuit's plan at those digits and weight,
// starting the search at bits_hint (0: the caller's default). Returns the chosen plan,
// its choice explained in plan.choice; chosen_c and chosen_hwt are set. ParameterError
// when no weight reaches the target at this ring, naming what each reached.
using TargetPlanner = std::function<ChainPlan(long c, long hwt, long bits_hint, bool hint_is_plan)>;
// The key weights the search tries: hwt alone where --hwt was given, else the table's
// points 120, 150, 200, 300.
std::vector<long> target_weights(bool hwt_given, long hwt);
ChainPlan choose_for_target(const TargetQuery& q, const TargetPlanner& plan, long* chosen_c, long* chosen_hwt);

}  // namespace cb
