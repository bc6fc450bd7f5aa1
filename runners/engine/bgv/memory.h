// memory.h: what the engine's data takes, predicted from the ring and the chain alone.
//
// Everything is a multiple of a limb: phi words of 8 bytes (1.31 MB at m = 164737,
// phi = 163840). With L primes below the special ones, of which S small ladder primes that
// no key or fresh ciphertext holds (chain.h), Q = L - S ciphertext primes, K special primes
// and c digits:
//   transform tables  per prime, by the algorithm util/cyclotomic_transform.h chooses:
//                     Bluestein's 32 N + 16 N + 48 m + 8 phi + m/8 bytes, N =
//                     bluestein_length(m) >= 2m - 1, a power of two (34.4 MB per prime at
//                     m = 164737, N = 2^19); or the prime-factor algorithm's 64 sum_p N_p
//                     bytes per prime (0.15 MB at m = 164737) and, once, its index tables
//                     and Z_m^* (util/cyclotomic_transform.h); for m = 2^k the negacyclic
//                     NTT's 44 phi bytes per prime (1.44 MB at m = 65536, util/negacyclic.h);
//   secret key        L + K limbs; public key 2 Q limbs;
//   key-switching key c digits x (b_j, a_j) over Q + K primes: 2 c (Q + K) limbs, or,
//                     compact (keys.h: a_j as a seed, b_j packed at its prime's width w_i),
//                     c sum_i (ceil(phi w_i / 64) + 1) words, about 0.39 of that;
//   ciphertext        2 |T| limbs at the prime set T (2 Q when fresh);
//   one key switch    its digits c (|T| + K) limbs, the two accumulators 2 (|T| + K),
//                     then the two results 2 |T| (keys.h, rns_rounding.h); hoisting keeps
//                     the digits while it makes one output ciphertext per automorphism.
// The circuit decides how many ciphertexts live at once (for Vision: the state, 2R + 1
// encrypted subkeys, the hoisted automorphisms of an affine map); run_cipher reports
// these figures beside the peak resident memory it measured.
#pragma once

#include <cstddef>

#include "engine/bgv/chain.h"

namespace cb::bgv {

struct MemoryModel {
  MemoryModel(const Chain& chain, long m, long phi, size_t keep_uniform_bytes);

  size_t limb = 0;            // phi words
  size_t transforms = 0;      // all primes' transform tables
  size_t secret_key = 0;      // over all L + K primes
  size_t public_key = 0;      // (b, a) over the Q ciphertext primes
  size_t key = 0;             // one key-switching key as stored
  bool key_compact = false;   // whether keys are stored compact (keys.h)
  size_t key_full = 0;        // one key-switching key with both halves in memory
  size_t ciphertext = 0;      // a fresh ciphertext (2 Q limbs)
  size_t key_switch = 0;      // temporaries of one key switch at the top level
  // transforms + secret, public and relinearization key + n_automorphism_keys keys.
  size_t setup(long n_automorphism_keys) const;
};

// Keeps freed limb memory in the process for the next polynomial (called once per process by
// the first Context). Every operation makes and drops polynomials of megabytes (a ciphertext
// at m = 53261 is 2 x 17 limbs of 0.37 MB); glibc by default serves blocks above its dynamic
// threshold by mmap and gives heap tops above twice that back to the kernel, so the next
// polynomial faulted its pages in again, zeroed, 4 KiB at a time (700 thousand faults in one
// bench_ops at m = 53261). Blocks up to 32 MiB (glibc's largest threshold) now stay in the
// heap and the heap is not trimmed: 430 thousand faults, about the peak resident memory
// touched once, and multiply + relinearize 18% faster (BENCHMARKS "Engine vs HElib").
// Larger blocks (limbs of more than 32 MiB in all) are still mapped per allocation.
// A no-op outside glibc.
void keep_freed_memory();

}  // namespace cb::bgv
