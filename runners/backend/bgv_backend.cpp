#include "backend/bgv_backend.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "backend/lanes.h"
#include "engine/algebra/ring_fit.h"
#include "engine/bgv/decryptor.h"
#include "engine/bgv/encryptor.h"
#include "engine/bgv/evaluator.h"
#include "engine/bgv/keys.h"
#include "engine/errors.h"

namespace cb {

using namespace cb::bgv;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The residues a double-CRT polynomial holds: one word per prime and position.
size_t residue_bytes(const DCRTPoly& x) {
  return x.empty() ? 0 : size_t(x.num_limbs()) * size_t(x.phi()) * sizeof(uint64_t);
}

// What a key-switching key stores: b_j and a_j in full, or (compact) b_j packed and a_j's seed.
size_t stored_key_bytes(const KeySwitchKey& k) {
  size_t r = 0;
  for (const auto& x : k.b) r += residue_bytes(x);
  for (const auto& x : k.a) r += residue_bytes(x);
  for (const auto& x : k.b_packed) r += x.bytes();
  if (k.seeded()) r += sizeof(k.a_seed);
  return r;
}

ContextParams context_params(const BgvParams& p, long plaintext_modulus) {
  ContextParams cp{p.m, p.bits, p.c, p.hwt};
  cp.p = plaintext_modulus;
  return cp;
}
}  // namespace

struct BgvBackend::Impl {
  // GF(2^n) slots at p = 2.
  Impl(const BgvParams& p, long n, uint64_t f_low)
      : params(p),
        ctx(ContextParams{p.m, p.bits, p.c, p.hwt}),
        rng(p.seed),
        keygen(ctx, rng, size_t(std::max<long>(p.keep_uniform_mib, 0)) << 20),
        field(std::in_place, n, f_low) {
    if (ctx.zmstar().d() % n != 0)
      throw ParameterError(msg("m=", p.m, " has slots GF(2^", ctx.zmstar().d(), "): GF(2^", n,
                               ") needs ", n, " | d; ", rings_holding_hint(2, n, p.m)));
    sub = std::make_unique<Subfield>(ctx.slots(), n, f_low);
    make_keys();
  }
  // F_p slots at the odd prime p = F.p().
  Impl(const BgvParams& p, const PrimeField& F)
      : params(p),
        ctx(context_params(p, long(F.p()))),
        rng(p.seed),
        keygen(ctx, rng, size_t(std::max<long>(p.keep_uniform_mib, 0)) << 20),
        Fp(F) {
    ctx.prime_slots();  // built now (setup), not at the first encoding
    make_keys();
  }
  void make_keys() {
    const auto t0 = std::chrono::steady_clock::now();
    sk = keygen.secret_key(params.hwt);
    pk = keygen.public_key(sk);
    relin = keygen.relin_key(sk);
    keygen_s += seconds_since(t0);
    noise = NoiseModel(ctx.m(), sk.coeffs, ctx.p());
    enc = params.secret_key_encryption ? std::make_unique<Encryptor>(ctx, sk, noise)
                                       : std::make_unique<Encryptor>(ctx, pk, noise);
    dec = std::make_unique<Decryptor>(ctx, sk, noise.rounding().log2_max());
    ev = std::make_unique<Evaluator>(ctx, noise, relin, autos);
  }

  BgvParams params;
  Context ctx;
  Sampler rng;
  std::mutex rng_mu;
  KeyGenerator keygen;
  std::optional<GF2n> field;       // p = 2
  std::optional<PrimeField> Fp;    // p > 2
  std::unique_ptr<Subfield> sub;   // p = 2
  SecretKey sk;
  PublicKey pk;
  KeySwitchKey relin;
  std::map<long, KeySwitchKey> autos;
  NoiseModel noise;
  std::unique_ptr<Encryptor> enc;
  std::unique_ptr<Decryptor> dec;
  std::unique_ptr<Evaluator> ev;
  double keygen_s = 0;
};

BgvBackend::BgvBackend(const BgvParams& params, long n, uint64_t f_low)
    : impl_(std::make_unique<Impl>(params, n, f_low)) {}
BgvBackend::BgvBackend(const BgvParams& params, const PrimeField& F) : impl_(std::make_unique<Impl>(params, F)) {}
BgvBackend::~BgvBackend() = default;

uint64_t BgvBackend::characteristic() const { return uint64_t(impl_->ctx.p()); }
const ZmStar& BgvBackend::zmstar() const { return impl_->ctx.zmstar(); }
bool BgvBackend::secret_key_encryption() const { return impl_->enc->secret_key(); }
const GF2n& BgvBackend::field() const {
  if (!impl_->field)
    throw ParameterError(msg("field(): the slots hold F_", impl_->ctx.p(), ", not GF(2^n) (use prime_field())"));
  return *impl_->field;
}
const PrimeField& BgvBackend::prime_field() const {
  if (!impl_->Fp) throw ParameterError("prime_field(): the slots hold GF(2^n) at p=2 (use field())");
  return *impl_->Fp;
}
long BgvBackend::slot_count() const { return impl_->ctx.zmstar().ell(); }
double BgvBackend::keygen_seconds() const { return impl_->keygen_s; }
const bgv::Context& BgvBackend::context() const { return impl_->ctx; }

BgvMemory BgvBackend::memory() const {
  BgvMemory r;
  r.transforms = impl_->ctx.transform_bytes();
  r.secret_key = impl_->sk.s.bytes();
  r.public_key = impl_->pk.a.bytes() + impl_->pk.b.bytes();
  r.relin_key = impl_->relin.bytes();
  for (const auto& [k, key] : impl_->autos) r.automorphism_keys += key.bytes();
  r.n_automorphism_keys = long(impl_->autos.size());
  r.compact_keys = impl_->relin.compact();
  return r;
}

KeySizes BgvBackend::key_sizes() const {
  KeySizes r;
  r.public_key = residue_bytes(impl_->pk.b) + residue_bytes(impl_->pk.a);
  r.relin_key = stored_key_bytes(impl_->relin);
  r.n_relin_keys = 1;
  for (const auto& [k, key] : impl_->autos) r.automorphism_keys += stored_key_bytes(key);
  r.n_automorphism_keys = long(impl_->autos.size());
  r.counted = impl_->relin.compact()
                  ? "engine: stored residues, 8 bytes each, double-CRT; keys compact (b_j bit-packed, a_j as a seed)"
                  : "engine: stored residues, 8 bytes each, double-CRT; keys in full (b_j and a_j)";
  return r;
}

size_t BgvBackend::ciphertext_bytes(const Ctxt& c) const { return residue_bytes(c.c0) + residue_bytes(c.c1); }

BackendInfo BgvBackend::info() const {
  const Context& c = impl_->ctx;
  BackendInfo i;
  i.name = "bgv";
  i.p = uint64_t(c.p());
  i.m = c.m();
  i.phi = c.phi();
  i.d = c.zmstar().d();
  i.slots = c.zmstar().ell();
  i.bits = impl_->params.bits;
  i.c = impl_->params.c;
  i.hwt = impl_->params.hwt;
  i.log2_q_ct = c.log2_Q();
  i.log2_p = c.log2_P();
  i.log2_q = i.log2_q_ct + i.log2_p;
  i.security = c.security();
  return i;
}

BgvBackend::Ptxt BgvBackend::encode(const std::vector<uint64_t>& v) const {
  if (long(v.size()) != slot_count())
    throw ParameterError(msg("encode: ", v.size(), " values for ", slot_count(), " slots"));
  if (impl_->Fp) {  // x in F_p: the constant (x, 0, ..., 0) of GF(p^d) in its slot
    for (size_t i = 0; i < v.size(); ++i)
      if (!impl_->Fp->contains(v[i]))
        throw ParameterError(msg("encode: slot ", i, " holds ", v[i], ", not an element of F_", impl_->Fp->p(),
                                 " (0..", impl_->Fp->p() - 1, ")"));
    const std::vector<uint64_t> a = impl_->ctx.prime_slots().encode_fp(v);
    return Plaintext::from_coeffs(impl_->ctx, std::vector<long>(a.begin(), a.end()));
  }
  std::vector<NTL::GF2X> k(v.size());
  for (size_t i = 0; i < v.size(); ++i) k[i] = impl_->sub->embed(v[i]);
  return Plaintext(impl_->ctx, impl_->ctx.slots().encode(k));
}

BgvBackend::Ctxt BgvBackend::encrypt(const std::vector<uint64_t>& v) const {
  const Plaintext p = encode(v);
  Encryptor::Randomness r;
  {
    std::lock_guard<std::mutex> lock(impl_->rng_mu);
    r = impl_->enc->draw(impl_->rng);
  }
  return impl_->enc->encrypt(p, std::move(r));
}

std::vector<BgvBackend::Ctxt> BgvBackend::encrypt_many(const std::vector<std::vector<uint64_t>>& vs) const {
  std::vector<std::optional<Ctxt>> out(vs.size());
  const size_t T = size_t(std::max(1, lane_threads<BgvBackend>(long(vs.size()))));
  for (size_t lo = 0; lo < vs.size(); lo += T) {
    const size_t w = std::min(vs.size() - lo, T);
    std::vector<Encryptor::Randomness> rs(w);
    {
      std::lock_guard<std::mutex> lock(impl_->rng_mu);  // drawn in turn, as encrypt() would
      for (auto& r : rs) r = impl_->enc->draw(impl_->rng);
    }
    for_each_lane<BgvBackend>(long(w), [&](long j) {
      out[lo + size_t(j)] = impl_->enc->encrypt(encode(vs[lo + size_t(j)]), std::move(rs[size_t(j)]));
    });
  }
  std::vector<Ctxt> cts;
  cts.reserve(vs.size());
  for (auto& c : out) cts.push_back(std::move(*c));
  return cts;
}

std::vector<uint64_t> BgvBackend::decrypt(const Ctxt& c) const {
  const auto r = impl_->dec->decrypt(c);
  if (impl_->Fp) {
    if (impl_->ctx.prime_slots().d() == 1) return impl_->ctx.prime_slots().decode_fp(r.coeffs);  // K = F_p
    const auto k = impl_->ctx.prime_slots().decode(r.coeffs);
    std::vector<uint64_t> v(k.size());
    for (size_t i = 0; i < k.size(); ++i) {
      for (size_t j = 1; j < k[i].size(); ++j)
        if (k[i][j] != 0)
          throw Error(msg("decrypt: slot ", i, " holds an element of GF(", impl_->Fp->p(), "^", k[i].size(),
                          ") outside F_", impl_->Fp->p(), " (its Y^", j, " coefficient is ", k[i][j],
                          "): not an F_p result"));
      v[i] = k[i][0];
    }
    return v;
  }
  const auto k = impl_->ctx.slots().decode(r.mu);
  std::vector<uint64_t> v(k.size());
  for (size_t i = 0; i < k.size(); ++i) v[i] = impl_->sub->project(k[i]);
  return v;
}

double BgvBackend::measured_noise_bits(const Ctxt& c) const {
  return impl_->dec->decrypt_at_level(c).log2_noise;
}

bgv::RootBound BgvBackend::measured_root_noise(const Ctxt& c) const { return impl_->dec->noise_embedding(c); }

void BgvBackend::add(Ctxt& a, const Ctxt& b) const { impl_->ev->add(a, b); }
void BgvBackend::add_plain(Ctxt& a, const Ptxt& p) const { impl_->ev->add_plain(a, p); }
void BgvBackend::mul(Ctxt& a, const Ctxt& b) const { impl_->ev->mul(a, b); }
void BgvBackend::mul_plain(Ctxt& a, const Ptxt& p) const { impl_->ev->mul_plain(a, p); }
void BgvBackend::square(Ctxt& a) const { impl_->ev->square(a); }
void BgvBackend::automorph(Ctxt& a, long k) const { impl_->ev->automorph(a, k); }
std::vector<BgvBackend::Ctxt> BgvBackend::automorph_many(const Ctxt& a, const std::vector<long>& ks) const {
  return impl_->ev->automorph_many(a, ks);
}
double BgvBackend::capacity_bits(const Ctxt& c) const { return impl_->ev->capacity_bits(c); }

void BgvBackend::require_automorphisms(const std::vector<long>& ks) {
  const auto t0 = std::chrono::steady_clock::now();
  const long m = impl_->ctx.m();
  std::vector<long> fresh;  // in the order asked, each once: the keys' draws follow it
  for (long k : ks) {
    const long kk = ((k % m) + m) % m;
    if (kk == 1 || impl_->autos.count(kk) || std::count(fresh.begin(), fresh.end(), kk)) continue;
    fresh.push_back(kk);
  }
  auto keys = impl_->keygen.automorphism_keys(impl_->sk, fresh);
  for (size_t i = 0; i < fresh.size(); ++i) impl_->autos.emplace(fresh[i], std::move(keys[i]));
  impl_->keygen_s += seconds_since(t0);
}

void BgvBackend::mod_switch_to(Ctxt& a, long level) const { impl_->ev->mod_switch_to(a, level); }
void BgvBackend::align(const std::vector<Ctxt*>& cs) const { impl_->ev->align(cs); }

std::vector<bgv::OpProfile::Entry> BgvBackend::op_profile() const { return impl_->ev->profile().entries(); }
void BgvBackend::reset_op_profile() const { impl_->ev->reset_profile(); }

std::string BgvBackend::op_counters() const {
  const auto c = impl_->ev->counters();
  std::ostringstream os;
  os << "{\"mul\":" << c.mul << ",\"mul_plain\":" << c.mul_plain << ",\"add\":" << c.add
     << ",\"automorph\":" << c.automorph << ",\"key_switch\":" << c.key_switch
     << ",\"mod_switch\":" << c.mod_switch << "}";
  return os.str();
}

}  // namespace cb
