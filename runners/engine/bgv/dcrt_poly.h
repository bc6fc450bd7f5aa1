// dcrt_poly.h: a ring element in double-CRT form over a set of the context's primes.
//
// For each prime q_i of the set, the phi values a(zeta_i^j), j in Z_m^* (see context.h).
// In this form addition, multiplication and automorphisms are coefficient-free: +, *
// position-wise, X -> X^k a permutation of positions. Only key switching, modulus
// switching and decryption go back to coefficients, one prime at a time (GHS keep these
// conversions rare; so do we). Limbs are independent, and so are positions: position-wise
// loops run in parallel over (limb, chunk) pairs (for_limb_chunks), so the threads stay
// evenly busy at a few limbs too (a ciphertext near the end of a circuit has 1 to 5).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "engine/bgv/context.h"
#include "engine/util/no_init_allocator.h"

namespace cb::bgv {

using util::NoInitAllocator;  // limbs are allocated unzeroed (every word is written next)

// f(i, lo, n) for every limb i < limbs and its positions [lo, lo + n), in chunks of
// kLimbChunk positions: one loop over the (limb, chunk) pairs, on the threads where
// ctx.parallel(). Position-wise work only (each word depends on its own positions).
constexpr long kLimbChunk = 4096;
template <class F>
void for_limb_chunks(const Context& ctx, long limbs, long phi, const F& f) {
  const long per = (phi + kLimbChunk - 1) / kLimbChunk;
#pragma omp parallel for schedule(static) if(ctx.parallel())
  for (long it = 0; it < limbs * per; ++it) {
    const long i = it / per, lo = (it % per) * kLimbChunk;
    f(i, lo, std::min(kLimbChunk, phi - lo));
  }
}

class DCRTPoly {
 public:
  DCRTPoly() = default;
  // Copies write the limbs on the threads (Context::parallel): a ciphertext copy at the
  // papers' rings is megabytes, and copied serially it left the other threads waiting.
  DCRTPoly(const DCRTPoly& o);
  DCRTPoly& operator=(const DCRTPoly& o);
  DCRTPoly(DCRTPoly&&) noexcept = default;
  DCRTPoly& operator=(DCRTPoly&&) noexcept = default;
  // The zero polynomial over the given prime indices.
  DCRTPoly(const Context& ctx, std::vector<int> primes);
  // Uninitialized limbs over the given primes: for results whose every word the caller
  // writes before reading (saves zeroing memory that is overwritten at once).
  struct Uninitialized {};
  DCRTPoly(const Context& ctx, std::vector<int> primes, Uninitialized);
  // A small integer polynomial (coeffs[i] = coefficient of X^i, i < m), transformed.
  static DCRTPoly from_coeffs(const Context& ctx, std::vector<int> primes,
                              const std::vector<long>& coeffs);
  // One limb of from_coeffs: coeffs reduced modulo prime p, in scratch (coeffs.size()
  // words), then transformed into out (phi words).
  static void coeffs_limb(const Context& ctx, int p, const std::vector<long>& coeffs, uint64_t* scratch,
                          uint64_t* out);
  // scale * e + plus (integer polynomials; plus may be shorter or empty), transformed,
  // without forming the integers (scale * e may pass 2^63 at large plaintext moduli:
  // encryption's and key generation's p e). The same words as from_coeffs of the sum.
  static DCRTPoly from_scaled_coeffs(const Context& ctx, std::vector<int> primes, long scale,
                                     const std::vector<long>& e, const std::vector<long>& plus);
  // One limb of it (scratch: e.size() words).
  static void scaled_coeffs_limb(const Context& ctx, int p, long scale, const std::vector<long>& e,
                                 const std::vector<long>& plus, uint64_t* scratch, uint64_t* out);

  const Context& context() const { return *ctx_; }
  const std::vector<int>& primes() const { return primes_; }
  long num_limbs() const { return long(primes_.size()); }
  long phi() const { return phi_; }
  uint64_t* limb(long i) { return data_.data() + i * phi_; }
  const uint64_t* limb(long i) const { return data_.data() + i * phi_; }
  uint64_t modulus(long i) const { return ctx_->q(primes_[i]); }
  // The limb of prime index p (ParameterError when this polynomial has none).
  const uint64_t* limb_of(int p) const;
  bool has_prime(int p) const;
  bool empty() const { return ctx_ == nullptr; }
  // Bytes held: num_limbs() * phi words.
  size_t bytes() const { return data_.capacity() * sizeof(uint64_t); }

  DCRTPoly& operator+=(const DCRTPoly& b);
  DCRTPoly& operator-=(const DCRTPoly& b);
  DCRTPoly& operator*=(const DCRTPoly& b);
  void negate();
  // this += a * b, position-wise.
  void add_product(const DCRTPoly& a, const DCRTPoly& b);
  // Multiplies limb i by scalars[i] (a residue modulo that limb's prime).
  void mul_scalars(const std::vector<uint64_t>& scalars);
  // new[t] = old[perm[t]] on every limb (an automorphism, see Context::automorphism_perm).
  DCRTPoly permuted(const std::vector<int>& perm) const;
  // Keeps the limbs of the first `count` primes of this polynomial's list.
  void truncate(long count);
  // The limbs of `primes` (each must be in this polynomial's list), in that order.
  DCRTPoly restricted(const std::vector<int>& primes) const;

 private:
  void check_same(const DCRTPoly& b, const char* op) const;
  // Writes every limb, a copy of src's (same layout) or zeros when src is null, on the threads.
  void fill_limbs(const uint64_t* src);
  const Context* ctx_ = nullptr;
  std::vector<int> primes_;
  long phi_ = 0;
  std::vector<uint64_t, NoInitAllocator<uint64_t>> data_;
};

}  // namespace cb::bgv
