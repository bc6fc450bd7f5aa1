#include "ciphers/common/boolean_circuit.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "engine/errors.h"

namespace cb {

long BooleanCircuit::ands() const {
  return long(std::count_if(gates.begin(), gates.end(), [](const Gate& g) { return g.kind == Gate::kAnd; }));
}
long BooleanCircuit::xors() const {
  return long(std::count_if(gates.begin(), gates.end(),
                            [](const Gate& g) { return g.kind == Gate::kXor || g.kind == Gate::kXnor; }));
}
long BooleanCircuit::nots() const {
  return long(std::count_if(gates.begin(), gates.end(), [](const Gate& g) { return g.kind == Gate::kNot; }));
}

long BooleanCircuit::and_depth() const {
  check();
  std::vector<long> depth(wires(), 0);
  for (size_t g = 0; g < gates.size(); ++g) {
    const Gate& x = gates[g];
    long d = depth[x.a];
    if (x.kind != Gate::kNot) d = std::max(d, depth[x.b]);
    depth[inputs + g] = d + (x.kind == Gate::kAnd ? 1 : 0);
  }
  long out = 0;
  for (long w : outputs) out = std::max(out, depth[w]);
  return out;
}

void BooleanCircuit::check() const {
  if (inputs < 1 || inputs > 64) throw ParameterError(msg("circuit ", name, ": inputs=", inputs, ": must be 1..64"));
  if (outputs.empty() || outputs.size() > 64)
    throw ParameterError(msg("circuit ", name, ": ", outputs.size(), " outputs: must be 1..64"));
  for (size_t g = 0; g < gates.size(); ++g) {
    const long w = inputs + long(g);
    const Gate& x = gates[g];
    if (x.a < 0 || x.a >= w || (x.kind != Gate::kNot && (x.b < 0 || x.b >= w)))
      throw ParameterError(msg("circuit ", name, ": gate ", g, " reads wire ", x.a, ", ", x.b,
                               ": a gate reads only the ", w, " wires before it"));
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i] < 0 || outputs[i] >= wires())
      throw ParameterError(msg("circuit ", name, ": output ", i, " is wire ", outputs[i], ": the circuit has ", wires()));
}

uint64_t BooleanCircuit::evaluate(uint64_t x) const {
  std::vector<uint8_t> w(wires(), 0);
  for (long i = 0; i < inputs; ++i) w[i] = (x >> i) & 1;
  for (size_t g = 0; g < gates.size(); ++g) {
    const Gate& t = gates[g];
    uint8_t v = 0;
    switch (t.kind) {
      case Gate::kXor: v = w[t.a] ^ w[t.b]; break;
      case Gate::kXnor: v = w[t.a] ^ w[t.b] ^ 1; break;
      case Gate::kAnd: v = w[t.a] & w[t.b]; break;
      case Gate::kNot: v = w[t.a] ^ 1; break;
    }
    w[inputs + g] = v;
  }
  uint64_t y = 0;
  for (size_t i = 0; i < outputs.size(); ++i) y |= uint64_t(w[outputs[i]]) << i;
  return y;
}

std::vector<long> BooleanCircuit::last_use() const {
  std::vector<long> last(wires(), -1);
  for (size_t g = 0; g < gates.size(); ++g) {
    last[gates[g].a] = long(g);
    if (gates[g].kind != Gate::kNot) last[gates[g].b] = long(g);
  }
  for (long w : outputs) last[w] = long(gates.size());
  return last;
}

BooleanCircuit parse_slp(const std::string& name, const std::string& text, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs) {
  BooleanCircuit c;
  c.name = name;
  c.inputs = long(inputs.size());
  std::map<std::string, long> wire;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!wire.emplace(inputs[i], long(i)).second) throw ParameterError(msg("circuit ", name, ": input ", inputs[i], " twice"));
  std::istringstream lines(text);
  std::string line;
  long lineno = 0;
  while (std::getline(lines, line)) {
    ++lineno;
    std::istringstream in(line);
    std::vector<std::string> tok;
    for (std::string t; in >> t;) tok.push_back(t);
    if (tok.empty() || tok[0][0] == '#') continue;
    const std::string where = msg("circuit ", name, " line ", lineno, " '", line, "'");
    auto get = [&](const std::string& n) {
      auto it = wire.find(n);
      if (it == wire.end()) throw ParameterError(msg(where, ": ", n, " is not assigned before"));
      return it->second;
    };
    if (tok.size() < 3 || tok[1] != "=") throw ParameterError(msg(where, ": expected NAME = A OP B or NAME = A"));
    if (wire.count(tok[0])) throw ParameterError(msg(where, ": ", tok[0], " is assigned twice"));
    if (tok.size() == 3) {
      wire[tok[0]] = get(tok[2]);
      continue;
    }
    if (tok.size() != 5) throw ParameterError(msg(where, ": expected NAME = A OP B or NAME = A"));
    Gate g{Gate::kXor, get(tok[2]), get(tok[4])};
    if (tok[3] == "+")
      g.kind = Gate::kXor;
    else if (tok[3] == "x")
      g.kind = Gate::kAnd;
    else if (tok[3] == "XNOR")
      g.kind = Gate::kXnor;
    else
      throw ParameterError(msg(where, ": operator ", tok[3], " is not + (XOR), x (AND) or XNOR"));
    c.gates.push_back(g);
    wire[tok[0]] = c.inputs + long(c.gates.size()) - 1;
  }
  for (const auto& o : outputs) {
    auto it = wire.find(o);
    if (it == wire.end()) throw ParameterError(msg("circuit ", name, ": output ", o, " is never assigned"));
    c.outputs.push_back(it->second);
  }
  c.check();
  return c;
}

BooleanCircuit affine_circuit(const std::string& name, const std::vector<uint64_t>& rows, uint64_t cst) {
  BooleanCircuit c;
  c.name = name;
  c.inputs = long(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<long> in;
    for (long i = 0; i < c.inputs; ++i)
      if ((rows[r] >> i) & 1) in.push_back(i);
    const bool one = (cst >> r) & 1;
    if (in.empty()) throw ParameterError(msg("circuit ", name, ": output ", r, " is the constant ", one, ": no input enters it"));
    long w = in[0];
    for (size_t j = 1; j < in.size(); ++j) {
      const bool last = j + 1 == in.size();
      c.gates.push_back({last && one ? Gate::kXnor : Gate::kXor, w, in[j]});
      w = c.inputs + long(c.gates.size()) - 1;
    }
    if (one && in.size() == 1) {
      c.gates.push_back({Gate::kNot, w, 0});
      w = c.inputs + long(c.gates.size()) - 1;
    }
    c.outputs.push_back(w);
  }
  c.check();
  return c;
}

BooleanCircuit compose(const BooleanCircuit& first, const BooleanCircuit& second) {
  first.check(), second.check();
  if (long(first.outputs.size()) != second.inputs)
    throw ParameterError(msg("compose ", first.name, " then ", second.name, ": ", first.outputs.size(), " outputs feed ",
                             second.inputs, " inputs"));
  BooleanCircuit c = first;
  c.name = first.name + ", then " + second.name;
  // second's wire w: its input i is first's output i; its gate g is appended.
  std::vector<long> at(second.wires());
  for (long i = 0; i < second.inputs; ++i) at[i] = first.outputs[i];
  for (size_t g = 0; g < second.gates.size(); ++g) {
    Gate x = second.gates[g];
    x.a = at[x.a];
    if (x.kind != Gate::kNot) x.b = at[x.b];
    c.gates.push_back(x);
    at[second.inputs + g] = c.wires() - 1;
  }
  c.outputs.clear();
  for (long o : second.outputs) c.outputs.push_back(at[o]);
  c.check();
  return c;
}

}  // namespace cb
