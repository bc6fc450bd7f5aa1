// canonical.h: the canonical-embedding norm of an integer polynomial.
//
// For a in Z[X]/Phi_m(X) the canonical embedding sends a to the vector of its complex
// values a(zeta^j), zeta = e^(2 pi i/m), j in Z_m^*; its infinity norm
//     ||a||^can = max_(j in Z_m^*) |a(e^(2 pi i j/m))|
// bounds how much a multiplication by a can grow noise: ||a b||^can <= ||a||^can ||b||^can.
// The value is the same for every representative of a mod Phi_m, so a may be given with
// any degree < m.
//
// We evaluate a at all m-th roots with a complex-double Bluestein FFT, exactly as
// bluestein.h does modulo q: with h = zeta^((m+1)/2) (so h^2 = zeta, h^m = 1),
//     a(zeta^j) = h^(j^2) sum_i (a_i h^(i^2)) h^(-(j-i)^2),
// a cyclic convolution of length N = bluestein_length(m) done with radix-2 FFTs. The
// chirp angles are reduced exactly in integers (2 pi (k^2 (m+1)/2 mod m) / m) and every
// twiddle is computed directly with cos/sin, so the relative error of the result is of
// order 1e-15 * log2(N) * (sum |a_i|) / ||a||^can; callers that need a rigorous bound
// should add a small relative margin (1e-9 is ample for the engine's coefficients).
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace cb::util {

// Precomputes the chirp and its FFT for one m; operator() is const and thread-safe.
class CanonicalNorm {
 public:
  // Throws ParameterError unless m is odd with 3 <= m <= 2^24 or a power of two with
  // 4 <= m <= 2^24.
  explicit CanonicalNorm(long m);

  // ||a||^can for the integer polynomial with coefficients coeffs (coeffs.size() <= m).
  double operator()(const std::vector<long>& coeffs) const;
  // The whole embedding's magnitudes: |a(zeta^j)| for j in Z_m^* increasing (the
  // engine's evaluation positions t = 0..phi-1), coefficients given as doubles.
  std::vector<double> magnitudes(const std::vector<double>& coeffs) const;
  std::vector<double> magnitudes(const std::vector<long>& coeffs) const;
  // The magnitudes of two real polynomials a, b from one evaluation of a + i b: with
  // Z_j = a(zeta^j) + i b(zeta^j) and a, b real, conj(Z_(m-j)) = a(zeta^j) - i b(zeta^j),
  // so a(zeta^j) = (Z_j + conj(Z_(m-j))) / 2 and b(zeta^j) = (Z_j - conj(Z_(m-j))) / 2i.
  // Half the transforms of two calls; the rounding error is that of one call on the
  // larger of the two inputs.
  std::pair<std::vector<double>, std::vector<double>> magnitudes(const std::vector<long>& a,
                                                                 const std::vector<long>& b) const;

  long m() const { return m_; }
  long n() const { return n_; }  // N = bluestein_length(m) (odd m), phi (m = 2^k)

 private:
  struct Complex {
    double re, im;
  };
  void fft_forward(Complex* x, int from_level) const;  // levels from_level..k-1
  void fft_inverse_to1(Complex* x) const;    // levels k-1..1, unscaled
  // The convolution leaving y_j (j < N/2) in the low half: a(zeta^j) = h^(j^2) y_j, so
  // |a(zeta^j)| = |y_j|. im (nullable) is the imaginary part of the coefficients.
  // For m = 2^k: y has m entries, y_j = a(zeta^j) itself at the odd j (others zero).
  std::vector<Complex> evaluate(const double* coeffs, const double* im, long len) const;
  std::vector<Complex> evaluate_pow2(const double* coeffs, const double* im, long len) const;
  // a(zeta^j) from evaluate()'s y: h^(j^2) y_j (odd m), y_j (m = 2^k).
  Complex value(const std::vector<Complex>& y, long j) const;

  long m_, n_;
  int log_n_;
  bool pow2_;                        // m = 2^k: the negacyclic FFT, no chirp
  std::vector<long> zmstar_;         // j in [1, m) with gcd(j, m) = 1
  // tw[2^l + b] = e^(2 pi i bitrev_l(b) / 2^(l+1)) (odd m), e^(2 pi i (2 bitrev_l(b) + 1) /
  // 2^(l+2)) (m = 2^k)
  std::vector<Complex> tw_;
  std::vector<Complex> chirp_;       // chirp[i] = h^(i^2), i < m (odd m only)
  std::vector<Complex> kernel_;      // FFT of c_k = h^(-k^2), divided by N (odd m only)
};

// ||a||^can through a CanonicalNorm for m. The precomputations of the four most recently
// used m are cached (thread-safe), so repeated calls for one ring cost one evaluation
// (about 5 ms at m = 53261, 30 ms at m = 163455; a first call adds 15-60 ms of setup).
double canonical_norm(const std::vector<long>& coeffs, long m);
// The CanonicalNorm of m from the same cache (shared, thread-safe).
std::shared_ptr<const CanonicalNorm> canonical_embedding(long m);

}  // namespace cb::util
