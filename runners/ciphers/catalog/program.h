// program.h: an entry's rounds compiled for one run: the direction, the fusion of affine
// maps with linear layers, and the folding of squarings, decided in the clear.
//
// Encryption is the entry's rounds as declared. Decryption reverses them: round i undoes
// encryption round R + 1 - i, its steps in reverse order, each operation inverted:
//     AddKey(k)    itself;
//     Linear(M)    Linear(M^-1) (Gauss-Jordan over GF(2^n));
//     Affine(L)    the affine map y -> L_0^-1(y + c), L_0 the linear part, inverted as a
//                  GF(2)-linear map of GF(2)^n and written back as a linearized polynomial;
//     Power(e)     Power(e^-1 mod 2^n - 1), refused (ParameterError) unless x^e is a
//                  permutation and its inverse is no deeper than x^e (x^(2^n - 2) is its own
//                  inverse; x^3's inverse has depth about log2 n and is refused).
// Then, in execution order:
//   folding   a power map's trailing Frobenius 2^t (power_map.h) joins the affine map just
//             before it, L -> L^(2^t) (postcompose), or else the one just after it,
//             L -> L(x^(2^t)) (precompose); with neither it stays an explicit map;
//   fusion    (--linear fused) an affine map next to a linear layer becomes one operation
//             (packing.h fuse(): affine first when it comes first), timed as
//             "<affine step>+<linear step>".
// On the elements' bits (bits: the bit-sliced packing) the rounds are the entry's
// bit_round(): a power map there is refused (it has no Boolean form), a Boolean operation
// is kept (its circuit maps each group of g consecutive elements, g n bits, g = its inputs
// / n; decryption: its declared inverse circuit, refused when there is none), and
// fusion is refused (affine maps and linear layers are both additions there). Elsewhere a
// Boolean operation is refused: only the bit-sliced packing evaluates it.
// Over F_p (cipher_field.h) the same, with F_p's arithmetic: AddKey(k)'s inverse subtracts
// k (the program says so, subtract_keys, and the circuit adds the negated subkeys);
// Linear(M) inverts M over F_p; Affine(a x + c) (one coefficient, gamma_0 = a) is
// y -> a^-1 (y - c); Power(e) is Power(e^-1 mod p - 1) under the same depth rule; a power
// map has no trailing Frobenius (nothing is folded), and the bit-sliced packing is refused
// (F_p elements have no bits to slice).
// Each operation carries the name it is timed under: the step's name (its inverse_name in
// decryption; apart, its group when it has one). Consecutive operations with one name are
// one timed step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ciphers/catalog/cipher_spec.h"
#include "ciphers/catalog/power_map.h"

namespace cb {

struct CompiledOp {
  enum Kind { kPower, kFrobenius, kAffine, kLinear, kFused, kAddKey, kBoolean };
  Kind kind;
  std::string label;   // the timed step
  PowerProgram power;  // kPower: the products; its trailing Frobenius is folded or a kFrobenius
  long shift = 0;      // kFrobenius: the power j of X -> X^(2^j) (kPower: 0 once compiled)
  Linearized L;        // kAffine, kFused
  long map = -1;       // kLinear, kFused: index into CompiledProgram::maps
  bool affine_first = true;  // kFused
  long key = 0;        // kAddKey
  std::shared_ptr<const BooleanCircuit> circuit;  // kBoolean: on each element's n bits
};

struct CompiledProgram {
  std::vector<std::vector<CompiledOp>> rounds;  // rounds 1..R of the run's direction
  std::vector<BlockMap> maps;                   // the distinct linear layers, first use first
  long subkeys = 0;                             // AddKey indices are 0..subkeys-1
  bool subtract_keys = false;                   // F_p decryption: AddKey(i) subtracts subkey i
};

// Throws ParameterError when decrypt is asked and an operation has no cheap inverse
// (the message names the step and the costs).
// bits: the rounds on the elements' bits (bit_round, the bit-sliced packing).
CompiledProgram compile_program(const CipherInstance& inst, long rounds, bool decrypt, bool fused, bool bits = false);

// Why decryption is not offered for this instance, or "" when it is.
std::string decrypt_refusal(const CipherInstance& inst);

// Why the instance cannot run on its bits (the bit-sliced packing; decrypt: its inverse),
// or "" when it can.
std::string bits_refusal(const CipherInstance& inst, bool decrypt = false);
// Why the instance cannot run on its elements (packed, sliced: round() has a Boolean
// operation), or "".
std::string elements_refusal(const CipherInstance& inst);

// The step names a run reports (per_round ops keys), in order of first appearance.
std::vector<std::string> step_names(const CipherInstance& inst, bool fused, bool decrypt = false, bool bits = false);

// The inverse of an affine map of GF(2^n) or F_p (ParameterError when its linear part is
// singular).
Linearized inverse_affine(const CipherField& F, const Linearized& L);

// The inverse of a block map on s elements (ParameterError when singular).
BlockMap inverse_map(const CipherField& F, const BlockMap& M, long s);

// An affine map L at x: GF(2^n) as linearized.h's evaluate, F_p as gamma_0 x + c.
uint64_t evaluate_affine(const CipherField& F, const Linearized& L, uint64_t x);

// The whole state through the compiled program in the clear (ops as slot values would
// see them): checks a description against its reference without any backend.
Elements evaluate_clear(const CipherField& F, const CompiledProgram& p, const std::vector<Elements>& subkeys, Elements x);

}  // namespace cb
