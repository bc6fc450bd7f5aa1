#include "engine/bgv/memory.h"

#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "engine/bgv/keys.h"
#include "engine/util/cyclotomic_transform.h"
#include "engine/util/primes.h"

namespace cb::bgv {

MemoryModel::MemoryModel(const Chain& chain, long m, long phi, size_t keep_uniform_bytes) {
  // Keys, public keys and fresh ciphertexts live modulo the ciphertext primes S..L-1 (and
  // the special ones); the secret key is held over every prime (chain.h).
  const size_t L = size_t(chain.L()), S = size_t(chain.S()), K = size_t(chain.K()), c = chain.digits().size();
  const size_t Q = L - S;  // ciphertext primes
  limb = size_t(phi) * sizeof(uint64_t);
  std::vector<uint64_t> primes;
  for (long i = 0; i < chain.num_primes(); ++i) primes.push_back(chain.q(i));
  transforms = util::CyclotomicTransform::tables_bytes(m, phi, primes);
  secret_key = (L + K) * limb;
  public_key = 2 * Q * limb;
  key_full = 2 * c * (Q + K) * limb;
  key_compact = KeySwitchKey::stored_compact(long(c), long(Q + K), phi, keep_uniform_bytes);
  if (key_compact) {
    std::vector<int> widths;
    for (long i = long(S); i < chain.num_primes(); ++i) widths.push_back(64 - __builtin_clzll(chain.q(i)));
    key = c * PackedLimbs::packed_bytes(widths, phi);
  } else {
    key = key_full;
  }
  ciphertext = 2 * Q * limb;
  key_switch = (c * (Q + K) + 2 * (Q + K) + 2 * Q) * limb;
}

size_t MemoryModel::setup(long n_automorphism_keys) const {
  return transforms + secret_key + public_key + size_t(n_automorphism_keys + 1) * key;
}

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Fixing either value turns glibc's dynamic threshold off, so both are set. M_MMAP_THRESHOLD
  // above 32 MiB is refused by glibc on 64-bit targets.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace cb::bgv
