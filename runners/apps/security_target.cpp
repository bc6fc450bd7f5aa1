#include "apps/security_target.h"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <string>
#include <tuple>

#include "engine/bgv/chain.h"
#include "engine/bgv/security_model.h"
#include "engine/errors.h"

namespace cb {

ChainPlan choose_for_target(const TargetQuery& q, const TargetPlanner& plan, long* chosen_c, long* chosen_hwt) {
  struct Cand {
    long hwt, c, bits;
  };
  const auto models = bgv::security_models_named(q.models);  // refuses an unknown name before any work
  // How messages name the figure: "HElib's formula" alone keeps its words of before.
  const std::string by = models.size() == 1 ? bgv::titles(models) : bgv::titles(models) + " (the lowest counts)";
  std::optional<Cand> best;
  std::string tried;
  double most = 0;
  long lightest_bits = 0;  // the first (lightest) weight's planned chain
  long chains_run = 0;     // by every search below: the plan reports them all
  // The fewest digits from q.c up at which a chain of `bits` reaches the target with key
  // weight w by every model (0: none up to 16), and the security (their lowest) at each c tried.
  auto digits_for = [&](long bits, long w, std::string* line) -> long {
    for (long c = q.c; c <= std::min<long>(bits / 20, 16); ++c) {
      double log2_qp;
      try {
        bgv::ChainParams cp{q.m, bits, c};
        cp.p = q.p;
        const bgv::Chain ch(cp);
        log2_qp = ch.log2_Q() + ch.log2_P();
      } catch (const ParameterError&) {
        break;  // more digits than primes
      }
      const double sec = bgv::lowest_bits_for(models, {q.m, q.phi, log2_qp, w}, q.target);
      if (line) {  // a planned chain (not a bound)
        *line += msg(line->empty() ? "" : ", ", "c=", c, ": ", std::fixed, std::setprecision(1), sec);
        most = std::max(most, sec);
      }
      if (sec >= q.target) return c;
    }
    return 0;
  };
  auto plan_weight = [&](long w) {
    // A heavier key's chain is at least the lightest's: its search starts there.
    const ChainPlan p = plan(q.c, w, q.bits_hint > 0 ? q.bits_hint : lightest_bits, q.bits_hint > 0 && q.hint_is_plan);
    chains_run += p.chains_tried;
    if (!lightest_bits) lightest_bits = p.bits;
    std::string line;
    if (const long c = digits_for(p.bits, w, &line)) {
      const Cand cand{w, c, p.bits};
      if (!best || std::tie(cand.c, cand.bits, cand.hwt) < std::tie(best->c, best->bits, best->hwt)) best = cand;
    }
    tried += msg(tried.empty() ? "" : "; ", "hwt=", w, ", ", p.bits, " bits: ", line);
  };
  // The lightest key, then the heavier ones as the header says.
  plan_weight(q.weights.at(0));
  std::vector<std::pair<long, long>> heavier;  // (digits needed at the lightest's chain, weight)
  for (size_t i = 1; i < q.weights.size(); ++i) {
    const long c_at_lightest = digits_for(lightest_bits, q.weights[i], nullptr);
    if (c_at_lightest == 0) {
      tried += msg("; hwt=", q.weights[i], ": not planned (at the lightest key's ", lightest_bits,
                   " bits it stays below the target)");
      continue;
    }
    heavier.emplace_back(c_at_lightest, q.weights[i]);
  }
  std::sort(heavier.begin(), heavier.end());
  for (const auto& [c_at_lightest, w] : heavier) {
    if (best && (c_at_lightest > best->c || (c_at_lightest == best->c && w > best->hwt))) {
      tried += msg("; hwt=", w, ": not planned (at the lightest key's ", lightest_bits, " bits it would need c=",
                   c_at_lightest, ")");
      continue;
    }
    plan_weight(w);
  }
  if (!best)
    throw ParameterError(msg("--security-target ", q.target, ": the planned chains at m=", q.m, " reach at most ",
                             std::fixed, std::setprecision(1), most, " bits by ", by, " (", tried,
                             "): use a larger m", q.weight_given ? " or another key weight" : ""));
  // The re-plan at the chosen digits starts from the chain planned for this weight; where
  // --bits-hint was not given, that chain is the plan if it holds at these digits and the
  // chain one bit shorter does not (plan_chain's hint_is_plan).
  const bool hint_is_plan = q.bits_hint <= 0 || q.hint_is_plan;
  const long hint = q.bits_hint > 0 ? q.bits_hint : best->bits;
  for (long c = best->c;; ++c) {  // re-planned at the choice; one more digit if that fell short
    ChainPlan p = plan(c, best->hwt, hint, hint_is_plan);
    if (c != q.c) chains_run += p.chains_tried;  // else the weight's own plan, counted
    p.chains_tried = chains_run;
    // The plan's own figures: HElib's alone is p.info.security (plan_backend's, the same function).
    const double sec = bgv::lowest_bits_for(models, {q.m, q.phi, p.info.log2_q, best->hwt}, q.target);
    if (sec < q.target && c >= 16)
      throw ParameterError(msg("--security-target ", q.target, ": re-planned at c=", c, ", hwt=", best->hwt,
                               " the chain reaches ", std::fixed, std::setprecision(1), sec, " bits only (",
                               tried, ")"));
    if (sec >= q.target) {
      p.choice = msg("c=", c, ", hwt=", best->hwt, ": the fewest digits, then the shortest chain, then the lightest key ",
                     "reaching ", q.target, " bits by ", by, " (", tried, ")");
      *chosen_c = c;
      *chosen_hwt = best->hwt;
      return p;
    }
  }
}

std::vector<long> target_weights(bool hwt_given, long hwt) {
  return hwt_given ? std::vector<long>{hwt} : bgv::target_search_weights();
}

}  // namespace cb
