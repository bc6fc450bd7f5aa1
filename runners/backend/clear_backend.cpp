// clear_backend.cpp: slot-vector arithmetic for the clear-text backend.
#include "backend/clear_backend.h"

#include <limits>

#include "engine/errors.h"

namespace cb {

ClearBackend::ClearBackend(long m, long n, uint64_t f_low)
    : zm_(m), ell_(zm_.ell()), F_(std::in_place, n, f_low), has_key_(size_t(m), 0),
      counts_(std::make_unique<Counters>()) {
  if (zm_.d() % n != 0)
    throw ParameterError(msg("n=", n, " does not divide d=", zm_.d(), " (m=", m,
                             "): GF(2^n) must be a subfield of the slot field GF(2^d)"));
  has_key_[1] = 1;
}

ClearBackend::ClearBackend(long m, const PrimeField& F)
    : zm_(m, long(F.p())), ell_(zm_.ell()), Fp_(F), has_key_(size_t(m), 0), counts_(std::make_unique<Counters>()) {
  has_key_[1] = 1;
}

const GF2n& ClearBackend::field() const {
  if (!F_) throw ParameterError(msg("the clear backend's slots hold F_", characteristic(), ", not a GF(2^n)"));
  return *F_;
}

const PrimeField& ClearBackend::prime_field() const {
  if (!Fp_) throw ParameterError(msg("the clear backend's slots hold GF(2^", F_->n(), "), not a prime field"));
  return *Fp_;
}

BackendInfo ClearBackend::info() const {
  BackendInfo i;
  i.name = "clear";
  i.p = characteristic();
  i.m = zm_.m();
  i.phi = zm_.phi();
  i.d = zm_.d();
  i.slots = zm_.ell();
  return i;
}

void ClearBackend::check_slots(const std::vector<uint64_t>& v, const char* what) const {
  if (long(v.size()) != ell_)
    throw ParameterError(msg(what, " has ", v.size(), " values: the ring m=", zm_.m(), " has ell=", ell_, " slots"));
  if (Fp_) {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] >= Fp_->p()) throw ParameterError(msg(what, "[", i, "]=", v[i], " is not in F_", Fp_->p()));
    return;
  }
  if (F_->n() < 64)
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] >> F_->n())
        throw ParameterError(msg(what, "[", i, "]=0x", std::hex, v[i], std::dec, " is not in GF(2^", F_->n(), ")"));
}

ClearBackend::Ptxt ClearBackend::encode(const std::vector<uint64_t>& v) const {
  check_slots(v, "encode: v");
  return Ptxt{v};
}

ClearBackend::Ctxt ClearBackend::encrypt(const std::vector<uint64_t>& v) const {
  check_slots(v, "encrypt: v");
  ++counts_->encrypt;
  return Ctxt{v, 0};
}

std::vector<uint64_t> ClearBackend::decrypt(const Ctxt& c) const { return c.slots; }

void ClearBackend::add(Ctxt& a, const Ctxt& b) const {
  ++counts_->add;
  if (Fp_)
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = Fp_->add(a.slots[i], b.slots[i]);
  else
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] ^= b.slots[i];
  a.depth = std::max(a.depth, b.depth);
}

void ClearBackend::add_plain(Ctxt& a, const Ptxt& p) const {
  ++counts_->add_plain;
  if (Fp_)
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = Fp_->add(a.slots[i], p.slots[i]);
  else
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] ^= p.slots[i];
}

void ClearBackend::mul(Ctxt& a, const Ctxt& b) const {
  ++counts_->mul;
  if (Fp_)
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = Fp_->mul(a.slots[i], b.slots[i]);
  else
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = F_->mul(a.slots[i], b.slots[i]);
  a.depth = std::max(a.depth, b.depth) + 1;
}

void ClearBackend::mul_plain(Ctxt& a, const Ptxt& p) const {
  ++counts_->mul_plain;
  if (Fp_)
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = Fp_->mul(a.slots[i], p.slots[i]);
  else
    for (size_t i = 0; i < a.slots.size(); ++i) a.slots[i] = F_->mul(a.slots[i], p.slots[i]);
}

void ClearBackend::square(Ctxt& a) const {
  ++counts_->square;
  if (Fp_)
    for (auto& x : a.slots) x = Fp_->sqr(x);
  else
    for (auto& x : a.slots) x = F_->sqr(x);
  a.depth += 1;
}

long ClearBackend::normalize(long k) const {
  long kk = k % zm_.m();
  return kk < 0 ? kk + zm_.m() : kk;
}

void ClearBackend::automorph(Ctxt& a, long k) const {
  const ZmStar& zm = zm_;
  const long kk = normalize(k);
  if (!zm.in_zmstar(kk))
    throw ParameterError(msg("k=", k, " is not a unit mod m=", zm.m(), ": X -> X^k is no automorphism"));
  if (!has_key_[kk])
    throw KeyError(msg("no key-switching key for X -> X^", kk, " (m=", zm.m(),
                       "): call require_automorphisms({", kk, "}) at setup"));
  if (kk == 1) return;  // the identity: no key switching, not counted
  ++counts_->automorph;
  const auto moves = zm.automorphism_action(kk);
  std::vector<uint64_t> out(a.slots.size());
  if (Fp_)  // the twist y -> y^(p^f) fixes F_p
    for (size_t s = 0; s < out.size(); ++s) out[s] = a.slots[moves[s].src];
  else
    for (size_t s = 0; s < out.size(); ++s) out[s] = F_->frob(a.slots[moves[s].src], moves[s].frob);
  a.slots = std::move(out);
}

std::vector<ClearBackend::Ctxt> ClearBackend::automorph_many(const Ctxt& a, const std::vector<long>& ks) const {
  ++counts_->automorph_many;
  std::vector<Ctxt> out;
  out.reserve(ks.size());
  for (long k : ks) {
    out.push_back(a);
    automorph(out.back(), k);
  }
  return out;
}

void ClearBackend::require_automorphisms(const std::vector<long>& ks) {
  for (long k : ks) {
    const long kk = normalize(k);
    if (!zm_.in_zmstar(kk))
      throw ParameterError(msg("k=", k, " is not a unit mod m=", zm_.m(), ": no automorphism key for it"));
    has_key_[kk] = 1;
  }
}

KeySizes ClearBackend::key_sizes() const {
  KeySizes r;
  for (long k = 2; k < long(has_key_.size()); ++k) r.n_automorphism_keys += has_key_[k] ? 1 : 0;
  r.counted = "clear: no keys (0 bytes); a ciphertext is its slot words, unencrypted";
  return r;
}

bool ClearBackend::has_automorphism_key(long k) const {
  const long kk = normalize(k);
  return zm_.in_zmstar(kk) && has_key_[kk];
}

double ClearBackend::capacity_bits(const Ctxt&) const { return std::numeric_limits<double>::infinity(); }

ClearBackend::OpCounts ClearBackend::op_counts() const {
  OpCounts c;
  c.encrypt = counts_->encrypt;
  c.add = counts_->add;
  c.add_plain = counts_->add_plain;
  c.mul = counts_->mul;
  c.mul_plain = counts_->mul_plain;
  c.square = counts_->square;
  c.automorph = counts_->automorph;
  c.automorph_many = counts_->automorph_many;
  return c;
}

std::string ClearBackend::op_counters() const {
  const OpCounts c = op_counts();
  return msg("encrypt=", c.encrypt, " add=", c.add, " add_plain=", c.add_plain, " mul=", c.mul,
             " mul_plain=", c.mul_plain, " square=", c.square, " automorph=", c.automorph,
             " automorph_many=", c.automorph_many);
}

void ClearBackend::reset_op_counts() const {
  counts_->encrypt = 0;
  counts_->add = 0;
  counts_->add_plain = 0;
  counts_->mul = 0;
  counts_->mul_plain = 0;
  counts_->square = 0;
  counts_->automorph = 0;
  counts_->automorph_many = 0;
}

}  // namespace cb
