#include "engine/bgv/security_model.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>

#include "engine/bgv/coresvp.h"
#include "engine/bgv/noise.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb::bgv {

namespace {
double helib_bits(const SecurityQuery& q) { return helib_security(q.m, q.phi, q.log2_q, q.hwt); }
double coresvp(const SecurityQuery& q) { return coresvp_bits(q.phi, q.log2_q, q.hwt); }

std::shared_ptr<const EstimatorTable>& table_in_use() {
  static std::shared_ptr<const EstimatorTable> t;
  return t;
}

// The table's figure at the engine's error deviation (NoiseModel::kSigma, the sampler's).
double estimator_bits(const SecurityQuery& q) {
  const EstimatorTable* t = estimator_table();
  if (!t)
    throw ParameterError("security model 'estimator' answers from a table of the lattice estimator's figures: give "
                         "it with --estimator-table PATH (written by `python -m cbparams.estimator_table write "
                         "--table PATH` from the estimator's cache)");
  const double sigma = NoiseModel::kSigma;
  if (const EstimatorPoint* p = t->at(q.phi, q.hwt, sigma, q.log2_q)) return p->bits;
  const double top = t->largest_log2_q(q.phi, q.hwt, sigma);
  throw MissingFigure(msg("security model 'estimator': the table ", t->source(), " has no figure for phi=", q.phi,
                          ", hwt=", q.hwt, ", sigma=", sigma, " at log2 Q >= ", std::fixed, std::setprecision(3),
                          q.log2_q, " (", top > 0 ? msg("its largest log2 Q there is ", top) : std::string("no point there"),
                          "): fill it with `python -m cbparams.estimator_table fill --phi ", q.phi, " --hwt ", q.hwt,
                          " --sigma ", std::defaultfloat, sigma, " --log2-q ",
                          long(std::ceil(q.log2_q)), " --table ", t->source(), "`"));
}

std::string known_names() {
  std::string s;
  for (const auto& m : security_models()) s += msg(s.empty() ? "" : ", ", m.name);
  return s;
}
}  // namespace

const std::vector<SecurityModel>& security_models() {
  static const std::vector<SecurityModel> models{
      {"helib", "HElib's formula",
       "HElib 2.3.0, Context::securityLevel / lweEstimateSecurity (docs/references.md §2): "
       "sigma = 3.2 sqrt(m) (3.2 for m = 2^k), X = phi / log2(Q/sigma), 3.8 X - 20 dense, a(h) X + b(h) sparse",
       "dense ternary key (hwt=0), or sparse ternary of weight h >= 120 (HElib's table at 120, 150, ..., 450, "
       "linear between, the last point beyond); weights 1..119 rate 0 bits",
       &helib_bits},
      {"coresvp", "core-SVP",
       "primal uSVP, core-SVP 0.292 beta [ADPS16: Alkim, Ducas, Poeppelmann, Schwabe, USENIX Security 2016, "
       "section 6], Bai-Galbraith embedding, GSA delta(beta) [Chen13], error sigma = 3.2 (engine/bgv/coresvp.h)",
       "ternary key of weight h, coefficient deviation sqrt(h/phi), dense (hwt=0) as uniform on {-1, 0, 1} "
       "(sqrt(2/3)); no hybrid or sparse-secret guessing (a lower envelope)",
       &coresvp},
      {"estimator", "the lattice estimator",
       "Albrecht, Player, Scott, 'On the concrete hardness of Learning with Errors', J. Math. Cryptol. 2015; the "
       "lattice estimator (github.com/malb/lattice-estimator at the pinned commit of the Makefile), its cheapest "
       "attack of those run (sage/cbparams/estimator.py), read from a table (engine/bgv/estimator_table.h): the "
       "figure at the smallest tabulated log2 Q >= the asked one",
       "sparse ternary key of weight h (ND.SparseTernary: h/2 entries +1, the rest -1), uniform ternary for a dense "
       "key (hwt=0); error a discrete Gaussian of sigma 3.2; only the table's (phi, hwt, sigma) points: elsewhere "
       "no figure (refused, naming the point)",
       &estimator_bits},
  };
  return models;
}

const SecurityModel& security_model(const std::string& name) {
  for (const auto& m : security_models())
    if (m.name == name) return m;
  throw ParameterError(msg("security model '", name, "' is unknown: the engine's are ", known_names()));
}

void use_estimator_table(std::shared_ptr<const EstimatorTable> table) { table_in_use() = std::move(table); }

const EstimatorTable* estimator_table() { return table_in_use().get(); }

std::vector<const SecurityModel*> security_models_named(const std::vector<std::string>& names) {
  if (names.empty()) throw ParameterError(msg("no security model named: use one or more of ", known_names()));
  std::vector<const SecurityModel*> out;
  for (const auto& n : names) {
    const SecurityModel* m = &security_model(n);
    if (std::find(out.begin(), out.end(), m) != out.end())
      throw ParameterError(msg("security model '", n, "' is named twice"));
    out.push_back(m);
  }
  return out;
}

std::string titles(const std::vector<const SecurityModel*>& models) {
  std::string s;
  for (size_t i = 0; i < models.size(); ++i)
    s += msg(i == 0 ? "" : i + 1 == models.size() ? " and " : ", ", models[i]->title);
  return s;
}

const std::vector<long>& target_search_weights() {
  static const std::vector<long> weights{120, 150, 200, 300};
  return weights;
}

double lowest_bits(const std::vector<const SecurityModel*>& models, const SecurityQuery& q) {
  double low = std::numeric_limits<double>::infinity();
  for (const auto* m : models) low = std::min(low, m->bits(q));
  return low;
}

double lowest_bits_for(const std::vector<const SecurityModel*>& models, const SecurityQuery& q, double target) {
  double low = std::numeric_limits<double>::infinity();
  std::optional<MissingFigure> missing;
  for (const auto* m : models) {
    try {
      low = std::min(low, m->bits(q));
    } catch (const MissingFigure& e) {
      if (!missing) missing = e;
    }
  }
  if (missing && low >= target) throw *missing;
  return low;
}

}  // namespace cb::bgv
