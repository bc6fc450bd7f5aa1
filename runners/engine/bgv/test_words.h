// test_words.h (tests only): a ciphertext's words, c0's limbs then c1's, so that tests can
// compare two runs word for word (thread-count invariance, side-by-side encryption, lanes).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/bgv/ciphertext.h"

namespace cb::bgv::testing {

inline void append_words(const Ciphertext& c, std::vector<uint64_t>& w) {
  for (const DCRTPoly* p : {&c.c0, &c.c1})
    for (long i = 0; i < p->num_limbs(); ++i) w.insert(w.end(), p->limb(i), p->limb(i) + p->phi());
}

inline std::vector<uint64_t> words(const Ciphertext& c) {
  std::vector<uint64_t> w;
  append_words(c, w);
  return w;
}

}  // namespace cb::bgv::testing
