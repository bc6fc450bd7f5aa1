// boyar_peralta.h: the AES S-box as a Boolean circuit, for the bit-sliced packing.
//
// J. Boyar, R. Peralta, "A depth-16 circuit for the AES S-box", SEC 2012 (ePrint 2011/332):
// 128 gates, 34 AND and 94 XOR/XNOR, AND-depth 4. The circuit is the tower-field inversion
// of GF(2^8) over GF(2^4) between two linear layers, the bottom one absorbing the affine
// map A of SubBytes:
//     top      T1..T27 = U * B           (27 XOR: 8 bits to 22 linear forms of them)
//     middle   M1..M63                   (34 AND, 29 XOR: the GF(2^8) inversion, depth 4)
//     bottom   L0..L29, S0..S7 = A(x^-1) (30 XOR, 8 XOR/XNOR)
// Its bit order is the papers': U0 is the most significant bit of the input byte
// (coefficient of x^7), S0 that of the output. The gate list is transcribed as data from
// the paper in its own notation (boolean_circuit.h parse_slp); sbox_circuit() renames the
// bits to the catalog's order (bit i = coefficient of x^i).
//
// The inverse S-box costs the same ANDs: S(x) = A(x^-1) gives x^-1 = A^-1(S(x)), hence
//     S^-1(y) = (A^-1(y))^-1 = A^-1(S(A^-1(y))),
// the forward circuit between two copies of the affine map A^-1 (XOR and NOT gates only).
#pragma once

#include "ciphers/common/boolean_circuit.h"

namespace cb::aes128 {

// S(x) on the 8 bits of x (input i, output i: coefficient of x^i). 34 AND, AND-depth 4.
const BooleanCircuit& sbox_circuit();
// S^-1(y) = A^-1(S(A^-1(y))), same ANDs and AND-depth.
const BooleanCircuit& inv_sbox_circuit();

}  // namespace cb::aes128
