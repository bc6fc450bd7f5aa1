#include "ciphers/mimc/mimc.h"

#include "engine/errors.h"

namespace cb {
namespace {

struct Params {
  long n;
  uint64_t f_low;
  long rounds;
  std::vector<uint64_t> c;
};
const std::vector<Params>& params() {
  static const std::vector<Params> all = {
#include "ciphers/mimc/mimc_params.inc"
  };
  return all;
}
const Params& find(long n) {
  for (const auto& p : params())
    if (p.n == n) return p;
  throw ParameterError(msg("MiMC over GF(2^", n, "): the instances are n = 63 and n = 31"));
}

}  // namespace

Mimc::Mimc(long n) : f_low_(find(n).f_low), F_(n, f_low_), c_(find(n).c) {
  if (long(c_.size()) != find(n).rounds) throw ParameterError(msg("MiMC GF(2^", n, "): constants and rounds disagree"));
}

std::vector<long> Mimc::degrees() {
  std::vector<long> out;
  for (const auto& p : params()) out.push_back(p.n);
  return out;
}

long Mimc::checked(long r) const {
  if (r == 0) return rounds();
  if (r < 1 || r > rounds()) throw ParameterError(msg("MiMC GF(2^", n(), ") rounds=", r, ": must be 1..", rounds()));
  return r;
}

void Mimc::check_element(uint64_t v, const char* what) const {
  if (n() < 64 && (v >> n())) throw ParameterError(msg("MiMC GF(2^", n(), "): ", what, " 0x", std::hex, v, " is not below 2^", std::dec, n()));
}

std::vector<uint64_t> Mimc::round_states(uint64_t k, uint64_t x, long rounds) const {
  check_element(k, "key"), check_element(x, "block");
  std::vector<uint64_t> out;
  for (long i = 0; i < checked(rounds); ++i) {
    const uint64_t t = x ^ k ^ c_[i];
    x = F_.mul(F_.sqr(t), t);
    out.push_back(x);
  }
  return out;
}

uint64_t Mimc::encrypt(uint64_t k, uint64_t x, long rounds) const { return round_states(k, x, rounds).back() ^ k; }

uint64_t Mimc::inverse_cube_exponent() const {
  // 3 s = 1 mod 2^n - 1 with s = (2^(n+1) - 1) / 3 for odd n: 3 s = 2^(n+1) - 1 = 2 (2^n - 1) + 1.
  return uint64_t(((unsigned __int128)(1) << (n() + 1)) / 3);
}

uint64_t Mimc::decrypt(uint64_t k, uint64_t y, long rounds) const {
  check_element(k, "key"), check_element(y, "block");
  const long R = checked(rounds);
  const uint64_t s = inverse_cube_exponent();
  uint64_t x = y ^ k;
  for (long i = R - 1; i >= 0; --i) x = F_.pow(x, s) ^ k ^ c_[i];
  return x;
}

}  // namespace cb
