// permute.h: moving values between slots with automorphisms and masks, on any backend.
//
// The automorphism sigma_k: X -> X^k (k in Z_m^*) moves slot values: after it, slot t
// holds frob^f(old value of slot t') where k * rep(t) = rep(t') * 2^f (mod m) (zmstar.h).
// So sigma_k carries the value of slot src to slot dst *untwisted* exactly when
//     k * rep(dst) = rep(src)  (mod m),   i.e.   k = rep(src) * rep(dst)^-1 mod m,
// and this k is unique. A slot permutation pi (dst <- src for the slots that matter;
// any map, sources may repeat) therefore splits into groups G_k of pairs sharing the same
// k, and
//     pi(c) = sum_k  mask_k * sigma_k(c),     mask_k = 1 on the dsts of G_k, 0 elsewhere.
// Because every pair has exactly one twist-free k, this partition is the unique way to
// realize pi with one automorphism per term: the "cover" needs no search, and its size is
// the number of distinct k. k = 1 (pairs with src = dst) costs no automorphism.
//
// Subfield values. The circuits keep GF(2^n) values in the slots (n | d, subfield.h),
// and frob^f is the identity on GF(2^n) when n | f. So for such data a pair may also be
// served by any k = k0 * 2^(j n), j < d/n (k0 the exact k): it arrives twisted by
// 2^(-j n), which is invisible. Each pair then has d/n candidate k's, and cover(n) chooses
// few of them greedily: first k = 1 for every pair that admits it (no automorphism),
// then repeatedly the k that serves the most pairs not yet served. PermutationPlan uses
// cover(backend.field().n()); cover(d) is the exact grouping. At an odd prime p the same
// holds with p for 2 (twists x -> x^(p^j)): F_p values (n = 1) are fixed by every twist. Example: m = 4369, d = 16,
// its first dimension is bad with twist 8, yet for AES bytes (n = 8) a rotation along it
// needs one automorphism and no mask.
//
// Examples. rotate_dim(i, r) moves e_i -> e_i + r (mod ord_i). For pairs that do not wrap
// around, k = g_i^-r; for those that do, k = g_i^(ord_i - r) = g_i^-r * g_i^ord_i. In a
// good dimension g_i^ord_i = 1, so a single k and, when every slot is listed, no mask at
// all. In a bad dimension g_i^ord_i = 2^f_i != 1: two k's and two masks, HElib's
// bad-dimension rotation, obtained here automatically from the grouping. A linear
// rotation rotate(r) of the row-major slot order mixes carries between dimensions and
// needs up to 2^D groups.
//
// Cost model (PermutationCost): automorphisms = number of k != 1 (in BGV each is a key
// switch, the dominant cost), masks = number of plaintext products (cheap in time, but
// each costs some capacity), additions = terms - 1 (negligible); total() = automorphisms
// + masks. A mask is skipped when it is all ones (one k covers every slot) or, if the
// caller allows it with DontCare::kGarbage, when one k covers all slots that matter and
// the others may hold anything. The default DontCare::kZero makes unlisted slots 0.
//
// Keys: every k in PermutationPlan::automorphisms() needs a key-switching key; call
// backend.require_automorphisms(plan.automorphisms()) at setup, before timing.
//
// Hoisting: when the backend has automorph_many (backend.h, optional) and a plan has two
// or more k != 1, apply() moves the input once through automorph_many (BGV decomposes
// the ciphertext for key switching once for all k). apply() is const and uses only const
// backend operations, so one plan may serve several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb {

// x -> x^(p^j) in every slot: the automorphism X -> X^(p^j mod m) (x^(2^j) at p = 2). j may be negative or
// >= d; j = 0 mod d does nothing.
template <class B>
void frobenius(const B& backend, typename B::Ctxt& c, long j) {
  const long k = backend.zmstar().power(backend.zmstar().p(), j);
  if (k != 1) backend.automorph(c, k);
}

// Which slot each slot receives its value from, grouped by the automorphism that moves it.
class SlotPermutation {
 public:
  static constexpr long kDontCare = -1;

  // src_of[dst] = the slot whose value dst receives, or kDontCare; src_of.size() == ell.
  // Throws ParameterError for a wrong size or a slot outside [0, ell).
  SlotPermutation(const ZmStar& zm, std::vector<long> src_of);
  // From (dst, src) pairs; unlisted dsts are don't-care. Throws on a repeated dst.
  static SlotPermutation from_pairs(const ZmStar& zm, const std::vector<std::pair<long, long>>& dst_src);
  // Rotation along hypercube dimension dim: coordinate e_dim -> e_dim + r (mod ord_dim).
  static SlotPermutation rotate_dim(const ZmStar& zm, long dim, long r);
  // Rotation of the slot order: slot (s + r) mod ell receives slot s (r may be negative).
  static SlotPermutation rotate(const ZmStar& zm, long r);

  long m() const { return m_; }
  long ell() const { return long(src_of_.size()); }
  long src(long dst) const { return src_of_[dst]; }
  const std::vector<long>& sources() const { return src_of_; }
  long listed() const { return listed_; }  // number of dsts that are not don't-care

  struct Group {
    long k;                  // X -> X^k brings each dst its src (untwisted, or twisted by 2^(j n))
    std::vector<long> dsts;  // increasing
  };
  // The exact grouping: k = rep(src) * rep(dst)^-1, ordered by k.
  const std::vector<Group>& groups() const { return groups_; }
  // Groups for values in GF(2^n), n | d: k may differ from the exact one by 2^(j n)
  // (see the header comment); greedy, k = 1 first, then by decreasing size. Throws
  // ParameterError unless n divides d.
  std::vector<Group> cover(long n) const;

  // The permutation on a clear slot vector: result[dst] = v[src], 0 where don't-care.
  std::vector<uint64_t> apply_clear(const std::vector<uint64_t>& v) const;

 private:
  long m_, d_, p_;  // the ring's m, slot degree d and plaintext modulus p (Frobenius x -> x^p)
  std::vector<long> src_of_;
  std::vector<long> k_of_;  // exact k per dst, 0 for don't-care
  long listed_ = 0;
  std::vector<Group> groups_;
};

enum class DontCare {
  kZero,     // unlisted slots become 0 (default)
  kGarbage,  // unlisted slots may hold anything: a single group then needs no mask
};

struct PermutationCost {
  long automorphisms = 0;  // key switches
  long masks = 0;          // plaintext products
  long additions = 0;
  long total() const { return automorphisms + masks; }
};

// Whether B has the optional hoisted automorph_many(const Ctxt&, const std::vector<long>&).
template <class B, class = void>
struct has_automorph_many : std::false_type {};
template <class B>
struct has_automorph_many<B, std::void_t<decltype(std::declval<const B&>().automorph_many(
                                 std::declval<const typename B::Ctxt&>(), std::declval<const std::vector<long>&>()))>>
    : std::true_type {};

// A SlotPermutation compiled for one backend: the automorphisms and encoded masks.
template <class B>
class PermutationPlan {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;

  PermutationPlan(const B& backend, const SlotPermutation& perm, DontCare dont_care = DontCare::kZero) {
    if (backend.zmstar().m() != perm.m())
      throw ParameterError(msg("the permutation was built for m=", perm.m(), " but the backend has m=",
                               backend.zmstar().m()));
    const long ell = perm.ell();
    // The degree of the slot values' field over the slots' prime field: n for GF(2^n), 1 for F_p.
    const auto groups = perm.cover(slot_characteristic(backend) == 2 ? backend.field().n() : 1);
    if (groups.empty()) {
      // Nothing matters: zero everything, or leave the ciphertext as it is.
      if (dont_care == DontCare::kZero) terms_.push_back({1, backend.encode(std::vector<uint64_t>(ell, 0))});
      return;
    }
    const bool single = groups.size() == 1;
    for (const auto& g : groups) {
      const bool full = long(g.dsts.size()) == ell;
      if (single && (full || dont_care == DontCare::kGarbage)) {
        terms_.push_back({g.k, std::nullopt});
      } else {
        std::vector<uint64_t> mask(ell, 0);
        for (long dst : g.dsts) mask[dst] = 1;
        terms_.push_back({g.k, backend.encode(mask)});
      }
    }
  }

  // c <- pi(c).
  void apply(const B& backend, Ctxt& c) const {
    if (terms_.empty()) return;
    if constexpr (has_automorph_many<B>::value) {
      const std::vector<long> ks = automorphisms();
      if (ks.size() >= 2) {
        std::vector<Ctxt> moved = backend.automorph_many(c, ks);
        std::optional<Ctxt> acc;
        size_t next = 0;
        for (const auto& t : terms_) {
          if (t.k == 1) {
            Ctxt x = c;
            if (t.mask) backend.mul_plain(x, *t.mask);
            accumulate(backend, acc, std::move(x));
          } else {
            Ctxt& x = moved[next++];
            if (t.mask) backend.mul_plain(x, *t.mask);
            accumulate(backend, acc, std::move(x));
          }
        }
        c = std::move(*acc);
        return;
      }
    }
    std::optional<Ctxt> acc;
    for (size_t i = 0; i + 1 < terms_.size(); ++i) {
      Ctxt t = c;
      apply_term(backend, terms_[i], t);
      if (acc) {
        backend.add(*acc, t);
      } else {
        acc.emplace(std::move(t));
      }
    }
    apply_term(backend, terms_.back(), c);
    if (acc) backend.add(c, *acc);
  }

  // The k != 1 this plan applies: each needs a key-switching key (require_automorphisms).
  std::vector<long> automorphisms() const {
    std::vector<long> ks;
    for (const auto& t : terms_)
      if (t.k != 1) ks.push_back(t.k);
    return ks;
  }

  PermutationCost cost() const {
    PermutationCost c;
    for (const auto& t : terms_) {
      c.automorphisms += t.k != 1;
      c.masks += t.mask.has_value();
    }
    c.additions = terms_.empty() ? 0 : long(terms_.size()) - 1;
    return c;
  }

 private:
  struct Term {
    long k;
    std::optional<Ptxt> mask;
  };

  static void accumulate(const B& backend, std::optional<Ctxt>& acc, Ctxt&& x) {
    if (acc) {
      backend.add(*acc, x);
    } else {
      acc.emplace(std::move(x));
    }
  }

  static void apply_term(const B& backend, const Term& t, Ctxt& c) {
    if (t.k != 1) backend.automorph(c, t.k);
    if (t.mask) backend.mul_plain(c, *t.mask);
  }

  std::vector<Term> terms_;
};

}  // namespace cb
