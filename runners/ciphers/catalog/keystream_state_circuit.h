// keystream_state_circuit.h: a keystream entry's program (keystream_spec.h) on encrypted keys,
// one block's state in the slots of one ciphertext: the packing IAIK's hybrid-HE framework
// uses for HElib and SEAL (`run_cipher --packing state`). keystream_circuit.h is the other
// packing, one ciphertext per state element and blocks across the slots.
//
// Layout. A block's w state elements lie in one row of slots: element e of block b in slot
// slot(b, idx(e)). When the ring's first hypercube dimension holds a block's row (ord_0 >=
// W), the rows run along it, ord_0 / W blocks per line and ell / ord_0 lines (power-of-two m
// at p = 1 mod m: m/4 slots per line, 2 lines); otherwise they follow the slot order, ell / W
// blocks. Where the program's matrices are cheaper cyclically (below), each segment of the
// state (an Affine's range; the whole state when there is none) has a replica after it, as
// IAIK replicates the state: element e at idx(e) and again at idx(e) + k (k the segment's
// size), W = 2w; without replicas W = w.
//
// Linear layers by diagonals. A public map y_out = sum coeff x_in moves each value from
// slot src = slot(b, idx(in)) to slot dst = slot(b, idx(out)); X -> X^k with
// k = rep(src) rep(dst)^-1 mod m does that (zmstar.h: no Frobenius twist), so terms group
// by k, and
//     y = sum_k D_k * sigma_k(x),     D_k[dst] = coeff of the terms moved by k
// (the diagonal method: one automorphism per distinct k != 1, all hoisted from the same x,
// and one constant product per k). Along a dimension a term's k is g_0^-(idx(in) - idx(out)):
// one per distinct index shift, whatever the block. A t x t matrix on a segment has 2t - 1
// shifts reading x_in where it lies, or t reading the replica for in < out ((j - i) mod t,
// cyclically, as IAIK rotates): each layer takes whichever needs fewer automorphisms, the
// replica's counted with the one that refreshes it, and the layout has replicas when any
// layer reads them. Pasta's Affine pair (x_L and x_R) runs as one layer.
//
// Baby-step giant-step. Along the first dimension a map's k's are powers of g_0: term shift
// j (src idx - dst idx) is k = g_0^j, whatever the block. Written j = a n1 + b (0 <= b < n1),
//     y = sum_a sigma_{g_0^(a n1)}( sum_b P_{a,b} sigma_{g_0^b}(x) ),
//     P_{a,b} = sigma_{g_0^(a n1)}^-1(D_{a n1 + b}),
// the baby steps hoisted from x, one giant step per distinct a != 0, the same constant
// products. P is D with its slots permuted in the clear (zmstar.h's automorphism_action of
// g_0^(-a n1)): the Frobenius twist a move may carry fixes the prime field, so this is exact
// when the instance's elements lie in it (F_p, or Rasta's bits in GF(2^d) slots), on a bad
// dimension too; a GF(2^n) cipher with n > 1, or a row in slot order, keeps the direct form.
// Rule (Bsgs::kAuto): a map runs by BSGS when that needs fewer automorphisms than the
// direct form, n1 the one with fewest (ties: fewer giant steps, which are not hoisted, then
// the smaller n1). In either form a map's automorphisms are its keys, so the rule takes the
// fewer keys, which is what limits the state packing (Rasta's 353-991 direct keys); at a tie
// the direct form's hoisted automorphisms are the cheaper. Bsgs::kOn takes the best n1
// wherever BSGS applies, kOff never (tests).
//
// Replicas. The ciphertext part of the state is clean (zero but at the elements' slots),
// replicated (replicas equal to their elements, zero elsewhere) or dirty (replicas stale).
// A layer that reads replicas first replicates: from a clean state x + sigma_k(x) when one k
// carries every element to its replica (a bijection moves the nonzero slots only there), else
// the map (element -> element, element -> replica) by diagonals. Diagonal layers leave it
// clean; the cube keeps it as it is.
//
// A state value is x = ct + v with v public (kept per block and element, in the clear):
// constants (HERA's start, Pasta's round constants) join v, maps apply to v in the clear,
// and v is encoded into ct (one constant addition) only where a product needs the value.
// Per op:
//     AddKey(o, k)     an addition of the key's ciphertext (the key encrypted packed, element
//                      i of every block and its replica); by diagonals (a mask, a rotation
//                      where o != 0) unless it adds the whole key at 0;
//     KeyMul(o, k)     by diagonals: one constant product (rc of every block at its elements'
//                      slots) where o = 0;
//     Affine           diagonals as above, per-block entries (each block its own matrix);
//     Linear           diagonals with fixed entries (encoded once);
//     Quadratic        its linear part by diagonals; each product x_a x_b at out as
//                      sigma_ka(x) sigma_kb(x), one product per distinct (ka, kb), times its
//                      coefficients' vector;
//     Power            the power of the whole ciphertext (power_map.h's products);
//     Truncate         the output is elements 0..s-1.
//
// The server's step after the keystream: m = c - KS with c encoded at the elements' slots
// (GF(2): c + KS), one ciphertext for every block. work_after(L) runs y = m^(L+1) (y <- y m,
// depth L), the same depth the one-block-per-slot packing's chain has, with no rotation.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "ciphers/catalog/keystream_circuit.h"
#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/round_record.h"
#include "engine/algebra/zmstar.h"
#include "engine/errors.h"

namespace cb {

// A block's row: which slot holds each state element (and its replica), each layer's
// terms and where they read, how many blocks one ciphertext holds. Computed from the ring
// and the program alone, so a run checks --blocks before any work.
class KsStateRows {
 public:
  // A linear term y[out] += coeff x[in]; src_idx is where in is read (idx or its replica).
  struct Term {
    long out, in;
    long src_idx;
    uint64_t coeff = 0;         // fixed coefficient (Linear, Quadratic); Affine: unused
    long op = 0, i = 0, j = 0;  // Affine: which op of the group and the matrix entry M[i][j]
  };
  // One layer of the program: an op, or consecutive matrix Affines of a step.
  struct Layer {
    KsOp::Kind kind;
    long nops = 1;  // program ops it covers
    std::vector<const KsOp*> ops;
    bool reads_replicas = false;
    std::vector<Term> terms;     // Affine group, Linear, Quadratic's linear part
    std::vector<ProductTerm> Q;  // Quadratic's products
  };

  // ParameterError when the key is longer than the state, the matrices overlap or miss an
  // element, or the ring has no row of W slots.
  KsStateRows(const ZmStar& zm, const KeystreamInstance& ks) : zm_(zm), ks_(ks), w_(ks.state_size()), prog_(ks.program()) {
    const auto& sp = ks.spec();
    if (sp.key_elements > w_)
      throw ParameterError(msg("--packing state: ", sp.id, " has a key of ", sp.key_elements,
                               " elements, more than its state of ", w_));
    segments();
    plan(/*with_replicas=*/true);
    bool any = false;
    for (const auto& l : layers_) any = any || l.reads_replicas;
    replicas_ = any;
    if (!replicas_) plan(false);  // the indices without replicas
    W_ = replicas_ ? 2 * w_ : w_;
    if (zm.dims() > 0 && zm.ord(0) >= W_) {
      along_dim_ = true;
      per_line_ = zm.ord(0) / W_;
      max_blocks_ = per_line_ * zm.stride(0);
    } else {
      max_blocks_ = zm.ell() / W_;
    }
    if (max_blocks_ < 1)
      throw ParameterError(msg("--packing state: ", sp.id, " needs a row of ", W_, " slots (", w_, " state elements",
                               replicas_ ? " and their replicas" : "", ") and m=", zm.m(), " has ", zm.ell(), " slots"));
  }

  long w() const { return w_; }
  long width() const { return W_; }  // W: slots of a block's row
  bool replicas() const { return replicas_; }
  bool along_dim() const { return along_dim_; }
  long max_blocks() const { return max_blocks_; }
  const std::vector<KsRound>& program() const { return prog_; }
  const std::vector<Layer>& layers() const { return layers_; }
  long idx(long e) const { return idx_[size_t(e)]; }            // element e's index in its row
  long replica(long e) const { return idx_[size_t(e)] + seg_len_[size_t(e)]; }  // its replica's
  // The slot of index i of block b's row.
  long slot(long b, long i) const {
    if (along_dim_) return ((b % per_line_) * W_ + i) * zm_.stride(0) + b / per_line_;
    return b * W_ + i;
  }
  // X -> X^k carrying slot src to slot dst untwisted: k = rep(src) rep(dst)^-1 mod m.
  long k_of(long src, long dst) const {
    return long((__int128)zm_.rep(src) * zm_.inverse(zm_.rep(dst)) % zm_.m());
  }
  std::string describe(long blocks) const {
    return msg("one block's state per row: ", w_, " elements", replicas_ ? " and their replicas" : "", " in ", W_,
               " slots ", along_dim_ ? "along the first dimension" : "in slot order", ", ", blocks, " of ",
               max_blocks_, " blocks in one ciphertext");
  }

 private:
  // Segments: the ranges of the program's matrix Affines (the whole state where none).
  void segments() {
    std::vector<std::pair<long, long>> segs;
    for (const auto& r : prog_)
      for (const auto& st : r)
        for (const auto& op : st.ops)
          if (op.kind == KsOp::kAffine && op.matrix) segs.emplace_back(op.offset, op.size);
    std::sort(segs.begin(), segs.end());
    segs.erase(std::unique(segs.begin(), segs.end()), segs.end());
    if (segs.empty()) segs.emplace_back(0, w_);
    seg_of_.assign(size_t(w_), -1);
    for (size_t s = 0; s < segs.size(); ++s)
      for (long e = segs[s].first; e < segs[s].first + segs[s].second; ++e) {
        if (seg_of_[size_t(e)] != -1)
          throw ParameterError(msg("--packing state: ", ks_.spec().id, "'s matrices overlap at element ", e));
        seg_of_[size_t(e)] = long(s);
      }
    for (long e = 0; e < w_; ++e)
      if (seg_of_[size_t(e)] == -1)  // an element outside every matrix: a segment of its own
        throw ParameterError(msg("--packing state: ", ks_.spec().id, "'s element ", e, " lies in no matrix's range"));
    segs_ = segs;
  }

  // Indices with or without replicas; each op's terms and their reads.
  void plan(bool with_replicas) {
    idx_.assign(size_t(w_), 0);
    seg_len_.assign(size_t(w_), 0);
    for (long e = 0; e < w_; ++e) {
      const auto [off, len] = segs_[size_t(seg_of_[size_t(e)])];
      idx_[size_t(e)] = (with_replicas ? 2 * off : off) + (e - off);
      seg_len_[size_t(e)] = len;
    }
    layers_.clear();
    for (const auto& r : prog_)
      for (const auto& st : r)
        for (size_t o = 0; o < st.ops.size(); ++o) {
          const KsOp& op = st.ops[o];
          Layer p;
          p.kind = op.kind;
          p.ops = {&op};
          if (op.kind == KsOp::kAddKey || op.kind == KsOp::kKeyMul) {
            // Key element i to state element offset + i (a rotation of the key where offset != 0).
            for (long i = 0; i < op.size; ++i) p.terms.push_back({op.offset + i, i, idx_[size_t(i)], 1});
          } else if (op.kind == KsOp::kAffine && op.matrix) {
            // Consecutive matrix Affines of a step: one layer.
            while (o + 1 < st.ops.size() && st.ops[o + 1].kind == KsOp::kAffine && st.ops[o + 1].matrix)
              p.ops.push_back(&st.ops[++o]);
            p.nops = long(p.ops.size());
            std::vector<Term> ts;
            for (size_t g = 0; g < p.ops.size(); ++g)
              for (long i = 0; i < p.ops[g]->size; ++i)
                for (long j = 0; j < p.ops[g]->size; ++j)
                  ts.push_back({p.ops[g]->offset + i, p.ops[g]->offset + j, 0, 0, long(g), i, j});
            choose_reads(p, std::move(ts), with_replicas);
          } else if (op.kind == KsOp::kLinear || op.kind == KsOp::kQuadratic) {
            std::vector<Term> ts;
            for (const auto& t : op.L)
              if (t.coeff != 0) ts.push_back({t.out, t.in, 0, t.coeff});
            if (op.kind == KsOp::kLinear) choose_reads(p, std::move(ts), with_replicas);
            else {
              choose_reads(p, std::move(ts), false);
              p.Q = op.Q;
            }
          }
          layers_.push_back(std::move(p));
        }
  }

  // The reads of a layer's terms: where each in lies, or its replica for in < out in the
  // same segment (cyclic within the segment), whichever needs fewer distinct shifts (the
  // replica's counted with the automorphism that refreshes it).
  void choose_reads(Layer& p, std::vector<Term> ts, bool with_replicas) {
    auto shifts = [&](bool cyc) {
      std::vector<long> s;
      for (auto& t : ts) {
        t.src_idx = idx_[size_t(t.in)];
        if (cyc && seg_of_[size_t(t.in)] == seg_of_[size_t(t.out)] && t.in < t.out) t.src_idx += seg_len_[size_t(t.in)];
        s.push_back(t.src_idx - idx_[size_t(t.out)]);
      }
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
      s.erase(std::remove(s.begin(), s.end(), 0L), s.end());
      return long(s.size());
    };
    const long direct = shifts(false);
    const bool cyc = with_replicas && shifts(true) + 1 < direct;
    shifts(cyc);
    p.reads_replicas = cyc;
    p.terms = std::move(ts);
  }


  const ZmStar& zm_;
  const KeystreamInstance& ks_;
  long w_;
  std::vector<KsRound> prog_;
  std::vector<std::pair<long, long>> segs_;  // (offset, size)
  std::vector<long> seg_of_, idx_, seg_len_;
  bool replicas_ = false, along_dim_ = false;
  long W_ = 0, per_line_ = 0, max_blocks_ = 0;
  std::vector<Layer> layers_;
};

// Whether the state packing's maps run by baby-step giant-step (see the header).
enum class KsBsgs { kAuto, kOn, kOff };

// The BSGS split of a map's shifts (the header's rule): n1 and the baby and giant exponents
// (b in [0, n1), a n1), each at most once, 0 included where used. ks_of(e) is g_0^e mod m;
// a split's count is its distinct automorphisms != 1. n1 = 0: the direct form is kept.
struct KsBsgsSplit {
  long n1 = 0;
  std::vector<long> baby, giant;  // exponents of g_0
  long count = 0;                 // automorphisms (= keys)
};
template <class KOf>
KsBsgsSplit ks_bsgs_split(const std::vector<long>& shifts, long direct, KsBsgs mode, KOf ks_of) {
  KsBsgsSplit best;
  if (mode == KsBsgs::kOff || shifts.empty()) return best;
  long lo = shifts[0], hi = shifts[0];
  for (long j : shifts) lo = std::min(lo, j), hi = std::max(hi, j);
  auto floordiv = [](long a, long n) { return a >= 0 ? a / n : -((-a + n - 1) / n); };
  for (long n1 = 2; n1 <= hi - lo + 1; ++n1) {
    std::vector<long> bb, gg;
    for (long j : shifts) {
      const long a = floordiv(j, n1);
      bb.push_back(j - a * n1), gg.push_back(a * n1);
    }
    for (auto* v : {&bb, &gg}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    std::vector<long> keys;
    for (long e : bb) keys.push_back(ks_of(e));
    long ng = 0;
    for (long e : gg) {
      const long k = ks_of(e);
      if (k != 1) ++ng;
      keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const long count = long(keys.size()) - long(std::binary_search(keys.begin(), keys.end(), 1L));
    const long best_ng = best.n1 ? long(best.giant.size()) : 0;
    if (!best.n1 || count < best.count || (count == best.count && long(gg.size()) < best_ng))
      best = {n1, bb, gg, count};
  }
  if (mode == KsBsgs::kAuto && best.n1 && best.count >= direct) return {};
  return best;
}

template <class B>
class KeystreamStateCircuit {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;
  using Slots = std::vector<uint64_t>;

  // ParameterError unless the backend's slots are the instance's field, a block's row fits
  // the ring (KsStateRows) and 1 <= blocks <= max_blocks().
  // bsgs: the maps' form (KsBsgs::kAuto: the header's rule; kOn, kOff: forced, for tests).
  KeystreamStateCircuit(const B& b, const KeystreamInstance& ks, long blocks, KsBsgs bsgs = KsBsgs::kAuto)
      : b_(b), ks_(ks), F_(ks.element_field()), ell_(b.slot_count()), blocks_(blocks), rows_(b.zmstar(), ks),
        bsgs_(bsgs) {
    const auto& sp = ks.spec();
    check_keystream_slots(b, ks);
    if (blocks < 1 || blocks > rows_.max_blocks())
      throw ParameterError(msg("--blocks ", blocks, ": ", sp.id, " with --packing state holds 1..", rows_.max_blocks(),
                               " blocks per ciphertext at m=", b.zmstar().m()));
    for (const auto& l : rows_.layers()) comp_.push_back(compile(l));
  }

  long blocks() const { return blocks_; }
  long max_blocks() const { return rows_.max_blocks(); }
  bool replicas() const { return rows_.replicas(); }
  const KeystreamInstance& instance() const { return ks_; }
  std::string describe() const {
    long n = 0, nb = 0;
    for (const auto& p : comp_)
      if (!p.lin.ks.empty()) ++n, nb += p.lin.split.n1 > 0;
    return msg(rows_.describe(blocks_), "; ", nb, " of ", n, " linear maps by baby-step giant-step");
  }
  // Per layer of the program: n1 of its map's BSGS split, 0 where it runs directly (or has
  // no map).
  std::vector<long> bsgs_n1() const {
    std::vector<long> out;
    for (const auto& p : comp_) out.push_back(p.lin.split.n1);
    return out;
  }
  // The ciphertexts of the encrypted key and of the results: one each.
  long key_ciphertexts() const { return 1; }
  long result_ciphertexts() const { return 1; }
  // The message elements one output ciphertext carries.
  long elements_per_ciphertext() const { return blocks_ * ks_.spec().s; }
  // The automorphisms run() applies: their keys before timing (require_automorphisms).
  std::vector<long> automorphisms() const {
    std::vector<long> out;
    for (const auto& p : comp_) {
      for (long k : p.lin.keys()) out.push_back(k);
      for (const auto& [ka, kb] : p.pairs) out.push_back(ka), out.push_back(kb);
    }
    if (rep_k_ > 1) out.push_back(rep_k_);
    for (long k : rep_map_.keys()) out.push_back(k);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    out.erase(std::remove(out.begin(), out.end(), 1L), out.end());
    return out;
  }

  // The public values of blocks (nonce, counter0 + j), j < blocks. ParameterError when
  // counter0 + blocks overflows.
  void set_blocks(uint64_t nonce, uint64_t counter0) {
    if (counter0 > ~uint64_t(0) - uint64_t(blocks_ - 1))
      throw ParameterError(msg("--counter ", counter0, " with ", blocks_, " blocks: the counters pass 2^64 - 1"));
    nonce_ = nonce, counter0_ = counter0;
    mat_.assign(size_t(blocks_), {});
    for_each_lane<B>(blocks_, [&](long j) { mat_[size_t(j)] = ks_.material(nonce, counter0 + uint64_t(j)); });
  }

  // The client's key: one ciphertext, element i in its slot of every block (and its replica).
  std::vector<Ctxt> encrypt_key(const Elements& key) const {
    if (long(key.size()) != ks_.spec().key_elements)
      throw ParameterError(msg("the key has ", key.size(), " elements, not ", ks_.spec().key_elements));
    Slots v(size_t(ell_), 0);
    for (long b = 0; b < blocks_; ++b)
      for (size_t i = 0; i < key.size(); ++i) {
        v[size_t(rows_.slot(b, rows_.idx(long(i))))] = key[i];
        if (rows_.replicas()) v[size_t(rows_.slot(b, rows_.replica(long(i))))] = key[i];
      }
    return {b_.encrypt(v)};
  }

  // The keystream of the blocks set by set_blocks: one ciphertext, element i of block b at
  // its slot (decrypt()). One record per round of the program.
  std::vector<Ctxt> run(Evaluator<B>& ev, const std::vector<Ctxt>& key, std::vector<RoundRecord>* recs = nullptr) {
    if (mat_.empty()) throw Error(msg(ks_.spec().id, ": set_blocks before run"));
    const Ctxt& K = key.at(0);
    Value x;
    x.v.assign(size_t(blocks_), Elements(size_t(rows_.w()), 0));
    size_t ip = 0, iM = 0, ic = 0, irc = 0;
    const auto& prog = rows_.program();
    for (size_t r = 0; r < prog.size(); ++r) {
      RoundTimer<B> t(ev, long(r) + 1);
      for (const auto& st : prog[r])
        t.step(st.name, [&] {
          for (size_t o = 0; o < st.ops.size();) {
            const auto& l = rows_.layers().at(ip);
            apply(ev, l, comp_.at(ip), K, x, iM, ic, irc);
            ++ip;
            o += size_t(l.nops);
          }
        });
      const RoundRecord rec = t.finish(x.ct ? b_.capacity_bits(*x.ct) : INFINITY);
      if (recs) recs->push_back(rec);
    }
    return {materialize(ev, x)};
  }

  // The s elements of every block in a keystream or message ciphertext.
  std::vector<Elements> decrypt(const std::vector<Ctxt>& cts) const {
    const auto v = b_.decrypt(cts.at(0));
    std::vector<Elements> out(static_cast<size_t>(blocks_));
    for (long b = 0; b < blocks_; ++b)
      for (long i = 0; i < ks_.spec().s; ++i) out[size_t(b)].push_back(v[size_t(rows_.slot(b, rows_.idx(i)))]);
    return out;
  }

  // m = c - KS for the public symmetric ciphertext blocks c (blocks x s elements).
  std::vector<Ctxt> subtract_from(Evaluator<B>& ev, const std::vector<Elements>& c, std::vector<Ctxt> ks) const {
    if (long(c.size()) != blocks_) throw Error(msg("subtract_from: ", c.size(), " blocks, not ", blocks_));
    Slots v(size_t(ell_), 0);
    for (long b = 0; b < blocks_; ++b)
      for (long i = 0; i < ks_.spec().s; ++i) v[size_t(rows_.slot(b, rows_.idx(i)))] = c[size_t(b)].at(size_t(i));
    if (F_.is_prime()) ev.mul_plain(ks.at(0), b_.encode(Slots(size_t(ell_), F_.neg(1))));
    ev.add_plain(ks.at(0), b_.encode(v));
    return ks;
  }

  // y = m^(L+1) (depth L), and its clear value per block and element (expected).
  Ctxt work_after(Evaluator<B>& ev, const std::vector<Ctxt>& m, long L) const {
    Ctxt y = m.at(0);
    for (long l = 1; l <= L; ++l) ev.mul(y, m[0]);
    return y;
  }
  std::vector<Elements> work_after_expected(const std::vector<Elements>& m, long L) const {
    std::vector<Elements> out;
    for (const auto& blk : m) {
      Elements y;
      for (uint64_t e : blk) y.push_back(F_.pow(e, uint64_t(L) + 1));
      out.push_back(y);
    }
    return out;
  }
  std::vector<Elements> decrypt_work(const Ctxt& y) const { return decrypt({y}); }

  // The clear keystream of every block (the reference's): ks[j] for block j.
  std::vector<Elements> reference(const Elements& key) const {
    std::vector<Elements> out(static_cast<size_t>(blocks_));
    for_each_lane<B>(blocks_, [&](long j) { out[size_t(j)] = ks_.keystream(key, nonce_, counter0_ + uint64_t(j)); });
    return out;
  }

  double capacity(const std::vector<Ctxt>& st) const { return min_capacity(b_, st); }

 private:
  enum class Shape { kNone, kClean, kReplicated, kDirty };
  struct Value {
    std::optional<Ctxt> ct;
    Shape shape = Shape::kNone;
    std::vector<Elements> v;  // per block, w elements (the public part)
  };
  using Term = KsStateRows::Term;
  using Layer = KsStateRows::Layer;
  // A diagonal map: its terms, distinct k's and, per block and term, the k's index.
  struct KMap {
    std::vector<Term> terms;
    std::vector<long> ks;
    std::vector<int> kidx;                   // blocks x terms
    std::vector<std::optional<Ptxt>> fixed;  // D_k (BSGS: P_k) encoded once where the coefficients are fixed
    // BSGS (split.n1 > 0): the k's of its baby and giant steps, each k's baby and giant,
    // and per giant the slot sources of sigma_giant^-1 (P_k[s] = D_k[pre[giant][s]]).
    KsBsgsSplit split;
    std::vector<long> baby_k, giant_k;
    std::vector<int> kb, kg;
    std::vector<std::vector<long>> pre;
    std::vector<long> keys() const {
      return split.n1 ? [&] {
        std::vector<long> v = baby_k;
        v.insert(v.end(), giant_k.begin(), giant_k.end());
        return v;
      }()
                      : ks;
    }
  };
  // A layer compiled for the blocks: its diagonal map; a Quadratic's distinct (ka, kb) and,
  // per block and product, the pair's index.
  struct Compiled {
    KMap lin;
    std::vector<std::pair<long, long>> pairs;
    std::vector<int> qidx;  // blocks x Q
  };

  void build_kmap(KMap& km, const std::vector<std::pair<long, long>>& idx_pairs) const {  // (dst idx, src idx)
    std::map<long, int> at;
    km.kidx.assign(size_t(blocks_) * idx_pairs.size(), 0);
    for (long b = 0; b < blocks_; ++b)
      for (size_t t = 0; t < idx_pairs.size(); ++t) {
        const long k = rows_.k_of(rows_.slot(b, idx_pairs[t].second), rows_.slot(b, idx_pairs[t].first));
        auto it = at.find(k);
        if (it == at.end()) {
          it = at.emplace(k, int(km.ks.size())).first;
          km.ks.push_back(k);
        }
        km.kidx[size_t(b) * idx_pairs.size() + t] = it->second;
      }
    km.fixed.assign(km.ks.size(), std::nullopt);
    // BSGS along the first dimension, for elements of the prime field (see the header).
    const ZmStar& zm = b_.zmstar();
    if (!rows_.along_dim() || F_.n() != 1 || idx_pairs.empty() || bsgs_ == KsBsgs::kOff) return;
    const long g0 = zm.gen(0);
    std::vector<long> shift(km.ks.size(), 0);  // one j with g_0^j = k, per k
    std::vector<bool> seen(km.ks.size(), false);
    for (size_t t = 0; t < idx_pairs.size(); ++t) {
      const int ki = km.kidx[t];  // block 0's
      if (seen[size_t(ki)]) continue;
      seen[size_t(ki)] = true;
      shift[size_t(ki)] = idx_pairs[t].second - idx_pairs[t].first;
      if (zm.power(g0, shift[size_t(ki)]) != km.ks[size_t(ki)])
        throw Error(msg("state packing: shift ", shift[size_t(ki)], " is not k=", km.ks[size_t(ki)], " along dimension 0"));
    }
    long direct = 0;
    for (long k : km.ks) direct += k != 1;
    km.split = ks_bsgs_split(shift, direct, bsgs_, [&](long e) { return zm.power(g0, e); });
    if (!km.split.n1) return;
    for (long e : km.split.baby) km.baby_k.push_back(zm.power(g0, e));
    for (long e : km.split.giant) {
      km.giant_k.push_back(zm.power(g0, e));
      const auto mv = zm.automorphism_action(zm.power(g0, -e));
      std::vector<long> src;
      for (const auto& x : mv) src.push_back(x.src);
      km.pre.push_back(std::move(src));
    }
    const long n1 = km.split.n1;
    for (long j : shift) {
      const long a = (j >= 0 ? j / n1 : -((-j + n1 - 1) / n1)) * n1;
      km.kb.push_back(int(std::lower_bound(km.split.baby.begin(), km.split.baby.end(), j - a) - km.split.baby.begin()));
      km.kg.push_back(int(std::lower_bound(km.split.giant.begin(), km.split.giant.end(), a) - km.split.giant.begin()));
    }
  }
  Compiled compile(const Layer& l) {
    Compiled p;
    p.lin.terms = l.terms;
    std::vector<std::pair<long, long>> ip;
    for (const auto& t : l.terms) ip.emplace_back(rows_.idx(t.out), t.src_idx);
    build_kmap(p.lin, ip);
    if (l.kind == KsOp::kQuadratic) {
      std::map<std::pair<long, long>, int> at;
      p.qidx.assign(size_t(blocks_) * l.Q.size(), 0);
      for (long b = 0; b < blocks_; ++b)
        for (size_t q = 0; q < l.Q.size(); ++q) {
          const long dst = rows_.slot(b, rows_.idx(l.Q[q].out));
          const long ka = rows_.k_of(rows_.slot(b, rows_.idx(l.Q[q].a)), dst);
          const long kb = rows_.k_of(rows_.slot(b, rows_.idx(l.Q[q].b)), dst);
          const std::pair<long, long> key{std::min(ka, kb), std::max(ka, kb)};
          auto it = at.find(key);
          if (it == at.end()) {
            it = at.emplace(key, int(p.pairs.size())).first;
            p.pairs.push_back(key);
          }
          p.qidx[size_t(b) * l.Q.size() + q] = it->second;
        }
    }
    if (l.reads_replicas && rep_map_.ks.empty()) {
      // Replication: element -> replica (and element -> element for the masked form).
      const long w = rows_.w();
      std::vector<std::pair<long, long>> rp;
      for (long e = 0; e < w; ++e) rp.emplace_back(rows_.replica(e), rows_.idx(e));
      KMap one;
      build_kmap(one, rp);
      rep_k_ = one.ks.size() == 1 ? one.ks[0] : -1;
      for (long e = 0; e < w; ++e) rp.emplace_back(rows_.idx(e), rows_.idx(e));
      for (size_t t = 0; t < rp.size(); ++t) rep_map_.terms.push_back({0, 0, 0, 1});
      build_kmap(rep_map_, rp);
      rep_pairs_ = rp;
    }
    return p;
  }

  // y = sum_k D_k sigma_k(x) for the diagonal map km; coeff(b, t) is term t's entry in block b;
  // dst(t) its destination index.
  template <class Coeff, class Dst>
  Ctxt diagonals(Evaluator<B>& ev, KMap& km, const Ctxt& x, Coeff coeff, Dst dst, bool fixed) {
    const size_t T = km.terms.size();
    if (km.ks.empty()) throw Error(msg(ks_.spec().id, ": a linear layer without terms"));
    std::vector<std::optional<Ptxt>> D(km.ks.size());
    if (!fixed || !km.fixed.at(0)) {
      std::vector<Slots> d(km.ks.size(), Slots(size_t(ell_), 0));
      for (long b = 0; b < blocks_; ++b)
        for (size_t t = 0; t < T; ++t) {
          uint64_t& e = d[size_t(km.kidx[size_t(b) * T + t])][size_t(rows_.slot(b, dst(t)))];
          e = F_.add(e, coeff(b, t));
        }
      for (size_t k = 0; k < D.size(); ++k) {
        if (km.split.n1) {  // P_k = sigma_giant^-1(D_k), a permutation of its slots
          const auto& src = km.pre[size_t(km.kg[k])];
          Slots q(static_cast<size_t>(ell_), 0);
          for (size_t s = 0; s < q.size(); ++s) q[s] = d[k][size_t(src[s])];
          d[k] = std::move(q);
        }
        D[k] = b_.encode(d[k]);
        if (fixed) km.fixed[k] = D[k];
      }
    }
    if (km.split.n1) {
      const auto baby = ev.automorph_many(x, km.baby_k);
      std::vector<Ctxt> inner(km.giant_k.size());
      // The products of moved baby steps first, x's own (baby 0 when b = 0: not reduced by
      // the hoisting, more primes) last, so that the sum switches modulus once, not per term.
      ev.lanes(long(inner.size()), [&](Evaluator<B>& e, long g) {
        bool any = false;
        for (size_t i = 0; i < 2 * km.ks.size(); ++i) {
          const size_t k = i % km.ks.size();
          if (km.kg[k] != int(g) || (km.kb[k] == 0) != (i >= km.ks.size())) continue;
          Ctxt c = baby[size_t(km.kb[k])];
          e.mul_plain(c, fixed ? *km.fixed[k] : *D[k]);
          if (any) e.add(inner[size_t(g)], c);
          else inner[size_t(g)] = std::move(c), any = true;
        }
        if (!any) throw Error(msg(ks_.spec().id, ": a giant step without terms"));
        e.automorph(inner[size_t(g)], km.giant_k[size_t(g)]);
      });
      // Likewise the giant steps' sums, a = 0's (not moved) last.
      std::vector<size_t> order;
      for (size_t g = 0; g < inner.size(); ++g)
        if (km.giant_k[g] != 1) order.push_back(g);
      for (size_t g = 0; g < inner.size(); ++g)
        if (km.giant_k[g] == 1) order.push_back(g);
      for (size_t i = 1; i < order.size(); ++i) ev.add(inner[order[0]], inner[order[i]]);
      return std::move(inner.at(order.at(0)));
    }
    auto moved = ev.automorph_many(x, km.ks);
    ev.lanes(long(moved.size()), [&](Evaluator<B>& e, long k) {
      e.mul_plain(moved[size_t(k)], fixed ? *km.fixed[size_t(k)] : *D[size_t(k)]);
    });
    for (size_t k = 1; k < moved.size(); ++k) ev.add(moved[0], moved[k]);
    return std::move(moved.at(0));
  }

  // The public part's map in the clear: y[out] += c x[src] per block.
  template <class Coeff>
  std::vector<Elements> clear_map(const std::vector<Term>& ts, const std::vector<Elements>& v, Coeff coeff,
                                  bool keep) const {
    std::vector<Elements> y = keep ? v : std::vector<Elements>(v.size(), Elements(size_t(rows_.w()), 0));
    for (long b = 0; b < blocks_; ++b)
      for (size_t t = 0; t < ts.size(); ++t) {
        uint64_t& e = y[size_t(b)][size_t(ts[t].out)];
        e = F_.add(e, F_.mul(coeff(b, t), v[size_t(b)][size_t(ts[t].in)]));
      }
    return y;
  }

  // The public part as a slot vector at the elements' slots (and replicas when replicated).
  Slots encode_v(const Value& x) const {
    Slots s(size_t(ell_), 0);
    for (long b = 0; b < blocks_; ++b)
      for (long e = 0; e < rows_.w(); ++e) {
        const uint64_t u = x.v[size_t(b)][size_t(e)];
        s[size_t(rows_.slot(b, rows_.idx(e)))] = u;
        if (x.shape == Shape::kReplicated) s[size_t(rows_.slot(b, rows_.replica(e)))] = u;
      }
    return s;
  }
  bool v_zero(const Value& x) const {
    for (const auto& blk : x.v)
      for (uint64_t u : blk)
        if (u) return false;
    return true;
  }
  Ctxt materialize(Evaluator<B>& ev, Value& x) const {
    if (!x.ct) throw Error(msg(ks_.spec().id, ": the state does not depend on the key (the program is public there)"));
    if (!v_zero(x)) {
      ev.add_plain(*x.ct, b_.encode(encode_v(x)));
      for (auto& blk : x.v) std::fill(blk.begin(), blk.end(), 0);
    }
    return *x.ct;
  }
  static Shape sum_shape(Shape a, Shape b) {
    if (a == Shape::kNone) return b;
    if (b == Shape::kNone) return a;
    return a == b ? a : Shape::kDirty;
  }
  void add_ct(Evaluator<B>& ev, Value& x, Ctxt c, Shape s) const {
    if (x.ct) ev.add(*x.ct, c);
    else x.ct = std::move(c);
    x.shape = sum_shape(x.shape, s);
  }

  // The ciphertext part replicated (see the header).
  void replicate(Evaluator<B>& ev, Value& x) {
    if (!x.ct || x.shape == Shape::kReplicated) return;
    if (x.shape == Shape::kClean && rep_k_ > 0) {
      Ctxt r = *x.ct;
      ev.automorph(r, rep_k_);
      ev.add(*x.ct, r);
    } else {
      x.ct = diagonals(
          ev, rep_map_, *x.ct, [](long, size_t) { return uint64_t(1); }, [&](size_t t) { return rep_pairs_[t].first; },
          true);
    }
    x.shape = Shape::kReplicated;
  }

  // One layer on x (p: its compiled form, whose fixed diagonals are encoded on first use).
  void apply(Evaluator<B>& ev, const Layer& l, Compiled& p, const Ctxt& K, Value& x, size_t& iM, size_t& ic,
             size_t& irc) {
    const KsOp& op = *l.ops[0];
    switch (l.kind) {
      case KsOp::kAddKey:
      case KsOp::kKeyMul: {
        if (l.kind == KsOp::kAddKey && op.offset == 0 && op.size == ks_.spec().key_elements) {
          add_ct(ev, x, K, rows_.replicas() ? Shape::kReplicated : Shape::kClean);  // the key as it is
          break;
        }
        // Key element i times 1 (AddKey) or rc_i (KeyMul) into element offset + i, by diagonals.
        const size_t r = l.kind == KsOp::kKeyMul ? irc++ : 0;
        auto coeff = [&](long b, size_t t) {
          return l.kind == KsOp::kKeyMul ? mat_[size_t(b)].rc.at(r).at(t) : uint64_t(1);
        };
        add_ct(ev, x, diagonals(ev, p.lin, K, coeff, [&](size_t t) { return rows_.idx(l.terms[t].out); },
                                l.kind == KsOp::kAddKey),
               Shape::kClean);
        break;
      }
      case KsOp::kAffine: {
        if (!op.matrix) {
          const size_t c = ic++;
          for (long b = 0; b < blocks_; ++b)
            for (long i = 0; i < op.size; ++i) {
              uint64_t& e = x.v[size_t(b)][size_t(op.offset + i)];
              e = F_.add(e, mat_[size_t(b)].c.at(c).at(size_t(i)));
            }
          break;
        }
        const size_t m0 = iM, c0 = ic;
        iM += l.ops.size(), ic += l.ops.size();
        auto entry = [&](long b, size_t t) {
          const Term& tm = l.terms[t];
          return mat_[size_t(b)].M.at(m0 + size_t(tm.op)).at(size_t(tm.i)).at(size_t(tm.j));
        };
        if (l.reads_replicas) replicate(ev, x);
        if (x.ct) {
          x.ct = diagonals(ev, p.lin, *x.ct, entry, [&](size_t t) { return rows_.idx(l.terms[t].out); }, false);
          x.shape = Shape::kClean;
        }
        // Elements outside the group keep their value; inside: M x + c.
        std::vector<Elements> y = clear_map(l.terms, x.v, entry, false);
        for (long b = 0; b < blocks_; ++b)
          for (long e = 0; e < rows_.w(); ++e) {
            bool in = false;
            for (const KsOp* g : l.ops) in = in || (e >= g->offset && e < g->offset + g->size);
            if (!in) y[size_t(b)][size_t(e)] = x.v[size_t(b)][size_t(e)];
          }
        for (size_t g = 0; g < l.ops.size(); ++g)
          for (long b = 0; b < blocks_; ++b)
            for (long i = 0; i < l.ops[g]->size; ++i) {
              uint64_t& e = y[size_t(b)][size_t(l.ops[g]->offset + i)];
              e = F_.add(e, mat_[size_t(b)].c.at(c0 + g).at(size_t(i)));
            }
        x.v = std::move(y);
        break;
      }
      case KsOp::kLinear: {
        auto coeff = [&](long, size_t t) { return l.terms[t].coeff; };
        if (l.reads_replicas) replicate(ev, x);
        if (x.ct) {
          x.ct = diagonals(ev, p.lin, *x.ct, coeff, [&](size_t t) { return rows_.idx(l.terms[t].out); }, true);
          x.shape = Shape::kClean;
        }
        x.v = clear_map(l.terms, x.v, coeff, false);
        break;
      }
      case KsOp::kQuadratic: {
        // Products from the old state, then the linear part, added to x.
        std::optional<Ctxt> prod;
        std::vector<Elements> vq(size_t(blocks_), Elements(size_t(rows_.w()), 0));
        if (!l.Q.empty()) {
          if (!x.ct) {
            for (long b = 0; b < blocks_; ++b)
              for (const auto& q : l.Q) {
                uint64_t& e = vq[size_t(b)][size_t(q.out)];
                e = F_.add(e, F_.mul(q.coeff, F_.mul(x.v[size_t(b)][size_t(q.a)], x.v[size_t(b)][size_t(q.b)])));
              }
          } else {
            Value xm = x;
            const Ctxt X = materialize(ev, xm);
            std::vector<long> ks;
            for (const auto& [ka, kb] : p.pairs) ks.push_back(ka), ks.push_back(kb);
            std::sort(ks.begin(), ks.end());
            ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
            const auto moved = ev.automorph_many(X, ks);
            auto at = [&](long k) -> const Ctxt& { return moved[size_t(std::lower_bound(ks.begin(), ks.end(), k) - ks.begin())]; };
            std::vector<Ctxt> terms(p.pairs.size());
            ev.lanes(long(p.pairs.size()), [&](Evaluator<B>& e, long q) {
              const auto [ka, kb] = p.pairs[size_t(q)];
              Ctxt c = at(ka);
              if (ka == kb) e.square(c);
              else e.mul(c, at(kb));
              Slots d(size_t(ell_), 0);
              for (long b = 0; b < blocks_; ++b)
                for (size_t t = 0; t < l.Q.size(); ++t)
                  if (p.qidx[size_t(b) * l.Q.size() + t] == int(q)) {
                    uint64_t& u = d[size_t(rows_.slot(b, rows_.idx(l.Q[t].out)))];
                    u = F_.add(u, l.Q[t].coeff);
                  }
              e.mul_plain(c, b_.encode(d));
              terms[size_t(q)] = std::move(c);
            });
            for (size_t q = 1; q < terms.size(); ++q) ev.add(terms[0], terms[q]);
            prod = std::move(terms.at(0));
          }
        }
        std::optional<Ctxt> lin;
        auto coeff = [&](long, size_t t) { return l.terms[t].coeff; };
        if (!l.terms.empty() && x.ct)
          lin = diagonals(ev, p.lin, *x.ct, coeff, [&](size_t t) { return rows_.idx(l.terms[t].out); }, true);
        std::vector<Elements> vl = clear_map(l.terms, x.v, coeff, true);
        for (long b = 0; b < blocks_; ++b)
          for (long e = 0; e < rows_.w(); ++e) vl[size_t(b)][size_t(e)] = F_.add(vl[size_t(b)][size_t(e)], vq[size_t(b)][size_t(e)]);
        x.v = std::move(vl);
        if (lin) add_ct(ev, x, std::move(*lin), Shape::kClean);
        if (prod) add_ct(ev, x, std::move(*prod), Shape::kClean);
        break;
      }
      case KsOp::kPower:
        if (!x.ct) {
          for (auto& blk : x.v)
            for (auto& u : blk) u = F_.pow(u, op.e);
        } else {
          x.ct = ks_power(ev, materialize(ev, x), op.e);
        }
        break;
      case KsOp::kTruncate:
        break;  // the output is elements 0..s-1 (decrypt, subtract_from)
    }
  }

  const B& b_;
  const KeystreamInstance& ks_;
  const CipherField& F_;
  long ell_, blocks_;
  KsStateRows rows_;
  KsBsgs bsgs_;
  std::vector<Compiled> comp_;  // per layer of rows_
  long rep_k_ = 0;  // > 1: one automorphism replicates a clean state; -1: the masked map
  KMap rep_map_;
  std::vector<std::pair<long, long>> rep_pairs_;  // (dst idx, src idx) of rep_map_
  uint64_t nonce_ = 0, counter0_ = 0;
  std::vector<KsMaterial> mat_;
};

}  // namespace cb
