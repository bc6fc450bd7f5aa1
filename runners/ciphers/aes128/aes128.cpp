// aes128.cpp: FIPS-197 AES-128 with the S-box computed from GF(2^8) inversion and the
// affine map (see aes128.h for the derivations).
#include "ciphers/aes128/aes128.h"

#include "ciphers/reference/field_linalg.h"
#include "engine/algebra/subfield.h"

namespace cb::aes128 {

namespace {

uint8_t rotl8(uint8_t x, int k) { return uint8_t((x << k) | (x >> (8 - k))); }

// Linear part of A: M x = x ^ rotl1 ^ rotl2 ^ rotl3 ^ rotl4.
uint8_t affine_linear(uint8_t x) { return x ^ rotl8(x, 1) ^ rotl8(x, 2) ^ rotl8(x, 3) ^ rotl8(x, 4); }

const GF2n& aes_field() {
  static const GF2n F(8, kModulusLow);
  return F;
}

SboxPieces compute_pieces() {
  const GF2n& F = aes_field();
  SboxPieces p{};
  // M^-1 by table inversion of the bijection x -> M x.
  std::array<uint8_t, 256> m_inv{};
  for (int x = 0; x < 256; ++x) m_inv[affine_linear(uint8_t(x))] = uint8_t(x);
  p.inv_affine_constant = m_inv[kAffineConstant];
  for (int x = 0; x < 256; ++x) {
    const uint8_t s = uint8_t(affine_linear(uint8_t(F.inv(uint64_t(x)))) ^ kAffineConstant);
    p.sbox[x] = s;
    p.inv_sbox[s] = uint8_t(x);
  }
  const auto gamma = linearized_coefficients(F, [](uint64_t x) { return uint64_t(affine_linear(uint8_t(x))); });
  const auto delta = linearized_coefficients(F, [&m_inv](uint64_t y) { return uint64_t(m_inv[y]); });
  for (int j = 0; j < 8; ++j) {
    p.affine_gamma[j] = uint8_t(gamma[j]);
    p.inv_affine_gamma[j] = uint8_t(delta[j]);
  }
  std::vector<uint64_t> mc(16);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) mc[i * 4 + j] = kMixColumns[i][j];
  const auto imc = mat_inverse(F, mc);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) p.inv_mix_columns[i][j] = uint8_t(imc[i * 4 + j]);
  uint64_t r = 1;
  for (int i = 0; i < kRounds; ++i, r = F.mul(r, 2)) p.rcon[i] = uint8_t(r);
  return p;
}

void mix_with(Block& s, const uint8_t (*mat)[4]) {
  for (int c = 0; c < 4; ++c) {
    uint8_t col[4], out[4];
    for (int r = 0; r < 4; ++r) col[r] = s[4 * c + r];
    for (int r = 0; r < 4; ++r) {
      out[r] = 0;
      for (int k = 0; k < 4; ++k) out[r] ^= gf_mul(mat[r][k], col[k]);
    }
    for (int r = 0; r < 4; ++r) s[4 * c + r] = out[r];
  }
}

}  // namespace

const SboxPieces& sbox_pieces() {
  static const SboxPieces p = compute_pieces();
  return p;
}

uint8_t gf_mul(uint8_t a, uint8_t b) { return uint8_t(aes_field().mul(a, b)); }
uint8_t affine(uint8_t x) { return affine_linear(x) ^ kAffineConstant; }
uint8_t inv_affine(uint8_t y) {
  const auto& p = sbox_pieces();
  return uint8_t(eval_linearized(aes_field(), {p.inv_affine_gamma.begin(), p.inv_affine_gamma.end()}, y) ^
                 p.inv_affine_constant);
}

void sub_bytes(Block& s) {
  const auto& t = sbox_pieces().sbox;
  for (auto& b : s) b = t[b];
}

void inv_sub_bytes(Block& s) {
  const auto& t = sbox_pieces().inv_sbox;
  for (auto& b : s) b = t[b];
}

std::array<int, 16> shift_rows_source() {
  std::array<int, 16> src{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) src[r + 4 * c] = r + 4 * ((c + r) % 4);
  return src;
}

void shift_rows(Block& s) {
  static const auto src = shift_rows_source();
  const Block old = s;
  for (int i = 0; i < 16; ++i) s[i] = old[src[i]];
}

void inv_shift_rows(Block& s) {
  static const auto src = shift_rows_source();
  const Block old = s;
  for (int i = 0; i < 16; ++i) s[src[i]] = old[i];
}

void mix_columns(Block& s) { mix_with(s, kMixColumns); }

void inv_mix_columns(Block& s) {
  const auto& im = sbox_pieces().inv_mix_columns;
  uint8_t mat[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) mat[i][j] = im[i][j];
  mix_with(s, mat);
}

void add_round_key(Block& s, const Block& k) {
  for (int i = 0; i < 16; ++i) s[i] ^= k[i];
}

std::array<Block, kRounds + 1> expand_key(const Block& key) {
  const auto& p = sbox_pieces();
  std::array<std::array<uint8_t, 4>, 4 * (kRounds + 1)> w{};
  for (int i = 0; i < 4; ++i)
    for (int b = 0; b < 4; ++b) w[i][b] = key[4 * i + b];
  for (int i = 4; i < 4 * (kRounds + 1); ++i) {
    std::array<uint8_t, 4> t = w[i - 1];
    if (i % 4 == 0) {
      t = {p.sbox[t[1]], p.sbox[t[2]], p.sbox[t[3]], p.sbox[t[0]]};  // SubWord(RotWord)
      t[0] ^= p.rcon[i / 4 - 1];
    }
    for (int b = 0; b < 4; ++b) w[i][b] = w[i - 4][b] ^ t[b];
  }
  std::array<Block, kRounds + 1> rk{};
  for (int r = 0; r <= kRounds; ++r)
    for (int i = 0; i < 4; ++i)
      for (int b = 0; b < 4; ++b) rk[r][4 * i + b] = w[4 * r + i][b];
  return rk;
}

Aes128::Aes128(const Block& key) : round_keys_(expand_key(key)) {}

std::array<Block, kRounds> Aes128::round_states(const Block& plaintext) const {
  std::array<Block, kRounds> out{};
  Block s = plaintext;
  add_round_key(s, round_keys_[0]);
  for (int r = 1; r <= kRounds; ++r) {
    sub_bytes(s);
    shift_rows(s);
    if (r != kRounds) mix_columns(s);
    add_round_key(s, round_keys_[r]);
    out[r - 1] = s;
  }
  return out;
}

Block Aes128::encrypt(const Block& plaintext) const { return round_states(plaintext)[kRounds - 1]; }

Block Aes128::decrypt(const Block& ciphertext) const {
  Block s = ciphertext;
  for (int r = kRounds; r >= 1; --r) {
    add_round_key(s, round_keys_[r]);
    if (r != kRounds) inv_mix_columns(s);
    inv_shift_rows(s);
    inv_sub_bytes(s);
  }
  add_round_key(s, round_keys_[0]);
  return s;
}

}  // namespace cb::aes128
