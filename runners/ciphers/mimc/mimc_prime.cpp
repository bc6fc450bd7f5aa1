#include "ciphers/mimc/mimc_prime.h"

#include "engine/errors.h"

namespace cb {
namespace {

struct Params {
  uint64_t p;
  long rounds;
  std::vector<uint64_t> c;
};
const std::vector<Params>& params() {
  static const std::vector<Params> all = {
#include "ciphers/mimc/mimc_prime_params.inc"
  };
  return all;
}
const Params& find(uint64_t p) {
  if (const std::string why = MimcPrime::excluded(p); !why.empty()) throw ParameterError(why);
  std::string have;
  for (const auto& q : params()) {
    if (q.p == p) return q;
    have += msg(have.empty() ? "" : ", ", q.p);
  }
  throw ParameterError(msg("MiMC over F_", p, ": no constants for this p (the instances are p = ", have, ")"));
}

}  // namespace

std::string MimcPrime::excluded(uint64_t p) {
  if (p <= 3 || p >= PrimeField::kMaxP || !util::is_prime(p))
    return msg("MiMC over F_p: p=", p, " is not a prime 3 < p < 2^61");
  if ((p - 1) % 3 == 0)
    return msg("MiMC over F_", p, ": 3 divides p - 1 = ", p - 1, ", so x^3 is not a permutation of F_", p,
               " (MiMC over F_p needs p = 2 mod 3)");
  return "";
}

MimcPrime::MimcPrime(uint64_t p) : F_((find(p), p)), c_(find(p).c) {
  if (long(c_.size()) != find(p).rounds) throw ParameterError(msg("MiMC F_", p, ": constants and rounds disagree"));
}

std::vector<uint64_t> MimcPrime::primes() {
  std::vector<uint64_t> out;
  for (const auto& q : params()) out.push_back(q.p);
  return out;
}

long MimcPrime::checked(long r) const {
  if (r == 0) return rounds();
  if (r < 1 || r > rounds()) throw ParameterError(msg("MiMC F_", p(), " rounds=", r, ": must be 1..", rounds()));
  return r;
}

void MimcPrime::check_element(uint64_t v, const char* what) const {
  if (v >= p()) throw ParameterError(msg("MiMC F_", p(), ": ", what, " ", v, " is not below p=", p()));
}

std::vector<uint64_t> MimcPrime::round_states(uint64_t k, uint64_t x, long rounds) const {
  check_element(k, "key"), check_element(x, "block");
  std::vector<uint64_t> out;
  for (long i = 0; i < checked(rounds); ++i) {
    const uint64_t t = F_.add(F_.add(x, k), c_[i]);
    x = F_.mul(F_.sqr(t), t);
    out.push_back(x);
  }
  return out;
}

uint64_t MimcPrime::encrypt(uint64_t k, uint64_t x, long rounds) const {
  return F_.add(round_states(k, x, rounds).back(), k);
}

uint64_t MimcPrime::inverse_cube_exponent() const {
  // p = 2 mod 3: 3 s = 2 (p - 1) + 1 = 1 mod p - 1.
  return uint64_t((2 * (unsigned __int128)(p() - 1) + 1) / 3);
}

uint64_t MimcPrime::decrypt(uint64_t k, uint64_t y, long rounds) const {
  check_element(k, "key"), check_element(y, "block");
  const long R = checked(rounds);
  const uint64_t s = inverse_cube_exponent();
  uint64_t x = F_.sub(y, k);
  for (long i = R - 1; i >= 0; --i) x = F_.sub(F_.sub(F_.pow(x, s), k), c_[i]);
  return x;
}

}  // namespace cb
