// keystream_circuit.h: a keystream entry's program (keystream_spec.h) on encrypted keys,
// over any backend, one block per slot: the server's side of transciphering.
//
// Layout: ciphertext i of the state holds element i of every block, block j in slot j
// (j < blocks <= ell), so the blocks (nonce, counter0 + j) run side by side and every
// per-block public value (a matrix entry, a round constant) is a slot vector: the j-th
// slot holds block j's. The key is encrypted once, each element replicated over the slots
// (the client's key_elements ciphertexts). A state element is an affine value
//     x = ct + v        ct a ciphertext (or none), v a clear slot vector (or none),
// so the public parts stay public: a constant added (HERA's start state, Pasta's round
// constants) joins v, a public matrix scales ct by an encoded slot vector (a constant
// product) and v in the clear, and v is folded into ct (one constant addition) only where a
// product needs the value itself. Per op:
//     AddKey      additions of the key's ciphertexts;
//     KeyMul      one constant product per element (rc times the key's ciphertext);
//     Affine      a matrix: k^2 constant products (each entry's slot vector encoded as it is
//                 used, never all at once) and additions; the constants join v; a
//                 companion matrix (Pasta's) is held as its row 0 over the blocks and its
//                 rows made as the layer runs, freed after it;
//     Linear      fixed coefficients: 1 is an addition, another c a constant product by the
//                 scalar c (encoded once);
//     Quadratic   one product per distinct (a, b) (a square where a == b), additions;
//     Power       power_map.h's products (x^3: a square and a product);
//     Truncate    drops the tail.
// Rows of a layer run side by side (backend/lanes.h), their inputs first switched to one
// prime set where the backend offers it (align), so the sums in them need no decisions. Over GF(2) (Rasta) the slots hold
// bits (the backend's field GF(2)) and additions are XORs; over F_p everything is mod p.
//
// The server's step after the keystream: the symmetric ciphertext c_j (public, clear) minus
// the keystream gives FHE ciphertexts of the message, m_i = c_i - KS_i (GF(2): c_i + KS_i):
// one constant product by -1 and one constant addition per element (subtract_from).
// work_after(L) then runs the product chain y = m_0 m_1 ... m_L (depth L, the issue's
// "work after") so a run checks that the transciphered data still takes L products.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/backend.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/round_record.h"
#include "engine/errors.h"
#include "engine/util/modarith.h"
#include "engine/util/vecmod.h"

namespace cb {

// Whether B has the optional align(operands) of backend.h (BGV and its planner).
template <class B, class = void>
struct HasAlign : std::false_type {};
template <class B>
struct HasAlign<B, std::void_t<decltype(std::declval<const B&>().align(
                       std::declval<const std::vector<typename B::Ctxt*>&>()))>> : std::true_type {};

// Both packings' first check: the backend's slots are the instance's field (F_p at p; bits
// at p = 2, where GF(2^n) entries with n > 1 are not run). ParameterError naming both.
template <class B>
void check_keystream_slots(const B& b, const KeystreamInstance& ks) {
  const auto& sp = ks.spec();
  if (slot_characteristic(b) != sp.p)
    throw ParameterError(msg(sp.id, " is over ", ks.element_field().name(), ": the backend's slots have characteristic ",
                             slot_characteristic(b)));
  if (sp.p == 2 && sp.n != 1)
    throw ParameterError(msg(sp.id, ": keystream entries over GF(2^n) run on bits only (n = 1), not n=", sp.n));
}

// c^e (e >= 1) by square-and-multiply from the top bit (x^3: a square and a product): the
// Power step of both packings.
template <class B>
typename B::Ctxt ks_power(Evaluator<B>& e, const typename B::Ctxt& c, uint64_t exp) {
  typename B::Ctxt y = c;
  int top = 63;
  while (!((exp >> top) & 1)) --top;
  for (int bit = top - 1; bit >= 0; --bit) {
    e.square(y);
    if ((exp >> bit) & 1) e.mul(y, c);
  }
  return y;
}

template <class B>
class KeystreamCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;
  using Slots = std::vector<uint64_t>;

  // ParameterError unless the backend's slots are the instance's field (F_p at p; bits at
  // p = 2) and 1 <= blocks <= ell.
  KeystreamCircuit(const B& b, const KeystreamInstance& ks, long blocks)
      : b_(b), ks_(ks), F_(ks.element_field()), ell_(b.slot_count()), blocks_(blocks), prog_(ks.program()) {
    const auto& sp = ks.spec();
    check_keystream_slots(b, ks);
    if (blocks < 1 || blocks > ell_)
      throw ParameterError(msg("--blocks ", blocks, ": ", sp.id, " runs one block per slot, 1..", ell_, " at this ring"));
  }

  long blocks() const { return blocks_; }
  long max_blocks() const { return ell_; }
  const KeystreamInstance& instance() const { return ks_; }
  std::string describe() const {
    return msg("one block per slot: ", ks_.state_size(), " ciphertexts of state (element i of block j in slot j), ",
               blocks_, " of ", ell_, " slots");
  }

  // The public values of blocks (nonce, counter0 + j), j < blocks, entry by entry over the
  // blocks (the server's preprocessing): each entry of compact_material() a slot vector
  // over the blocks, so a companion Affine's matrix is held as its row 0 (k vectors, not
  // k^2; Pasta-3 at 32768 blocks: 0.27 GB for all its matrices, not 34 GB) and its rows
  // are made when run() evaluates it (matrix_rows). ParameterError when counter0 + blocks
  // overflows.
  void set_blocks(uint64_t nonce, uint64_t counter0) {
    if (counter0 > ~uint64_t(0) - uint64_t(blocks_ - 1))
      throw ParameterError(msg("--counter ", counter0, " with ", blocks_, " blocks: the counters pass 2^64 - 1"));
    nonce_ = nonce, counter0_ = counter0;
    const KsMaterial f = ks_.compact_material(nonce, counter0);  // block 0: the shapes
    M_.assign(f.M.size(), {});
    c_.assign(f.c.size(), {});
    rc_.assign(f.rc.size(), {});
    for (size_t k = 0; k < f.M.size(); ++k) M_[k].assign(f.M[k].size() * f.M[k].at(0).size(), Slots(size_t(blocks_), 0));
    for (size_t k = 0; k < f.c.size(); ++k) c_[k].assign(f.c[k].size(), Slots(size_t(blocks_), 0));
    for (size_t k = 0; k < f.rc.size(); ++k) rc_[k].assign(f.rc[k].size(), Slots(size_t(blocks_), 0));
    // Each block's values into its slot of every vector (the lanes write distinct slots).
    for_each_lane<B>(blocks_, [&](long j) {
      const KsMaterial m = j ? ks_.compact_material(nonce, counter0 + uint64_t(j)) : f;
      auto put = [&](std::vector<Slots>& out, const Elements& v, size_t at, const char* what, size_t k) {
        if (at + v.size() > out.size())
          throw Error(msg(ks_.spec().id, ": block ", j, "'s ", what, " ", k, " has more elements than block 0's"));
        for (size_t e = 0; e < v.size(); ++e) out[at + e][size_t(j)] = v[e];
      };
      if (m.M.size() != f.M.size() || m.c.size() != f.c.size() || m.rc.size() != f.rc.size())
        throw Error(msg(ks_.spec().id, ": block ", j, "'s material has other counts than block 0's"));
      for (size_t k = 0; k < m.M.size(); ++k) {
        if (m.M[k].size() * m.M[k].at(0).size() != M_[k].size())
          throw Error(msg(ks_.spec().id, ": block ", j, "'s matrix ", k, " has another shape than block 0's"));
        for (size_t i = 0; i < m.M[k].size(); ++i) put(M_[k], m.M[k][i], i * m.M[k][i].size(), "matrix", k);
      }
      for (size_t k = 0; k < m.c.size(); ++k) put(c_[k], m.c[k], 0, "constant", k);
      for (size_t k = 0; k < m.rc.size(); ++k) put(rc_[k], m.rc[k], 0, "rc", k);
    });
    // Which matrices are companion ones (held as row 0), in program order.
    companion_.clear();
    for (const auto& r : prog_)
      for (const auto& st : r)
        for (const auto& op : st.ops)
          if (op.kind == KsOp::kAffine && op.matrix) {
            const size_t k = companion_.size();
            companion_.push_back(op.companion);
            const size_t want = size_t(op.companion ? op.size : op.size * op.size);
            if (k < M_.size() && M_[k].size() != want)
              throw Error(msg(ks_.spec().id, ": step ", st.name, ": matrix ", k, " holds ", M_[k].size(),
                              " elements per block, not ", want, op.companion ? " (a companion matrix's row 0)" : ""));
          }
    if (companion_.size() != M_.size())
      throw Error(msg(ks_.spec().id, ": the material has ", M_.size(), " matrices, the program ", companion_.size()));
  }

  // Matrix iM (program order) over the blocks: entry (i, j) of block b at [i k + j][b].
  // A companion matrix is made from its held row 0 here, as run() makes it row by row
  // (MatrixRows); another is the held one. What the tests compare with material().
  std::vector<Slots> matrix_slots(size_t iM) const {
    if (!companion_.at(iM)) return M_.at(iM);
    const long k = long(M_[iM].size());
    MatrixRows rows(*this, iM);
    std::vector<Slots> out;
    for (long i = 0; i < k; ++i) {
      const auto& row = rows.row(i);
      out.insert(out.end(), row.begin(), row.end());
    }
    return out;
  }

  // The client's key: key_elements ciphertexts, element i in every slot.
  std::vector<Ctxt> encrypt_key(const Elements& key) const {
    std::vector<Slots> vs;
    for (uint64_t k : key) vs.emplace_back(ell_, k);
    return encrypt_all(b_, vs);
  }

  // The keystream of the blocks set by set_blocks: s ciphertexts, slot j of ciphertext i
  // holding element i of block j's keystream. One record per round of the program.
  std::vector<Ctxt> run(Evaluator<B>& ev, const std::vector<Ctxt>& key, std::vector<RoundRecord>* recs = nullptr) {
    if (M_.empty() && c_.empty() && rc_.empty() && !prog_.empty() && needs_material())
      throw Error(msg(ks_.spec().id, ": set_blocks before run"));
    std::vector<Value> x(static_cast<size_t>(ks_.state_size()));
    size_t iM = 0, ic = 0, irc = 0;
    for (size_t r = 0; r < prog_.size(); ++r) {
      RoundTimer<B> t(ev, long(r) + 1);
      for (const auto& st : prog_[r])
        t.step(st.name, [&] {
          for (const auto& op : st.ops) apply(ev, op, key, x, iM, ic, irc);
        });
      const RoundRecord rec = t.finish(capacity(x));
      if (recs) recs->push_back(rec);
    }
    std::vector<Ctxt> out;
    for (size_t i = 0; i < x.size(); ++i) out.push_back(materialize(ev, x[i], i));
    return out;
  }

  // The clear keystream of every block (the reference's): ks[j] for block j.
  std::vector<Elements> reference(const Elements& key) const {
    std::vector<Elements> out(blocks_);
    for_each_lane<B>(blocks_, [&](long j) { out[size_t(j)] = ks_.keystream(key, nonce_, counter0_ + uint64_t(j)); });
    return out;
  }

  // m_i = c_i - KS_i for the public symmetric ciphertext blocks c (blocks x s elements).
  std::vector<Ctxt> subtract_from(Evaluator<B>& ev, const std::vector<Elements>& c, std::vector<Ctxt> ks) const {
    if (long(c.size()) != blocks_) throw Error(msg("subtract_from: ", c.size(), " blocks, not ", blocks_));
    const Ptxt minus_one = b_.encode(Slots(ell_, F_.neg(1)));
    ev.lanes(long(ks.size()), [&](Evaluator<B>& e, long i) {
      Slots v(ell_, 0);
      for (long j = 0; j < blocks_; ++j) v[size_t(j)] = c[size_t(j)].at(size_t(i));
      if (F_.is_prime()) e.mul_plain(ks[size_t(i)], minus_one);
      e.add_plain(ks[size_t(i)], b_.encode(v));
    });
    return ks;
  }

  // The product chain y = m_0 m_1 ... m_L over the outputs (cyclically), depth L: the work
  // after that the run checks; with it, the clear product per block (expected).
  Ctxt work_after(Evaluator<B>& ev, const std::vector<Ctxt>& m, long L) const {
    Ctxt y = m.at(0);
    for (long l = 1; l <= L; ++l) ev.mul(y, m[size_t(l) % m.size()]);
    return y;
  }
  std::vector<uint64_t> work_after_clear(const std::vector<Elements>& m, long L) const {
    std::vector<uint64_t> out;
    for (const auto& blk : m) {
      uint64_t y = blk.at(0);
      for (long l = 1; l <= L; ++l) y = F_.mul(y, blk[size_t(l) % blk.size()]);
      out.push_back(y);
    }
    return out;
  }

  double capacity(const std::vector<Ctxt>& st) const { return min_capacity(b_, st); }

  // What a session asks of either packing (keystream_state_circuit.h is the other): the
  // ciphertexts of the key and of the results, the message elements one output ciphertext
  // carries, the automorphisms run() needs (none here), the s elements of every block of a
  // keystream or message, the work after's value per block as decrypted and as expected.
  long key_ciphertexts() const { return ks_.spec().key_elements; }
  long result_ciphertexts() const { return ks_.spec().s; }
  long elements_per_ciphertext() const { return blocks_; }
  std::vector<long> automorphisms() const { return {}; }
  std::vector<Elements> decrypt(const std::vector<Ctxt>& st) const {
    std::vector<Elements> out(size_t(blocks_), Elements(st.size()));
    for (size_t i = 0; i < st.size(); ++i) {
      const auto v = b_.decrypt(st[i]);
      for (long j = 0; j < blocks_; ++j) out[size_t(j)][i] = v[size_t(j)];
    }
    return out;
  }
  std::vector<Elements> decrypt_work(const Ctxt& y) const {
    const auto v = b_.decrypt(y);
    std::vector<Elements> out;
    for (long j = 0; j < blocks_; ++j) out.push_back({v[size_t(j)]});
    return out;
  }
  std::vector<Elements> work_after_expected(const std::vector<Elements>& m, long L) const {
    std::vector<Elements> out;
    for (uint64_t y : work_after_clear(m, L)) out.push_back({y});
    return out;
  }

 private:
  // The rows of companion matrix iM over the blocks, made from its row 0 (a: k vectors
  // over the blocks) by companion_next_row's recurrence slot-wise, for lanes that ask for
  // rows in any order from any threads: each thread keeps its own cursor (its last row,
  // k vectors) and steps it forward, from row 0 again when asked for an earlier row. The
  // lanes' threads take consecutive rows (for_each_lane's static schedule), so a layer
  // costs about k + (T - 1) k / 2 steps of k products per block, and holds T rows.
  class MatrixRows {
   public:
    MatrixRows(const KeystreamCircuit& c, size_t iM) : c_(c), a_(c.M_.at(iM)) {
      if (!c.F_.is_prime()) return;
      const uint64_t p = c.F_.p();  // over F_p each a_j[b] is a fixed multiplier: Shoup's form, once
      ap_.resize(a_.size());
      for (size_t j = 0; j < a_.size(); ++j) {
        ap_[j].resize(a_[j].size());
        for (size_t b = 0; b < a_[j].size(); ++b) ap_[j][b] = util::shoup(a_[j][b], p);
      }
    }
    // Row i (k vectors over the blocks), valid until this thread's next call.
    const std::vector<Slots>& row(long i) {
      Cursor* cur;
      {
        std::lock_guard<std::mutex> lock(mu_);
        cur = &cursors_[std::this_thread::get_id()];
      }
      if (cur->i < 0 || cur->i > i) cur->i = 0, cur->row = a_;
      for (; cur->i < i; ++cur->i) step(cur->row);
      return cur->row;
    }

   private:
    struct Cursor {
      long i = -1;
      std::vector<Slots> row;
    };
    // row <- (row shifted right by one) + row[k-1] a, slot-wise (companion_next_row).
    void step(std::vector<Slots>& row) const {
      const size_t k = row.size(), n = row.at(0).size();
      const Slots last = row[k - 1];
      for (size_t j = k; j-- > 0;) {
        Slots& r = row[j];
        const Slots& a = a_[j];
        if (!ap_.empty()) {  // F_p: the same values by Shoup's products
          const uint64_t p = c_.F_.p();
          const Slots& ap = ap_[j];
          for (size_t b = 0; b < n; ++b)
            r[b] = util::add_mod(j ? row[j - 1][b] : 0, util::mul_shoup(last[b], a[b], ap[b], p), p);
          continue;
        }
        for (size_t b = 0; b < n; ++b) r[b] = c_.F_.add(j ? row[j - 1][b] : 0, c_.F_.mul(last[b], a[b]));
      }
    }
    const KeystreamCircuit& c_;
    const std::vector<Slots>& a_;
    std::vector<Slots> ap_;  // F_p: shoup(a_j[b], p)
    std::mutex mu_;
    std::map<std::thread::id, Cursor> cursors_;
  };

  // x = ct + v: either part may be absent (none: zero).
  struct Value {
    std::optional<Ctxt> ct;
    std::optional<Slots> v;
  };

  bool needs_material() const {
    for (const auto& r : prog_)
      for (const auto& st : r)
        for (const auto& op : st.ops)
          if (op.kind == KsOp::kAffine || op.kind == KsOp::kKeyMul) return true;
    return false;
  }

  double capacity(const std::vector<Value>& x) const {
    double c = INFINITY;
    for (const auto& v : x)
      if (v.ct) c = std::min(c, b_.capacity_bits(*v.ct));
    return c;
  }

  // A per-block vector (blocks entries) as a slot vector (ell; the unused slots 0).
  Slots pad(const Slots& v) const {
    Slots s(size_t(ell_), 0);
    std::copy(v.begin(), v.end(), s.begin());
    return s;
  }
  // Slot-wise clear arithmetic on the blocks' slots.
  Slots add(Slots a, const Slots& b) const {
    for (size_t j = 0; j < a.size(); ++j) a[j] = F_.add(a[j], b[j]);
    return a;
  }
  Slots mul(Slots a, const Slots& b) const {
    if (F_.is_prime()) {  // the same products, vectorized (util/vecmod.h; no 128-bit division each)
      if (b.size() < a.size()) throw Error(msg("KeystreamCircuit: a product of ", a.size(), " and ", b.size(), " slots"));
      util::mul_mod_array(a.data(), a.data(), b.data(), long(a.size()), F_.p());
      return a;
    }
    for (size_t j = 0; j < a.size(); ++j) a[j] = F_.mul(a[j], b[j]);
    return a;
  }
  void add_into(Evaluator<B>& e, Value& acc, const Value& x) const {
    if (x.ct) {
      if (acc.ct) e.add(*acc.ct, *x.ct);
      else acc.ct = *x.ct;
    }
    if (x.v) acc.v = acc.v ? add(*acc.v, *x.v) : *x.v;
  }
  // u x, u a public slot vector (encoded: pu).
  Value scale(Evaluator<B>& e, const Value& x, const Slots& u, const Ptxt* pu) const {
    Value y;
    if (x.ct) {
      y.ct = *x.ct;
      if (pu) e.mul_plain(*y.ct, *pu);
      else e.mul_plain(*y.ct, b_.encode(u));
    }
    if (x.v) y.v = mul(*x.v, u);
    return y;
  }
  // The value as one ciphertext (v folded in by a constant addition).
  Ctxt materialize(Evaluator<B>& e, const Value& x, size_t i) const {
    if (!x.ct)
      throw Error(msg(ks_.spec().id, ": state element ", i, " does not depend on the key (the program is public there)"));
    Ctxt c = *x.ct;
    if (x.v) e.add_plain(c, b_.encode(*x.v));
    return c;
  }
  Value product(Evaluator<B>& e, const Value& a, const Value& b, size_t i) const {
    if (!a.ct && !b.ct) return {std::nullopt, (a.v && b.v) ? std::optional<Slots>(mul(*a.v, *b.v)) : std::nullopt};
    if (!a.ct) return a.v ? scale(e, b, *a.v, nullptr) : Value{};
    if (!b.ct) return b.v ? scale(e, a, *b.v, nullptr) : Value{};
    Ctxt ca = materialize(e, a, i);
    if (&a == &b) {
      e.square(ca);
    } else {
      const Ctxt cb = materialize(e, b, i);
      e.mul(ca, cb);
    }
    return {std::move(ca), std::nullopt};
  }
  const Ptxt& scalar(uint64_t c) {
    auto it = scalars_.find(c);
    if (it == scalars_.end()) it = scalars_.emplace(c, b_.encode(Slots(ell_, c))).first;
    return it->second;
  }
  // Fixed terms (out, in, coeff) of x: y[out] += coeff x[in] into y.
  void fixed_terms(Evaluator<B>& ev, const BlockMap& L, const std::vector<Value>& x, std::vector<Value>& y) {
    std::map<long, std::vector<const SlotTerm*>> by_out;
    for (const auto& t : L) by_out[t.out].push_back(&t);
    for (const auto& [o, ts] : by_out)
      for (const auto* t : ts) scalar(t->coeff);  // encoded before the lanes
    std::vector<long> outs;
    for (const auto& kv : by_out) outs.push_back(kv.first);
    ev.lanes(long(outs.size()), [&](Evaluator<B>& e, long q) {
      const long o = outs[size_t(q)];
      for (const auto* t : by_out.at(o)) {
        const Value& xi = x[size_t(t->in)];
        if (t->coeff == 0) continue;
        add_into(e, y[size_t(o)], t->coeff == 1 ? xi : scale(e, xi, Slots(ell_, t->coeff), &scalars_.at(t->coeff)));
      }
    });
  }

  void apply(Evaluator<B>& ev, const KsOp& op, const std::vector<Ctxt>& key, std::vector<Value>& x, size_t& iM,
             size_t& ic, size_t& irc) {
    switch (op.kind) {
      case KsOp::kAddKey:
        for (long i = 0; i < op.size; ++i) add_into(ev, x[size_t(op.offset + i)], Value{key.at(size_t(i)), std::nullopt});
        break;
      case KsOp::kKeyMul: {
        const auto& rc = rc_.at(irc++);
        ev.lanes(op.size, [&](Evaluator<B>& e, long i) {
          Ctxt k = key.at(size_t(i));
          e.mul_plain(k, b_.encode(pad(rc.at(size_t(i)))));
          add_into(e, x[size_t(op.offset + i)], Value{std::move(k), std::nullopt});
        });
        break;
      }
      case KsOp::kAffine: {
        const long k = op.size;
        std::vector<Value> y(static_cast<size_t>(k));
        if (op.matrix) {
          align(x, op.offset, k);
          const size_t m = iM++;
          std::optional<MatrixRows> rows;  // a companion matrix: its rows made here, freed after
          if (companion_.at(m)) rows.emplace(*this, m);
          ev.lanes(k, [&](Evaluator<B>& e, long i) {
            const Slots* row = rows ? rows->row(i).data() : &M_[m].at(size_t(i * k));
            for (long j = 0; j < k; ++j) {
              const Value& xj = x[size_t(op.offset + j)];
              if (!xj.ct && !xj.v) continue;
              add_into(e, y[size_t(i)], scale(e, xj, pad(row[j]), nullptr));
            }
          });
        } else {
          for (long i = 0; i < k; ++i) y[size_t(i)] = x[size_t(op.offset + i)];
        }
        const auto& c = c_.at(ic++);
        for (long i = 0; i < k; ++i) {
          Value& yi = y[size_t(i)];
          yi.v = yi.v ? add(*yi.v, pad(c.at(size_t(i)))) : pad(c.at(size_t(i)));
          x[size_t(op.offset + i)] = std::move(yi);
        }
        break;
      }
      case KsOp::kLinear: {
        align(x, 0, long(x.size()));
        std::vector<Value> y(x.size());
        fixed_terms(ev, op.L, x, y);
        x = std::move(y);
        break;
      }
      case KsOp::kQuadratic: {
        std::vector<Value> y = x;
        fixed_terms(ev, op.L, x, y);
        // Each distinct product once (side by side), then added where the terms say.
        std::map<std::pair<long, long>, size_t> index;
        std::vector<std::pair<long, long>> pairs;
        for (const auto& t : op.Q) {
          const auto key_ab = std::minmax(t.a, t.b);
          if (index.emplace(key_ab, pairs.size()).second) pairs.push_back(key_ab);
        }
        std::vector<Value> prod(pairs.size());
        ev.lanes(long(pairs.size()), [&](Evaluator<B>& e, long q) {
          const auto [a, b] = pairs[size_t(q)];
          prod[size_t(q)] = product(e, x[size_t(a)], x[size_t(b)], size_t(a));
        });
        for (const auto& t : op.Q) {
          const Value& pv = prod[index.at(std::minmax(t.a, t.b))];
          add_into(ev, y[size_t(t.out)], t.coeff == 1 ? pv : scale(ev, pv, Slots(ell_, t.coeff), nullptr));
        }
        x = std::move(y);
        break;
      }
      case KsOp::kPower:
        ev.lanes(long(x.size()), [&](Evaluator<B>& e, long i) {
          Value& xi = x[size_t(i)];
          if (!xi.ct) {
            if (xi.v)
              for (auto& s : *xi.v) s = F_.pow(s, op.e);
            return;
          }
          xi = Value{ks_power(e, materialize(e, xi, size_t(i)), op.e), std::nullopt};
        });
        break;
      case KsOp::kTruncate:
        x.resize(size_t(op.size));
        break;
    }
  }

  // The ciphertexts of x[offset, offset + k) at one prime set before a layer of sums over
  // them, where the backend offers it (BGV: one switch per operand, not a decision and a
  // switch per sum).
  void align(std::vector<Value>& x, long offset, long k) const {
    if constexpr (HasAlign<B>::value) {
      std::vector<Ctxt*> cs;
      for (long i = offset; i < offset + k; ++i)
        if (x[size_t(i)].ct) cs.push_back(&*x[size_t(i)].ct);
      b_.align(cs);
    }
  }

  const B& b_;
  const KeystreamInstance& ks_;
  const CipherField& F_;
  long ell_, blocks_;
  std::vector<KsRound> prog_;
  uint64_t nonce_ = 0, counter0_ = 0;
  std::vector<std::vector<Slots>> M_, c_, rc_;  // per op: entry e over the blocks (a companion matrix: row 0)
  std::vector<bool> companion_;                 // per matrix: held as its row 0 (KsOp::companion)
  std::map<uint64_t, Ptxt> scalars_;
};

}  // namespace cb
