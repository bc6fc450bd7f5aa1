// subfield.cpp: GF(2^n) = GF(2)[x]/f inside K = GF(2)[Y]/G (see subfield.h).
//
// theta: the roots of f in K come from NTL's FindRoots over GF2EX (randomized, but the
// set of roots is not), and we keep the smallest as an integer. embed XORs the table
// theta^i; project reduces by a fully reduced echelon basis of span{theta^i} that
// remembers which theta^i each basis row combines, so a non-member leaves a non-zero
// remainder.
#include "engine/algebra/subfield.h"

#include <NTL/GF2E.h>
#include <NTL/GF2EXFactoring.h>

#include "engine/algebra/bits.h"
#include "engine/errors.h"

namespace cb {

namespace {

// a < b when read as integers (bit i = coefficient of Y^i).
bool less_as_integer(const NTL::GF2X& a, const NTL::GF2X& b) {
  if (NTL::deg(a) != NTL::deg(b)) return NTL::deg(a) < NTL::deg(b);
  for (long i = NTL::deg(a); i >= 0; --i)
    if (NTL::coeff(a, i) != NTL::coeff(b, i)) return NTL::IsZero(NTL::coeff(a, i));
  return false;
}

}  // namespace

struct Subfield::Impl {
  long w = 0;                      // words per element of K
  std::vector<uint64_t> powers;    // theta^i, i < n, w words each
  std::vector<uint64_t> rows;      // echelon basis of the image, n rows of w words
  std::vector<long> pivot;         // pivot bit of each row
  std::vector<uint64_t> combo;     // row k = sum of theta^i over the bits of combo[k]
};

Subfield::Subfield(const SlotRing& ring, long n, uint64_t f_low) : ring_(ring), n_(n), f_low_(f_low) {
  const long d = ring.d(), m = ring.zmstar().m();
  if (n < 1 || n > 64) throw ParameterError(msg("n=", n, " is outside [1, 64]: GF(2^n) elements travel as uint64_t"));
  if (d % n != 0)
    throw ParameterError(
        msg("n=", n, " does not divide d=", d, " (m=", m, "): GF(2^", n, ") does not embed in the slots"));
  const NTL::GF2X f = gf2n_checked_modulus(n, f_low);

  {
    NTL::GF2EPush push(ring.G());
    NTL::GF2EX fx;
    NTL::conv(fx, f);
    NTL::vec_GF2E roots;
    NTL::FindRoots(roots, fx);
    if (roots.length() != n) throw Error(msg("f has ", roots.length(), " roots in GF(2^", d, "), expected n=", n));
    theta_ = NTL::rep(roots[0]);
    for (long i = 1; i < n; ++i)
      if (less_as_integer(NTL::rep(roots[i]), theta_)) theta_ = NTL::rep(roots[i]);
  }

  auto impl = std::make_shared<Impl>();
  const long w = impl->w = bits::words(d);
  impl->powers.assign(size_t(n * w), 0);
  const NTL::GF2XModulus Gm(ring.G());
  NTL::GF2X t(1);
  for (long i = 0; i < n; ++i) {
    bits::to_words(t, &impl->powers[size_t(i * w)], w);
    NTL::MulMod(t, t, theta_, Gm);
  }
  // Reduced echelon form of the rows theta^i.
  impl->rows = impl->powers;
  impl->pivot.assign(n, -1);
  impl->combo.assign(n, 0);
  for (long i = 0; i < n; ++i) impl->combo[i] = uint64_t(1) << i;
  for (long k = 0; k < n; ++k) {
    uint64_t* rk = &impl->rows[size_t(k * w)];
    long p = -1;
    for (long b = d - 1; b >= 0 && p < 0; --b)
      if ((rk[b >> 6] >> (b & 63)) & 1) p = b;
    if (p < 0) throw Error(msg("the powers of theta are linearly dependent (n=", n, ", m=", m, ")"));
    impl->pivot[k] = p;
    for (long j = 0; j < n; ++j) {
      if (j == k) continue;
      uint64_t* rj = &impl->rows[size_t(j * w)];
      if (!((rj[p >> 6] >> (p & 63)) & 1)) continue;
      for (long i = 0; i < w; ++i) rj[i] ^= rk[i];
      impl->combo[j] ^= impl->combo[k];
    }
  }
  impl_ = std::move(impl);
}

NTL::GF2X Subfield::embed(uint64_t a) const {
  if (n_ < 64 && (a >> n_) != 0)
    throw ParameterError(msg("a=0x", std::hex, a, std::dec, " has bits at or above n=", n_, ": not in GF(2^", n_, ")"));
  const long w = impl_->w;
  std::vector<uint64_t> x(size_t(w), 0);
  for (long i = 0; i < n_; ++i) {
    if (!((a >> i) & 1)) continue;
    const uint64_t* p = &impl_->powers[size_t(i * w)];
    for (long j = 0; j < w; ++j) x[j] ^= p[j];
  }
  return bits::from_words(x.data(), w);
}

uint64_t Subfield::project(const NTL::GF2X& b) const {
  const long w = impl_->w;
  std::vector<uint64_t> x(static_cast<size_t>(w));
  if (NTL::deg(b) >= ring_.d()) {
    NTL::GF2X r;
    NTL::rem(r, b, ring_.G());
    bits::to_words(r, x.data(), w);
  } else {
    bits::to_words(b, x.data(), w);
  }
  uint64_t acc = 0;
  for (long k = 0; k < n_; ++k) {
    const long p = impl_->pivot[k];
    if (!((x[p >> 6] >> (p & 63)) & 1)) continue;
    const uint64_t* r = &impl_->rows[size_t(k * w)];
    for (long i = 0; i < w; ++i) x[i] ^= r[i];
    acc ^= impl_->combo[k];
  }
  for (long i = 0; i < w; ++i)
    if (x[i] != 0)
      throw ParameterError(msg("slot value is not in the subfield GF(2^", n_, ") of GF(2^", ring_.d(),
                               ") (m=", ring_.zmstar().m(), "): cannot project it"));
  return acc;
}

}  // namespace cb
