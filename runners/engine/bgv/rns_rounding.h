// rns_rounding.h: moving between prime sets: digit lifting and scaled rounding.
//
// Both key switching and modulus switching need an integer polynomial known only modulo
// a product T = t_1 ... t_k of some primes, represented on other primes s. With
// y_i = [x * (T/t_i)^-1]_{t_i} the CRT gives x = sum_i y_i (T/t_i) - v T for an integer
// v; taking v = round(sum_i y_i / t_i) (in floating point) makes the lift centered,
// |x| <= T/2 up to a rounding slip that at worst adds one T: harmless, since every
// identity below holds for ANY representative, only its size matters.
//
// Digit lifting (key switching): the centered lift d of c modulo a digit D_j, written on
// the other primes (then multiplied by the key-switching key).
//
// Scaled rounding (modulus switching, and the division by P after key switching): for x
// over S u T, return (x - delta) / T over S, where delta = x (mod T) and delta = 0 (mod p),
// p the context's plaintext modulus. The second condition keeps the plaintext up to a known
// factor: (f mu + p e - delta)/T = f T^-1 mu (mod p), T prime to p (context.h refuses a p
// among the chain's primes). At p = 2, T^-1 = 1 (mod 2) and delta is the centered lift
// shifted by +-T when odd, so |delta| <= T (the words of every p = 2 run). At p > 2, with
// L the centered lift (|L| <= T/2), delta = L + k T for the k in [-(p-1)/2, (p-1)/2] with
// k = -L T^-1 (mod p), so |delta| <= T p/2; the quotient is (x - L)/T - k, k subtracted in
// coefficients before the forward transform (L mod p from the CRT: sum_i y_i [T/t_i]_p -
// v [T]_p, Shoup products: no division per coefficient). The added noise is
// (delta0 + delta1 s)/T: coefficients of size <= p/2 (GHS §3; noise.h's R_t). This k T
// is needed whichever way the factor T^-1 is handled (evaluator.h): chain primes q = 1
// (mod p) would make T^-1 = 1, not delta = 0 (mod p). Key switching's division by P keeps the plaintext exactly: the key
// product is P c1 s' + p E (keys.h), and P c1 s' is divisible by P, so no factor appears.
//
// All of it works on the length-m coefficient vectors the inverse transform returns (a
// representative of the ring element modulo Phi_m, see util/cyclotomic_transform.h): no reduction
// modulo Phi_m is needed, since congruences and sizes hold for any representative.
#pragma once

#include <vector>

#include "engine/bgv/dcrt_poly.h"

namespace cb::bgv {

// For x over primes containing `digit`: the centered lift of x modulo prod(digit),
// transformed on every prime of `targets` (primes of `digit` included: the result equals
// x there). Returned over `targets`, in that order.
DCRTPoly lift_digit(const DCRTPoly& x, const std::vector<int>& digit,
                    const std::vector<int>& targets);

// (x - delta) / prod(drop) over `keep` (see above). x must hold every prime of keep and drop.
DCRTPoly divide_round(const DCRTPoly& x, const std::vector<int>& keep,
                      const std::vector<int>& drop);

// The same for several polynomials or digits at once: lift_digits(x, digits, targets)[j]
// is lift_digit(x, digits[j], targets), divide_round(xs, keep, drop)[i] is
// divide_round(*xs[i], keep, drop), word for word; their (polynomial, prime) pairs share
// each parallel loop, so the threads wait at a third of the barriers and none idles
// while another finishes a digit's last prime (key switching lifts c digits and divides
// two polynomials; a modulus switch divides two or three).
std::vector<DCRTPoly> lift_digits(const DCRTPoly& x, const std::vector<std::vector<int>>& digits,
                                  const std::vector<int>& targets);
std::vector<DCRTPoly> divide_round(const std::vector<const DCRTPoly*>& x, const std::vector<int>& keep,
                                   const std::vector<int>& drop);

}  // namespace cb::bgv
