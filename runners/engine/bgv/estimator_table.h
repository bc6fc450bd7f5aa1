// estimator_table.h: the lattice estimator's figures as a table the engine reads, the
// registry's third model (security_model.h: `estimator`).
//
// The lattice estimator [APS15; github.com/malb/lattice-estimator] runs in Sage, seconds to
// minutes a parameter set, so the engine cannot run it inside a target search. The explorer
// runs it (sage/cbparams/estimator.py, one cached file per parameter set and attack) and
// writes what its cache holds as a table (sage/cbparams/estimator_table.py), a CSV whose
// header names its columns:
//
//   phi      the LWE dimension, deg Phi_m
//   hwt      the secret key's Hamming weight, 0 = dense (uniform ternary)
//   sigma    the error's standard deviation
//   log2_q   log2 of the modulus the attack sees (ciphertext and special primes, Q P)
//   bits     log2 of the cheapest attack's cost (of `attacks`, all of which ran there)
//   attack   that attack's name
//   attacks  the attacks run at the point, ';'-separated
//   commit   the estimator's commit
//
// At fixed phi, hwt and sigma, security falls as log2 Q grows: the figure tabulated at
// log2 Q' >= log2 Q is a lower bound at log2 Q. So the table answers a query with the figure
// at the smallest tabulated log2 Q' >= the asked one, for exactly that phi, hwt and sigma.
// No such point is no figure: the caller gets nothing and says which point is missing (the
// registry's model throws MissingFigure naming it and the command that fills it).
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/errors.h"

namespace cb::bgv {

// One row of the table.
struct EstimatorPoint {
  long phi = 0, hwt = 0;
  double sigma = 0, log2_q = 0;
  double bits = 0;         // log2 of the cheapest attack's cost
  std::string attack;      // its name
  std::string attacks;     // the attacks run at the point
  std::string commit;      // the estimator's commit
};

// A model's figure that its source does not have (the estimator's table has no point at or
// above the asked log2 Q for that phi, hwt and sigma): the message names the point and the
// command that fills it.
struct MissingFigure : ParameterError {
  using ParameterError::ParameterError;
};

class EstimatorTable {
 public:
  // The table in the CSV file `path`; ParameterError naming the file, the line and the
  // broken constraint (a missing column, a number that does not parse, phi < 2, hwt outside
  // [0, phi], sigma <= 0, log2_q <= 0, a point given twice).
  static EstimatorTable read(const std::string& path);

  // The same checks on rows given directly; `source` names them in messages.
  EstimatorTable(std::string source, std::vector<EstimatorPoint> points);

  // The point at the smallest tabulated log2 Q' >= log2_q for exactly (phi, hwt, sigma);
  // nullptr when there is none.
  const EstimatorPoint* at(long phi, long hwt, double sigma, double log2_q) const;

  // The largest tabulated log2 Q at (phi, hwt, sigma), 0 when none: for messages.
  double largest_log2_q(long phi, long hwt, double sigma) const;

  const std::string& source() const { return source_; }
  size_t size() const { return size_; }

 private:
  std::string source_;
  size_t size_ = 0;
  // By (phi, hwt, sigma), the points in increasing log2_q.
  std::map<std::tuple<long, long, double>, std::vector<EstimatorPoint>> points_;
};

}  // namespace cb::bgv
