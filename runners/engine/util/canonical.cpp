#include "engine/util/canonical.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <numeric>

#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb::util {

namespace {

long bitrev(long x, int bits) {
  long r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

bool power_of_two(long m) { return m >= 4 && (m & (m - 1)) == 0; }

long checked_m(long m) {
  if (m > (long(1) << 24) || (m % 2 == 0 && !power_of_two(m)) || m < 3)
    throw ParameterError(msg("CanonicalNorm: m=", m, " must be odd with 3 <= m <= 2^24 or a power of two with 4 <= m <= 2^24"));
  return m;
}

}  // namespace

CanonicalNorm::CanonicalNorm(long m)
    : m_(checked_m(m)), n_(power_of_two(m) ? m / 2 : bluestein_length(m)), log_n_(0), pow2_(power_of_two(m)) {
  while ((long(1) << log_n_) < n_) ++log_n_;
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) zmstar_.push_back(j);

  const double two_pi = 2 * M_PI;
  if (pow2_) {
    // s = psi^e, e = (2 bitrev_l(b) + 1) N/2^(l+1) < 2N = m, psi = e^(2 pi i/m).
    tw_.resize(n_);
    for (int l = 0; l < log_n_; ++l) {
      const long blocks = long(1) << l;
      for (long b = 0; b < blocks; ++b) {
        const double ang = two_pi * double((2 * bitrev(b, l) + 1) * (n_ >> (l + 1))) / double(m);
        tw_[blocks + b] = {std::cos(ang), std::sin(ang)};
      }
    }
    return;
  }
  // Twiddles: the block of level l with index b splits with s = e^(2 pi i e / N),
  // e = bitrev_l(b) * N / 2^(l+1), as in ntt.h.
  tw_.resize(n_);
  for (int l = 0; l < log_n_; ++l) {
    const long blocks = long(1) << l;
    for (long b = 0; b < blocks; ++b) {
      const double ang = two_pi * double(bitrev(b, l) * (n_ >> (l + 1))) / double(n_);
      tw_[blocks + b] = {std::cos(ang), std::sin(ang)};
    }
  }
  // h^(k^2) = e^(2 pi i r / m) with r = k^2 (m+1)/2 mod m.
  const long half_m = (m + 1) / 2;
  auto chirp_angle = [&](long k) {
    const long r = (((k * k) % m) * half_m) % m;
    return two_pi * double(r) / double(m);
  };
  chirp_.resize(m);
  for (long i = 0; i < m; ++i) {
    const double ang = chirp_angle(i);
    chirp_[i] = {std::cos(ang), std::sin(ang)};
  }
  kernel_.assign(n_, {0.0, 0.0});
  for (long k = 0; k < m; ++k) {
    const Complex c = {chirp_[k].re, -chirp_[k].im};  // h^(-k^2)
    kernel_[k] = c;
    if (k > 0) kernel_[n_ - k] = c;
  }
  // Full forward FFT of the kernel: level 0 (s = 1) here, then the rest.
  const long half = n_ / 2;
  for (long i = 0; i < half; ++i) {
    const Complex u = kernel_[i], v = kernel_[i + half];
    kernel_[i] = {u.re + v.re, u.im + v.im};
    kernel_[i + half] = {u.re - v.re, u.im - v.im};
  }
  fft_forward(kernel_.data(), 1);
  const double scale = 1.0 / double(n_);
  for (auto& c : kernel_) c = {c.re * scale, c.im * scale};
}

void CanonicalNorm::fft_forward(Complex* a, int from_level) const {
  for (int l = from_level; l < log_n_; ++l) {
    const long blocks = long(1) << l;
    const long t = n_ >> (l + 1);
    for (long b = 0; b < blocks; ++b) {
      Complex* x = a + 2 * b * t;
      Complex* y = x + t;
      const Complex s = tw_[blocks + b];
      for (long i = 0; i < t; ++i) {
        const double vr = y[i].re * s.re - y[i].im * s.im;
        const double vi = y[i].re * s.im + y[i].im * s.re;
        const Complex u = x[i];
        x[i] = {u.re + vr, u.im + vi};
        y[i] = {u.re - vr, u.im - vi};
      }
    }
  }
}

void CanonicalNorm::fft_inverse_to1(Complex* a) const {
  for (int l = log_n_ - 1; l >= 1; --l) {
    const long blocks = long(1) << l;
    const long t = n_ >> (l + 1);
    for (long b = 0; b < blocks; ++b) {
      Complex* x = a + 2 * b * t;
      Complex* y = x + t;
      const Complex s = tw_[blocks + b];  // multiply by conj(s) = s^-1
      for (long i = 0; i < t; ++i) {
        const Complex u = x[i], v = y[i];
        x[i] = {u.re + v.re, u.im + v.im};
        const double dr = u.re - v.re, di = u.im - v.im;
        y[i] = {dr * s.re + di * s.im, di * s.re - dr * s.im};
      }
    }
  }
}

std::vector<CanonicalNorm::Complex> CanonicalNorm::evaluate_pow2(const double* coeffs, const double* im, long len) const {
  // a mod X^N + 1 (N = phi), then the negacyclic FFT: leaf i is a(zeta^(2 bitrev(i) + 1)).
  std::vector<Complex> x(n_, {0.0, 0.0});
  for (long i = 0; i < len; ++i) {
    const double sign = i < n_ ? 1.0 : -1.0;
    Complex& c = x[i < n_ ? i : i - n_];
    c.re += sign * coeffs[i];
    if (im) c.im += sign * im[i];
  }
  fft_forward(x.data(), 0);
  std::vector<Complex> y(m_, {0.0, 0.0});
  for (long i = 0; i < n_; ++i) y[2 * bitrev(i, log_n_) + 1] = x[i];
  return y;
}

CanonicalNorm::Complex CanonicalNorm::value(const std::vector<Complex>& y, long j) const {
  const Complex v = y[j];
  if (pow2_) return v;
  const Complex c = chirp_[j];  // h^(j^2) y_j
  return {v.re * c.re - v.im * c.im, v.re * c.im + v.im * c.re};
}

std::vector<CanonicalNorm::Complex> CanonicalNorm::evaluate(const double* coeffs, const double* im, long len) const {
  if (len > m_)
    throw ParameterError(msg("CanonicalNorm: ", len, " coefficients exceed m=", m_));
  if (pow2_) return evaluate_pow2(coeffs, im, len);
  const long half = n_ / 2;
  std::vector<Complex> x(n_);
  for (long i = 0; i < len; ++i) {
    const double c = coeffs[i], d = im ? im[i] : 0.0;
    x[i] = {c * chirp_[i].re - d * chirp_[i].im, c * chirp_[i].im + d * chirp_[i].re};
  }
  for (long i = len; i < half; ++i) x[i] = {0.0, 0.0};
  for (long i = 0; i < half; ++i) x[half + i] = x[i];  // level 0 with a zero upper half
  fft_forward(x.data(), 1);
  for (long i = 0; i < n_; ++i) {
    const Complex u = x[i], k = kernel_[i];
    x[i] = {u.re * k.re - u.im * k.im, u.re * k.im + u.im * k.re};
  }
  fft_inverse_to1(x.data());
  // y_j = x[j] + x[j + N/2]; |a(zeta^j)| = |h^(j^2) y_j| = |y_j|.
  for (long j = 0; j < half; ++j) x[j] = {x[j].re + x[j + half].re, x[j].im + x[j + half].im};
  x.resize(half);
  return x;
}

std::vector<double> CanonicalNorm::magnitudes(const std::vector<double>& coeffs) const {
  const auto y = evaluate(coeffs.data(), nullptr, long(coeffs.size()));
  std::vector<double> out(zmstar_.size());
  // sqrt(re^2 + im^2), not std::hypot: no value here comes near overflow, the FFT's own
  // rounding is far above either's last bit, and hypot's care cost 8% of a one-round
  // AES-128 process at m=53261.
  for (size_t t = 0; t < zmstar_.size(); ++t) {
    const Complex v = y[zmstar_[t]];
    out[t] = std::sqrt(v.re * v.re + v.im * v.im);
  }
  return out;
}

std::vector<double> CanonicalNorm::magnitudes(const std::vector<long>& coeffs) const {
  return magnitudes(std::vector<double>(coeffs.begin(), coeffs.end()));
}

std::pair<std::vector<double>, std::vector<double>> CanonicalNorm::magnitudes(const std::vector<long>& a,
                                                                              const std::vector<long>& b) const {
  const size_t len = std::max(a.size(), b.size());
  std::vector<double> re(len, 0.0), im(len, 0.0);
  for (size_t i = 0; i < a.size(); ++i) re[i] = double(a[i]);
  for (size_t i = 0; i < b.size(); ++i) im[i] = double(b[i]);
  const auto y = evaluate(re.data(), im.data(), long(len));
  auto z = [&](long j) { return value(y, j); };  // Z_j = a(zeta^j) + i b(zeta^j)
  std::pair<std::vector<double>, std::vector<double>> out;
  out.first.resize(zmstar_.size());
  out.second.resize(zmstar_.size());
  for (size_t t = 0; t < zmstar_.size(); ++t) {
    const Complex p = z(zmstar_[t]), q = z(m_ - zmstar_[t]);  // conj(q) = (q.re, -q.im)
    const double ar = (p.re + q.re) / 2, ai = (p.im - q.im) / 2;  // (Z_j + conj(Z_(m-j))) / 2
    const double br = (p.im + q.im) / 2, bi = (q.re - p.re) / 2;  // (Z_j - conj(Z_(m-j))) / 2i
    out.first[t] = std::sqrt(ar * ar + ai * ai);
    out.second[t] = std::sqrt(br * br + bi * bi);
  }
  return out;
}

double CanonicalNorm::operator()(const std::vector<long>& coeffs) const {
  double best = 0.0;
  for (double v : magnitudes(coeffs)) best = std::max(best, v);
  return best;
}

std::shared_ptr<const CanonicalNorm> canonical_embedding(long m) {
  // The last few rings' precomputations are kept, so repeated calls cost one evaluation.
  static std::mutex mu;
  static std::vector<std::shared_ptr<const CanonicalNorm>> cache;  // most recent last
  constexpr size_t kCacheSize = 4;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < cache.size(); ++i) {
      if (cache[i]->m() == m) {
        auto norm = cache[i];
        cache.erase(cache.begin() + long(i));
        cache.push_back(norm);
        return norm;
      }
    }
  }
  auto norm = std::make_shared<const CanonicalNorm>(m);  // built outside the lock
  std::lock_guard<std::mutex> lock(mu);
  cache.push_back(norm);
  if (cache.size() > kCacheSize) cache.erase(cache.begin());
  return norm;
}

double canonical_norm(const std::vector<long>& coeffs, long m) { return (*canonical_embedding(m))(coeffs); }

}  // namespace cb::util
