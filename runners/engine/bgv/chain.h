// chain.h: the modulus chain of a ring: which primes, how many bits, how they are grouped.
//
// Every prime q satisfies q = 1 (mod step): for odd m, step = m N, N = bluestein_length(m),
// so Z_q holds the m-th roots of unity (for the ring) and the N-th roots (for Bluestein's
// convolution; the prime-factor algorithm's lengths divide N, util/cyclotomic_transform.h);
// for m = 2^k, step = m, the m-th roots alone (the negacyclic NTT of length N = phi = m/2
// twists by a primitive m-th root, util/negacyclic.h). The smallest such primes have about
// log2(step) + 2 bits. (So a power-of-two ring's ladder may hold a Fermat prime, a
// plaintext modulus the F_p ciphers use: 17 at m = 8, 257 at m = 128, 65537 at m = 32768;
// the context must refuse a plaintext modulus p equal to a chain prime.)
//
// Prime indices 0 .. L+K-1, in three kinds (HElib's smallPrimes, ctxtPrimes, specialPrimes):
// - 0 .. S-1: S small "ladder" primes, of consecutive bit sizes b0, b0+1, ..., b0+S-1 from
//   the smallest size the ring allows. They are transient: no key and no fresh ciphertext
//   is defined modulo them. Before a product (levels.h) a ciphertext at rest modulo big
//   primes drops big primes from the top and takes any subset of the small ones, so the
//   modulus can be set within a few bits of any target (the subset sums of S consecutive
//   sizes cover whole ranges of bits); after the product, before relinearization, the
//   small primes are dropped again. HElib keeps 6-7 such primes for the same reason.
// - S .. L-1: the ciphertext primes, whose product Q has about `bits` bits: L - S big
//   primes of the largest fast size (50 bits with AVX-512 IFMA, else 60, util/primes.h),
//   the last (top) one holding the remainder of `bits` (at least the smallest prime size,
//   so log2 Q may exceed `bits` by less than that size). Fresh ciphertexts and the keys
//   live modulo Q (times P).
// - L .. L+K-1: K special primes of b_sp bits. Key switching (keys.h) splits the
//   ciphertext primes into c consecutive digits D_1..D_c whose bit sizes are as equal as
//   possible, and P exceeds the largest digit by ks_margin_bits, so the digits' noise
//   (about D_j |e|) is divided away by P.
// Security (security.h) counts Q P: every LWE sample an attacker sees (public key,
// key-switching keys, fresh ciphertexts) lives modulo Q P; what is modulo a small prime is
// computed from them. This is HElib's convention (docs/references.md §2), and the reason
// the small primes must never enter a key.
// A Chain is arithmetic only (no transforms): the planner builds many while it searches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cb::bgv {

struct ChainParams {
  long m = 0;                // cyclotomic index, odd with 3 <= m <= 2^20, or m = 2^k, 4 <= m <= 2^20
  long bits = 0;             // bits of the ciphertext modulus Q (big primes), >= 20
  long c = 3;                // key-switching digits, 1 <= c <= L - S
  long small_primes = 8;     // S, transient ladder primes (0..8)
  long ks_margin_bits = 20;  // log2(P / largest digit), 0..120
  // The plaintext modulus: never taken as a chain prime (modulus switching needs every q_i
  // invertible mod p; p = 65537 is itself 1 mod every m = 2^k <= 65536, the ladder's size).
  uint64_t p = 2;
};

class Chain {
 public:
  // Throws ParameterError naming the value: an even m that is not a power of two, m out of
  // range, bits < 20, c < 1 or c > L, S or the margin out of range.
  explicit Chain(const ChainParams& p);

  const ChainParams& params() const { return p_; }
  long m() const { return p_.m; }
  long N() const { return N_; }                // NTT length: bluestein_length(m), or phi for m = 2^k
  uint64_t step() const { return step_; }      // every prime is 1 mod step: m N (odd m), m (m = 2^k)
  long L() const { return L_; }                // small and ciphertext primes: indices 0..L-1
  long S() const { return S_; }                // small primes: indices 0..S-1
  long K() const { return K_; }                // special primes: indices L..L+K-1
  long num_primes() const { return L_ + K_; }
  uint64_t q(long i) const { return q_[i]; }
  double log2_q(long i) const { return log2_q_[i]; }
  const std::vector<uint64_t>& primes() const { return q_; }
  const std::vector<std::vector<int>>& digits() const { return digits_; }

  std::vector<int> ciphertext_primes() const;  // S..L-1: fresh ciphertexts, keys
  std::vector<int> small_primes() const;       // 0..S-1
  std::vector<int> special_primes() const;     // L..L+K-1
  double log2_Q(const std::vector<int>& primes) const;
  double log2_Q() const;          // the ciphertext primes (Q; small ones not included)
  double log2_P() const;          // the special primes
  double log2_max_digit() const;
  // How the chain was built, in one line (sizes of each kind of prime, digits, P).
  std::string describe() const;

 private:
  ChainParams p_;
  long N_ = 0, L_ = 0, S_ = 0, K_ = 0;
  uint64_t step_ = 0;
  std::vector<uint64_t> q_;
  std::vector<double> log2_q_;
  std::vector<std::vector<int>> digits_;
};

}  // namespace cb::bgv
