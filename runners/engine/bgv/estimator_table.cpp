#include "engine/bgv/estimator_table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

namespace cb::bgv {

namespace {

const char* const kColumns[] = {"phi", "hwt", "sigma", "log2_q", "bits", "attack", "attacks", "commit"};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream is(line);
  while (std::getline(is, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

double number(const std::string& where, const std::string& column, const std::string& cell) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size() || !std::isfinite(v))
    throw ParameterError(msg(where, ": ", column, "='", cell, "' is not a number"));
  return v;
}

long integer(const std::string& where, const std::string& column, const std::string& cell) {
  const double v = number(where, column, cell);
  if (v != std::floor(v)) throw ParameterError(msg(where, ": ", column, "=", cell, " is not an integer"));
  return long(v);
}

}  // namespace

EstimatorTable EstimatorTable::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ParameterError(msg("estimator table ", path, " cannot be read: write it with ",
                                    "`python -m cbparams.estimator_table write --table ", path, "`"));
  std::string line;
  if (!std::getline(in, line)) throw ParameterError(msg("estimator table ", path, " is empty: it needs a header"));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = split(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* c : kColumns)
    if (!col.count(c)) throw ParameterError(msg("estimator table ", path, ": the header '", line, "' lacks column ", c));
  std::vector<EstimatorPoint> points;
  for (long n = 2; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::string where = msg("estimator table ", path, " line ", n);
    const auto cells = split(line);
    if (cells.size() != header.size())
      throw ParameterError(msg(where, ": ", cells.size(), " cells, the header has ", header.size()));
    EstimatorPoint p;
    p.phi = integer(where, "phi", cells[col["phi"]]);
    p.hwt = integer(where, "hwt", cells[col["hwt"]]);
    p.sigma = number(where, "sigma", cells[col["sigma"]]);
    p.log2_q = number(where, "log2_q", cells[col["log2_q"]]);
    p.bits = number(where, "bits", cells[col["bits"]]);
    p.attack = cells[col["attack"]];
    p.attacks = cells[col["attacks"]];
    p.commit = cells[col["commit"]];
    points.push_back(std::move(p));
  }
  return EstimatorTable(path, std::move(points));
}

EstimatorTable::EstimatorTable(std::string source, std::vector<EstimatorPoint> points) : source_(std::move(source)) {
  for (auto& p : points) {
    const std::string at = msg("estimator table ", source_, ", point phi=", p.phi, ", hwt=", p.hwt, ", sigma=", p.sigma,
                               ", log2_q=", p.log2_q);
    if (p.phi < 2) throw ParameterError(msg(at, ": phi=", p.phi, " must be at least 2"));
    if (p.hwt < 0 || p.hwt > p.phi)
      throw ParameterError(msg(at, ": hwt=", p.hwt, " must lie in [0, phi=", p.phi, "] (0 = dense key)"));
    if (!(p.sigma > 0)) throw ParameterError(msg(at, ": sigma=", p.sigma, " must be positive"));
    if (!(p.log2_q > 0)) throw ParameterError(msg(at, ": log2_q=", p.log2_q, " must be positive"));
    if (p.attack.empty()) throw ParameterError(msg(at, ": the attack is not named"));
    auto& row = points_[{p.phi, p.hwt, p.sigma}];
    for (const auto& o : row)
      if (o.log2_q == p.log2_q) throw ParameterError(msg(at, ": the point is given twice"));
    row.push_back(std::move(p));
    ++size_;
  }
  for (auto& [key, row] : points_)
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.log2_q < b.log2_q; });
}

const EstimatorPoint* EstimatorTable::at(long phi, long hwt, double sigma, double log2_q) const {
  const auto it = points_.find({phi, hwt, sigma});
  if (it == points_.end()) return nullptr;
  const auto& row = it->second;
  const auto p = std::lower_bound(row.begin(), row.end(), log2_q,
                                  [](const EstimatorPoint& a, double q) { return a.log2_q < q; });
  return p == row.end() ? nullptr : &*p;
}

double EstimatorTable::largest_log2_q(long phi, long hwt, double sigma) const {
  const auto it = points_.find({phi, hwt, sigma});
  return it == points_.end() ? 0 : it->second.back().log2_q;
}

}  // namespace cb::bgv
