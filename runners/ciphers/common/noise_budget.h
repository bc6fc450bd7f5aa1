// noise_budget.h: how many modulus bits a number of cipher rounds needs on the project's
// BGV engine, so that run_cipher refuses a chain that is too short before spending
// minutes on it.
//
//     needed(R) = base + R * per_round,   per_round = a + b * log2(phi).
//
// A round's depth is fixed by the cipher: AES 3 multiplications (x^254) and 2 constant
// products (affine map, linear layer), 5 levels; a Vision round two steps of
// ceil(log2(n-1)) multiplications and 2 constant products, 2 * (ceil(log2(n-1)) + 2)
// levels. Each level's cost grows with the ring (noise terms scale with sqrt(phi), constant
// norms with phi), hence b bits per level and per doubling of phi. AES, b = 0.8: 62.5
// bits per round at m=257 (phi 256), 83 at m=4369 (phi 4096), 96 at m=53261 (phi 46080,
// 120 blocks, 10 rounds in 50 s). Vision, b = 1.1: GF(2^8)^16 spent 125 bits per round at
// m=257 and 209 at m=163455 (phi 81920, 80 blocks, 2700 bits, 10 rounds in 10.2 min on
// two threads; 2050 bits, what b = 0.8 asked for, ran out of capacity).
// a is the capacity the engine reported per round (run_cipher JSON, average over full
// rounds, OMP_NUM_THREADS=1, 2026-11-22, engine with fine-grained modulus switching),
// plus about 7%:
//     AES-128 m=4369: 83 bits per round (encryption and decryption) -> 89;
//     Vision at m=257 GF(2^8)^16: 125 -> 134, GF(2^16)^8: 151 -> 162;
//     at m=641 GF(2^32)^4: 204 -> 218, GF(2^64)^2 (13 rounds): 250 -> 267.
// (HElib consumes about 76 bits per AES round at m=53261, REFERENCE.md §4: the engine's
// noise bounds are 2^-40-probability bounds with the secret key's exact canonical norm,
// a few bits per level more conservative than HElib's.) This is a guard against hopeless runs, not a
// proof: a run whose capacity reaches zero still fails cleanly (CapacityError), never
// with a wrong result.
#pragma once

#include <string>

namespace cb {

struct NoiseBudget {
  double base = 40;       // fresh-encryption noise plus the margin decryption needs
  double per_round = 0;   // capacity one round consumes
  long bits_needed(long rounds) const { return long(base + rounds * per_round + 0.999); }
  long rounds_held(long bits) const { return bits <= base ? 0 : long((bits - base) / per_round); }
};

// cipher: "aes128" or "vision"; n the field degree; phi = phi(m) of the ring.
NoiseBudget noise_budget(const std::string& cipher, long n, long phi);

}  // namespace cb
