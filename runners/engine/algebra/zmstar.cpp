// zmstar.cpp: Z_m^*/<p> as a hypercube (see zmstar.h for the math).
//
// Construction works on the ell cosets of H = <p> instead of the phi units: one pass over
// [0, m) labels every unit with its H-coset and its Frobenius exponent, after which orders
// in the quotients Z_m^*/<p, g_0..g_{i-1}> are computed one coset at a time with a
// membership bitmap. Everything is O(m + ell * log^2 m) per dimension.
#include "engine/algebra/zmstar.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "engine/errors.h"
#include "engine/util/primes.h"

namespace cb {

namespace {

long mulmod(long a, long b, long m) { return long((unsigned long long)a * (unsigned long long)b % (unsigned long long)m); }

long powmod(long x, long e, long m) {
  long r = 1 % m;
  x %= m;
  while (e > 0) {
    if (e & 1) r = mulmod(r, x, m);
    x = mulmod(x, x, m);
    e >>= 1;
  }
  return r;
}

bool is_prime(long n) { return n >= 2 && util::is_prime(uint64_t(n)); }  // the engine's one test (util/primes.h)

std::vector<std::pair<long, long>> factorize(long n) {
  std::vector<std::pair<long, long>> f;
  for (long p = 2; p * p <= n; ++p) {
    if (n % p) continue;
    long e = 0;
    while (n % p == 0) n /= p, ++e;
    f.emplace_back(p, e);
  }
  if (n > 1) f.emplace_back(n, 1);
  return f;
}

}  // namespace

ZmStarBasics zmstar_basics(long m, long p) {
  if (p < 2 || p >= kMaxP)
    throw ParameterError(msg("p=", p, " is outside [2, 2^61): the plaintext modulus needs 2 <= p < ", kMaxP));
  if (!is_prime(p)) throw ParameterError(msg("p=", p, " is not prime: the plaintext modulus must be a prime"));
  const bool pow2 = m >= 4 && (m & (m - 1)) == 0;
  if (p == 2) {  // the p = 2 refusals, word for word as before odd p existed
    if (m % 2 == 0 && pow2)
      throw ParameterError(msg("m=", m, " is a power of two and p=2: no slots, Phi_m = X^", m / 2,
                               " + 1 = (X + 1)^", m / 2, " mod 2; the ring at p=2 needs odd m"));
    if (m % 2 == 0) throw ParameterError(msg("m=", m, " is even: the ring needs odd m"));
  }
  if (m < 3 || m > kMaxM)
    throw ParameterError(msg("m=", m, " is outside [3, 2^20]: the ring needs 3 <= m <= 1048576"));
  if (m % 2 == 0 && !pow2)
    throw ParameterError(msg("m=", m, " is even but not a power of two: the ring at p=", p,
                             " needs odd m or m = 2^k"));
  if (m % p == 0) throw ParameterError(msg("p=", p, " divides m=", m, ": the plaintext modulus must be coprime to m"));
  ZmStarBasics b{m, p, factorize(m), m, 0};
  // lambda(m) = lcm of q^(e-1) (q - 1) is a multiple of the exponent of Z_m^* (equal to it
  // for odd m, twice it for m = 2^k, k >= 3); d = ord_m(p) divides it: strip each prime
  // factor of lambda while p^(d/q) stays 1.
  long lambda = 1;
  for (auto [q, e] : b.factors) {
    long qe1 = q - 1;
    for (long i = 1; i < e; ++i) qe1 *= q;
    b.phi = b.phi / q * (q - 1);
    lambda = lambda / std::gcd(lambda, qe1) * qe1;
  }
  const long pm = p % m;
  b.d = lambda;
  for (auto [q, e] : factorize(lambda)) {
    (void)e;
    while (b.d % q == 0 && powmod(pm, b.d / q, m) == 1) b.d /= q;
  }
  return b;
}

ZmStar::ZmStar(long m, long p) : m_(m), p_(p) {
  const ZmStarBasics b = zmstar_basics(m, p);
  const long pm = p % m;  // the Frobenius multiplier x -> p*x on exponents
  factors_ = b.factors;
  phi_ = b.phi;
  d_ = b.d;
  ell_ = b.ell();

  // Label each unit x with its H-coset c and exponent f: x = crep[c] * p^f, crep[c] the
  // smallest element of the coset.
  std::vector<int32_t> coset(m, -1);
  std::vector<int32_t> cfrob(m, 0);
  std::vector<long> crep;
  crep.reserve(ell_);
  for (long x = 1; x < m; ++x) {
    if (coset[x] >= 0 || std::gcd(x, m) != 1) continue;
    const int32_t c = int32_t(crep.size());
    crep.push_back(x);
    long y = x;
    for (long f = 0; f < d_; ++f, y = mulmod(y, pm, m)) coset[y] = c, cfrob[y] = int32_t(f);
  }
  if (long(crep.size()) != ell_)
    throw Error(msg("m=", m, ": found ", crep.size(), " cosets of <", p, ">, expected ell=", ell_));

  // Greedy generators. S = <p, g_0..g_{i-1}> is kept as a set of H-cosets.
  std::vector<char> inS(ell_, 0);
  std::vector<long> S{0};  // coset ids in S; coset 0 is H itself (crep 1)
  inS[0] = 1;
  while (long(S.size()) < ell_) {
    const long N = ell_ / long(S.size());  // |Z_m^* / S|
    const auto Nf = factorize(N);
    // Order of each coset modulo S; max order.
    std::vector<long> order(ell_, 0);
    long best = 0;
    for (long c = 0; c < ell_; ++c) {
      if (inS[c]) continue;
      long o = N;
      for (auto [p, e] : Nf) {
        (void)e;
        while (o % p == 0 && inS[coset[powmod(crep[c], o / p, m)]]) o /= p;
      }
      order[c] = o;
      best = std::max(best, o);
    }
    // Among cosets of maximal order whose order-th power lies in H, the smallest integer
    // x with x^best = 1 ("good"); failing any, the smallest x at all ("bad").
    long good_x = 0, bad_x = 0;
    for (long c = 0; c < ell_; ++c) {
      if (order[c] != best) continue;
      const long y = powmod(crep[c], best, m);
      if (coset[y] != 0) continue;
      // (crep*p^f)^best = p^(a + f*best) with p^a = crep^best.
      const long a = cfrob[y];
      long x = crep[c];
      for (long f = 0; f < d_; ++f, x = mulmod(x, pm, m)) {
        if ((a + f * best) % d_ == 0) {
          if (good_x == 0 || x < good_x) good_x = x;
        } else if (bad_x == 0 || x < bad_x) {
          bad_x = x;
        }
      }
    }
    const long g = good_x ? good_x : bad_x;
    if (g == 0)
      throw Error(msg("m=", m, ": no element of maximal order ", best,
                      " has its power in <", p, ">; the hypercube does not split"));
    gens_.push_back(g);
    ords_.push_back(best);
    twists_.push_back(cfrob[powmod(g, best, m)]);
    // S <- S * <g>.
    const long n0 = long(S.size());
    long gj = 1;
    for (long j = 1; j < best; ++j) {
      gj = mulmod(gj, g, m);
      for (long k = 0; k < n0; ++k) {
        const long c = coset[mulmod(crep[S[k]], gj, m)];
        if (inS[c]) throw Error(msg("m=", m, ": generator ", g, " has order below ", best));
        inS[c] = 1;
        S.push_back(c);
      }
    }
  }

  const long D = long(gens_.size());
  strides_.assign(D, 1);
  for (long i = D - 2; i >= 0; --i) strides_[i] = strides_[i + 1] * ords_[i + 1];

  // Representatives in row-major order, and the final lookup tables. Every unit must be
  // reached exactly once by t(e) * p^f.
  reps_.assign(ell_, 1);
  for (long s = 0; s < ell_; ++s) {
    long t = 1;
    for (long i = 0; i < D; ++i) t = mulmod(t, powmod(gens_[i], (s / strides_[i]) % ords_[i], m), m);
    reps_[s] = t;
  }
  slot_of_x_.assign(m, -1);
  frob_of_x_.assign(m, 0);
  for (long s = 0; s < ell_; ++s) {
    long x = reps_[s];
    for (long f = 0; f < d_; ++f, x = mulmod(x, pm, m)) {
      if (slot_of_x_[x] >= 0)
        throw Error(msg("m=", m, ": representatives ", reps_[slot_of_x_[x]], " and ", reps_[s],
                        " lie in the same coset of <", p, ">"));
      slot_of_x_[x] = int32_t(s);
      frob_of_x_[x] = int32_t(f);
    }
  }
}

bool ZmStar::ghs16() const {
  if (p_ != 2) return false;  // GHS's condition is about Z_m^*/<2> only
  for (long t = 2; t < m_; ++t) {
    if (slot_of_x_[t] < 0 || powmod(t, 16, m_) != 1) continue;
    if (slot_of_x_[powmod(t, 8, m_)] != 0) return true;  // slot 0 is the coset <p> (rep 1)
  }
  return false;
}

std::vector<long> ZmStar::coords(long slot) const {
  if (slot < 0 || slot >= ell_)
    throw ParameterError(msg("slot=", slot, " is outside [0, ell=", ell_, ") (m=", m_, ")"));
  std::vector<long> e(gens_.size());
  for (size_t i = 0; i < gens_.size(); ++i) e[i] = (slot / strides_[i]) % ords_[i];
  return e;
}

long ZmStar::slot_of(const std::vector<long>& coords) const {
  if (coords.size() != gens_.size())
    throw ParameterError(msg("coords has ", coords.size(), " entries, the hypercube has ", gens_.size(),
                             " dimensions (m=", m_, ")"));
  long s = 0;
  for (size_t i = 0; i < gens_.size(); ++i) {
    if (coords[i] < 0 || coords[i] >= ords_[i])
      throw ParameterError(msg("coordinate e_", i, "=", coords[i], " is outside [0, ord_", i, "=", ords_[i],
                               ") (m=", m_, ")"));
    s += coords[i] * strides_[i];
  }
  return s;
}

bool ZmStar::in_zmstar(long x) const {
  x %= m_;
  if (x < 0) x += m_;
  return slot_of_x_[x] >= 0;
}

std::pair<long, long> ZmStar::locate(long x) const {
  long y = x % m_;
  if (y < 0) y += m_;
  if (slot_of_x_[y] < 0) throw ParameterError(msg("x=", x, " is not a unit mod m=", m_));
  return {slot_of_x_[y], frob_of_x_[y]};
}

long ZmStar::inverse(long x) const {
  long a = x % m_;
  if (a < 0) a += m_;
  // Extended Euclid on (a, m).
  long r0 = m_, r1 = a, s0 = 0, s1 = 1;
  while (r1 != 0) {
    const long q = r0 / r1;
    std::tie(r0, r1) = std::make_pair(r1, r0 - q * r1);
    std::tie(s0, s1) = std::make_pair(s1, s0 - q * s1);
  }
  if (r0 != 1) throw ParameterError(msg("x=", x, " is not a unit mod m=", m_, ": no inverse"));
  return s0 < 0 ? s0 + m_ : s0;
}

long ZmStar::power(long x, long e) const {
  long a = x % m_;
  if (a < 0) a += m_;
  if (e < 0) {
    a = inverse(a);
    e = -e;
  }
  return powmod(a, e, m_);
}

std::vector<ZmStar::SlotMove> ZmStar::automorphism_action(long k) const {
  long kk = k % m_;
  if (kk < 0) kk += m_;
  if (slot_of_x_[kk] < 0)
    throw ParameterError(msg("k=", k, " is not a unit mod m=", m_, ": X -> X^k is no automorphism"));
  std::vector<SlotMove> moves(ell_);
  for (long s = 0; s < ell_; ++s) {
    const long y = mulmod(kk, reps_[s], m_);
    moves[s] = {slot_of_x_[y], frob_of_x_[y]};
  }
  return moves;
}

}  // namespace cb
