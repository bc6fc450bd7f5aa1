// keccak.h: the Keccak-f[1600] permutation (FIPS 202, section 3), which Rasta's instance
// generation runs on a state it lays out itself (rasta.h: not a standard SHAKE input, so
// no XOF library's interface reaches it). The tests pin it to OpenSSL's SHAKE256, whose
// sponge is this permutation at rate 1088 (keccak_test in rasta_test.cpp).
//
// The state is 25 lanes of 64 bits, lane (x, y) at index x + 5 y, lane bytes little-endian
// (byte 8 i + b of the 200-byte state is byte b of lane i). One round is
//     theta  a[x][y] ^= c[x-1] ^ rot(c[x+1], 1),  c[x] = xor over y of a[x][y]
//     rho    a[x][y] = rot(a[x][y], r[x][y])      (the offsets (t+1)(t+2)/2 of section 3.2.2)
//     pi     a'[x][y] = a[x + 3y][x]
//     chi    a[x][y] ^= ~a[x+1][y] & a[x+2][y]
//     iota   a[0][0] ^= RC[round]
// for 24 rounds (indices mod 5).
#pragma once

#include <cstdint>

namespace cb {

void keccak_f1600(uint64_t lanes[25]);

}  // namespace cb
