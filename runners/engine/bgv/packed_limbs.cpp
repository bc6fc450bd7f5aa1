#include "engine/bgv/packed_limbs.h"

#include <algorithm>

#include "engine/errors.h"
#include "engine/util/modarith.h"

namespace cb::bgv {

PackedLimbs::PackedLimbs(const DCRTPoly& x) : primes_(x.primes()), phi_(x.phi()) {
  size_t total = 0;
  for (long i = 0; i < x.num_limbs(); ++i) {
    const int w = 64 - __builtin_clzll(x.modulus(i));
    width_.push_back(w);
    offset_.push_back(total);
    total += limb_words(w, phi_);
  }
  words_.assign(total, 0);
  for (long i = 0; i < x.num_limbs(); ++i) {
    const int w = width_[i];
    const uint64_t* v = x.limb(i);
    uint64_t* out = words_.data() + offset_[i];
    if (w >= 64) {
      std::copy_n(v, phi_, out);
      continue;
    }
    uint64_t bit = 0;
    for (long t = 0; t < phi_; ++t, bit += w) {
      const size_t k = bit >> 6;
      const unsigned s = bit & 63;
      out[k] |= v[t] << s;
      if (s + w > 64) out[k + 1] |= v[t] >> (64 - s);
    }
  }
}

long PackedLimbs::index(int p) const {
  if (p < long(primes_.size()) && primes_[p] == p) return p;
  auto it = std::find(primes_.begin(), primes_.end(), p);
  if (it == primes_.end()) throw ParameterError(msg("PackedLimbs: no limb for prime index ", p));
  return long(it - primes_.begin());
}

bool PackedLimbs::packed(int p) const { return width_[index(p)] < 64; }

const uint64_t* PackedLimbs::limb(int p, uint64_t* scratch) const {
  const long i = index(p);
  const int w = width_[i];
  const uint64_t* in = words_.data() + offset_[i];
  if (w >= 64) return in;
  const uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t bit = 0;
  for (long t = 0; t < phi_; ++t, bit += w) {
    const size_t k = bit >> 6;
    const util::u128 window = util::u128(in[k + 1]) << 64 | in[k];  // the spare word keeps k + 1 in range
    scratch[t] = uint64_t(window >> (bit & 63)) & mask;
  }
  return scratch;
}

size_t PackedLimbs::packed_bytes(const std::vector<int>& widths, long phi) {
  size_t w = 0;
  for (int x : widths) w += limb_words(x, phi);
  return w * sizeof(uint64_t);
}

}  // namespace cb::bgv
