// keys.h: secret, public and key-switching keys, and their generation.
//
// Secret key s: h coefficients +-1 (HElib's sparse default h = 120) or dense ternary,
// held in double-CRT form over every prime (ciphertext and special).
// Public key: (b, a) = (-a s + p e, a) over the ciphertext primes, p the plaintext modulus.
// Key switching from s' to s (GHS §3.1, with the CRT "gadget" of digits D_1..D_c): for
// each digit j,
//     (b_j, a_j) = (-a_j s + p e_j + P g_j s',  a_j)   over all primes (mod P Q_L),
// with g_j = 1 modulo the primes of D_j and 0 modulo the other ciphertext primes. A part
// c1 under s' is written c1 = sum_j d_j g_j (mod Q_l), d_j the centered lift of c1 mod D_j,
// and sum_j d_j (b_j, a_j) decrypts under s to P c1 s' + p sum_j d_j e_j; dividing by P
// (rns_rounding.h, delta = 0 mod p) leaves c1 s' plus small noise, a multiple of p: no
// factor P^-1 mod p appears, as the key carries P s' (GHS), not s' with c0 scaled by P.
// At lower levels the same key works on the surviving primes: g_j restricted to Q_l is still the gadget of the shrunken digits.
// s' = s^2 gives the relinearization key, s' = s(X^k) the key for X -> X^k.
#pragma once

#include <vector>

#include "engine/bgv/dcrt_poly.h"
#include "engine/bgv/packed_limbs.h"
#include "engine/bgv/sampler.h"

namespace cb::bgv {

struct SecretKey {
  std::vector<long> coeffs;  // s, degree < phi
  DCRTPoly s;                // over all primes
  long hwt = 0;              // 0 = dense
  double norm = 0;           // |s|_can, exact
};

struct PublicKey {
  DCRTPoly b, a;             // over the ciphertext primes
  double log2_e = 0;         // log2 |e|_can, exact
};

// Storage. Keys dominate the memory of large rings (c (L + K) limbs of phi words per key
// and per half; memory.h), so a key whose uniform half exceeds keep_uniform_bytes is kept
// compact:
//  - the a_j are uniform: only their seed is kept and a limb is regenerated when used
//    (Sampler::uniform_limb, tag j * 2^16 + prime index);
//  - the b_j are kept bit-packed at the width of their prime (PackedLimbs: 50 of 64 bits
//    for the engine's 50-bit primes), unpacked a limb at a time by the key product.
// A compact key takes about 0.39 of a full one (a half that is a seed, b at 50/64); its
// a_j come from the AES-CTR stream (prg.h) at about 1 ns a word, so a key switch with it
// costs little more than with a full key (BENCHMARKS.md, "Engine vs HElib"). Both forms
// give bit-identical key switches (b unpacks to the same words, a regenerates to the same
// words). Smaller keys keep both halves in full.

struct KeySwitchKey {
  static constexpr size_t kKeepUniformBytes = size_t(64) << 20;
  long k = 0;                  // 0: relinearization (s' = s^2); else s' = s(X^k)
  std::vector<DCRTPoly> b;     // per digit, over all primes; empty when compact
  std::vector<DCRTPoly> a;     // per digit, over all primes; empty when compact
  std::vector<PackedLimbs> b_packed;  // per digit, when compact
  uint64_t a_seed = 0;         // seed of the a_j (kept in both forms)
  bool seeded() const { return a.empty(); }
  bool compact() const { return b.empty(); }
  static uint64_t tag(long j, int p) { return uint64_t(j) * 65536 + uint64_t(p); }
  // Whether a key of `digits` digits over `primes` primes of phi values is stored compact:
  // when its uniform half would take more than keep_uniform_bytes.
  static bool stored_compact(long digits, long primes, long phi, size_t keep_uniform_bytes) {
    return size_t(digits) * size_t(primes) * size_t(phi) * sizeof(uint64_t) > keep_uniform_bytes;
  }
  // a_j modulo prime index p (phi values); points into `a` or regenerates into scratch.
  const uint64_t* a_limb(long j, int p, uint64_t* scratch, const Context& ctx) const;
  // b_j modulo prime index p; points into `b` or unpacks into scratch (phi words).
  const uint64_t* b_limb(long j, int p, uint64_t* scratch) const;
  // Bytes held by the key's polynomials (what memory.h's key_bytes predicts).
  size_t bytes() const;
};

class KeyGenerator {
 public:
  // Key-switching keys whose a_j take more than keep_uniform_bytes are stored seeded.
  KeyGenerator(const Context& ctx, Sampler& sampler,
               size_t keep_uniform_bytes = KeySwitchKey::kKeepUniformBytes)
      : ctx_(ctx), rng_(sampler), keep_uniform_bytes_(keep_uniform_bytes) {}

  SecretKey secret_key(long hwt);
  PublicKey public_key(const SecretKey& sk);
  KeySwitchKey relin_key(const SecretKey& sk);
  KeySwitchKey automorphism_key(const SecretKey& sk, long k);
  // The keys of several automorphisms: word for word automorphism_key(sk, ks[0]), then
  // ks[1], ... (the sampler's draws are made first, in that order), built side by side on
  // the threads, each key's own loops on one thread (their serial parts, the noise and its
  // canonical norm, were most of a key's time on two threads).
  std::vector<KeySwitchKey> automorphism_keys(const SecretKey& sk, const std::vector<long>& ks);

 private:
  // What a switching key draws from the sampler (in this order): the seed of its a_j,
  // then each digit's noise e_j.
  struct Draws {
    uint64_t a_seed = 0;
    std::vector<std::vector<long>> e;
  };
  Draws draw_switch_key();
  KeySwitchKey switch_key(const SecretKey& sk, const DCRTPoly& s_prime);
  KeySwitchKey switch_key(const SecretKey& sk, const DCRTPoly& s_prime, Draws draws) const;
  const Context& ctx_;
  Sampler& rng_;
  size_t keep_uniform_bytes_;
};

}  // namespace cb::bgv
