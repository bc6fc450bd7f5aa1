// keys.h: secret, public and key-switching keys, and their generation.
//
// Secret key s: h coefficients +-1 (HElib's sparse default h = 120) or dense ternary,
// held in double-CRT form over every prime (ciphertext and special).
// Public key: (b, a) = (-a s + 2e, a) over the ciphertext primes.
// Key switching from s' to s (GHS §3.1, with the CRT "gadget" of digits D_1..D_c): for
// each digit j,
//     (b_j, a_j) = (-a_j s + 2 e_j + P g_j s',  a_j)   over all primes (mod P Q_L),
// with g_j = 1 modulo the primes of D_j and 0 modulo the other ciphertext primes. A part
// c1 under s' is written c1 = sum_j d_j g_j (mod Q_l), d_j the centered lift of c1 mod D_j,
// and sum_j d_j (b_j, a_j) decrypts under s to P c1 s' + 2 sum_j d_j e_j; dividing by P
// (rns_rounding.h) leaves c1 s' plus small noise. At lower levels the same key works on
// the surviving primes: g_j restricted to Q_l is still the gadget of the shrunken digits.
// s' = s^2 gives the relinearization key, s' = s(X^k) the key for X -> X^k.
#pragma once

#include <vector>

#include "engine/bgv/dcrt_poly.h"
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

// The a_j are uniform, so a large key keeps only their seed and regenerates a limb when
// it is used (Sampler::uniform_limb, tag j * 2^16 + prime index): half the memory, for a
// few percent of a key switch. Keys up to kKeepUniformBytes keep a_j in memory.
struct KeySwitchKey {
  static constexpr size_t kKeepUniformBytes = size_t(64) << 20;
  long k = 0;                  // 0: relinearization (s' = s^2); else s' = s(X^k)
  std::vector<DCRTPoly> b;     // per digit, over all primes
  std::vector<DCRTPoly> a;     // per digit, over all primes; empty when seeded
  uint64_t a_seed = 0;         // seed of the a_j when `a` is empty
  double log2_e = 0;           // log2 max_j |e_j|_can, exact
  bool seeded() const { return a.empty(); }
  static uint64_t tag(long j, int p) { return uint64_t(j) * 65536 + uint64_t(p); }
  // a_j modulo prime index p, into out (phi values); points into `a` or regenerates.
  const uint64_t* a_limb(long j, int p, uint64_t* scratch, const Context& ctx) const;
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

 private:
  KeySwitchKey switch_key(const SecretKey& sk, const DCRTPoly& s_prime);
  const Context& ctx_;
  Sampler& rng_;
  size_t keep_uniform_bytes_;
};

}  // namespace cb::bgv
