// keystream_spec.h: what a keystream entry of the catalog declares (Pasta, HERA, Rasta).
//
// Hybrid homomorphic encryption (transciphering) runs a cipher as a keystream generator:
// block b of a message is c_b = m_b + KS(k, nonce, b) (over F_p: mod p; over GF(2): XOR),
// the client sends c and, once, the key k under FHE; the server evaluates KS on the
// encrypted key with the nonce and the counter b public, and m_b = c_b - KS(k, nonce, b)
// are FHE ciphertexts of the message. The ciphers designed for this (Pasta, HERA, Masta,
// Rasta) draw their matrices and round constants per block from a XOF seeded with
// (nonce, b) (SHAKE128: reference/shake128.h), so everything but the key is public and
// differs from block to block.
//
// An entry describes the keystream of one block as a program on a state x of w elements
// of its field (w = state_size(); the state starts at zero), the same for every block:
//     AddKey(o, k)       x[o+i] += key[i], i < k               (Pasta's start, Rasta's end)
//     KeyMul(o, k)       x[o+i] += rc[i] key[i], i < k, rc public per block   (HERA's ARK)
//     Affine(o, k)       x[o..o+k) <- M x[o..o+k) + c, M (k x k) and c public per block
//                        (Pasta's and Rasta's layers; without a matrix: x += c); a
//                        companion Affine's M is C^k for the companion matrix C of one
//                        public row a (Pasta's): k elements define it, not k^2
//     Linear(L)          x <- L x, L fixed (the same for every block): terms (out, in,
//                        coeff), an out with no term becomes 0   (HERA's MixColumns/Rows)
//     Quadratic(L, Q)    x'_out = x_out + sum L's coeff x_in + sum Q's coeff x_a x_b, all
//                        from the old state     (Pasta's Feistel x_i + x_(i-1)^2, Rasta's chi)
//     Power(e)           x -> x^e in every element                   (the cube)
//     Truncate(t)        keep x[0..t)                                (the output)
// grouped in timed steps and rounds as the papers name them; material(nonce, counter)
// gives the public values of one block (each Affine's M and c, each KeyMul's rc, in
// program order) drawn from the XOF exactly as the reference draws them;
// compact_material(nonce, counter) the same values with each companion matrix as its row a
// only (expand_material() gives back material()'s). Under FHE the
// public parts are plaintext operations (constant products and additions), never
// encrypted: with one block per slot (keystream_circuit.h), a per-block constant is a
// slot vector, and the only ciphertext products are the nonlinear layers' and KeyMul's
// (a constant product).
//
// The clear reference keystream() is written independently of program(), from the
// cipher's definition; eval_program() runs the program in the clear, and the entry's
// tests check both against the published known-answer vectors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ciphers/catalog/cipher_spec.h"

namespace cb {

// A product term of a quadratic layer: x'_out += coeff x_a x_b (a == b: a square).
struct ProductTerm {
  long out, a, b;
  uint64_t coeff;
};

struct KsOp {
  enum Kind { kAddKey, kKeyMul, kAffine, kLinear, kQuadratic, kPower, kTruncate };
  Kind kind = kAddKey;
  long offset = 0, size = 0;   // kAddKey, kKeyMul, kAffine: the range; kTruncate: elements kept
  bool matrix = true;          // kAffine: M x + c (false: x + c)
  bool companion = false;      // kAffine with a matrix: M = C^k, C the companion matrix of M's row 0
  BlockMap L;                  // kLinear; kQuadratic's linear part
  std::vector<ProductTerm> Q;  // kQuadratic's products
  uint64_t e = 0;              // kPower

  static KsOp add_key(long offset, long size) { return make(kAddKey, offset, size); }
  static KsOp key_mul(long offset, long size) { return make(kKeyMul, offset, size); }
  static KsOp affine(long offset, long size, bool matrix = true) {
    KsOp o = make(kAffine, offset, size);
    o.matrix = matrix;
    return o;
  }
  // M = C^k for C the companion matrix of a public row a (ones above the diagonal, a as
  // the last row): row 0 of M is a, row i + 1 is companion_next_row(row i, a).
  static KsOp companion_affine(long offset, long size) {
    KsOp o = affine(offset, size, true);
    o.companion = true;
    return o;
  }
  static KsOp linear(BlockMap L) {
    KsOp o = make(kLinear);
    o.L = std::move(L);
    return o;
  }
  static KsOp quadratic(BlockMap L, std::vector<ProductTerm> Q) {
    KsOp o = make(kQuadratic);
    o.L = std::move(L);
    o.Q = std::move(Q);
    return o;
  }
  static KsOp power(uint64_t e) {
    KsOp o = make(kPower);
    o.e = e;
    return o;
  }
  static KsOp truncate(long t) { return make(kTruncate, 0, t); }

 private:
  static KsOp make(Kind k, long offset = 0, long size = 0) {
    KsOp o;
    o.kind = k;
    o.offset = offset;
    o.size = size;
    return o;
  }
};

// A timed step ("matmul", "sbox", "ark") and a round of them.
struct KsStep {
  std::string name;
  std::vector<KsOp> ops;
};
using KsRound = std::vector<KsStep>;

// The public values of one block, in program order.
struct KsMaterial {
  std::vector<std::vector<Elements>> M;  // each Affine with a matrix: k rows of k elements
                                         // (compact_material: a companion matrix's row 0 only)
  std::vector<Elements> c;               // each Affine: k elements
  std::vector<Elements> rc;              // each KeyMul: k elements
};

class KeystreamInstance : public FieldInstance {
 public:
  using FieldInstance::FieldInstance;

  // w, the state's elements (Pasta: 2t; HERA: 16; Rasta: n).
  virtual long state_size() const = 0;
  // The keystream of one block as rounds of steps; it ends with Truncate(s) when s < w.
  virtual std::vector<KsRound> program() const = 0;
  // The public values of block (nonce, counter), drawn as the reference draws them.
  virtual KsMaterial material(uint64_t nonce, uint64_t counter) const = 0;
  // The same with each companion Affine's matrix as its row 0 (k elements, not k^2): what
  // a session holds for every block at once (keystream_circuit.h), each layer's rows made
  // when it is evaluated. An entry with companion Affines overrides it; by default (no
  // companion Affine) material().
  virtual KsMaterial compact_material(uint64_t nonce, uint64_t counter) const { return material(nonce, counter); }
  // The clear reference, independent of program(): s keystream elements.
  virtual Elements keystream(const Elements& key, uint64_t nonce, uint64_t counter) const = 0;
};

// Row i + 1 of a companion Affine's M = C^k from row i: (row C)_j = row_(j-1) + row_(k-1) a_j
// (row_(-1) = 0), a = row 0 of M.
Elements companion_next_row(const CipherField& F, const Elements& row, const Elements& a);

// compact_material()'s values with each companion matrix's rows made from its row 0:
// material()'s. Error when the material does not match the program's Affines.
KsMaterial expand_material(const KeystreamInstance& ks, KsMaterial compact);

// Runs the program in the clear on one block's material (the key: key_elements elements).
// Error when the material does not match the program (counts, sizes).
Elements eval_program(const KeystreamInstance& ks, const Elements& key, const KsMaterial& mat);

// Checks a program's shape against the instance: ranges inside the state, terms' indices,
// coefficients in the field, the output s elements. ParameterError naming the op.
void check_program(const KeystreamInstance& ks);

}  // namespace cb
