// helib_backend.cpp: the circuit interface over HElib's BGV (see helib_backend.h).
#include "backend/helib_backend.h"

#include <dlfcn.h>
#include <gmp.h>
#include <helib/helib.h>
#include <helib/version.h>
#include <NTL/ZZ.h>
#include <NTL/version.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <climits>
#include <cmath>
#include <mutex>
#include <cstdlib>
#include <set>
#include <sstream>

#include "engine/algebra/prime_slot_ring.h"
#include "engine/algebra/slot_ring.h"
#include "engine/algebra/subfield.h"
#include "engine/errors.h"

#ifndef CB_HELIB_TAG
#define CB_HELIB_TAG "unknown"
#endif
#ifndef CB_HELIB_NTL_ROUTE
#define CB_HELIB_NTL_ROUTE "unknown"
#endif

namespace cb {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The file of the shared object that holds `addr` (the library actually loaded).
std::string loaded_library(const void* addr) {
  Dl_info info;
  if (!dladdr(addr, &info) || !info.dli_fname) return "unknown";
  char buf[PATH_MAX];
  if (realpath(info.dli_fname, buf)) return buf;
  return info.dli_fname;
}

// Checks the parameters HElib would otherwise reject with its own assertions.
ZmStar checked_zmstar(const HelibParams& p, long pt = 2) {
  if (p.bits < 1) throw ParameterError(msg("bits=", p.bits, " must be positive (HElib's ciphertext-modulus bits)"));
  if (p.c < 1) throw ParameterError(msg("c=", p.c, " must be at least 1 (key-switching digits)"));
  if (p.hwt < 0) throw ParameterError(msg("hwt=", p.hwt, " must be 0 (dense) or positive"));
  return ZmStar(p.m, pt);  // ParameterError unless m is odd (or 2^k at odd p) and in range
}

}  // namespace

// ---- ciphertext handle --------------------------------------------------------------

HelibBackend::Ctxt::Ctxt() = default;
HelibBackend::Ctxt::Ctxt(std::unique_ptr<helib::Ctxt> c) : c_(std::move(c)) {}
HelibBackend::Ctxt::Ctxt(const Ctxt& o) : c_(o.c_ ? std::make_unique<helib::Ctxt>(*o.c_) : nullptr) {}
HelibBackend::Ctxt& HelibBackend::Ctxt::operator=(const Ctxt& o) {
  if (this != &o) c_ = o.c_ ? std::make_unique<helib::Ctxt>(*o.c_) : nullptr;
  return *this;
}
HelibBackend::Ctxt::Ctxt(Ctxt&&) noexcept = default;
HelibBackend::Ctxt& HelibBackend::Ctxt::operator=(Ctxt&&) noexcept = default;
HelibBackend::Ctxt::~Ctxt() = default;
helib::Ctxt& HelibBackend::Ctxt::get() {
  if (!c_) throw Error("HelibBackend: use of an empty ciphertext");
  return *c_;
}
const helib::Ctxt& HelibBackend::Ctxt::get() const {
  if (!c_) throw Error("HelibBackend: use of an empty ciphertext");
  return *c_;
}

struct HelibBackend::Ptxt::Data {
  helib::DoubleCRT dcrt;  // over every prime: ciphertexts may carry special primes (lazy division)
  double size;            // HElib's bound: largest coefficient in the canonical embedding
};

// ---- backend ------------------------------------------------------------------------

struct HelibBackend::Impl {
  Impl(const HelibParams& p, long n, uint64_t f_low)
      : params(p), zm(checked_zmstar(p)), field(GF2n(n, f_low)) {
    ring = std::make_unique<SlotRing>(zm);
    sub = std::make_unique<Subfield>(*ring, n, f_low);
    build();
  }
  Impl(const HelibParams& p, const PrimeField& F)
      : params(p), zm(checked_zmstar(p, long(F.p()))), Fp(F), pt(long(F.p())) {
    pring = std::make_unique<PrimeSlotRing>(zm);
    build();
  }
  void build() {
    const HelibParams& p = params;
    if (p.seed) NTL::SetSeed(NTL::ZZ(p.seed));
    ctx.reset(helib::ContextBuilder<helib::BGV>()
                  .m(p.m)
                  .p(pt)
                  .r(1)
                  .bits(p.bits)
                  .c(p.c)
                  .skHwt(p.hwt)
                  .buildPtr());
    if (ctx->getZMStar().getOrdP() != zm.d() || ctx->getZMStar().getNSlots() != zm.ell())
      throw Error(msg("HElib's Z_m^*/<", pt, "> for m=", p.m, " has d=", ctx->getZMStar().getOrdP(), ", ",
                      ctx->getZMStar().getNSlots(), " slots; the engine has d=", zm.d(), ", ", zm.ell()));
    const auto t0 = std::chrono::steady_clock::now();
    sk = std::make_unique<helib::SecKey>(*ctx);
    sk->GenSecKey(/*ptxtSpace=*/0, /*maxDegKswitch=*/2);  // relinearization s^2 -> s only
    keygen_s += seconds_since(t0);
    measure_public_key();
    has_key.insert(1);
  }

  NTL::ZZX to_poly(const std::vector<uint64_t>& v) const {
    if (long(v.size()) != zm.ell())
      throw ParameterError(msg("HelibBackend: ", v.size(), " values for ", zm.ell(), " slots (m=", zm.m(), ")"));
    if (pring) {  // F_p: the constant (x, 0, ..., 0) of each slot, lifted to (-p/2, p/2]
      for (size_t i = 0; i < v.size(); ++i)
        if (v[i] >= uint64_t(pt))
          throw ParameterError(msg("HelibBackend: slot ", i, " value ", v[i], " is not in F_", pt));
      const auto a = pring->encode_fp(v);  // as BgvBackend::encode: the same encoding on both sides
      NTL::ZZX z;
      for (size_t i = 0; i < a.size(); ++i)
        if (a[i]) NTL::SetCoeff(z, long(i), a[i] > uint64_t(pt) / 2 ? NTL::ZZ(long(a[i]) - pt) : NTL::ZZ(long(a[i])));
      return z;
    }
    std::vector<NTL::GF2X> slots(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (field->n() < 64 && (v[i] >> field->n()))
        throw ParameterError(msg("HelibBackend: slot ", i, " value 0x", std::hex, v[i], std::dec,
                                 " is not in GF(2^", field->n(), ")"));
      slots[i] = sub->embed(v[i]);
    }
    const NTL::GF2X a = ring->encode(slots);
    NTL::ZZX z;
    for (long i = 0; i <= NTL::deg(a); ++i)
      if (NTL::IsOne(NTL::coeff(a, i))) NTL::SetCoeff(z, i, 1);
    return z;
  }

  long normalize(long k) const {
    long kk = k % zm.m();
    return kk < 0 ? kk + zm.m() : kk;
  }

  HelibParams params;
  ZmStar zm;
  std::optional<GF2n> field;             // p = 2
  std::unique_ptr<SlotRing> ring;        // p = 2
  std::unique_ptr<Subfield> sub;         // p = 2
  std::optional<PrimeField> Fp;          // odd p
  std::unique_ptr<PrimeSlotRing> pring;  // odd p
  long pt = 2;                           // the plaintext modulus
  std::unique_ptr<helib::Context> ctx;
  std::unique_ptr<helib::SecKey> sk;
  std::set<long> has_key;  // k with a key-switching matrix s(X^k) -> s (1: none needed)
  // Serializes every HElib call: the circuits may call the backend from OpenMP threads,
  // and HElib's safety for concurrent operations is not established here.
  mutable std::mutex mu;
  double keygen_s = 0;
  size_t public_key_bytes = 0;  // the encryption key's share of HElib's public key file
  void measure_public_key();
};

HelibBackend::HelibBackend(const HelibParams& params, long n, uint64_t f_low)
    : impl_(std::make_unique<Impl>(params, n, f_low)) {}
HelibBackend::HelibBackend(const HelibParams& params, const PrimeField& F)
    : impl_(std::make_unique<Impl>(params, F)) {}
HelibBackend::~HelibBackend() = default;

const ZmStar& HelibBackend::zmstar() const { return impl_->zm; }
uint64_t HelibBackend::characteristic() const { return uint64_t(impl_->pt); }
const GF2n& HelibBackend::field() const {
  if (!impl_->field) throw ParameterError(msg("field(): the slots hold F_", impl_->pt, ", not GF(2^n) (use prime_field())"));
  return *impl_->field;
}
const PrimeField& HelibBackend::prime_field() const {
  if (!impl_->Fp) throw ParameterError("prime_field(): the slots hold GF(2^n) (p = 2; use field())");
  return *impl_->Fp;
}
long HelibBackend::slot_count() const { return impl_->zm.ell(); }
double HelibBackend::keygen_seconds() const { return impl_->keygen_s; }

BackendInfo HelibBackend::info() const {
  const helib::Context& c = *impl_->ctx;
  BackendInfo i;
  i.name = "helib";
  i.p = impl_->pt;
  i.m = impl_->zm.m();
  i.phi = impl_->zm.phi();
  i.d = impl_->zm.d();
  i.slots = impl_->zm.ell();
  i.bits = impl_->params.bits;
  i.c = impl_->params.c;
  i.hwt = impl_->params.hwt;
  i.log2_q_ct = c.logOfProduct(c.getCtxtPrimes()) / std::log(2.0);
  i.log2_p = c.logOfProduct(c.getSpecialPrimes()) / std::log(2.0);
  i.log2_q = i.log2_q_ct + i.log2_p;
  i.security = c.securityLevel();
  return i;
}

HelibBackend::Ptxt HelibBackend::encode(const std::vector<uint64_t>& v) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const NTL::ZZX z = impl_->to_poly(v);
  const helib::Context& c = *impl_->ctx;
  auto d = std::make_shared<Ptxt::Data>(Ptxt::Data{
      helib::DoubleCRT(z, c, c.getCtxtPrimes() | c.getSmallPrimes() | c.getSpecialPrimes()),
      NTL::conv<double>(helib::embeddingLargestCoeff(z, c.getZMStar()))});
  return Ptxt{std::move(d)};
}

HelibBackend::Ctxt HelibBackend::encrypt(const std::vector<uint64_t>& v) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const NTL::ZZX z = impl_->to_poly(v);
  // HElib's SecKey is-a PubKey, and its virtual Encrypt encrypts with the secret key:
  // the qualified call is the public-key encryption. The ciphertext refers to the key
  // object, so key-switching matrices added later by require_automorphisms are found.
  const helib::PubKey& pk = *impl_->sk;
  auto c = std::make_unique<helib::Ctxt>(pk);
  pk.helib::PubKey::Encrypt(*c, z, /*ptxtSpace=*/impl_->pt);
  return Ctxt(std::move(c));
}

std::vector<uint64_t> HelibBackend::decrypt(const Ctxt& c) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (!c.get().isCorrect())
    throw CapacityError(msg("HElib's noise bound exceeds the modulus (capacity ", c.get().capacity(),
                            " bits): decryption would be wrong"));
  NTL::ZZX z;
  impl_->sk->Decrypt(z, c.get());
  if (impl_->pring) {  // coefficients mod p (HElib removed its intFactor), then the slots
    const long p = impl_->pt;
    std::vector<uint64_t> a(size_t(impl_->zm.phi()), 0);
    for (long i = 0; i <= NTL::deg(z) && i < long(a.size()); ++i) {
      long r = NTL::rem(NTL::coeff(z, i), p);
      a[size_t(i)] = uint64_t(r < 0 ? r + p : r);
    }
    if (impl_->pring->d() == 1) return impl_->pring->decode_fp(a);  // K = F_p, as BgvBackend::decrypt
    const auto slots = impl_->pring->decode(a);
    std::vector<uint64_t> out(slots.size());
    for (size_t i = 0; i < slots.size(); ++i) {
      for (size_t j = 1; j < slots[i].size(); ++j)
        if (slots[i][j]) throw Error(msg("HelibBackend: slot ", i, " decrypted outside F_", p, " (a wrong result)"));
      out[i] = slots[i][0];
    }
    return out;
  }
  NTL::GF2X a;
  for (long i = 0; i <= NTL::deg(z); ++i)
    if (NTL::IsOdd(NTL::coeff(z, i))) NTL::SetCoeff(a, i);
  const auto slots = impl_->ring->decode(a);
  std::vector<uint64_t> out(slots.size());
  for (size_t i = 0; i < slots.size(); ++i) out[i] = impl_->sub->project(slots[i]);
  return out;
}

void HelibBackend::add(Ctxt& a, const Ctxt& b) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  a.get() += b.get();
}

void HelibBackend::add_plain(Ctxt& a, const Ptxt& p) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  a.get().addConstant(p.data->dcrt, p.data->size);
}

void HelibBackend::mul(Ctxt& a, const Ctxt& b) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  a.get().multiplyBy(b.get());
}

void HelibBackend::mul_plain(Ctxt& a, const Ptxt& p) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  a.get().multByConstant(p.data->dcrt, p.data->size);
}

void HelibBackend::square(Ctxt& a) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  a.get().square();
}

void HelibBackend::automorph(Ctxt& a, long k) const {
  const long kk = impl_->normalize(k);
  if (!impl_->zm.in_zmstar(kk))
    throw ParameterError(msg("k=", k, " is not a unit mod m=", impl_->zm.m(), ": X -> X^k is no automorphism"));
  if (!impl_->has_key.count(kk))
    throw KeyError(msg("no HElib key-switching matrix for X -> X^", kk, " (m=", impl_->zm.m(),
                       "): call require_automorphisms({", kk, "}) at setup"));
  if (kk == 1) return;
  std::lock_guard<std::mutex> lock(impl_->mu);
  helib::Ctxt& c = a.get();
  c.automorph(kk);  // parts now under s(X^k)
  c.reLinearize();  // key-switch back to s with the matrix s(X^k) -> s
}

std::vector<HelibBackend::Ctxt> HelibBackend::automorph_many(const Ctxt& a, const std::vector<long>& ks) const {
  std::vector<Ctxt> out;
  out.reserve(ks.size());
  for (long k : ks) {
    out.push_back(a);
    automorph(out.back(), k);
  }
  return out;
}

void HelibBackend::require_automorphisms(const std::vector<long>& ks) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto t0 = std::chrono::steady_clock::now();
  for (long k : ks) {
    const long kk = impl_->normalize(k);
    if (!impl_->zm.in_zmstar(kk))
      throw ParameterError(msg("k=", k, " is not a unit mod m=", impl_->zm.m(), ": no automorphism key for it"));
    if (impl_->has_key.count(kk)) continue;
    impl_->sk->GenKeySWmatrix(/*fromSPower=*/1, /*fromXPower=*/kk, /*fromIdx=*/0, /*toIdx=*/0);
    impl_->has_key.insert(kk);
  }
  impl_->sk->setKeySwitchMap();
  impl_->keygen_s += seconds_since(t0);
}

double HelibBackend::capacity_bits(const Ctxt& c) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return c.get().capacity();
}

namespace {
template <class T>
size_t serialized_bytes(const T& x) {
  std::ostringstream os;
  x.writeTo(os);
  return os.str().size();
}
}  // namespace

void HelibBackend::Impl::measure_public_key() {
  // HElib's public key file (PubKey::writeTo of the PubKey part, no secret) holds the
  // context, the encryption key, the key-switching matrices and their map; the encryption
  // key's share is the file less the context and the matrices, measured now, before
  // require_automorphisms fills the map (m entries) that belongs to the automorphism keys.
  const helib::PubKey& pk = *sk;  // PubKey::writeTo is not virtual: the public part only
  size_t matrices = 0;
  for (const helib::KeySwitch& ks : pk.keySWlist()) matrices += serialized_bytes(ks);
  const size_t whole = serialized_bytes(pk), context = serialized_bytes(*ctx);
  if (whole < context + matrices)
    throw Error(msg("HElib's public key serializes to ", whole, " bytes, less than its context (", context,
                    ") and key-switching matrices (", matrices, ")"));
  public_key_bytes = whole - context - matrices;
}

KeySizes HelibBackend::key_sizes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  KeySizes r;
  r.public_key = impl_->public_key_bytes;
  for (const helib::KeySwitch& ks : impl_->sk->keySWlist()) {
    const size_t n = serialized_bytes(ks);
    if (ks.fromKey.getPowerOfS() == 2 && ks.fromKey.getPowerOfX() == 1) {
      r.relin_key += n;
      ++r.n_relin_keys;
    } else {
      r.automorphism_keys += n;
      ++r.n_automorphism_keys;
    }
  }
  r.counted = "helib: binary serialization (writeTo); each KeySwitch matrix's b_j in double-CRT, its a_j "
              "as a PRG seed; public_key = PubKey::writeTo less HElib's context and matrices; ciphertexts "
              "without the special primes HElib leaves on after a key switch (divided out first)";
  return r;
}

size_t HelibBackend::ciphertext_bytes(const Ctxt& c) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const helib::Ctxt& x = c.get();
  const helib::IndexSet& special = impl_->ctx->getSpecialPrimes();
  if (helib::disjoint(x.getPrimeSet(), special)) return serialized_bytes(x);
  helib::Ctxt y = x;  // HElib's lazy division by P, done on a copy: the ciphertext at its level
  y.modDownToSet(x.getPrimeSet() / special);
  return serialized_bytes(y);
}

std::string HelibBackend::report_json() const {
  const helib::Context& c = *impl_->ctx;
  const helib::PAlgebra& pa = c.getZMStar();
  const double ln2 = std::log(2.0);
  nlohmann::json j;
  j["helib_version"] = {{"tag", CB_HELIB_TAG},
                        {"header", helib::version::asString},
                        {"note", "HElib's v2.3.0 tag still says 2.2.0 in its VERSION file and version.h"}};
  j["ntl_version"] = NTL_VERSION;
  j["ntl_library"] = loaded_library(reinterpret_cast<const void*>(
      static_cast<void (*)(const NTL::ZZ&)>(&NTL::SetSeed)));
  j["gmp_version"] = gmp_version;
  j["ntl_route"] = CB_HELIB_NTL_ROUTE;
  nlohmann::json chain;
  chain["small_primes"] = c.getSmallPrimes().card();
  chain["ctxt_primes"] = c.getCtxtPrimes().card();
  chain["special_primes"] = c.getSpecialPrimes().card();
  chain["log2_small"] = c.logOfProduct(c.getSmallPrimes()) / ln2;
  chain["log2_ctxt"] = c.logOfProduct(c.getCtxtPrimes()) / ln2;
  chain["log2_special"] = c.logOfProduct(c.getSpecialPrimes()) / ln2;
  chain["digits"] = c.getDigits().size();
  chain["note"] = "HElib's own chain for bits: ciphertext primes, small primes for fine modulus switching, "
                  "special primes from c; it switches modulus lazily before products and may leave the special "
                  "primes on a ciphertext after key switching, dividing by them later";
  j["helib_chain"] = chain;
  nlohmann::json cube = nlohmann::json::array();
  for (long i = 0; i < pa.numOfGens(); ++i)
    cube.push_back({{"gen", pa.ZmStarGen(i)}, {"ord", pa.OrderOf(i)}, {"good", pa.SameOrd(i)}});
  j["helib_hypercube"] = cube;
  j["helib_keys"] = {{"key_switching_matrices", impl_->sk->keySWlist().size()},
                     {"automorphism_keys", long(impl_->has_key.size()) - 1},
                     {"relinearization", "s^2 -> s"}};
  j["helib_slot_mapping"] = impl_->pring ? "engine PrimeSlotRing CRT on the plaintext polynomial in R_p (HElib's EncryptedArray not used)"
                                         : "engine SlotRing CRT on the plaintext polynomial (HElib's EncryptedArray not used)";
  j["hoisting"] = false;
  return j.dump();
}

}  // namespace cb
