// aes128.h: plaintext AES-128 (FIPS-197), the reference the homomorphic circuit is checked
// against, with every intermediate state and the constants the circuit is built from.
//
// The state is 16 bytes in FIPS-197 input order: byte i is state[row i mod 4][column
// i div 4]. Bytes are elements of GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1), bit i =
// coefficient of x^i. One round is SubBytes, ShiftRows, MixColumns, AddRoundKey; the
// last (10th) round has no MixColumns.
//
// SubBytes is S(x) = A(x^254) with the affine map A(x) = M x + 0x63 over GF(2)^8, where
// M is the circulant matrix of FIPS-197 eq. (5.1): bit i of M x is
// x_i + x_(i+4) + x_(i+5) + x_(i+6) + x_(i+7) (indices mod 8), i.e.
//     M x = x ^ rotl(x,1) ^ rotl(x,2) ^ rotl(x,3) ^ rotl(x,4).
// Nothing is pasted: the S-box table is computed from GF(2^8) inversion and A, and the
// linear part of A is written as a linearized polynomial over GF(2^8),
//     A(x) = sum_{j<8} gamma_j x^(2^j) + 0x63,
// (field_linalg.h: gamma = Moore^-1 (M x^i)_i), which is how GHS 2012 evaluate SubBytes
// homomorphically: an inversion, then eight Frobenius maps times constants. Likewise
// A^-1(y) = sum_j delta_j y^(2^j) + A^-1(0) with A^-1(0) = M^-1 0x63 = 0x05.
// Expected values (Daemen-Rijmen, The Design of Rijndael, §3.4.1):
//     gamma = 05 09 f9 25 f4 01 b5 8f,   delta = 05 fe 7f 5a 78 59 db 6e.
// MixColumns multiplies each column by the circulant matrix (02 03 01 01); its inverse
// (0e 0b 0d 09) is derived here by Gauss-Jordan over GF(2^8).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace cb::aes128 {

using Block = std::array<uint8_t, 16>;

constexpr int kRounds = 10;
constexpr uint64_t kModulusLow = 0x1b;    // x^8 + x^4 + x^3 + x + 1 without x^8
constexpr uint8_t kAffineConstant = 0x63;  // FIPS-197 eq. (5.1)
// MixColumns: column' = kMixColumns * column over GF(2^8) (FIPS-197 eq. (5.6)).
constexpr uint8_t kMixColumns[4][4] = {{2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}};

// The S-box and its pieces, computed once on first use (see the header comment).
struct SboxPieces {
  std::array<uint8_t, 256> sbox;             // S(x) = A(x^254)
  std::array<uint8_t, 256> inv_sbox;         // S^-1(y) = (A^-1(y))^254
  std::array<uint8_t, 8> affine_gamma;       // A(x) = sum_j gamma_j x^(2^j) + 0x63
  std::array<uint8_t, 8> inv_affine_gamma;   // A^-1(y) = sum_j delta_j y^(2^j) + inv_affine_constant
  uint8_t inv_affine_constant;               // A^-1(0) = M^-1 0x63 = 0x05
  std::array<std::array<uint8_t, 4>, 4> inv_mix_columns;  // kMixColumns^-1 = circ(0e 0b 0d 09)
  std::array<uint8_t, kRounds> rcon;         // x^(i-1) in GF(2^8), i = 1..10
};
const SboxPieces& sbox_pieces();

uint8_t gf_mul(uint8_t a, uint8_t b);  // product in GF(2^8)
uint8_t affine(uint8_t x);             // A(x) = M x + 0x63 (bit-matrix definition)
uint8_t inv_affine(uint8_t y);         // A^-1

// The round steps, in place on a state in FIPS-197 input order.
void sub_bytes(Block& s);
void inv_sub_bytes(Block& s);
void shift_rows(Block& s);      // row r rotates left by r: new[r][c] = old[r][(c + r) mod 4]
void inv_shift_rows(Block& s);
void mix_columns(Block& s);
void inv_mix_columns(Block& s);
void add_round_key(Block& s, const Block& k);
// The ShiftRows permutation as an index map: after ShiftRows, byte i holds old byte src[i].
std::array<int, 16> shift_rows_source();

// FIPS-197 §5.2: round keys 0..10 as 16-byte blocks (words w[4r..4r+3]).
std::array<Block, kRounds + 1> expand_key(const Block& key);

class Aes128 {
 public:
  explicit Aes128(const Block& key);

  const std::array<Block, kRounds + 1>& round_keys() const { return round_keys_; }
  Block encrypt(const Block& plaintext) const;
  Block decrypt(const Block& ciphertext) const;
  // States after rounds 1..10 (after AddRoundKey); the last one is the ciphertext.
  std::array<Block, kRounds> round_states(const Block& plaintext) const;

 private:
  std::array<Block, kRounds + 1> round_keys_;
};

}  // namespace cb::aes128
