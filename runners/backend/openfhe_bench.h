// openfhe_bench.h: bench_ops --backend openfhe, OpenFHE's BGV (BGVRNS) timed on the
// operations bench_ops times for the engine and HElib, at the same ring and modulus size.
//
// Built only when CMake is given -DCB_OPENFHE_DIR=<OpenFHE install prefix> (`make openfhe`);
// then CB_HAVE_OPENFHE is defined for bench_ops.
//
// What is matched, and how (each stated again in the JSON's "openfhe" record):
// - Ring: R = Z[X]/(X^N + 1), N = phi(m) = m/2. OpenFHE's BGV takes power-of-two
//   cyclotomics only, so an m that is not a power of two is refused, naming m.
//   Security level HEStd_NotSet, so OpenFHE keeps the ring it is given.
// - Plaintext modulus t = p, prime, with p = 1 mod m: R_p splits into N slots of F_p
//   (OpenFHE's packed encoding); Z_m^* = <5> x <-1> arranges them as two rows of N/2,
//   X -> X^5 rotates both rows by one, X -> X^(m-1) swaps the rows.
// - Ciphertext modulus Q: k = ceil(bits/60) RNS primes (OpenFHE's 64-bit native integers
//   take primes of at most 60 bits), the first of bits - (k-1) s bits and k - 1 of s =
//   floor(bits/k) bits, so log2 Q is bits minus a fraction of a bit (the JSON gives
//   log2_q_ct exactly). Scaling FIXEDMANUAL: OpenFHE then picks every q_i = 1 mod m t, so
//   a modulus switch keeps the plaintext (no q_i^(-1) mod t factor), and a product is not
//   followed by a hidden modulus switch: mul_relin is tensor + relinearization, and
//   mod_switch (ModReduce, one prime dropped) is timed apart, as on the engine.
// - Key switching: HYBRID with numLargeDigits = c (the engine's and HElib's c digits); P
//   is what OpenFHE chooses for them (log2_p).
// - Secret key: OpenFHE draws it uniform ternary (UNIFORM_TERNARY, each coefficient -1, 0,
//   1 with probability 1/3); it has no key of a given Hamming weight (its sparse mode has
//   weight 192 only), so --hwt is recorded, not applied. The JSON's "security" is HElib's
//   formula (engine/bgv/security.h) at OpenFHE's log2 QP for a dense key.
// - Operations (each result decrypted and compared with the clear F_p slots before its
//   time counts; a mismatch throws OpenfheMismatch): encrypt (encode + public-key
//   encryption), decrypt (decryption + decode), add, mul_relin, mul_const (a packed
//   plaintext), rotate_dim0 (X -> X^5: one automorphism and key switch), rotate (the N
//   slots rotated by one as one vector: X -> X^5, then X -> X^(m-1) of that, two masks),
//   mod_switch and add_mixed (a fresh ciphertext plus one a prime lower: OpenFHE drops
//   the extra prime of the first). keygen_s: secret, public, relinearization and the two
//   automorphism keys. With p = 1 mod m the slots are F_p (d = 1): there is no Frobenius
//   map to time.
// - Randomness: OpenFHE seeds its own generator; --seed fixes the slot values only.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace cb {

struct OpenfheBenchParams {
  long m = 0;          // cyclotomic index, a power of two; N = phi(m) = m/2
  long bits = 0;       // target log2 of the ciphertext modulus Q (the engine's --bits)
  long c = 2;          // key-switching digits: HYBRID's numLargeDigits
  long hwt = 0;        // the engine's key weight, recorded only (see above)
  uint64_t p = 65537;  // plaintext modulus t: prime, t = 1 mod m
  long reps = 5;       // repetitions per operation (medians)
  uint64_t seed = 0;   // slot values; 0 = 42
  bool cost_ops = false;  // no rotations (bench_ops --cost-ops)
};

// A decrypted result that differs from the clear one (bench_ops exits with status 2).
struct OpenfheMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Refuses parameters OpenFHE's BGV cannot take as asked, before any work (ParameterError
// naming the value and the constraint).
void check_openfhe_params(const OpenfheBenchParams& params);

// Sets OpenFHE up, generates the keys, times every operation params.reps times (each
// result checked), and returns bench_ops's JSON object as text (without the fields
// bench_ops adds: threads, setup_s, peak_rss_mb). log receives progress lines.
std::string openfhe_bench(const OpenfheBenchParams& params, const std::function<void(const std::string&)>& log);

// OpenFHE's version as its installed CMake package reports it (1.5.1).
std::string openfhe_version();

}  // namespace cb
