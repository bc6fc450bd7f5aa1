// coresvp.h: primal uSVP under the core-SVP model [ADPS16], the second security model the
// engine's target search and the explorer ask (engine/bgv/security_model.h names them).
//
// Alkim, Ducas, Poeppelmann, Schwabe, "Post-quantum key exchange - a new hope", USENIX
// Security 2016, section 6: the attack succeeds with BKZ block size beta when the projected
// target is shorter than the Gram-Schmidt norm at index d - beta,
//     sigma sqrt(beta) <= delta(beta)^(2 beta - d) Vol^(1/d),
// with the Bai-Galbraith embedding of LWE (n = phi, w samples, d = n + w + 1,
// Vol = q^w (sigma/sigma_s)^n after scaling the secret to the error's size) and the GSA
// root-Hermite factor delta(beta) = (beta/(2 pi e) (pi beta)^(1/beta))^(1/(2(beta-1)))
// [Chen13]. One SVP call in dimension beta costs 2^(0.292 beta) [BDGL16 sieve, ADPS16's
// classical core-SVP] or 2^(0.265 beta) (ADPS16's quantum core-SVP). beta is the smallest
// over all w (samples are free: key-switching keys give many); no hybrid or sparse-secret
// guessing: a lower-envelope sanity figure, the lattice estimator's "rough" uSVP.
//
// Key distribution: a ternary secret of Hamming weight h has coefficient standard deviation
// sqrt(h/n); a dense key (h = 0) is taken as uniform on {-1, 0, 1}, sqrt(2/3).
//
// Ported from the explorer's Python (sage/cbparams/security.py, before it asked the engine)
// operation for operation, IEEE double without contraction (CMakeLists: -ffp-contract=off),
// so beta and the figures come out as they did there, to the last printed digit.
#pragma once

#include <string>
#include <vector>

namespace cb::bgv {

// The error's standard deviation (the engine's sampler, engine/bgv/sampler.h).
constexpr double kCoreSvpSigma = 3.2;

// Root-Hermite factor of BKZ-beta under the GSA [Chen13].
double delta_0(double beta);

// Standard deviation of a ternary secret coefficient: sqrt(h/n), or sqrt(2/3) for h = 0.
// ParameterError for h < 0 or h > n.
double secret_stddev(long n, long hwt);

// Smallest BKZ block size beta (40 .. max(41, n)) for which primal uSVP succeeds on LWE of
// dimension n, modulus 2^log2_q, error sigma, key weight hwt (0: dense). ParameterError for
// n < 2 or log2_q <= log2 sigma.
long usvp_beta(long n, double log2_q, long hwt = 0, double sigma = kCoreSvpSigma);

// The cost models of one SVP call, by citation key: "ADPS16" (0.292 beta), "ADPS16-quantum"
// (0.265 beta), sorted.
const std::vector<std::string>& coresvp_cost_models();

// log2 cost of primal uSVP: cost_model(usvp_beta(...)). ParameterError naming the model when
// it is not one of coresvp_cost_models().
double coresvp_bits(long n, double log2_q, long hwt = 0, double sigma = kCoreSvpSigma,
                    const std::string& cost_model = "ADPS16");

}  // namespace cb::bgv
