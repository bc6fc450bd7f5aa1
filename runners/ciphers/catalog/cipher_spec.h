// cipher_spec.h: what a catalog entry declares about its cipher, in the clear.
//
// A cipher of the catalog is a keyed permutation of K^s: a block is s elements of a field
// K, by its characteristic p (cipher_field.h): GF(2^n) = GF(2)[x]/f for p = 2 (uint64_t,
// bit i = coefficient of x^i, n <= 64), or the prime field F_p for an odd prime p < 2^61
// (n = 1; uint64_t 0 <= x < p), where additions are mod p (AddKey adds, its inverse
// subtracts), power maps are products (no Frobenius), and affine maps (x -> a x + c) and
// linear layers are matrices over F_p. What follows says GF(2^n); over F_p read F_p. An
// entry (one folder under runners/ciphers/, registered in catalog.cpp) describes
//   - who it is: name, display name, a short description, its citation;
//   - its instances: n, f, s, the full round count, the key length in elements;
//   - its rounds as steps over the whole state, each a list of operations
//         Power(e)        x -> x^e in every element (inversion: e = 2^n - 2),
//         Affine(L)       x -> c + sum_j gamma_j x^(2^j) in every element,
//         Linear(M)       out_p = sum_q M[p][q] in_q across the block (s x s over GF(2^n)),
//         AddKey(i)       state += subkey i (constants are folded into the subkeys),
//         Boolean(C, C')  each element's n bits through the Boolean circuit C
//                         (boolean_circuit.h; C' its inverse, for decryption); a circuit
//                         of g n bits maps each group of g consecutive elements (a
//                         bit-oriented cipher: n = 1, a 4-bit S-box on 4 elements),
//     from which one generic circuit (circuit.h) evaluates it on any backend, in any
//     packing, fused or not, and in reverse for decryption;
//   - optionally its rounds on the elements' bits (bit_round) for the bit-sliced packing
//     (one ciphertext per state bit, a block per slot, GF(2) inside the slot field): there
//     Linear, Affine and AddKey are GF(2)-linear, so additions, and a Boolean step is its
//     circuit, an AND a ciphertext product. A power map has no bit form: an entry offers
//     bit-sliced when its bit_round has none (AES replaces its inversion and affine map by
//     Boyar and Peralta's S-box circuit). A Boolean operation in round() itself makes a
//     Boolean cipher, which only the bit-sliced packing evaluates;
//   - its key schedule, run in the clear (as the papers did: the subkeys are encrypted);
//   - a clear reference (encryption), written independently of the round description,
//     against which every run and the description itself are checked (decryption runs
//     are checked against the plaintexts the reference encrypted).
//
// The round description is the cipher's own structure (the papers' step names are its
// step names, the timing columns of every table). Power maps compile to Frobenius maps
// (free of depth) and products (power_map.h); a squaring next to an affine map folds into
// it; decryption reverses the steps, inverting each operation (the inverse of a power
// map is the power map of e^-1 mod 2^n - 1, offered only where that is no deeper than e).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ciphers/catalog/cipher_field.h"
#include "ciphers/common/boolean_circuit.h"
#include "ciphers/common/linearized.h"
#include "ciphers/common/slot_map.h"
#include "engine/algebra/subfield.h"

namespace cb {

// One block, s elements of the instance's field.
using Elements = std::vector<uint64_t>;
// A linear map on one block's s elements: terms (out, in, coeff) with element indices.
using BlockMap = std::vector<SlotTerm>;

// An operation on the whole state.
struct Op {
  enum Kind { kPower, kAffine, kLinear, kAddKey, kBoolean };
  Kind kind;
  uint64_t e = 0;   // kPower: the exponent (taken mod 2^n - 1; 0 < e)
  Linearized L;     // kAffine
  BlockMap M;       // kLinear
  long key = 0;     // kAddKey: subkey index
  // kBoolean: g n input and output bits for g consecutive elements (bit e n + i = the
  // coefficient of x^i in element e of the group), and the inverse permutation's circuit
  // (null: no decryption).
  std::shared_ptr<const BooleanCircuit> circuit, inverse;

  static Op power(uint64_t e) { return Op{kPower, e, {}, {}, 0, {}, {}}; }
  static Op affine(Linearized L) { return Op{kAffine, 0, std::move(L), {}, 0, {}, {}}; }
  static Op linear(BlockMap M) { return Op{kLinear, 0, {}, std::move(M), 0, {}, {}}; }
  static Op add_key(long i) { return Op{kAddKey, 0, {}, {}, i, {}, {}}; }
  static Op boolean(std::shared_ptr<const BooleanCircuit> c, std::shared_ptr<const BooleanCircuit> inv = nullptr) {
    return Op{kBoolean, 0, {}, {}, 0, std::move(c), std::move(inv)};
  }
};

// A timed step of a round: the papers' names ("subbytes", "matmul", ...).
struct Step {
  std::string name;
  std::vector<Op> ops;
  // The column the step is timed under when the linear layers are evaluated apart (empty:
  // name). AES times its inversion and its affine map together as "subbytes"; fused, the
  // affine map joins the linear layer ("affine+shiftrows_mixcolumns") and the inversion
  // keeps its own name.
  std::string group = {};
  // The name of the reversed step in decryption (empty: name). Vision's "affine1"
  // evaluates B^-1; its inverse evaluates B, which Vision calls "affine2".
  std::string inverse_name = {};
};
using Round = std::vector<Step>;

// One instance of a cipher: a field, a state size, a round count.
struct InstanceSpec {
  std::string id;        // the explorer's and the pipeline's name: "aes", "vision8", "mimc63"
  long n = 0;            // field degree: the slots must hold GF(2^n), n | d (F_p: 1)
  uint64_t f_low = 0;    // the field polynomial f = x^n + f_low (F_p: 0, none)
  long s = 0;            // elements per block
  long rounds = 0;       // the cipher's full round count
  long key_elements = 0; // key length in field elements
  uint64_t p = 2;        // the characteristic: 2 for GF(2^n), an odd prime p < 2^61 for F_p
};

// An instance's field and codecs: what block ciphers and keystream generators share.
class FieldInstance {
 public:
  // ParameterError when the field is not one (f not irreducible, p not an odd prime).
  explicit FieldInstance(const InstanceSpec& spec) : spec_(spec), F_(make_field(spec)) {}
  virtual ~FieldInstance() = default;
  const InstanceSpec& spec() const { return spec_; }
  // The elements' field, either kind (add, mul, ... in the clear).
  const CipherField& element_field() const { return F_; }
  // GF(2^n) itself (Error for an F_p instance: see element_field()).
  const GF2n& field() const { return F_.binary(); }

  // The byte codec: element i as ceil(n/8) bytes, big-endian, concatenated in index order
  // (AES's byte string; Vision's n/8 bytes per element; 8 bytes per GF(2^63) element,
  // whose top bit must be zero). F_p: ceil(log2(p)/8) bytes per element, below p.
  // ParameterError names the length or the element.
  long element_bytes() const { return ((F_.is_prime() ? F_.prime().bits() : spec_.n) + 7) / 8; }
  Elements from_bytes(const std::vector<uint8_t>& bytes, long count, const std::string& what) const;
  std::vector<uint8_t> to_bytes(const Elements& v) const;

  // The text codec of keys, plaintexts and outputs: hex of the byte codec for GF(2^n);
  // for F_p the elements in decimal, comma-separated ("1,2,3"). parse() throws
  // ParameterError naming `what` and the value: a wrong element count, a non-number, an
  // element >= p. An entry with its own text form (Rasta: bits as bytes) overrides both.
  virtual Elements parse(const std::string& text, long count, const std::string& what) const;
  virtual std::string format(const Elements& v) const;

 private:
  static CipherField make_field(const InstanceSpec& s);
  InstanceSpec spec_;
  CipherField F_;
};

// A block cipher's instance with its constants: what the circuit and the reference run.
class CipherInstance : public FieldInstance {
 public:
  using FieldInstance::FieldInstance;

  // Round r of an R-round encryption (1 <= r <= R), as steps. Round 1 starts with the
  // whitening key addition where the cipher has one.
  virtual Round round(long r, long R) const = 0;
  // Round r on the elements' bits, for the bit-sliced packing: the default is round()
  // itself, which is offered there when it has no power map; an entry replaces a power
  // map by a Boolean operation here (AES: SubBytes as one S-box circuit).
  virtual Round bit_round(long r, long R) const { return round(r, R); }
  // The subkeys that AddKey(i) of the R-round cipher adds, i = 0, 1, ...
  virtual std::vector<Elements> subkeys(const Elements& key, long R) const = 0;
  // The clear reference, independent of round(): the R-round encryption of one block.
  virtual Elements encrypt(const Elements& key, const Elements& plaintext, long R) const = 0;
  // Element orders inside a block that the packed layout may try (layout.h; empty: the
  // identity). AES offers FIPS order and its transpose.
  virtual std::vector<std::vector<long>> packed_orders() const { return {}; }
};

class KeystreamInstance;  // keystream_spec.h

// A cipher of the catalog.
struct CipherEntry {
  std::string name;         // run_cipher --cipher NAME
  std::string display;      // "AES-128", "Vision"
  std::string description;  // a short paragraph: structure, reading of the spec, caveats
  std::string citation;     // the paper
  std::string sliced_name = "sliced";  // the one-ciphertext-per-element packing's name
  bool name_instances = true;          // "Vision GF(2^8)^16" (true) or "AES-128" (false)
  std::vector<InstanceSpec> instances;  // the first is the default
  // Builds a block cipher's instance (null for a keystream generator).
  std::unique_ptr<CipherInstance> (*make)(const InstanceSpec&) = nullptr;
  // Builds a keystream generator's instance (keystream_spec.h; null for a block cipher):
  // its instances' s is the keystream elements per block, its key_elements the key's.
  std::unique_ptr<KeystreamInstance> (*make_keystream)(const InstanceSpec&) = nullptr;
  // Why the cipher's definition excludes the prime field F_p ("" when it does not; null:
  // no F_p instances), asked before any other check of a --p (MiMC: 3 | p - 1).
  std::string (*excludes)(uint64_t p) = nullptr;

  // A keystream generator (Pasta, HERA, Rasta) rather than a block cipher.
  bool keystream() const { return make_keystream != nullptr; }

  // "GF(2^8)^16", "F_65537^1"
  static std::string instance_label(const InstanceSpec& i);
  // "GF(2^8)", "F_65537"
  static std::string field_label(const InstanceSpec& i);
  // "AES-128" or "Vision GF(2^8)^16"
  std::string display_instance(const InstanceSpec& i) const;
};

}  // namespace cb
