// noise_budget.h: how many modulus bits a number of cipher rounds needs (BGV), so that
// run_cipher refuses a chain that is too short before spending minutes on it.
//
// needed(R) = base + R * per_round. A round's depth is fixed by the cipher: AES 3
// multiplications (x^254) + 2 constant products (affine map, linear layer); Vision two
// steps of ceil(log2(n-1)) multiplications + 2 constant products each. per_round is the
// capacity a round consumes. Source of the numbers, per cipher:
//   - initial values: the papers' chains, (chain - 60) / rounds (REFERENCE.md §1 Table 2
//     and §4: HElib AES consumed about 76 bits per round at m=53261);
//   - see the table in noise_budget.cpp for which entries were re-measured on this
//     project's BGV engine (capacity after each round in run_cipher's JSON).
// The estimate is a guard against hopeless runs, not a proof: a run whose capacity reaches
// zero still fails cleanly (CapacityError), never with a wrong result.
#pragma once

#include <string>

namespace cb {

struct NoiseBudget {
  long base = 60;       // fresh-encryption noise plus the margin decryption needs
  long per_round = 0;   // capacity one round consumes
  long bits_needed(long rounds) const { return base + rounds * per_round; }
  long rounds_held(long bits) const { return bits <= base ? 0 : (bits - base) / per_round; }
};

// cipher: "aes128" or "vision"; n the field degree; sliced: one ciphertext per element.
NoiseBudget noise_budget(const std::string& cipher, long n, bool sliced);

}  // namespace cb
