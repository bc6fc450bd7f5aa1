// linearized_eval.h: an affine map c + sum_j gamma_j x^(2^j) on ciphertexts.
//
// x^(2^j) is the Frobenius automorphism X -> X^(2^j), one key switch each; products by
// the gamma_j are constant multiplications. Evaluating all n terms directly costs n-1
// automorphisms. With k = ceil(sqrt(n)) baby steps, write j = a*k + b and use
//     gamma_j x^(2^j) = F^(ak)( F^(-ak)(gamma_j) x^(2^b) ),   F = Frobenius,
// so the map is sum_a F^(ak)( sum_b F^(-ak)(gamma_{ak+b}) x^(2^b) ): k-1 baby-step and
// ceil(n/k)-1 giant-step automorphisms (HElib's and the Vision paper's maps pay n-1).
// Zero coefficients are skipped; the cheaper of the two schedules is used. The constants
// are the same in every active slot (all slots share one field, slot_ring.h) and zero in
// inactive ones, so unused slots stay zero.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "ciphers/common/evaluator.h"
#include "ciphers/common/linearized.h"

namespace cb {

template <class B>
class LinearizedCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;

  // active: one flag per slot (empty = all slots active).
  LinearizedCircuit(const B& b, const Linearized& L, const std::vector<bool>& active = {}) {
    const GF2n& F = b.field();
    const long n = F.n(), ell = b.slot_count();
    auto slots = [&](uint64_t v) {
      std::vector<uint64_t> s(ell, v);
      if (!active.empty())
        for (long i = 0; i < ell; ++i)
          if (!active[i]) s[i] = 0;
      return s;
    };
    // Direct schedule: one automorphism per non-zero gamma_j, j > 0.
    long direct = 0;
    for (long j = 1; j < n; ++j) direct += L.gamma[j] != 0;
    long k = std::max(1L, long(std::ceil(std::sqrt(double(n)))));
    std::vector<bool> baby(k, false), giant((n + k - 1) / k, false);
    for (long j = 0; j < n; ++j)
      if (L.gamma[j]) baby[j % k] = true, giant[j / k] = true;
    const long bsgs = std::count(baby.begin() + 1, baby.end(), true) +
                      std::count(giant.begin() + 1, giant.end(), true);
    if (direct <= bsgs) k = n;  // one group: a = 0 only, b = j
    for (long j = 0; j < n; ++j) {
      if (!L.gamma[j]) continue;
      const long a = j / k, bb = j % k;
      groups_[a].push_back({bb, b.encode(slots(F.frob(L.gamma[j], -a * k)))});
    }
    k_ = k;
    if (L.c) c_ = b.encode(slots(L.c));
    for (auto& [a, terms] : groups_) {
      if (a) autos_.push_back(b.zmstar().power(2, a * k));
      for (auto& t : terms)
        if (t.b) autos_.push_back(b.zmstar().power(2, t.b));
    }
    std::sort(autos_.begin(), autos_.end());
    autos_.erase(std::unique(autos_.begin(), autos_.end()), autos_.end());
  }

  // Automorphism exponents k (X -> X^k) the map uses.
  const std::vector<long>& automorphisms() const { return autos_; }

  // x <- c + sum_j gamma_j x^(2^j).
  void apply(Evaluator<B>& ev, Ctxt& x) const {
    // The baby steps x^(2^b), all from x: one hoisted call.
    std::vector<long> bs, ks;
    for (auto& [a, terms] : groups_)
      for (auto& t : terms)
        if (std::find(bs.begin(), bs.end(), t.b) == bs.end()) bs.push_back(t.b);
    for (long bb : bs) ks.push_back(ev.backend().zmstar().power(2, bb));
    const std::vector<Ctxt> moved = ev.automorph_many(x, ks);
    auto power = [&](long bb) -> const Ctxt& {
      return moved[std::find(bs.begin(), bs.end(), bb) - bs.begin()];
    };
    std::vector<Ctxt> parts;
    for (auto& [a, terms] : groups_) {
      Ctxt inner = power(terms[0].b);
      ev.mul_plain(inner, terms[0].coeff);
      for (size_t t = 1; t < terms.size(); ++t) {
        Ctxt y = power(terms[t].b);
        ev.mul_plain(y, terms[t].coeff);
        ev.add(inner, y);
      }
      ev.frobenius(inner, a * k_);
      parts.push_back(std::move(inner));
    }
    if (parts.empty()) {  // the zero map: x * 0
      Ptxt zero = ev.backend().encode(std::vector<uint64_t>(ev.backend().slot_count(), 0));
      ev.mul_plain(x, zero);
    } else {
      for (size_t i = 1; i < parts.size(); ++i) ev.add(parts[0], parts[i]);
      x = std::move(parts[0]);
    }
    if (c_) ev.add_plain(x, *c_);
  }

 private:
  struct Term {
    long b;
    Ptxt coeff;  // F^(-ak)(gamma_{ak+b}) in every active slot
  };
  long k_ = 1;
  std::map<long, std::vector<Term>> groups_;  // a -> terms
  std::optional<Ptxt> c_;
  std::vector<long> autos_;
};

}  // namespace cb
