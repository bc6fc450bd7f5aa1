// context.h: the BGV parameters made concrete: ring, slots, modulus chain, transforms.
//
// BGV with plaintext modulus p = 2 over R = Z[X]/Phi_m(X), m odd. A ciphertext at level l
// is a pair (c0, c1) in R_{Q_l}^2 with Q_l = q_0 q_1 ... q_{l-1} (the ciphertext primes,
// dropped from the top by modulus switching), and
//     c0 + c1 s = mu + 2 e  (mod Q_l),    mu the plaintext, nu = mu + 2e the noise,
// decryption being correct while |nu| < Q_l / 2 coefficient-wise.
//
// Chain (GHS, HElib): S small "adjusting" primes (the smallest NTT primes the ring
// allows, ~25-40 bits), then big ciphertext primes of b_ct <= 60 bits up to `bits` in
// all (L ciphertext primes); the L primes split into c consecutive "digits" D_1..D_c for
// key switching; K special primes of b_sp bits whose product P exceeds the largest digit
// by ks_margin_bits, so key-switching noise (about D_j * |e|) is divided away by P.
// A ciphertext lives modulo Q_T = prod_{i in T} q_i for a subset T of the ciphertext
// primes (as HElib's IndexSet): modulus switching drops big primes from the top and any
// of the small ones, so the modulus can shrink by about the small primes' size at a time
// instead of a whole 60-bit prime: the noise is kept close to its floor before each
// product, which is what saves capacity.
// Every prime q satisfies q = 1 (mod m N), N = bluestein_length(m), so Z_q holds the
// m-th roots of unity (for the ring) and the N-th roots (for Bluestein's convolution).
//
// Double-CRT: a polynomial is stored per prime as its values a(zeta_q^j) at the phi
// primitive m-th roots, j in Z_m^* increasing ("evaluation positions" t = 0..phi-1).
// The automorphism X -> X^k permutes the positions: new[t] = old[pos(k j_t mod m)].
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "engine/algebra/slot_ring.h"
#include "engine/algebra/zmstar.h"
#include "engine/util/bluestein.h"

namespace cb::bgv {

struct ContextParams {
  long m = 0;               // cyclotomic index, odd, 3 <= m <= 2^20
  long bits = 0;            // bits of the ciphertext modulus Q_L (the capacity)
  long c = 3;               // key-switching digits, 1 <= c <= L
  long hwt = 120;           // secret-key Hamming weight; 0 = dense ternary
  long ks_margin_bits = 20; // log2(P / largest digit)
  long small_primes = 2;    // S, adjusting primes at the bottom of the chain (0..3)
};

class Context {
 public:
  // Builds the ring, its slots, the primes and their transforms. Throws ParameterError
  // naming the value for even m, bits < 20, c < 1, hwt outside {0} U [1, phi].
  explicit Context(const ContextParams& params);

  const ContextParams& params() const { return params_; }
  const ZmStar& zmstar() const { return *zm_; }
  const SlotRing& slots() const;  // built on first use (factoring Phi_m mod 2 takes time)
  long m() const { return params_.m; }
  long phi() const { return zm_->phi(); }
  // Whether per-limb loops should run on several threads: below a few thousand
  // coefficients per limb a parallel region costs more than it saves.
  bool parallel() const { return zm_->phi() >= 4096; }

  long L() const { return L_; }  // number of ciphertext primes (small ones included)
  long S() const { return S_; }  // the small primes are indices 0..S-1
  long K() const { return K_; }  // number of special primes
  long num_primes() const { return L_ + K_; }
  uint64_t q(long i) const { return q_[i]; }  // i < L: ciphertext prime, else special
  double log2_q(long i) const { return log2_q_[i]; }
  const util::CyclotomicTransform& ntt(long i) const { return *ntt_[i]; }

  // The key-switching digits: prime indices of each D_j (consecutive ciphertext primes).
  const std::vector<std::vector<int>>& digits() const { return digits_; }
  std::vector<int> ciphertext_primes() const;  // 0..L-1, a fresh ciphertext's set
  std::vector<int> special_primes() const;     // L..L+K-1

  double log2_Q(const std::vector<int>& primes) const;  // log2 of the product
  double log2_Q() const;                               // of all ciphertext primes
  double log2_P() const;            // log2 of the special primes' product
  double log2_max_digit() const;    // log2 of the largest digit's product
  double security() const;          // HElib's formula on Q_L * P

  // Evaluation position of the unit j (j_t = j), or -1 when gcd(j, m) != 1.
  long position(long j) const { return pos_[j]; }
  // new[t] = old[perm[t]] realizes X -> X^k; k in Z_m^* (ParameterError otherwise).
  std::vector<int> automorphism_perm(long k) const;

 private:
  ContextParams params_;
  std::unique_ptr<ZmStar> zm_;
  mutable std::unique_ptr<SlotRing> slots_;
  mutable std::once_flag slots_once_;
  long L_ = 0, K_ = 0, S_ = 0;
  std::vector<uint64_t> q_;
  std::vector<double> log2_q_;
  std::vector<std::unique_ptr<util::CyclotomicTransform>> ntt_;
  std::vector<std::vector<int>> digits_;
  std::vector<long> pos_;
};

}  // namespace cb::bgv
