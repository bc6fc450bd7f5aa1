// context.h: the BGV parameters made concrete: ring, slots, modulus chain, transforms.
//
// BGV with a prime plaintext modulus p (2 by default; any prime 2 <= p < 2^61 not dividing
// m) over R = Z[X]/Phi_m(X), m odd, or m = 2^k at odd p (Phi_m = X^(m/2) + 1, the
// negacyclic transform; at p = 2 these rings have no slots). A ciphertext at level l is a pair (c0, c1) in
// R_{Q_l}^2 with Q_l = q_0 q_1 ... q_{l-1} (the ciphertext primes, dropped from the top by
// modulus switching), and
//     c0 + c1 s = f mu + p e  (mod Q_l),    mu the plaintext in R_p, nu = f mu + p e the noise,
// f in Z_p^* the ciphertext's plaintext factor (ciphertext.h: modulus switching by T
// multiplies it by T^-1 mod p; always 1 at p = 2), decryption being correct while
// |nu| < Q_l / 2 coefficient-wise, and reading mu = f^-1 [nu]_{Q_l} mod p.
//
// The chain of primes (small ladder primes, big ciphertext primes, c digits, K special
// primes) is chain.h's; a ciphertext lives modulo Q_T = prod_{i in T} q_i for a subset T
// of the small and ciphertext primes (as HElib's IndexSet), chosen by levels.h; keys and
// fresh ciphertexts live modulo the ciphertext primes (and P) only.
// Double-CRT: a polynomial is stored per prime as its values a(zeta_q^j) at the phi
// primitive m-th roots, j in Z_m^* increasing ("evaluation positions" t = 0..phi-1).
// The automorphism X -> X^k permutes the positions: new[t] = old[pos(k j_t mod m)].
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/algebra/prime_slot_ring.h"
#include "engine/algebra/slot_ring.h"
#include "engine/bgv/chain.h"
#include "engine/algebra/zmstar.h"
#include "engine/util/cyclotomic_transform.h"

namespace cb::bgv {

struct ContextParams {
  long m = 0;               // cyclotomic index: odd, 3 <= m <= 2^20, or m = 2^k (4 <= m <= 2^20) at odd p
  long bits = 0;            // bits of the ciphertext modulus Q (the capacity; small primes not counted)
  long c = 3;               // key-switching digits, 1 <= c <= L - S
  long hwt = 120;           // secret-key Hamming weight; 0 = dense ternary
  long ks_margin_bits = ChainParams{}.ks_margin_bits;  // log2(P / largest digit)
  long small_primes = ChainParams{}.small_primes;  // S, transient ladder primes (chain.h)
  long p = 2;               // plaintext modulus, prime, 2 <= p < 2^61, p does not divide m
                            // (last: the positional initializers {m, bits, c, hwt, ...} stay valid)
};

class Context {
 public:
  // Builds the ring, its slots, the primes and their transforms. Throws ParameterError
  // naming the value for even m, bits < 20, c < 1, hwt outside {0} U [1, phi]; and, before
  // any work, for p not a prime in [2, 2^61) or p dividing m; after the chain is chosen
  // (before the transforms), for p not below Q (no fresh ciphertext would decrypt) or p
  // equal to a chain prime (modulus switching needs every q_i invertible mod p).
  explicit Context(const ContextParams& params);

  const ContextParams& params() const { return params_; }
  const ZmStar& zmstar() const { return *zm_; }
  // The slots of R_2 (slot_ring.h), built on first use (factoring Phi_m mod 2 takes time).
  // p = 2 only: at p > 2 it throws ParameterError naming prime_slots().
  const SlotRing& slots() const;
  // The slots of R_p at p > 2, GF(p^d) each (algebra/prime_slot_ring.h: encode gives the
  // coefficients for Plaintext::from_coeffs, decode reads Decryptor::Result::coeffs), built
  // on first use; ParameterError at p = 2 (slots()) and where PrimeSlotRing refuses p (NTL's
  // single-precision bound, 2^60: IAIK's 60-bit p fits).
  const PrimeSlotRing& prime_slots() const;
  long m() const { return params_.m; }
  long p() const { return params_.p; }  // plaintext modulus
  long phi() const { return zm_->phi(); }
  // Whether per-limb loops should run on several threads: below a few thousand
  // coefficients per limb a parallel region costs more than it saves, and inside another
  // parallel region (lanes of a state, backend/lanes.h; keys generated side by side) the
  // enclosing threads already hold the cores.
  bool parallel() const;

  const Chain& chain() const { return chain_; }
  long L() const { return chain_.L(); }  // small and ciphertext primes: indices 0..L-1
  long S() const { return chain_.S(); }  // the small primes are indices 0..S-1
  long K() const { return chain_.K(); }  // number of special primes
  long num_primes() const { return chain_.num_primes(); }
  uint64_t q(long i) const { return chain_.q(i); }  // i < L: ciphertext prime, else special
  double log2_q(long i) const { return chain_.log2_q(i); }
  const util::CyclotomicTransform& ntt(long i) const { return *ntt_[i]; }
  // Bytes of all primes' transform tables (memory.h predicts the same from m and the chain).
  size_t transform_bytes() const;
  // How many primes use each transform algorithm (CyclotomicTransform::name: "bluestein",
  // "prime_factor"), for the records: timings depend on it.
  std::map<std::string, long> transform_algorithms() const;

  // The key-switching digits: prime indices of each D_j (consecutive ciphertext primes).
  const std::vector<std::vector<int>>& digits() const { return chain_.digits(); }
  std::vector<int> ciphertext_primes() const { return chain_.ciphertext_primes(); }  // S..L-1
  std::vector<int> small_primes() const { return chain_.small_primes(); }  // 0..S-1
  std::vector<int> special_primes() const { return chain_.special_primes(); }

  double log2_Q(const std::vector<int>& primes) const { return chain_.log2_Q(primes); }
  double log2_Q() const { return chain_.log2_Q(); }  // of the ciphertext primes (Q)
  double log2_P() const { return chain_.log2_P(); }  // of the special primes
  double log2_max_digit() const { return chain_.log2_max_digit(); }
  double security() const;          // HElib's formula on Q_L * P

  // Evaluation position of the unit j (j_t = j), or -1 when gcd(j, m) != 1.
  long position(long j) const { return pos_[j]; }
  // new[t] = old[perm[t]] realizes X -> X^k; k in Z_m^* (ParameterError otherwise).
  // Computed once per k and kept: every automorphism of a circuit asked for it, serially.
  const std::vector<int>& automorphism_perm(long k) const;

 private:
  static ChainParams check(const ContextParams& p, long phi);
  static const ContextParams& check_p(const ContextParams& p);  // p's own constraints, first
  ContextParams params_;
  std::unique_ptr<ZmStar> zm_;
  mutable std::unique_ptr<SlotRing> slots_;
  mutable std::once_flag slots_once_;
  mutable std::unique_ptr<PrimeSlotRing> prime_slots_;
  mutable std::once_flag prime_slots_once_;
  Chain chain_;
  std::vector<std::unique_ptr<util::CyclotomicTransform>> ntt_;
  std::vector<long> pos_;
  mutable std::mutex perms_mu_;
  mutable std::map<long, std::vector<int>> perms_;  // automorphism_perm's, by k mod m
};

}  // namespace cb::bgv
