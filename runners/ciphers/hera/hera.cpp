#include "ciphers/hera/hera.h"

#include "ciphers/reference/shake128.h"
#include "engine/errors.h"

namespace cb {
namespace {

uint64_t checked(uint64_t p) {
  if (const std::string why = Hera::excluded(p); !why.empty()) throw ParameterError(why);
  return p;
}

}  // namespace

std::string Hera::excluded(uint64_t p) {
  if (p < 3 || p >= PrimeField::kMaxP || !util::is_prime(p))
    return msg("HERA over F_p: p=", p, " is not an odd prime below 2^61");
  if ((p - 1) % 3 == 0)
    return msg("HERA over F_", p, ": 3 divides p - 1 = ", p - 1, ", so x^3 is not a permutation of F_", p,
               " (HERA needs p = 2 mod 3)");
  if (p == 3) return "HERA over F_3: x^3 = x on F_3, the cube is no S-box";
  if (p == 5 || p == 7)
    return msg("HERA over F_", p, ": circ(2, 3, 1, 1) has determinant -35, singular mod ", p,
               " (MixColumns and MixRows would not be invertible)");
  return "";
}

Hera::Hera(uint64_t p) : F_(checked(p)), mask_((uint64_t(1) << F_.bits()) - 1) {}

uint64_t Hera::draw(Shake128& xof) const {
  for (;;)
    if (const uint64_t v = xof.next_u64_be() & mask_; v < p()) return v;
}

std::vector<std::vector<uint64_t>> Hera::round_constants(uint64_t nonce, uint64_t counter) const {
  auto xof = Shake128::for_block(nonce, counter);
  std::vector<std::vector<uint64_t>> rc(kRounds + 1, std::vector<uint64_t>(kN));
  for (auto& r : rc)
    for (auto& v : r) v = draw(xof);
  return rc;
}

std::vector<uint64_t> Hera::keystream(const std::vector<uint64_t>& k, uint64_t nonce, uint64_t counter) const {
  if (long(k.size()) != kN) throw ParameterError(msg("HERA F_", p(), ": key has ", k.size(), " elements, not ", kN));
  for (long j = 0; j < kN; ++j)
    if (k[j] >= p()) throw ParameterError(msg("HERA F_", p(), ": key element ", j, " is ", k[j], ", not below p=", p()));
  const PrimeField& F = F_;
  auto xof = Shake128::for_block(nonce, counter);
  std::vector<uint64_t> x(kN);

  // ARK: x_j += k_j rc_j, the 16 rc drawn now, in element order.
  auto ark = [&] {
    for (long j = 0; j < kN; ++j) x[j] = F.add(x[j], F.mul(k[j], draw(xof)));
  };
  // One 4-element vector v_0..v_3 (stride apart from `first`) times circ(2, 3, 1, 1):
  // v'_r = 2 v_r + 3 v_(r+1) + v_(r+2) + v_(r+3), indices mod 4.
  auto mix4 = [&](long first, long stride) {
    uint64_t v[4];
    for (long r = 0; r < 4; ++r) v[r] = x[first + stride * r];
    for (long r = 0; r < 4; ++r) {
      const uint64_t two = F.add(v[r], v[r]), three = F.mul(3, v[(r + 1) % 4]);
      x[first + stride * r] = F.add(F.add(two, three), F.add(v[(r + 2) % 4], v[(r + 3) % 4]));
    }
  };
  auto mix_columns = [&] {
    for (long col = 0; col < 4; ++col) mix4(4 * col, 1);
  };
  auto mix_rows = [&] {
    for (long row = 0; row < 4; ++row) mix4(row, 4);
  };
  auto cube = [&] {
    for (auto& v : x) v = F.mul(F.sqr(v), v);
  };

  for (long j = 0; j < kN; ++j) x[j] = uint64_t(j + 1);  // ic = (1, ..., 16)
  ark();
  for (long r = 1; r < kRounds; ++r) {
    mix_columns();
    mix_rows();
    cube();
    ark();
  }
  mix_columns();
  mix_rows();
  cube();
  mix_columns();
  mix_rows();
  ark();
  return x;
}

}  // namespace cb
