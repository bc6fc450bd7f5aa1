// evaluator.h: a backend with operation counters, the handle every circuit evaluates through.
//
// The circuits report, per round, how many ciphertext operations of each kind they ran
// (the papers compare designs by these counts: multiplications set the depth, automorphisms
// the key-switching work). Evaluator<B> forwards to the backend B of backend.h and counts.
// It is used from one thread at a time: lanes of a state (backend/lanes.h) each get their
// own, absorbed into the round's when they finish.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "backend/lanes.h"

namespace cb {

struct RoundRecord;

// Ciphertext operations by kind.
struct OpCounts {
  long mul = 0;        // ciphertext x ciphertext, relinearized (squares included)
  long mul_plain = 0;  // ciphertext x encoded constant
  long add = 0;        // ciphertext + ciphertext
  long add_plain = 0;  // ciphertext + encoded constant
  long automorph = 0;  // X -> X^k with key switching (Frobenius maps and slot moves)

  OpCounts& operator+=(const OpCounts& o) {
    mul += o.mul, mul_plain += o.mul_plain, add += o.add, add_plain += o.add_plain, automorph += o.automorph;
    return *this;
  }
  OpCounts operator-(const OpCounts& o) const {
    return {mul - o.mul, mul_plain - o.mul_plain, add - o.add, add_plain - o.add_plain,
            automorph - o.automorph};
  }
  std::map<std::string, long> as_map() const {
    return {{"mul", mul}, {"mul_plain", mul_plain}, {"add", add}, {"add_plain", add_plain},
            {"automorph", automorph}};
  }
};

// Whether B has the optional hoisted automorph_many(a, ks) of backend.h.
template <class B, class = void>
struct HasAutomorphMany : std::false_type {};
template <class B>
struct HasAutomorphMany<B, std::void_t<decltype(std::declval<const B&>().automorph_many(
                               std::declval<const typename B::Ctxt&>(), std::declval<const std::vector<long>&>()))>>
    : std::true_type {};

// Whether B has the optional encrypt_many(vs) of backend.h.
template <class B, class = void>
struct HasEncryptMany : std::false_type {};
template <class B>
struct HasEncryptMany<B, std::void_t<decltype(std::declval<const B&>().encrypt_many(
                             std::declval<const std::vector<std::vector<uint64_t>>&>()))>> : std::true_type {};

// b.encrypt(v) of each v, in order (through encrypt_many where B has it).
template <class B>
std::vector<typename B::Ctxt> encrypt_all(const B& b, const std::vector<std::vector<uint64_t>>& vs) {
  if constexpr (HasEncryptMany<B>::value) {
    return b.encrypt_many(vs);
  } else {
    std::vector<typename B::Ctxt> out;
    for (const auto& v : vs) out.push_back(b.encrypt(v));
    return out;
  }
}

template <class B>
class Evaluator {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;

  explicit Evaluator(B& backend) : b_(backend) {}

  B& backend() const { return b_; }
  const OpCounts& counts() const { return counts_; }
  // Adds the counts of evaluators that ran beside this one (lanes, backend/lanes.h).
  void absorb(const OpCounts& c) { counts_ += c; }
  // f(e, i) for i in [0, w), side by side (backend/lanes.h), each lane with an evaluator e
  // of its own whose counts this one absorbs after all lanes finish. w == 1: f(*this, 0).
  template <class F>
  void lanes(long w, F&& f) {
    if (w == 1) return f(*this, 0L);
    std::vector<Evaluator> evs(static_cast<size_t>(w), Evaluator{b_});
    for_each_lane<B>(w, [&](long i) { f(evs[size_t(i)], i); });
    for (const auto& e : evs) counts_ += e.counts_;
  }
  // Called with each round's record as the round ends (progress reports); may be empty.
  std::function<void(const RoundRecord&)> on_round;

  void add(Ctxt& a, const Ctxt& c) { b_.add(a, c), ++counts_.add; }
  void add_plain(Ctxt& a, const Ptxt& p) { b_.add_plain(a, p), ++counts_.add_plain; }
  void mul(Ctxt& a, const Ctxt& c) { b_.mul(a, c), ++counts_.mul; }
  void mul_plain(Ctxt& a, const Ptxt& p) { b_.mul_plain(a, p), ++counts_.mul_plain; }
  void square(Ctxt& a) { b_.square(a), ++counts_.mul; }
  void automorph(Ctxt& a, long k) {
    if (k % b_.zmstar().m() == 1) return;
    b_.automorph(a, k), ++counts_.automorph;
  }
  // a <- a^(2^j) slot-wise (X -> X^(2^j)); j = 0 is the identity.
  void frobenius(Ctxt& a, long j) { automorph(a, b_.zmstar().power(2, j)); }

  // sigma_k(a) for every k of ks (k = 1 gives a copy). Several automorphisms of one value
  // share the key-switching decomposition when the backend offers hoisting.
  std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) {
    const long m = b_.zmstar().m();
    std::vector<long> moving;
    for (long k : ks)
      if (k % m != 1) moving.push_back(k);
    std::vector<Ctxt> moved;
    if constexpr (HasAutomorphMany<B>::value) {
      if (moving.size() > 1) moved = b_.automorph_many(a, moving);
    }
    if (moved.size() != moving.size()) {
      moved.clear();
      for (long k : moving) {
        moved.push_back(a);
        b_.automorph(moved.back(), k);
      }
    }
    counts_.automorph += long(moving.size());
    std::vector<Ctxt> out;
    out.reserve(ks.size());
    size_t next = 0;
    for (long k : ks) out.push_back(k % m == 1 ? a : std::move(moved[next++]));
    return out;
  }

 private:
  B& b_;
  OpCounts counts_;
};

}  // namespace cb
