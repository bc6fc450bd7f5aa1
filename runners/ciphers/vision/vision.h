// vision.h: plaintext Vision (Aly, Ashur, Ben-Sasson, Dhooghe, Szepieniec, ToSC 2020(3))
// for the four 128-bit-block instances GF(2^n)^m, (n, m) in {(8,16), (16,8), (32,4),
// (64,2)}, following the authors' reference code as docs/vision.md restates it (section numbers
// below refer to that page).
//
// State: m elements of GF(2^n) = GF(2)[x]/f (uint64_t, bit i = coefficient of x^i).
// Vision runs a key state k and a data state d through the same 2*Nb steps (§6):
//     kappa_0 = c0,  k_0 = K + kappa_0,  d_0 = P + k_0
//     step s = 1..2Nb:  A = B^-1 for odd s, B for even s
//         kappa_s = CM kappa_(s-1) + CC
//         k_s = MDS A(inv(k_(s-1))) + kappa_s
//         d_s = MDS A(inv(d_(s-1))) + k_s
//     ciphertext = d_(2Nb)
// with inv(x) = x^(2^n - 2) (0 -> 0) and the affine linearized maps
//     B(x)    = b0 + b1 x + b2 x^2 + b3 x^4,
//     B^-1(y) = c0 + sum_{j=1..n} c_j y^(2^(j-1))        (§3).
// Round r consists of steps 2r-1 and 2r; there is no special last round, so the
// r-round cipher is the full one stopped after step 2r (the FHE paper ran 13 rounds of
// GF(2^64)^2, whose spec count is 18). Decryption inverts each step (§6):
//     d_(s-1) = inv(A^-1(MDS^-1 (d_s + k_s))),   P = d_0 + k_0.
//
// Byte encoding (§7): each element as n/8 bytes big-endian, concatenated in index order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/algebra/subfield.h"

namespace cb {

// The constants of one Vision instance, generated into vision_params.inc by
// vision_constants.py (which derives them from SHAKE256("winteriscoming") per §1-§5).
struct VisionParams {
  long n;                        // field degree, GF(2^n)
  long m;                        // state size in field elements; block = n*m bits
  uint64_t modulus_low;          // field modulus f without its x^n term
  long rounds;                   // Nb = max(10, 2 ceil((s + m + 8) / (8m))), s = 128
  std::array<uint64_t, 4> B;     // b0..b3: B(x) = b0 + b1 x + b2 x^2 + b3 x^4
  std::vector<uint64_t> B_inv;   // c0, c1..cn: B^-1(y) = c0 + sum_j c_j y^(2^(j-1))
  std::vector<uint64_t> c0;      // initial_constant kappa_0 (m)
  std::vector<uint64_t> CM;      // constants_matrix (m x m, row-major)
  std::vector<uint64_t> CC;      // constants_constant (m)
  std::vector<uint64_t> MDS;     // MDS = V_L^-1 V_R, V[i][j] = z^(i j) (m x m, row-major)
  uint64_t z;                    // Sage's primitive_element() of the field (§5)

  // The instance with field degree n and state size m; throws ParameterError for any
  // other pair.
  static const VisionParams& get(long n, long m);
  static const std::vector<VisionParams>& all();  // the four instances, n increasing
};

class Vision {
 public:
  using State = std::vector<uint64_t>;

  // Throws ParameterError when the constants have the wrong sizes or MDS is singular.
  explicit Vision(const VisionParams& params);

  const VisionParams& params() const { return p_; }
  const GF2n& field() const { return F_; }
  long n() const { return p_.n; }
  long m() const { return p_.m; }
  long rounds() const { return p_.rounds; }

  // The pieces of a step.
  uint64_t B(uint64_t x) const;        // b0 + b1 x + b2 x^2 + b3 x^4
  uint64_t B_inv(uint64_t y) const;    // c0 + sum_j c_j y^(2^(j-1))
  State inverse(const State& x) const;  // elementwise x^(2^n - 2)
  State affine(const State& x, long step) const;      // B^-1 for odd step, B for even
  State affine_inv(const State& x, long step) const;  // the inverse of affine(., step)
  State mds(const State& x) const;
  State mds_inv(const State& x) const;
  const std::vector<uint64_t>& mds_inverse_matrix() const { return mds_inv_; }
  // kappa_0..kappa_(2R): the key-schedule injection constants.
  std::vector<State> injections(long rounds) const;

  // rounds = 0 means params().rounds; otherwise 1 <= rounds <= params().rounds
  // (ParameterError outside). Key and states have m elements, each < 2^n.
  std::vector<State> key_schedule(const State& key, long rounds = 0) const;  // k_0..k_(2R)
  State encrypt(const State& key, const State& plaintext, long rounds = 0) const;
  State decrypt(const State& key, const State& ciphertext, long rounds = 0) const;

  struct Trace {
    std::vector<State> subkeys;       // k_0..k_(2R)
    std::vector<State> step_states;   // d_0..d_(2R)
    std::vector<State> round_states;  // d_2, d_4, ..., d_(2R): after rounds 1..R
  };
  Trace trace(const State& key, const State& plaintext, long rounds = 0) const;

  // Byte encoding (§7); throws ParameterError unless bytes.size() == n*m/8.
  State from_bytes(const std::vector<uint8_t>& bytes) const;
  std::vector<uint8_t> to_bytes(const State& s) const;

 private:
  long checked_rounds(long rounds) const;
  void check_state(const State& s, const char* what) const;
  // One step s without the key addition: MDS A_s(inv(x)).
  State step(const State& x, long s) const;

  VisionParams p_;
  GF2n F_;
  std::vector<uint64_t> mds_inv_;
};

}  // namespace cb
