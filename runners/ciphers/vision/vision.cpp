// vision.cpp: the Vision block cipher (see vision.h) and its generated constants.
#include "ciphers/vision/vision.h"

#include "ciphers/reference/field_linalg.h"
#include "engine/errors.h"

namespace cb {

namespace {

const std::vector<VisionParams>& instances() {
  static const std::vector<VisionParams> all = {
#include "ciphers/vision/vision_params.inc"
  };
  return all;
}

}  // namespace

const std::vector<VisionParams>& VisionParams::all() { return instances(); }

const VisionParams& VisionParams::get(long n, long m) {
  for (const auto& p : instances())
    if (p.n == n && p.m == m) return p;
  throw ParameterError(msg("Vision GF(2^", n, ")^", m,
                           " is not an instance: the instances are GF(2^8)^16, GF(2^16)^8, GF(2^32)^4, GF(2^64)^2"));
}

Vision::Vision(const VisionParams& params) : p_(params), F_(params.n, params.modulus_low) {
  const long m = p_.m;
  const auto need = [](const std::vector<uint64_t>& v, long size, const char* name) {
    if (long(v.size()) != size)
      throw ParameterError(msg("Vision constant ", name, " has ", v.size(), " entries: it needs ", size));
  };
  if (m < 1) throw ParameterError(msg("Vision state size m=", m, " must be positive"));
  if (p_.rounds < 1) throw ParameterError(msg("Vision rounds=", p_.rounds, " must be positive"));
  need(p_.B_inv, p_.n + 1, "B_inv");
  need(p_.c0, m, "c0");
  need(p_.CM, m * m, "CM");
  need(p_.CC, m, "CC");
  need(p_.MDS, m * m, "MDS");
  mds_inv_ = mat_inverse(F_, p_.MDS);
}

uint64_t Vision::B(uint64_t x) const {
  return p_.B[0] ^ F_.mul(p_.B[1], x) ^ F_.mul(p_.B[2], F_.sqr(x)) ^ F_.mul(p_.B[3], F_.frob(x, 2));
}

uint64_t Vision::B_inv(uint64_t y) const {
  uint64_t acc = p_.B_inv[0];
  for (long j = 1; j <= p_.n; ++j) {
    acc ^= F_.mul(p_.B_inv[j], y);
    y = F_.sqr(y);
  }
  return acc;
}

Vision::State Vision::inverse(const State& x) const {
  State y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = F_.inv(x[i]);
  return y;
}

Vision::State Vision::affine(const State& x, long step) const {
  State y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = (step % 2 == 1) ? B_inv(x[i]) : B(x[i]);
  return y;
}

Vision::State Vision::affine_inv(const State& x, long step) const { return affine(x, step + 1); }

Vision::State Vision::mds(const State& x) const { return mat_vec(F_, p_.MDS, x); }
Vision::State Vision::mds_inv(const State& x) const { return mat_vec(F_, mds_inv_, x); }

Vision::State Vision::step(const State& x, long s) const { return mds(affine(inverse(x), s)); }

std::vector<Vision::State> Vision::injections(long rounds) const {
  const long R = checked_rounds(rounds);
  std::vector<State> kappa{p_.c0};
  for (long s = 1; s <= 2 * R; ++s) {
    State next = mat_vec(F_, p_.CM, kappa.back());
    for (long i = 0; i < p_.m; ++i) next[i] ^= p_.CC[i];
    kappa.push_back(std::move(next));
  }
  return kappa;
}

std::vector<Vision::State> Vision::key_schedule(const State& key, long rounds) const {
  check_state(key, "key");
  const long R = checked_rounds(rounds);
  const auto kappa = injections(R);
  std::vector<State> k;
  State k0 = key;
  for (long i = 0; i < p_.m; ++i) k0[i] ^= kappa[0][i];
  k.push_back(std::move(k0));
  for (long s = 1; s <= 2 * R; ++s) {
    State next = step(k.back(), s);
    for (long i = 0; i < p_.m; ++i) next[i] ^= kappa[s][i];
    k.push_back(std::move(next));
  }
  return k;
}

Vision::Trace Vision::trace(const State& key, const State& plaintext, long rounds) const {
  check_state(plaintext, "plaintext");
  const long R = checked_rounds(rounds);
  Trace t;
  t.subkeys = key_schedule(key, R);
  State d = plaintext;
  for (long i = 0; i < p_.m; ++i) d[i] ^= t.subkeys[0][i];
  t.step_states.push_back(d);
  for (long s = 1; s <= 2 * R; ++s) {
    d = step(d, s);
    for (long i = 0; i < p_.m; ++i) d[i] ^= t.subkeys[s][i];
    t.step_states.push_back(d);
    if (s % 2 == 0) t.round_states.push_back(d);
  }
  return t;
}

Vision::State Vision::encrypt(const State& key, const State& plaintext, long rounds) const {
  return trace(key, plaintext, rounds).step_states.back();
}

Vision::State Vision::decrypt(const State& key, const State& ciphertext, long rounds) const {
  check_state(ciphertext, "ciphertext");
  const long R = checked_rounds(rounds);
  const auto k = key_schedule(key, R);
  State d = ciphertext;
  for (long s = 2 * R; s >= 1; --s) {
    for (long i = 0; i < p_.m; ++i) d[i] ^= k[s][i];
    d = inverse(affine_inv(mds_inv(d), s));
  }
  for (long i = 0; i < p_.m; ++i) d[i] ^= k[0][i];
  return d;
}

Vision::State Vision::from_bytes(const std::vector<uint8_t>& bytes) const {
  const long w = p_.n / 8;
  if (long(bytes.size()) != w * p_.m)
    throw ParameterError(msg("Vision GF(2^", p_.n, ")^", p_.m, " state needs ", w * p_.m, " bytes, got ",
                             bytes.size()));
  State s(p_.m, 0);
  for (long i = 0; i < p_.m; ++i)
    for (long b = 0; b < w; ++b) s[i] = (s[i] << 8) | bytes[i * w + b];
  return s;
}

std::vector<uint8_t> Vision::to_bytes(const State& s) const {
  check_state(s, "state");
  const long w = p_.n / 8;
  std::vector<uint8_t> out;
  for (long i = 0; i < p_.m; ++i)
    for (long b = w - 1; b >= 0; --b) out.push_back(uint8_t(s[i] >> (8 * b)));
  return out;
}

long Vision::checked_rounds(long rounds) const {
  if (rounds == 0) return p_.rounds;
  if (rounds < 1 || rounds > p_.rounds)
    throw ParameterError(msg("rounds=", rounds, " is outside [1, ", p_.rounds, "]: Vision GF(2^", p_.n, ")^", p_.m,
                             " has ", p_.rounds, " rounds (fewer = reduced-round)"));
  return rounds;
}

void Vision::check_state(const State& s, const char* what) const {
  if (long(s.size()) != p_.m)
    throw ParameterError(msg("Vision ", what, " has ", s.size(), " elements: GF(2^", p_.n, ")^", p_.m, " needs ", p_.m));
  if (p_.n < 64)
    for (uint64_t x : s)
      if (x >> p_.n)
        throw ParameterError(msg("Vision ", what, " element 0x", std::hex, x, std::dec, " is not in GF(2^", p_.n, ")"));
}

}  // namespace cb
