// security_model.h: the security models by name, one registry the engine's target search
// (apps/security_target.h, run_cipher --security-models) and the explorer's selection
// (sage/cbparams/security_models.py, through security_info) both ask.
//
// A model turns a parameter set (ring m, phi = deg Phi_m, log2 Q of the ciphertext and
// special primes, key weight h) into bits of security. Each states its citation and what it
// assumes of the key; a target is met when every model named reaches it (the lowest counts).
//
//   helib     HElib's formula (engine/bgv/security.h): HElib 2.3.0's lweEstimateSecurity,
//             a fit to the lattice estimator's 2019 figures; dense ternary key (h = 0) or a
//             sparse one of weight h >= 120 (its table; h in 1..119 rates 0 bits).
//   coresvp   primal uSVP, core-SVP 0.292 beta [ADPS16] (engine/bgv/coresvp.h); a ternary
//             key of weight h, coefficient deviation sqrt(h/phi) (sqrt(2/3) when dense); no
//             hybrid or sparse-secret guessing.
//
// The lattice estimator's attacks are a third model of the explorer's alone: they run in
// Sage (minutes a ring), so the engine cannot evaluate them inside a search; the explorer
// checks its cached verdict on the search's result (sage/cbparams/security_models.py). Asked
// for here by name, it is refused with that reason.
#pragma once

#include <string>
#include <vector>

namespace cb::bgv {

// What a model is evaluated on.
struct SecurityQuery {
  long m = 0;         // the ring's index (HElib's sigma scales by sqrt(m) unless m = 2^k)
  long phi = 0;       // the LWE dimension, deg Phi_m
  double log2_q = 0;  // log2 Q, ciphertext primes * special primes (what HElib counts)
  long hwt = 0;       // secret-key Hamming weight, 0 = dense ternary
};

struct SecurityModel {
  std::string name;      // the registry's key: "helib", "coresvp"
  std::string title;     // how messages name it: "HElib's formula", "core-SVP"
  std::string citation;  // where the model comes from
  std::string keys;      // the key distributions it assumes, and what it does outside them
  double (*bits)(const SecurityQuery&);
};

// Every model of the engine, in the registry's order (helib, coresvp).
const std::vector<SecurityModel>& security_models();

// The model called `name`; ParameterError naming the known ones (and, for "estimator", why
// the engine does not evaluate it).
const SecurityModel& security_model(const std::string& name);

// The models called `names` (at least one, none twice), in the order given.
std::vector<const SecurityModel*> security_models_named(const std::vector<std::string>& names);

// "HElib's formula", "HElib's formula and core-SVP", ...: the titles joined for messages.
std::string titles(const std::vector<const SecurityModel*>& models);

// The lowest figure of `models` on q: the security a target is checked against.
double lowest_bits(const std::vector<const SecurityModel*>& models, const SecurityQuery& q);

}  // namespace cb::bgv
