// prime_slot_ring.cpp: the CRT R_p = F_p[X]/Phi_m  <->  K^ell of prime_slot_ring.h.
//
// The same algorithm as slot_ring.cpp, over F_p with NTL's zz_pX:
// decode is a remainder tree (a mod the product of F_s over a node's slots, going down a
// balanced binary subproduct tree), then at each leaf the F_p-linear map
//     dec_s : F_p[X]/F_s -> K,  b |-> b(zeta^t_s),   column j = zeta^(t_s j),
// on the d coefficients of the remainder. Encode runs the tree upwards:
//     a = sum_s b_s * (Phi/F_s),  b_s = enc_s(v_s),
// combining children as a_node = a_left * P_right + a_right * P_left. Since
// (Phi/F_s)(zeta^t_s) = Phi'(zeta^t_s) / F_s'(zeta^t_s), the leaf map is
//     enc_s = dec_s^-1 o (multiplication by w_s),  w_s = F_s'(zeta^t_s) / Phi'(zeta^t_s),
// with Phi'(zeta^t_s) obtained by decoding Phi' once. At d = 1 the leaf maps are scalars
// (dec_s = 1, enc_s = w_s) and the F_s are X - zeta^t_s.
//
// The fast path. For m = 2^k and d = 1 (p = 1 mod m) the slot values are a's values at all
// phi primitive m-th roots mod p: the negacyclic transform mod p (util/cyclotomic_transform.h,
// the engine's own), whose root w = zeta^u gives a(zeta^t_s) = a(w^(t_s u^-1)), position
// (t_s u^-1 mod m - 1) / 2. encode and decode then take one transform and a permutation,
// O(phi log phi) word operations instead of the tree's NTL products (m = 65536: decode 212
// ms by the tree). The tree is still built (Phi_m and the factors come from it).
#include "engine/algebra/prime_slot_ring.h"

#include <NTL/lzz_pE.h>
#include <NTL/lzz_pEX.h>
#include <NTL/lzz_pX.h>
#include <NTL/lzz_pXFactoring.h>
#include <NTL/mat_lzz_p.h>

#include <algorithm>

#include "engine/algebra/slot_ring.h"
#include "engine/errors.h"
#include "engine/util/cyclotomic_transform.h"

namespace cb {

namespace {

std::vector<uint64_t> to_words(const NTL::zz_pX& a, long n) {
  std::vector<uint64_t> w(size_t(n), 0);
  for (long i = 0; i <= NTL::deg(a) && i < n; ++i) w[size_t(i)] = uint64_t(NTL::rep(NTL::coeff(a, i)));
  return w;
}

NTL::zz_pX from_words(const std::vector<uint64_t>& w) {
  NTL::zz_pX a;
  a.rep.SetLength(long(w.size()));
  for (size_t i = 0; i < w.size(); ++i) a.rep[long(i)] = NTL::zz_p(long(w[i]));
  a.normalize();
  return a;
}

// The element of K = F_p[Y]/G with coefficients x (d of them).
NTL::zz_pE to_K(const std::vector<uint64_t>& x) {
  NTL::zz_pE e;
  NTL::conv(e, from_words(x));
  return e;
}

std::vector<uint64_t> from_K(const NTL::zz_pE& e, long d) { return to_words(NTL::rep(e), d); }

// Distinct primes dividing n.
std::vector<long> prime_divisors(long n) {
  std::vector<long> r;
  for (long q = 2; q * q <= n; ++q)
    if (n % q == 0) {
      r.push_back(q);
      while (n % q == 0) n /= q;
    }
  if (n > 1) r.push_back(n);
  return r;
}

}  // namespace

struct PrimeSlotRing::Impl {
  long d = 0, ell = 0;
  NTL::zz_pContext Fp;
  NTL::zz_pEContext K;
  // The subproduct tree: node i covers slots [lo, hi) with product P; leaves have no
  // children (left = right = -1).
  struct Node {
    long lo, hi;
    int left = -1, right = -1;
    NTL::zz_pX P;
  };
  std::vector<Node> nodes;
  int root = -1;
  std::vector<NTL::zz_pE> z;        // zeta^t_s, per slot
  std::vector<NTL::mat_zz_p> dec;   // d x d, per slot (d > 1)
  std::vector<NTL::mat_zz_p> enc;   // d x d, per slot (d > 1)
  std::vector<NTL::zz_p> enc1;      // w_s, per slot (d = 1)
  // The fast path (m = 2^k, d = 1): the negacyclic transform mod p and each slot's position.
  std::unique_ptr<util::CyclotomicTransform> ntt;
  std::vector<long> pos;

  int build(long lo, long hi, const std::vector<NTL::zz_pX>& F) {
    Node n{lo, hi};
    if (hi - lo == 1) {
      n.P = F[size_t(lo)];
    } else {
      const long mid = lo + (hi - lo) / 2;
      n.left = build(lo, mid, F);
      n.right = build(mid, hi, F);
      NTL::mul(n.P, nodes[size_t(n.left)].P, nodes[size_t(n.right)].P);
    }
    nodes.push_back(std::move(n));
    return int(nodes.size() - 1);
  }

  // b mod F_s for every slot s under node i, given r = a mod P_i.
  void remainders(int i, const NTL::zz_pX& r, std::vector<NTL::zz_pX>& out) const {
    const Node& n = nodes[size_t(i)];
    if (n.left < 0) {
      out[size_t(n.lo)] = r;
      return;
    }
    for (int c : {n.left, n.right}) remainders(c, r % nodes[size_t(c)].P, out);
  }

  // sum_{s under node i} b_s * (P_i / F_s).
  NTL::zz_pX combine(int i, const std::vector<NTL::zz_pX>& b) const {
    const Node& n = nodes[size_t(i)];
    if (n.left < 0) return b[size_t(n.lo)];
    const Node& L = nodes[size_t(n.left)];
    const Node& R = nodes[size_t(n.right)];
    return combine(n.left, b) * R.P + combine(n.right, b) * L.P;
  }

  // b (degree < d, mod F_s) -> b(zeta^t_s) in K.
  NTL::zz_pE leaf_decode(long s, const NTL::zz_pX& b) const {
    NTL::zz_pE e;
    if (d == 1) {  // F_s = X - z_s: the remainder is the value
      NTL::conv(e, NTL::coeff(b, 0));
      return e;
    }
    NTL::vec_zz_p x;
    x.SetLength(d);
    for (long j = 0; j < d; ++j) x[j] = NTL::coeff(b, j);
    NTL::vec_zz_p y = dec[size_t(s)] * x;
    NTL::zz_pX v;
    v.rep = y;
    v.normalize();
    NTL::conv(e, v);
    return e;
  }

  NTL::zz_pX leaf_encode(long s, const NTL::zz_pE& v) const {
    NTL::zz_pX b;
    if (d == 1) {
      NTL::SetCoeff(b, 0, NTL::ConstTerm(NTL::rep(v)) * enc1[size_t(s)]);
      return b;
    }
    NTL::vec_zz_p x;
    x.SetLength(d);
    for (long j = 0; j < d; ++j) x[j] = NTL::coeff(NTL::rep(v), j);
    b.rep = enc[size_t(s)] * x;
    b.normalize();
    return b;
  }
};

PrimeSlotRing::PrimeSlotRing(const ZmStar& zm) : zm_(zm) {
  const long p = zm.p(), d = zm.d(), ell = zm.ell(), m = zm.m();
  if (p == 2)
    throw ParameterError(msg("PrimeSlotRing: p=2: the slots of R_2 are SlotRing's (slot_ring.h)"));
  if (p >= NTL_SP_BOUND)
    throw ParameterError(msg("p=", p, " is too large for the slots of R_p: NTL's single-precision zz_p needs p < 2^",
                             NTL_SP_NBITS));
  if (d > kMaxSlotDegree)
    throw ParameterError(msg("m=", m, " at p=", p, " has slot degree d=", d, ": the slot CRT is built for d <= ",
                             kMaxSlotDegree));
  auto impl = std::make_shared<Impl>();
  impl->d = d, impl->ell = ell;
  impl->Fp = NTL::zz_pContext(p);
  NTL::zz_pPush push_p(impl->Fp);

  // G: Y at d = 1, NTL's deterministic irreducible otherwise.
  NTL::zz_pX G;
  if (d == 1) {
    NTL::SetX(G);
  } else {
    // The first monic irreducible Y^d + sum_{i<d} c_i Y^i for c = 1, 2, ..., the c_i the
    // digits of c in base b = min(p, 256) (small coefficients first, whatever p is).
    const long b = std::min(p, 256L);
    for (long c = 1;; ++c) {
      G = NTL::zz_pX(NTL::INIT_MONO, d);
      for (long i = 0, rest = c; rest > 0 && i < d; ++i, rest /= b) NTL::SetCoeff(G, i, NTL::zz_p(rest % b));
      if (NTL::IterIrredTest(G)) break;
    }
  }
  impl->K = NTL::zz_pEContext(G);
  const NTL::zz_pXModulus Gmod(G);
  NTL::zz_pEPush push_K(impl->K);
  G_ = to_words(G, d + 1);

  // zeta = c(Y)^((p^d - 1)/m) of order exactly m, c = 2, 3, ... read in base p.
  const NTL::ZZ order = (NTL::power(NTL::ZZ(p), d) - 1) / m;
  const std::vector<long> qs = prime_divisors(m);
  NTL::zz_pE zeta;
  // Digits in base b = p at d = 1 (c runs over F_p), b = min(p, 256) at d > 1: there the
  // constants cannot work when m does not divide p - 1, and b = p would try all p of them
  // before Y (8 * 10^9 at IAIK's 33-bit p).
  const long base = d == 1 ? p : std::min(p, 256L);
  for (long c = 2;; ++c) {
    NTL::zz_pX cy;
    for (long i = 0, rest = c; rest > 0 && i < d; ++i, rest /= base) NTL::SetCoeff(cy, i, NTL::zz_p(rest % base));
    if (d == 1 && c >= p) throw Error(msg("PrimeSlotRing: no primitive ", m, "-th root of unity found mod p=", p));
    NTL::zz_pE base;
    NTL::conv(base, cy);
    if (NTL::IsZero(base)) continue;
    NTL::power(zeta, base, order);
    bool primitive = true;
    for (long q : qs)
      if (NTL::IsOne(NTL::power(zeta, m / q))) primitive = false;
    if (primitive) break;
  }
  zeta_ = from_K(zeta, d);

  // z_s = zeta^t_s and F_s = prod_i (X - z_s^(p^i)).
  impl->z.resize(size_t(ell));
  std::vector<NTL::zz_pX> F(static_cast<size_t>(ell));
  F_.resize(size_t(ell));
  for (long s = 0; s < ell; ++s) {
    const NTL::zz_pE zs = NTL::power(zeta, zm.rep(s));
    impl->z[size_t(s)] = zs;
    // F_s is z_s's minimal polynomial over F_p (its conjugates z_s^(p^i), i < d, are
    // distinct: the orbit of t_s under multiplication by p has d elements).
    NTL::zz_pX& Fs = F[size_t(s)];
    NTL::MinPolyMod(Fs, NTL::rep(zs), Gmod);
    if (NTL::deg(Fs) != d) throw Error(msg("PrimeSlotRing: F_", s, " has degree ", NTL::deg(Fs), ", not d=", d, " (m=", m, ")"));
    F_[size_t(s)] = to_words(Fs, d + 1);
  }
  impl->root = impl->build(0, ell, F);
  const NTL::zz_pX& Phi = impl->nodes[size_t(impl->root)].P;
  Phi_ = to_words(Phi, zm.phi() + 1);

  // dec_s: column j = z_s^j; enc_s = dec_s^-1 o (times w_s), w_s = F_s'(z_s) / Phi'(z_s).
  if (d > 1) {
    impl->dec.resize(size_t(ell));
    impl->enc.resize(size_t(ell));
    for (long s = 0; s < ell; ++s) {
      NTL::mat_zz_p& D = impl->dec[size_t(s)];
      D.SetDims(d, d);
      NTL::zz_pE zj;
      NTL::set(zj);
      for (long j = 0; j < d; ++j, zj *= impl->z[size_t(s)])
        for (long i = 0; i < d; ++i) D[i][j] = NTL::coeff(NTL::rep(zj), i);
    }
  }
  std::vector<NTL::zz_pX> rem(static_cast<size_t>(ell));
  impl->remainders(impl->root, NTL::diff(Phi) % Phi, rem);
  if (d == 1) impl->enc1.resize(size_t(ell));
  for (long s = 0; s < ell; ++s) {
    const NTL::zz_pE dphi = impl->leaf_decode(s, rem[size_t(s)]);
    // F_s'(z_s): evaluate the derivative's coefficients (in F_p) at z_s in K.
    NTL::zz_pE fd;
    const NTL::zz_pX dF = NTL::diff(F[size_t(s)]);
    for (long i = NTL::deg(dF); i >= 0; --i) fd = fd * impl->z[size_t(s)] + NTL::coeff(dF, i);
    if (NTL::IsZero(dphi)) throw Error(msg("PrimeSlotRing: Phi_m' vanishes at slot ", s, " (m=", m, ", p=", p, ")"));
    const NTL::zz_pE ws = fd / dphi;
    if (d == 1) {
      impl->enc1[size_t(s)] = NTL::ConstTerm(NTL::rep(ws));
    } else {
      NTL::mat_zz_p Mw;  // multiplication by w_s in the basis Y^j
      Mw.SetDims(d, d);
      NTL::zz_pE yj, Y;
      NTL::set(yj);
      NTL::conv(Y, NTL::zz_pX(NTL::INIT_MONO, 1));
      for (long j = 0; j < d; ++j, yj *= Y) {
        const NTL::zz_pE col = ws * yj;
        for (long i = 0; i < d; ++i) Mw[i][j] = NTL::coeff(NTL::rep(col), i);
      }
      NTL::mat_zz_p Dinv;
      NTL::zz_p det;
      NTL::inv(det, Dinv, impl->dec[size_t(s)]);
      if (NTL::IsZero(det)) throw Error(msg("PrimeSlotRing: dec_", s, " is singular (m=", m, ", p=", p, ")"));
      impl->enc[size_t(s)] = Dinv * Mw;
    }
  }
  if (d == 1 && (m & (m - 1)) == 0) {
    try {
      impl->ntt = std::make_unique<util::CyclotomicTransform>(m, uint64_t(p));
    } catch (const ParameterError&) {
      impl->ntt.reset();  // a p the transform does not take: the tree serves
    }
  }
  if (impl->ntt) {
    // u with w = zeta^u (both primitive m-th roots: u odd, found by stepping zeta's powers).
    const uint64_t z = zeta_[0], w = impl->ntt->zeta(), P = uint64_t(p);
    uint64_t x = z;
    long u = 1;
    while (x != w) x = uint64_t((unsigned __int128)x * z % P), ++u;
    unsigned long uinv = 1;  // u^-1 mod 2^k by Newton's iteration x <- x (2 - u x), 6 doublings of bits
    for (int i = 0; i < 6; ++i) uinv = uinv * (2 - (unsigned long)u * uinv);
    impl->pos.resize(size_t(ell));
    for (long s = 0; s < ell; ++s) {
      const unsigned long j = ((unsigned long)zm.rep(s) * uinv) & (unsigned long)(m - 1);
      impl->pos[size_t(s)] = long(j - 1) / 2;
    }
  }
  impl_ = std::move(impl);
}

std::vector<uint64_t> PrimeSlotRing::encode(const std::vector<Element>& v) const {
  const long d = this->d(), p = this->p();
  if (long(v.size()) != ell())
    throw ParameterError(msg("PrimeSlotRing::encode: ", v.size(), " slot values for ", ell(), " slots"));
  for (size_t s = 0; s < v.size(); ++s) {
    if (long(v[s].size()) != d)
      throw ParameterError(msg("PrimeSlotRing::encode: slot ", s, " has ", v[s].size(), " coefficients, K = GF(", p,
                               "^", d, ") needs ", d));
    for (uint64_t x : v[s])
      if (x >= uint64_t(p))
        throw ParameterError(msg("PrimeSlotRing::encode: slot ", s, " holds ", x, ", not an element of F_", p, " (>= p)"));
  }
  if (impl_->ntt) return encode_split([&](size_t s) { return v[s][0]; });
  NTL::zz_pPush push_p(impl_->Fp);
  NTL::zz_pEPush push_K(impl_->K);
  std::vector<NTL::zz_pX> b(v.size());
  for (size_t s = 0; s < v.size(); ++s) b[s] = impl_->leaf_encode(long(s), to_K(v[s]));
  return to_words(impl_->combine(impl_->root, b), phi());
}

std::vector<uint64_t> PrimeSlotRing::encode_fp(const std::vector<uint64_t>& v) const {
  const long p = this->p();
  if (long(v.size()) != ell())
    throw ParameterError(msg("PrimeSlotRing::encode: ", v.size(), " slot values for ", ell(), " slots"));
  for (size_t s = 0; s < v.size(); ++s)
    if (v[s] >= uint64_t(p))
      throw ParameterError(msg("PrimeSlotRing::encode: slot ", s, " holds ", v[s], ", not an element of F_", p, " (>= p)"));
  if (impl_->ntt) return encode_split([&](size_t s) { return v[s]; });
  std::vector<Element> k(v.size(), Element(size_t(d()), 0));
  for (size_t s = 0; s < v.size(); ++s) k[s][0] = v[s];
  return encode(k);
}

template <class Value>
std::vector<uint64_t> PrimeSlotRing::encode_split(const Value& value) const {
  std::vector<uint64_t> values(static_cast<size_t>(phi())), coeffs(static_cast<size_t>(zm_.m()));
  for (size_t s = 0; s < size_t(ell()); ++s) values[size_t(impl_->pos[s])] = value(s);
  impl_->ntt->inverse(values.data(), coeffs.data());
  coeffs.resize(size_t(phi()));
  return coeffs;
}

std::vector<uint64_t> PrimeSlotRing::split_values(const std::vector<uint64_t>& a) const {
  // a mod X^phi + 1, then the values at the primitive roots.
  const size_t n = size_t(phi());
  const uint64_t P = uint64_t(p());
  std::vector<uint64_t> r(a.begin(), a.begin() + long(std::min(a.size(), n))), values(n);
  r.resize(n, 0);
  for (size_t i = n; i < a.size(); ++i) {
    const size_t k = i % n;
    r[k] = ((i / n) % 2 == 0) ? (r[k] + a[i]) % P : (r[k] + P - a[i]) % P;
  }
  impl_->ntt->forward(r.data(), long(n), values.data());
  return values;
}

std::vector<PrimeSlotRing::Element> PrimeSlotRing::decode(const std::vector<uint64_t>& a) const {
  const long p = this->p();
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] >= uint64_t(p))
      throw ParameterError(msg("PrimeSlotRing::decode: coefficient ", i, " is ", a[i], ", not in [0, p=", p, ")"));
  if (impl_->ntt) {
    const auto values = split_values(a);
    std::vector<Element> out(static_cast<size_t>(ell()));
    for (long s = 0; s < ell(); ++s) out[size_t(s)] = {values[size_t(impl_->pos[size_t(s)])]};
    return out;
  }
  NTL::zz_pPush push_p(impl_->Fp);
  NTL::zz_pEPush push_K(impl_->K);
  const NTL::zz_pX& Phi = impl_->nodes[size_t(impl_->root)].P;
  std::vector<NTL::zz_pX> rem(static_cast<size_t>(ell()));
  impl_->remainders(impl_->root, from_words(a) % Phi, rem);
  std::vector<Element> out(static_cast<size_t>(ell()));
  for (long s = 0; s < ell(); ++s) out[size_t(s)] = from_K(impl_->leaf_decode(s, rem[size_t(s)]), d());
  return out;
}

PrimeSlotRing::Element PrimeSlotRing::mul(const Element& x, const Element& y) const {
  NTL::zz_pPush push_p(impl_->Fp);
  NTL::zz_pEPush push_K(impl_->K);
  return from_K(to_K(x) * to_K(y), d());
}

PrimeSlotRing::Element PrimeSlotRing::power(const Element& x, uint64_t e) const {
  NTL::zz_pPush push_p(impl_->Fp);
  NTL::zz_pEPush push_K(impl_->K);
  NTL::ZZ E;
  NTL::conv(E, static_cast<unsigned long>(e));
  return from_K(NTL::power(to_K(x), E), d());
}

std::vector<uint64_t> PrimeSlotRing::decode_fp(const std::vector<uint64_t>& a) const {
  if (d() != 1)
    throw ParameterError(msg("PrimeSlotRing::decode_fp: the slots are GF(", p(), "^", d(), ") (m=", zm_.m(),
                             "), not F_p: use decode"));
  if (!impl_->ntt) {
    const auto k = decode(a);
    std::vector<uint64_t> out(k.size());
    for (size_t s = 0; s < k.size(); ++s) out[s] = k[s][0];
    return out;
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] >= uint64_t(p()))
      throw ParameterError(msg("PrimeSlotRing::decode: coefficient ", i, " is ", a[i], ", not in [0, p=", p(), ")"));
  const auto values = split_values(a);
  std::vector<uint64_t> out(static_cast<size_t>(ell()));
  for (long s = 0; s < ell(); ++s) out[size_t(s)] = values[size_t(impl_->pos[size_t(s)])];
  return out;
}

}  // namespace cb
