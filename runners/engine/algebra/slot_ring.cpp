// slot_ring.cpp: the CRT R_2 = GF(2)[X]/Phi_m  <->  K^ell of slot_ring.h.
//
// Choices (deterministic, documented in the report and in the tests):
//   G     = the trinomial Y^d + Y^k + 1 with the smallest k that is irreducible, or when
//           there is none (8 | d, for instance) the irreducible pentanomial
//           Y^d + Y^a + Y^b + Y^c + 1 smallest as an integer (sparse, so reduction mod G
//           is a few shifts; independent of NTL's own BuildSparseIrred);
//   zeta  = c(Y)^((2^d - 1)/m) mod G for the first c = 2, 3, 4, ... (c read as the
//           polynomial whose bit i is the coefficient of Y^i, so c = 2 is Y, c = 3 is Y+1)
//           for which this power has order exactly m.
//
// Decode is a remainder tree: a mod (product of F_s over a node's slots) going down a
// balanced binary subproduct tree over the slots, then at each leaf the GF(2)-linear map
//     dec_s : GF(2)[X]/F_s -> K,  b |-> b(zeta^t_s),   column j = zeta^(t_s j),
// applied to the d-bit remainder. Encode runs the tree upwards:
//     a = sum_s b_s * (Phi/F_s),  b_s = enc_s(v_s),
// combining children as a_node = a_left * P_right + a_right * P_left. Since
//     (Phi/F_s)(zeta^t_s) = Phi'(zeta^t_s) / F_s'(zeta^t_s)
// (differentiate Phi = F_s * Phi/F_s and evaluate at a root of F_s), the leaf map is
//     enc_s = dec_s^-1 o (multiplication by w_s),  w_s = F_s'(zeta^t_s) / Phi'(zeta^t_s),
// with Phi'(zeta^t_s) obtained by decoding Phi' once. Neither encode nor decode touches
// NTL's global GF2E modulus; they only read the precomputed tree and matrices, so they
// may run on several threads at once.
#include "engine/algebra/slot_ring.h"

#include <NTL/GF2E.h>
#include <NTL/GF2EX.h>
#include <NTL/GF2XFactoring.h>
#include <NTL/ZZ.h>

#include "engine/algebra/bits.h"
#include "engine/errors.h"

namespace cb {

namespace bits {

bool invert(const BitMatrix& a, BitMatrix& inv) {
  // Gauss-Jordan on the columns of a read as the rows of a^T; the reduced identity part
  // then holds the rows of (a^T)^-1 = the columns of a^-1.
  const long n = a.cols, w = a.w;
  if (a.rows != n) return false;
  std::vector<uint64_t> A = a.col;
  inv = BitMatrix(n, n);
  for (long j = 0; j < n; ++j) inv.column(j)[j >> 6] |= uint64_t(1) << (j & 63);
  std::vector<uint64_t>& B = inv.col;
  for (long c = 0; c < n; ++c) {
    const long cw = c >> 6;
    const uint64_t cb = uint64_t(1) << (c & 63);
    long p = c;
    while (p < n && !(A[size_t(p * w + cw)] & cb)) ++p;
    if (p == n) return false;
    if (p != c)
      for (long i = 0; i < w; ++i) {
        std::swap(A[size_t(p * w + i)], A[size_t(c * w + i)]);
        std::swap(B[size_t(p * w + i)], B[size_t(c * w + i)]);
      }
    for (long r = 0; r < n; ++r) {
      if (r == c || !(A[size_t(r * w + cw)] & cb)) continue;
      for (long i = 0; i < w; ++i) {
        A[size_t(r * w + i)] ^= A[size_t(c * w + i)];
        B[size_t(r * w + i)] ^= B[size_t(c * w + i)];
      }
    }
  }
  return true;
}

}  // namespace bits

namespace {

constexpr long kMaxD = kMaxSlotDegree;

// The sparse irreducible of degree d that is smallest as an integer among trinomials
// Y^d + Y^k + 1, or, when none exists, among pentanomials Y^d + Y^a + Y^b + Y^c + 1.
NTL::GF2X sparse_irreducible(long d) {
  NTL::GF2X g;
  for (long k = 1; k < d; ++k) {
    g = NTL::GF2X();
    NTL::SetCoeff(g, d), NTL::SetCoeff(g, k), NTL::SetCoeff(g, 0);
    if (NTL::IterIrredTest(g)) return g;
  }
  for (long a = 3; a < d; ++a)
    for (long b = 2; b < a; ++b)
      for (long c = 1; c < b; ++c) {
        g = NTL::GF2X();
        NTL::SetCoeff(g, d), NTL::SetCoeff(g, a), NTL::SetCoeff(g, b), NTL::SetCoeff(g, c), NTL::SetCoeff(g, 0);
        if (NTL::IterIrredTest(g)) return g;
      }
  NTL::BuildIrred(g, d);  // no sparse one (not known to happen for any d > 1)
  return g;
}

// Phi_m(X) mod 2 = prod_{e | m} (X^e - 1)^mu(m/e).
NTL::GF2X cyclotomic_mod2(long m, const std::vector<std::pair<long, long>>& factors) {
  NTL::GF2X num(1), den(1);
  const long r = long(factors.size());
  for (long mask = 0; mask < (1L << r); ++mask) {  // squarefree divisors q of m: mu(q) = (-1)^|q|
    long q = 1, bitsset = 0;
    for (long i = 0; i < r; ++i)
      if ((mask >> i) & 1) q *= factors[i].first, ++bitsset;
    NTL::GF2X t;
    NTL::SetCoeff(t, m / q);
    NTL::SetCoeff(t, 0);
    if (bitsset % 2 == 0)
      num *= t;
    else
      den *= t;
  }
  NTL::GF2X phi, rem;
  NTL::DivRem(phi, rem, num, den);
  if (!NTL::IsZero(rem)) throw Error(msg("m=", m, ": cyclotomic division left a remainder"));
  return phi;
}

}  // namespace

struct SlotRing::Impl {
  long d = 0, w = 0;  // w = words per slot value
  struct Node {
    long lo, hi;        // slots [lo, hi)
    long left, right;   // child indices, -1 at a leaf
    NTL::GF2X prod;     // prod_{lo<=s<hi} F_s
    NTL::GF2XModulus mod;
  };
  std::vector<Node> nodes;  // nodes[0] is the root
  std::vector<bits::BitMatrix> dec, enc;  // per slot, d x d

  long build(long lo, long hi, const std::vector<NTL::GF2X>& F) {
    const long id = long(nodes.size());
    nodes.push_back(Node{lo, hi, -1, -1, {}, {}});
    if (hi - lo == 1) {
      nodes[id].prod = F[lo];
    } else {
      const long mid = (lo + hi) / 2;
      const long l = build(lo, mid, F);
      const long r = build(mid, hi, F);
      nodes[id].left = l;
      nodes[id].right = r;
      NTL::mul(nodes[id].prod, nodes[l].prod, nodes[r].prod);
    }
    NTL::build(nodes[id].mod, nodes[id].prod);
    return id;
  }

  // out[s] = dec_s(a mod F_s) for the slots under node id; a has degree < deg(prod).
  void down(long id, const NTL::GF2X& a, std::vector<NTL::GF2X>& out) const {
    const Node& nd = nodes[id];
    if (nd.left < 0) {
      std::vector<uint64_t> x(size_t(2 * w));
      bits::to_words(a, x.data(), w);
      dec[nd.lo].apply(x.data(), x.data() + w);
      out[nd.lo] = bits::from_words(x.data() + w, w);
      return;
    }
    NTL::GF2X r;
    NTL::rem(r, a, nodes[nd.left].mod);
    down(nd.left, r, out);
    NTL::rem(r, a, nodes[nd.right].mod);
    down(nd.right, r, out);
  }

  // sum over the node's slots of enc_s(v_s) * prod(node)/F_s.
  NTL::GF2X up(long id, const std::vector<NTL::GF2X>& v, const NTL::GF2X& G) const {
    const Node& nd = nodes[id];
    if (nd.left < 0) {
      std::vector<uint64_t> x(size_t(2 * w));
      if (NTL::deg(v[nd.lo]) >= d) {
        NTL::GF2X red;
        NTL::rem(red, v[nd.lo], G);
        bits::to_words(red, x.data(), w);
      } else {
        bits::to_words(v[nd.lo], x.data(), w);
      }
      enc[nd.lo].apply(x.data(), x.data() + w);
      return bits::from_words(x.data() + w, w);
    }
    const NTL::GF2X al = up(nd.left, v, G), ar = up(nd.right, v, G);
    NTL::GF2X s, t;
    NTL::mul(s, al, nodes[nd.right].prod);
    NTL::mul(t, ar, nodes[nd.left].prod);
    NTL::add(s, s, t);
    return s;
  }
};

SlotRing::SlotRing(const ZmStar& zm) : zm_(zm) {
  const long m = zm.m(), d = zm.d(), ell = zm.ell();
  // The CRT keeps two d x d bit matrices per slot (2 d phi bits in all) and builds each
  // factor from d roots in GF(2^d); beyond this the ring is no slot ring worth having.
  if (d > kMaxD)
    throw ParameterError(msg("m=", m, " has d=ord_m(2)=", d, " > ", kMaxD,
                             ": slot fields above GF(2^", kMaxD, ") are not supported"));
  auto impl = std::make_shared<Impl>();
  impl->d = d;
  impl->w = bits::words(d);

  G_ = sparse_irreducible(d);
  const NTL::GF2XModulus Gm(G_);

  // zeta: the first c(Y)^((2^d - 1)/m) of exact order m.
  const NTL::ZZ e = (NTL::power2_ZZ(d) - 1) / m;
  for (long c = 2;; ++c) {
    if (c >= 1L << std::min<long>(d, 62)) throw Error(msg("m=", m, ": no primitive m-th root of unity found in GF(2^", d, ")"));
    NTL::GF2X g;
    for (long i = 0; i < 62; ++i)
      if ((c >> i) & 1) NTL::SetCoeff(g, i);
    NTL::GF2X z;
    NTL::PowerMod(z, g, e, Gm);
    bool primitive = !NTL::IsOne(z) && !NTL::IsZero(z);
    for (auto [p, k] : zm.factors()) {
      (void)k;
      NTL::GF2X y;
      NTL::PowerMod(y, z, m / p, Gm);
      if (NTL::IsOne(y)) primitive = false;
    }
    if (primitive) {
      zeta_ = z;
      break;
    }
  }

  // Roots zeta^t_s, factors F_s = prod_i (X - zeta^(t_s 2^i)), and dec_s.
  F_.resize(ell);
  impl->dec.resize(ell);
  {
    NTL::GF2EPush push(G_);
    NTL::vec_GF2E roots;
    roots.SetLength(d);
    for (long s = 0; s < ell; ++s) {
      NTL::GF2X r;
      NTL::PowerMod(r, zeta_, zm.rep(s), Gm);
      // dec_s columns r^j.
      bits::BitMatrix& M = impl->dec[s];
      M = bits::BitMatrix(d, d);
      NTL::GF2X rj(1);
      for (long j = 0; j < d; ++j) {
        bits::to_words(rj, M.column(j), M.w);
        NTL::MulMod(rj, rj, r, Gm);
      }
      NTL::GF2X ri = r;
      for (long i = 0; i < d; ++i) {
        NTL::conv(roots[i], ri);
        NTL::SqrMod(ri, ri, Gm);
      }
      if (ri != r) throw Error(msg("m=", m, ": zeta^", zm.rep(s), " is not fixed by the d-th Frobenius"));
      NTL::GF2EX Fs;
      NTL::BuildFromRoots(Fs, roots);
      NTL::GF2X& f = F_[s];
      f = NTL::GF2X();
      for (long i = 0; i <= NTL::deg(Fs); ++i) {
        const NTL::GF2X& c = NTL::rep(NTL::coeff(Fs, i));
        if (NTL::IsOne(c))
          NTL::SetCoeff(f, i);
        else if (!NTL::IsZero(c))
          throw Error(msg("m=", m, ": factor F_", s, " has a coefficient outside GF(2)"));
      }
    }
  }

  // Subproduct tree; its root must be Phi_m mod 2.
  impl->nodes.reserve(size_t(2 * ell));
  impl->build(0, ell, F_);
  Phi_ = cyclotomic_mod2(m, zm.factors());
  if (impl->nodes[0].prod != Phi_)
    throw Error(msg("m=", m, ": the product of the slot factors is not Phi_m mod 2"));

  // enc_s = dec_s^-1 o (times w_s), w_s = F_s'(zeta^t_s) / Phi'(zeta^t_s).
  NTL::GF2X dPhi;
  NTL::diff(dPhi, Phi_);
  std::vector<NTL::GF2X> dPhi_at(ell);
  impl->down(0, dPhi, dPhi_at);
  impl->enc.resize(ell);
  const long w = impl->w;
  std::vector<uint64_t> x(size_t(2 * w));
  for (long s = 0; s < ell; ++s) {
    NTL::GF2X dF, ws, inv_dphi;
    NTL::diff(dF, F_[s]);
    bits::to_words(dF, x.data(), w);
    impl->dec[s].apply(x.data(), x.data() + w);
    NTL::InvMod(inv_dphi, dPhi_at[s], G_);
    NTL::MulMod(ws, bits::from_words(x.data() + w, w), inv_dphi, Gm);
    bits::BitMatrix dinv;
    if (!bits::invert(impl->dec[s], dinv)) throw Error(msg("m=", m, ": slot map ", s, " is singular"));
    bits::BitMatrix& E = impl->enc[s];
    E = bits::BitMatrix(d, d);
    NTL::GF2X yw = ws;  // Y^j * w_s
    for (long j = 0; j < d; ++j) {
      bits::to_words(yw, x.data(), w);
      dinv.apply(x.data(), E.column(j));
      NTL::MulByXMod(yw, yw, Gm);
    }
  }
  impl_ = std::move(impl);
}

NTL::GF2X SlotRing::encode(const std::vector<NTL::GF2X>& v) const {
  if (long(v.size()) != ell())
    throw ParameterError(msg("encode got ", v.size(), " slot values, the ring has ell=", ell(), " slots (m=",
                             zm_.m(), ")"));
  return impl_->up(0, v, G_);
}

std::vector<NTL::GF2X> SlotRing::decode(const NTL::GF2X& a) const {
  std::vector<NTL::GF2X> out(static_cast<size_t>(ell()));
  if (NTL::deg(a) >= NTL::deg(Phi_)) {
    NTL::GF2X r;
    NTL::rem(r, a, impl_->nodes[0].mod);
    impl_->down(0, r, out);
  } else {
    impl_->down(0, a, out);
  }
  return out;
}

}  // namespace cb
