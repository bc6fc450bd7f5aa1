// security.h: HElib's security estimate for a BGV chain (the papers' "security level").
//
// HElib 2.3.0 (Context::securityLevel, lweEstimateSecurity), as docs/references.md §2 states it:
// Q = ciphertext primes * special primes, sigma = 3.2 * sqrt(m) for m not a power of two,
// log2(1/alpha) = (ln Q - ln sigma) / ln 2, X = phi(m) / log2(1/alpha);
// dense key: 3.8 X - 20; sparse key of weight h >= 120: a(h) X + b(h), linear in h
// between table points every 30 from 120 to 450 (last point beyond); h in 1..119: 0.
// Results are floored at 0.
#pragma once

namespace cb::bgv {

// phi: degree of the ring; log2_alpha_inv as above; hwt: 0 = dense ternary key.
double helib_security_level(double phi, double log2_alpha_inv, long hwt);

// HElib's sigma for the formula: 3.2, times sqrt(m) when m is not a power of two.
double helib_sigma(long m);

// The same from (m, phi, log2 Q) the way HElib computes sigma.
double helib_security(long m, long phi, double log2_q, long hwt);

}  // namespace cb::bgv
