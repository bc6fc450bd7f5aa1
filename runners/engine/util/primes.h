// primes.h: NTT-friendly primes and roots of unity.
//
// The double-CRT representation needs RNS primes q with a primitive m-th root of unity
// zeta (to evaluate at the roots of Phi_m) and a primitive N-th root of unity omega (the
// power-of-two NTT inside Bluestein's algorithm, N = bluestein_length(m)). Both exist
// exactly when m*N divides q - 1, since Z_q^* is cyclic of order q - 1. So the chain
// asks for primes q = 1 (mod step) with step = m*N.
//
// Primality is decided by Miller-Rabin with the first twelve prime bases, which is
// deterministic for every n < 3.3 * 10^24, so for all 64-bit n. Primes are searched
// downward from 2^bits through the residue class 1 mod step, so the result depends only
// on the arguments.
//
// A root of unity of exact order n: for g = 2, 3, 4, ... take w = g^((q-1)/n); w has
// order dividing n, and exactly n iff w^(n/p) != 1 for every prime p | n. The first g
// that passes gives the (deterministic) answer.
#pragma once

#include <cstdint>
#include <vector>

namespace cb::util {

// Deterministic primality test for 64-bit n.
bool is_prime(uint64_t n);

// The first `count` primes q below 2^bits, searching downward, with q = 1 (mod step),
// 2^(bits-1) < q < 2^bits and q not in `exclude`. Requires 2 <= bits <= 61 (the NTT
// bound q < 2^61) and step >= 1. Throws ParameterError when the range holds fewer than
// `count` such primes.
std::vector<uint64_t> ntt_primes(long count, int bits, uint64_t step,
                                 const std::vector<uint64_t>& exclude = {});

// A primitive `order`-th root of unity modulo the prime q (deterministic, see above).
// Throws ParameterError unless q is prime and order divides q - 1.
uint64_t primitive_root_of_unity(uint64_t order, uint64_t q);

// The largest bit length of RNS primes that the fastest compiled transform handles:
// 50 when the AVX-512 IFMA kernels are compiled in (primes q < 2^50 take them, see
// ifma.h: lazy values in [0, 4q) must fit the 52-bit multiplier), else 60 (the 64-bit
// Shoup kernels, which accept q < 2^61; 60 is the chain's customary size). Ntt and
// CyclotomicTransform pick the fast path by themselves for every prime of at most this
// many bits, e.g. all of ntt_primes(count, max_fast_prime_bits(), m * N).
int max_fast_prime_bits();

// N = the smallest power of two with N >= 2m - 1: the cyclic convolution length that
// holds Bluestein's length-m chirp convolution without wrap-around. Requires m >= 1.
long bluestein_length(long m);

// The distinct prime factors of n >= 1, increasing (trial division; n up to ~2^40 is fast).
std::vector<uint64_t> prime_factors(uint64_t n);

}  // namespace cb::util
