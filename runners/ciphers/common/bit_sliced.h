// bit_sliced.h: the bit-sliced packing (GHS's third variant of AES): one ciphertext per
// bit of the state, one block per slot.
//
// A block of s elements of GF(2^n) is s n bits; ciphertext i n + j holds bit j (the
// coefficient of x^j) of element i, block b in slot b, as 0 or 1 of the slot field (GF(2)
// lies in every GF(2^d), so any ring will do), hence ell blocks at once. On slots holding
// bits an addition is XOR and a product AND, so every step is additions but the ANDs:
//     AddKey     s n additions of the encrypted subkey's bits;
//     Linear(M)  out_p = sum_q M[p][q] in_q is GF(2)-linear on the s n bits: bit r of
//                M[p][q] x_q is sum_j [bit r of M[p][q] x^j] x_(q,j), so an output bit is
//                a sum of input bits, and one that is a single input bit (ShiftRows, and
//                the x_(q,j) that xtime shifts) is a renaming;
//     Affine(L)  per element, bit r of L(x) = c_r + sum_j [bit r of L_0(x^j)] x_j:
//                additions and, where c_r = 1, the constant 1;
//     Boolean(C) per element (per group of g consecutive elements for a circuit of g n
//                bits), the circuit's gates (boolean_circuit.h): XOR an addition, AND a
//                product (relinearized), NOT the constant 1 added.
// No automorphism: the only key-switching key is relinearization's. Subkeys are encrypted
// bit by bit, replicated over the blocks (one cipher key per run), as the other packings do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ciphers/common/boolean_circuit.h"
#include "ciphers/common/evaluator.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/slot_map.h"
#include "engine/algebra/subfield.h"
#include "engine/errors.h"

namespace cb {

// The s n x s n bit matrix of a block map M over GF(2^n): row p n + r lists the input
// bits q n + j whose sum is bit r of output element p.
inline std::vector<std::vector<long>> bit_matrix(const GF2n& F, long s, const std::vector<SlotTerm>& M) {
  const long n = F.n(), N = s * n;
  std::vector<std::vector<uint8_t>> A(N, std::vector<uint8_t>(N, 0));
  for (const auto& t : M) {
    if (t.out < 0 || t.out >= s || t.in < 0 || t.in >= s)
      throw ParameterError(msg("linear map term (", t.out, ", ", t.in, ") outside a state of ", s));
    for (long j = 0; j < n; ++j) {
      const uint64_t y = F.mul(t.coeff, uint64_t(1) << j);
      for (long r = 0; r < n; ++r)
        if ((y >> r) & 1) A[t.out * n + r][t.in * n + j] ^= 1;
    }
  }
  std::vector<std::vector<long>> rows(N);
  for (long k = 0; k < N; ++k)
    for (long i = 0; i < N; ++i)
      if (A[k][i]) rows[k].push_back(i);
  return rows;
}

template <class B>
class BitSlicedRep {
 public:
  using Ctxt = typename B::Ctxt;
  using Ptxt = typename B::Ptxt;
  using State = std::vector<Ctxt>;
  static constexpr const char* kName = "bit-sliced";
  static constexpr bool kBits = true;

  // F: the cipher's field GF(2^n) (the backend's slots need only hold GF(2)); maps: the
  // program's linear layers.
  BitSlicedRep(const B& b, const GF2n& F, long s, const std::vector<std::vector<SlotTerm>>& maps)
      : b_(b), F_(F), n_(F.n()), s_(s), one_(b.encode(std::vector<uint64_t>(b.slot_count(), 1))) {
    for (const auto& M : maps) rows_.push_back(bit_matrix(F_, s_, M));
  }

  long max_blocks() const { return b_.slot_count(); }
  long ciphertexts() const { return s_ * n_; }
  std::vector<bool> active() const { return {}; }
  std::string describe() const {
    return msg("bit-sliced, ", s_ * n_, " ciphertexts (one per state bit), ", b_.slot_count(), " blocks");
  }
  long map_automorphisms(long) const { return 0; }
  std::vector<long> automorphisms() const { return {}; }

  State encrypt(const std::vector<std::vector<uint64_t>>& blocks) const { return encrypt_all(b_, block_slots(blocks)); }
  std::vector<std::vector<uint64_t>> replicated_slots(const std::vector<uint64_t>& block) const {
    return block_slots(std::vector<std::vector<uint64_t>>(max_blocks(), block));
  }
  State encrypt_replicated(const std::vector<uint64_t>& block) const { return encrypt_all(b_, replicated_slots(block)); }
  // Error when a slot holds anything but a bit (a broken circuit, not a wrong bit).
  std::vector<std::vector<uint64_t>> decrypt(const State& st, long blocks) const {
    std::vector<std::vector<uint64_t>> out(blocks, std::vector<uint64_t>(s_, 0));
    for (long i = 0; i < s_; ++i)
      for (long j = 0; j < n_; ++j) {
        const auto v = b_.decrypt(st.at(i * n_ + j));
        for (long k = 0; k < blocks; ++k) {
          if (v[k] > 1)
            throw Error(msg("bit-sliced: bit ", j, " of element ", i, " decrypts to 0x", std::hex, v[k], std::dec,
                            " in slot ", k, ", not a bit"));
          out[k][i] |= v[k] << j;
        }
      }
    return out;
  }

  // Linear layer i: each output bit the sum of its input bits.
  void linear(Evaluator<B>& ev, State& st, long i) const {
    const auto& rows = rows_.at(i);
    State out;
    out.reserve(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      if (rows[k].empty())
        throw ParameterError(msg("linear map sets bit ", k % n_, " of element ", k / n_, " to zero (no input bit)"));
      Ctxt acc = st[rows[k][0]];
      for (size_t t = 1; t < rows[k].size(); ++t) ev.add(acc, st[rows[k][t]]);
      out.push_back(std::move(acc));
    }
    st = std::move(out);
  }

  // The affine map L of GF(2^n) in every element, on its bits.
  void affine(Evaluator<B>& ev, State& st, const Linearized& L) const {
    Linearized L0 = L;
    L0.c = 0;
    std::vector<uint64_t> col(n_);  // col[j] = L_0(x^j)
    for (long j = 0; j < n_; ++j) col[j] = evaluate(F_, L0, uint64_t(1) << j);
    State out;
    out.reserve(st.size());
    for (long i = 0; i < s_; ++i)
      for (long r = 0; r < n_; ++r) {
        std::optional<Ctxt> acc;
        for (long j = 0; j < n_; ++j) {
          if (!((col[j] >> r) & 1)) continue;
          if (acc)
            ev.add(*acc, st[i * n_ + j]);
          else
            acc = st[i * n_ + j];
        }
        if (!acc) throw ParameterError(msg("affine map sets bit ", r, " of an element to a constant (no input bit)"));
        if ((L.c >> r) & 1) ev.add_plain(*acc, one_);
        out.push_back(std::move(*acc));
      }
    st = std::move(out);
  }

  // The circuit C on every group of C.inputs consecutive state bits (an element, or g
  // elements); wires are freed after their last use.
  void boolean(Evaluator<B>& ev, State& st, const BooleanCircuit& C) const {
    const long k = C.inputs;
    if (k != long(C.outputs.size()) || k % n_ || long(st.size()) % k)
      throw ParameterError(msg("circuit ", C.name, " maps ", k, " bits to ", C.outputs.size(), ": the state's ",
                               st.size(), " bits are elements of ", n_));
    const auto last = C.last_use();
    State out;
    out.reserve(st.size());
    for (size_t i = 0; i < st.size(); i += k) {
      std::vector<std::optional<Ctxt>> w(C.wires());
      for (long j = 0; j < k; ++j) w[j] = st[i + j];
      auto done = [&](long wire, long g) {
        if (last[wire] == g) w[wire].reset();
      };
      for (size_t g = 0; g < C.gates.size(); ++g) {
        const Gate& x = C.gates[g];
        Ctxt y = *w[x.a];
        switch (x.kind) {
          case Gate::kXor:
            ev.add(y, *w[x.b]);
            break;
          case Gate::kXnor:
            ev.add(y, *w[x.b]);
            ev.add_plain(y, one_);
            break;
          case Gate::kAnd:
            ev.mul(y, *w[x.b]);
            break;
          case Gate::kNot:
            ev.add_plain(y, one_);
            break;
        }
        done(x.a, long(g));
        if (x.kind != Gate::kNot) done(x.b, long(g));
        w[C.inputs + g] = std::move(y);
      }
      for (long o : C.outputs) out.push_back(*w[o]);
    }
    st = std::move(out);
  }

  // The slot vectors of the blocks' state: bit j of element i of block k in slot k of
  // ciphertext i n + j (encrypt's, and the constants a public block is added as).
  std::vector<std::vector<uint64_t>> block_slots(const std::vector<std::vector<uint64_t>>& blocks) const {
    if (long(blocks.size()) > max_blocks())
      throw ParameterError(msg(blocks.size(), " blocks given: ", b_.slot_count(), " slots hold ", max_blocks(),
                               " bit-sliced blocks"));
    std::vector<std::vector<uint64_t>> vs;
    for (long i = 0; i < s_; ++i)
      for (long j = 0; j < n_; ++j) {
        std::vector<uint64_t> v(b_.slot_count(), 0);
        for (size_t k = 0; k < blocks.size(); ++k) v[k] = (blocks[k].at(i) >> j) & 1;
        vs.push_back(std::move(v));
      }
    return vs;
  }

 private:
  const B& b_;
  GF2n F_;
  long n_, s_;
  Ptxt one_;
  std::vector<std::vector<std::vector<long>>> rows_;  // per linear layer
};

}  // namespace cb
