#include "engine/bgv/security_model.h"

#include <algorithm>
#include <limits>

#include "engine/bgv/coresvp.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb::bgv {

namespace {
double helib_bits(const SecurityQuery& q) { return helib_security(q.m, q.phi, q.log2_q, q.hwt); }
double coresvp(const SecurityQuery& q) { return coresvp_bits(q.phi, q.log2_q, q.hwt); }

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
  };
  return models;
}

const SecurityModel& security_model(const std::string& name) {
  for (const auto& m : security_models())
    if (m.name == name) return m;
  if (name == "estimator")
    throw ParameterError(msg("security model 'estimator' is the explorer's: the lattice estimator runs in Sage, "
                             "and the explorer checks its cached verdict on the engine's choice ",
                             "(sage/cbparams/security_models.py); the engine's models are ", known_names()));
  throw ParameterError(msg("security model '", name, "' is unknown: the engine's are ", known_names()));
}

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

double lowest_bits(const std::vector<const SecurityModel*>& models, const SecurityQuery& q) {
  double low = std::numeric_limits<double>::infinity();
  for (const auto* m : models) low = std::min(low, m->bits(q));
  return low;
}

}  // namespace cb::bgv
