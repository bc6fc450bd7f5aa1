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
//   estimator the lattice estimator's cheapest attack [APS15], read from a table the explorer
//             writes from its cache (engine/bgv/estimator_table.h): the figure at the smallest
//             tabulated log2 Q >= the asked one for exactly that phi, hwt and the engine's
//             sigma; a sparse ternary key of weight h (dense: uniform ternary), as the
//             estimator was run. The estimator itself runs in Sage (minutes a point), so the
//             table is filled before a search (sage/cbparams/select.py) and loaded once a
//             process (use_estimator_table; run_cipher --estimator-table). A point the table
//             lacks is no figure: MissingFigure names it and the command that fills it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/bgv/estimator_table.h"

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

// Every model of the engine, in the registry's order (helib, coresvp, estimator).
const std::vector<SecurityModel>& security_models();

// The model called `name`; ParameterError naming the known ones.
const SecurityModel& security_model(const std::string& name);

// The table the `estimator` model answers from, for the rest of the process (nullptr: none;
// the model then refuses, saying how to give one). The estimator_table() in use, or nullptr.
void use_estimator_table(std::shared_ptr<const EstimatorTable> table);
const EstimatorTable* estimator_table();

// The models called `names` (at least one, none twice), in the order given.
std::vector<const SecurityModel*> security_models_named(const std::vector<std::string>& names);

// "HElib's formula", "HElib's formula and core-SVP", ...: the titles joined for messages.
std::string titles(const std::vector<const SecurityModel*>& models);

// The key weights a target search tries when none is given (the lightest first): sparse
// keys of 120 (HElib's and GHS's default), 150, 200 and 300 nonzero coefficients. The
// explorer asks them (security_info "weights") to prepare a table-read model for each.
const std::vector<long>& target_search_weights();

// The lowest figure of `models` on q: the security a target is checked against.
double lowest_bits(const std::vector<const SecurityModel*>& models, const SecurityQuery& q);

// As lowest_bits, for a search against `target`: a model without a figure on q
// (MissingFigure) matters only where every other model reaches the target (below it, the
// chain fails whatever the missing figure says, and the others' lowest is returned);
// there MissingFigure is thrown. Without a missing figure, lowest_bits exactly.
double lowest_bits_for(const std::vector<const SecurityModel*>& models, const SecurityQuery& q, double target);

}  // namespace cb::bgv
