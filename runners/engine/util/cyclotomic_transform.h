// cyclotomic_transform.h: the double-CRT transform modulo one RNS prime, by whichever of
// two algorithms does less work for odd m, or the negacyclic NTT for m = 2^k.
//
// Double-CRT stores an element a of Z[X]/Phi_m(X), for each prime q, as its phi(m)
// values a(zeta^j), j in Z_m^* (increasing), zeta = primitive_root_of_unity(m, q): the
// roots of Phi_m mod q are exactly those zeta^j. forward() evaluates a polynomial of
// degree < m there; inverse() returns the polynomial b of degree < m with those values on
// Z_m^* and zero at the other m-th roots (congruent to the element mod Phi_m).
//
// Power-of-two rings m = 2^k (Phi_m = X^(m/2) + 1, Z_m^* the odd j) take the negacyclic
// transform of length phi = m/2 (negacyclic.h): the same positions (j = 2t + 1 at t), a
// degree < m input folded modulo X^phi + 1, and an inverse that returns the reduced
// coefficients (degree < phi, zeros up to m) rather than the polynomial vanishing at the
// even powers of zeta: negacyclic.h says why (half the coefficients, and roundings the
// noise bounds count correctly). Either is congruent to the element modulo Phi_m, which
// is all the callers (key switching, modulus switching, decryption) need. Its primes need
// q = 1 (mod m) only. Its count (NegacyclicTransform::cost, in Bluestein's unit) tracks the
// time at Bluestein's rate (bench_ntt, 50-bit primes, loaded machine: 0.29 ns a count at
// m = 16384 and 65536, 0.27 at 131072, against 0.29-0.30 for Bluestein's at m = 53261):
// m = 65536 (phi = 32768) takes 0.090 ms forward, 0.085 inverse, where the odd m = 53261
// (phi = 46080) takes 0.31 (prime-factor) or 0.69-0.73 (Bluestein).
//
// Two algorithms compute the same values, word for word:
//  - Bluestein's (bluestein.h), for every odd m: one cyclic convolution of power-of-two
//    length N >= 2m - 1, about N log2 N butterflies;
//  - the prime-factor algorithm (prime_factor.h), for squarefree m = p_1 ... p_k: one
//    pass per p_d of Rader convolutions of length p_d - 1 (power-of-two NTTs, split by
//    Agarwal-Cooley with short direct convolutions of the odd part, or padded), run over
//    all the other coordinates at once.
// The choice (choose()) compares their operation counts (bluestein_cost(),
// PrimeFactorTransform::cost()) and takes the prime-factor algorithm when it needs less
// than kPrimeFactorShare of Bluestein's work and the modulus takes the IFMA kernels (its
// scalar kernels are slower than Bluestein's AVX-512 ones). The counts track the measured
// times, and overstate the prime-factor ones a little (bench_ntt, BENCHMARKS.md
// "Transforms", loaded machine): count / time against Bluestein at m = 4369 = 17 * 257
// 0.29 / 0.28, m = 3205 = 5 * 641 0.72 / 0.55-0.59, m = 49955 = 5 * 97 * 103 0.64 /
// 0.56-0.57, m = 53261 = 13 * 17 * 241 0.60 / 0.49, m = 148733 = 13 * 17 * 673 0.45 /
// 0.30-0.31, m = 163455 = 3 * 5 * 17 * 641 0.24 / 0.19-0.20, m = 164737 = 257 * 641 0.38 /
// 0.37-0.40. Both need q = 1 (mod m N_p) for their
// lengths; the chain's primes (q = 1 mod m N, N = bluestein_length(m), chain.h) serve
// either, since every N_p divides N.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/util/bluestein.h"
#include "engine/util/negacyclic.h"
#include "engine/util/prime_factor.h"

namespace cb::util {

class CyclotomicTransform {
 public:
  enum class Algorithm { automatic, bluestein, prime_factor, negacyclic };

  // Precomputes for the odd m >= 3 and the prime q < 2^61 with q = 1 (mod m*N),
  // N = bluestein_length(m), or for m = 2^k >= 4 and q = 1 (mod m) (step(m) in both
  // cases). Throws ParameterError otherwise, when prime_factor is asked for an m that is
  // not squarefree, or when an algorithm is asked that does not apply to m (the odd m's two
  // for 2^k, negacyclic for odd m); an even m that is not a power of two is refused naming
  // both kinds.
  CyclotomicTransform(long m, uint64_t q, Algorithm algorithm = Algorithm::automatic);

  // values[t] = a(zeta^j_t) for t < phi, j_t = zmstar()[t], where a has the ncoeffs
  // coefficients coeffs[0..ncoeffs), 0 <= ncoeffs <= m. Outputs in [0, q). Inputs may be
  // any words (e.g. residues in [0, 2q) left lazy). values must not alias coeffs.
  void forward(const uint64_t* coeffs, long ncoeffs, uint64_t* values) const {
    if (nc_) {
      nc_->forward(coeffs, ncoeffs, values);
    } else if (pf_) {
      pf_->forward(coeffs, ncoeffs, values);
    } else {
      bl_->forward(coeffs, ncoeffs, values);
    }
  }
  // coeffs[0..m) = b with b(zeta^j_t) = values[t] on Z_m^* and b(zeta^j) = 0 for the other
  // j. Outputs in [0, q); inputs may be any words. No aliasing. For m = 2^k: b of degree
  // < phi (coeffs[phi..m) = 0) instead, see above.
  void inverse(const uint64_t* values, uint64_t* coeffs) const {
    if (nc_) {
      nc_->inverse(values, coeffs);
    } else if (pf_) {
      pf_->inverse(values, coeffs);
    } else {
      bl_->inverse(values, coeffs);
    }
  }

  // The algorithm automatic picks for m when q takes the IFMA kernels (fast), and the
  // one this transform uses. negacyclic for every m = 2^k.
  static Algorithm choose(long m, bool fast);
  // What every prime q of a transform for m must be 1 modulo: m N (odd m, N =
  // bluestein_length(m)) or m (m = 2^k). ParameterError for other m, naming the constraint.
  static uint64_t step(long m);
  // What automatic takes for m and the prime q; and for a chain's usual primes (below
  // kMaxIfmaModulus), as cost(m) prices.
  static Algorithm algorithm_for(long m, uint64_t q);
  static Algorithm algorithm_for(long m);
  Algorithm algorithm() const {
    return nc_ ? Algorithm::negacyclic : pf_ ? Algorithm::prime_factor : Algorithm::bluestein;
  }
  static const char* name(Algorithm a);
  // Operation count of Bluestein's transform (the unit of PrimeFactorTransform::cost()).
  static double bluestein_cost(long m);
  // Operation count of the transform automatic builds for m and the prime q (the unit of
  // bluestein_cost): what one forward or inverse transform of one limb costs, the cost
  // model's transform size (sage/cbparams/cost_model.py, through chain_info).
  static double cost(long m, uint64_t q);
  // The same for the primes a chain usually has (below kMaxIfmaModulus): no prime needed,
  // for the explorer's estimates over thousands of rings.
  static double cost(long m);
  // Below this share of Bluestein's count, the prime-factor algorithm is chosen.
  static constexpr double kPrimeFactorShare = 0.9;

  uint64_t q() const { return q_; }
  uint64_t zeta() const { return zeta_; }  // the primitive m-th root of unity used
  // How many leading coefficients of inverse()'s output may be nonzero: m for odd m, phi
  // for m = 2^k (the reduced coefficients, zeros above). Callers that lift, round and
  // transform back inverse()'s coefficients may stop there: forward() of coeff_count()
  // of them is the element again.
  long coeff_count() const { return nc_ ? m_ / 2 : m_; }
  long m() const { return m_; }
  long phi() const { return long(zmstar().size()); }
  bool fast() const { return fast_; }  // the IFMA kernels (q < 2^50, IFMA compiled)
  // Z_m^* = {j in [1, m) : gcd(j, m) = 1}, increasing: the order of the values.
  const std::vector<long>& zmstar() const { return bl_ ? bl_->zmstar() : nc_ ? nc_->zmstar() : *zmstar_; }

  // Bytes of this transform's own tables; the tables the prime-factor transforms of one m
  // share (its index tables and Z_m^*, kept once); and the model of both for a chain's
  // primes: the sum over the primes plus the shared tables once when any prime uses the
  // prime-factor algorithm.
  size_t bytes() const;
  static size_t shared_bytes(long m, long phi);
  static size_t tables_bytes(long m, long phi, const std::vector<uint64_t>& primes);

 private:
  long m_;
  uint64_t q_, zeta_;
  bool fast_;
  std::shared_ptr<const std::vector<long>> zmstar_;  // prime-factor: shared per m (Bluestein keeps its own)
  std::unique_ptr<BluesteinTransform> bl_;
  std::unique_ptr<PrimeFactorTransform> pf_;
  std::unique_ptr<NegacyclicTransform> nc_;  // m = 2^k
};

}  // namespace cb::util
