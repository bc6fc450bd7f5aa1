// boolean_circuit.h: a straight-line program over GF(2), the form in which the bit-sliced
// packing evaluates a nonlinear step (AES's S-box as Boyar and Peralta's circuit).
//
// Wires 0..inputs-1 are the input bits; gate g writes wire inputs + g from wires before it:
//     XOR   a + b          (over GF(2))
//     XNOR  a + b + 1
//     AND   a * b
//     NOT   a + 1
// and output bit i is wire outputs[i]. On slots holding 0 or 1 (bit-sliced: GF(2) inside
// the slot field) an XOR is a ciphertext addition, an AND a ciphertext product
// (relinearized), a NOT the addition of the constant 1. The AND-depth of a wire is the
// most ANDs on a path from an input to it: the multiplicative depth the circuit costs.
//
// Published gate lists are written as text in the papers' notation (parse_slp) and kept
// as data beside the entry that uses them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct Gate {
  enum Kind { kXor, kXnor, kAnd, kNot };
  Kind kind;
  long a = 0, b = 0;  // input wires (kNot: a only)
};

struct BooleanCircuit {
  std::string name;           // what it is and where it is from (reports, messages)
  long inputs = 0;            // input bits
  std::vector<Gate> gates;    // gate g writes wire inputs + g
  std::vector<long> outputs;  // output bit i = wire outputs[i]

  long wires() const { return inputs + long(gates.size()); }
  long ands() const;
  long xors() const;  // XOR and XNOR gates
  long nots() const;
  long and_depth() const;  // the largest AND-depth of an output

  // ParameterError naming the first gate or output whose wire is out of range (a gate may
  // read only wires written before it).
  void check() const;
  // The outputs for the inputs bits x (bit i = input i), as bits of the result.
  uint64_t evaluate(uint64_t x) const;
  // For each wire, the index of the last gate reading it (-1: none; outputs count as read
  // after every gate): lets an evaluator free intermediate wires early.
  std::vector<long> last_use() const;
};

// A straight-line program in the notation of Boyar and Peralta's papers, one assignment a
// line (blank lines and lines starting with '#' ignored):
//     T1 = U0 + U3        XOR
//     M1 = T13 x T6       AND
//     S1 = L16 XNOR L26   XNOR
//     D = U7              a second name for a wire (no gate)
// inputs: the names of the input wires in order (input i = bit i); outputs: the names of
// the output wires (output i = bit i). ParameterError naming the line for an unknown name,
// a name assigned twice or a malformed line.
BooleanCircuit parse_slp(const std::string& name, const std::string& text, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs);

// The GF(2)-affine map y = A x + c of k bits as a circuit (XOR and NOT gates only): rows[r]
// has bit i set when x_i enters y_r; c bit r is the constant of y_r. A row with no input
// and c_r = 0 or 1 is refused (a circuit has no constant wire).
BooleanCircuit affine_circuit(const std::string& name, const std::vector<uint64_t>& rows, uint64_t c);

// The circuit computing second(first(x)) (first's outputs are second's inputs).
BooleanCircuit compose(const BooleanCircuit& first, const BooleanCircuit& second);

}  // namespace cb
