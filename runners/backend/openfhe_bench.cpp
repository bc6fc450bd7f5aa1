// openfhe_bench.cpp: OpenFHE's BGV timed as bench_ops times the engine (openfhe_bench.h).
#include "backend/openfhe_bench.h"

#include <NTL/ZZ.h>
#include <nlohmann/json.hpp>
#include <openfhe.h>
#include <time.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "engine/util/bench_timing.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace cb {
namespace {

using namespace lbcrypto;
using Clock = std::chrono::steady_clock;
using Ctxt = Ciphertext<DCRTPoly>;
using Slots = std::vector<uint64_t>;

constexpr long kMaxPrimeBits = 60;  // OpenFHE's largest RNS prime with 64-bit native integers

bool power_of_two(long m) { return m > 0 && (m & (m - 1)) == 0; }

double log2_of(const std::shared_ptr<ILDCRTParams<BigInteger>>& params, std::vector<double>* each = nullptr) {
  double sum = 0;
  for (const auto& q : params->GetParams()) {
    const double b = std::log2(q->GetModulus().ConvertToDouble());
    sum += b;
    if (each) each->push_back(b);
  }
  return sum;
}

size_t primes_of(const Ctxt& ct) { return ct->GetElements()[0].GetNumOfElements(); }

}  // namespace

// The installed package's version (its OpenFHEConfigVersion.cmake): GetOPENFHEVersion() is an inline
// function of a macro OpenFHE defines only while building itself.
std::string openfhe_version() { return CB_OPENFHE_VERSION; }

void check_openfhe_params(const OpenfheBenchParams& a) {
  if (!power_of_two(a.m) || a.m < 4)
    throw ParameterError(msg("--m ", a.m, ": OpenFHE's BGV takes power-of-two cyclotomics only (m = 2^k, k >= 2); "
                             "odd m runs on the engine and HElib"));
  if (a.p >= (uint64_t(1) << 32))
    throw ParameterError(msg("--p ", a.p, " >= 2^32: OpenFHE 1.5.1's BGV parameter generation keeps t in 32 bits "
                             "(ParamsGenBGVRNSInternal's uint32_t ptm)"));
  if (a.p < 3 || !NTL::ProbPrime(long(a.p)))
    throw ParameterError(msg("--p ", a.p, " is not an odd prime: the plaintext modulus t = p must be one"));
  if (a.p % uint64_t(a.m) != 1)
    throw ParameterError(msg("--p ", a.p, " = ", a.p % uint64_t(a.m), " mod m=", a.m,
                             ": the OpenFHE bench packs N = m/2 slots of F_p, which needs p = 1 mod m"));
  if (a.c < 1) throw ParameterError(msg("--c ", a.c, " must be at least 1 (HYBRID key switching's numLargeDigits)"));
  if (a.reps < 1) throw ParameterError(msg("--reps=", a.reps, " must be at least 1"));
  // Each prime is 1 mod m t: it needs more bits than m t has.
  const long k = (a.bits + kMaxPrimeBits - 1) / kMaxPrimeBits;
  const double order_bits = std::log2(double(a.m)) + std::log2(double(a.p));
  if (a.bits >= 1 && a.c > k)
    throw ParameterError(msg("--c ", a.c, ": ", k, " ciphertext primes at --bits ", a.bits,
                             " cannot form ", a.c, " digits (HYBRID key switching: at most one digit per prime)"));
  if (a.bits < 1 || a.bits / std::max(k, 1L) < order_bits + 2)
    throw ParameterError(msg("--bits ", a.bits, ": ", k, " primes of about ", a.bits / std::max(k, 1L),
                             " bits cannot be 1 mod m t = 2^", std::log2(double(a.m)), " * ", a.p,
                             " (OpenFHE's FIXEDMANUAL chain): give more bits"));
}

std::string openfhe_bench(const OpenfheBenchParams& a, const std::function<void(const std::string&)>& log) {
  check_openfhe_params(a);
  const long m = a.m, N = m / 2, half = N / 2;
  const uint64_t t = a.p;
  // k primes: the first of bits - (k-1) s bits, then k - 1 of s bits (s <= 60).
  const long k = (a.bits + kMaxPrimeBits - 1) / kMaxPrimeBits;
  const long s = a.bits / k, first = a.bits - (k - 1) * s;

  CCParams<CryptoContextBGVRNS> cp;
  cp.SetPlaintextModulus(t);
  cp.SetRingDim(uint32_t(N));
  cp.SetSecurityLevel(HEStd_NotSet);
  cp.SetScalingTechnique(FIXEDMANUAL);
  cp.SetMultiplicativeDepth(uint32_t(k - 1));
  cp.SetFirstModSize(uint32_t(first));
  if (k > 1) cp.SetScalingModSize(uint32_t(s));
  cp.SetKeySwitchTechnique(HYBRID);
  cp.SetNumLargeDigits(uint32_t(a.c));
  cp.SetSecretKeyDist(UNIFORM_TERNARY);

  const auto t_keys = Clock::now();
  CryptoContext<DCRTPoly> cc;
  try {
    cc = GenCryptoContext(cp);
  } catch (const std::exception& e) {
    throw ParameterError(msg("OpenFHE refused m=", m, " bits=", a.bits, " c=", a.c, " p=", t, ": ", e.what()));
  }
  cc->Enable(PKE);
  cc->Enable(KEYSWITCH);
  cc->Enable(LEVELEDSHE);
  const auto crypto = std::dynamic_pointer_cast<CryptoParametersRNS>(cc->GetCryptoParameters());
  if (cc->GetRingDimension() != uint32_t(N))
    throw ParameterError(msg("OpenFHE chose ring dimension ", cc->GetRingDimension(), " for m=", m, " (N=", N, ")"));
  std::vector<double> q_bits, p_bits;
  const double log2_q_ct = log2_of(crypto->GetElementParams(), &q_bits);
  const double log2_p = crypto->GetParamsP() ? log2_of(crypto->GetParamsP(), &p_bits) : 0;
  log(msg("OpenFHE ", openfhe_version(), " BGV m=", m, " N=", N, " t=", t, " log2 Q=", log2_q_ct, " (", q_bits.size(),
          " primes) log2 P=", log2_p, " (", p_bits.size(), " primes), digits ", crypto->GetNumPartQ()));

  // Keys: secret and public, relinearization, X -> X^5 and X -> X^(m-1).
  const uint32_t kRot = 5, kSwap = uint32_t(m - 1);
  const auto k0 = Clock::now();
  KeyPair<DCRTPoly> keys = cc->KeyGen();
  cc->EvalMultKeyGen(keys.secretKey);
  std::shared_ptr<std::map<uint32_t, EvalKey<DCRTPoly>>> auto_keys;
  std::vector<uint32_t> auto_indices;
  if (!a.cost_ops) {
    auto_indices = {kRot, kSwap};
    auto_keys = cc->EvalAutomorphismKeyGen(keys.secretKey, auto_indices);
  }
  const double keygen_s = std::chrono::duration<double>(Clock::now() - k0).count();

  // Slots: two rows of N/2; slot i is row i / (N/2), column i % (N/2).
  std::mt19937_64 g(a.seed ? a.seed : 42);
  auto random_slots = [&] {
    Slots v(N);
    for (auto& x : v) x = g() % t;
    return v;
  };
  const Slots sa = random_slots(), sb = random_slots(), sk = random_slots();
  auto encode = [&](const Slots& v) {
    std::vector<int64_t> w(v.begin(), v.end());
    return cc->MakePackedPlaintext(w);
  };
  auto decrypt = [&](const Ctxt& ct) {
    Plaintext pt;
    cc->Decrypt(keys.secretKey, ct, &pt);
    pt->SetLength(N);
    const auto& w = pt->GetPackedValue();
    Slots v(N);
    for (long i = 0; i < N; ++i) v[i] = uint64_t(((w[i] % int64_t(t)) + int64_t(t)) % int64_t(t));
    return v;
  };
  auto apply = [&](const std::function<uint64_t(long)>& fn) {
    Slots r(N);
    for (long i = 0; i < N; ++i) r[i] = fn(i);
    return r;
  };
  auto mulmod = [&](uint64_t x, uint64_t y) { return uint64_t((unsigned __int128)x * y % t); };
  const Slots want_add = apply([&](long i) { return (sa[i] + sb[i]) % t; });
  const Slots want_mul = apply([&](long i) { return mulmod(sa[i], sb[i]); });
  const Slots want_mulc = apply([&](long i) { return mulmod(sa[i], sk[i]); });
  // X -> X^5: each row rotated left by one; the whole vector rotated left by one.
  const Slots want_dim0 = apply([&](long i) { return sa[(i / half) * half + (i % half + 1) % half]; });
  const Slots want_rot = apply([&](long i) { return sa[(i + 1) % N]; });
  const Plaintext ptxt_k = encode(sk);
  // rotate: out = M_main * r + M_last * swap(r), r = X -> X^5 of the input; M_last is
  // one in each row's last column, M_main one elsewhere.
  const Plaintext mask_main = encode(apply([&](long i) { return uint64_t(i % half != half - 1); }));
  const Plaintext mask_last = encode(apply([&](long i) { return uint64_t(i % half == half - 1); }));

  cb::util::OpTimes times;  // engine/util/bench_timing.h
  auto& ms = times.wall;
  auto& cpu_ms = times.cpu;
  auto timed = [&](const std::string& name, const std::function<void()>& fn) { times.time(name, fn); };
  // A time counts only once its result decrypted right: it is dropped otherwise (and the
  // run ends with OpenfheMismatch, so no JSON is written).
  auto check = [&](const std::string& name, const Slots& got, const Slots& want) {
    if (got != want) {
      long i = 0;
      while (got[i] == want[i]) ++i;
      throw OpenfheMismatch(msg("bench_ops: OpenFHE ", name, " decrypted to a wrong result (slot ", i, ": ", got[i],
                                ", expected ", want[i], ")"));
    }
  };
  std::map<std::string, long> op_primes;
  std::map<std::string, bool> checked;
  for (long r = 0; r < a.reps; ++r) {
    log(msg("repetition ", r + 1, "/", a.reps));
    Ctxt ca, cb_;
    timed("encrypt", [&] { ca = cc->Encrypt(keys.publicKey, encode(sa)); });
    cb_ = cc->Encrypt(keys.publicKey, encode(sb));
    Slots out;
    timed("decrypt", [&] { out = decrypt(ca); });
    check("encrypt/decrypt", out, sa);
    checked["encrypt"] = checked["decrypt"] = true;
    op_primes["fresh"] = primes_of(ca);

    Ctxt x = ca->Clone();
    timed("add", [&] { cc->EvalAddInPlace(x, cb_); });
    check("add", decrypt(x), want_add);
    checked["add"] = true;
    op_primes["add"] = primes_of(x);
    timed("mul_relin", [&] { x = cc->EvalMult(ca, cb_); });
    check("multiply", decrypt(x), want_mul);
    checked["mul_relin"] = true;
    op_primes["mul_relin"] = primes_of(x);
    timed("mul_const", [&] { x = cc->EvalMult(ca, ptxt_k); });
    check("multiply by constant", decrypt(x), want_mulc);
    checked["mul_const"] = true;
    op_primes["mul_const"] = primes_of(x);
    if (!a.cost_ops) {
      timed("rotate_dim0", [&] { x = cc->EvalAutomorphism(ca, kRot, *auto_keys); });
      check("rotation along dimension 0 (X -> X^5)", decrypt(x), want_dim0);
      checked["rotate_dim0"] = true;
      timed("rotate", [&] {
        const Ctxt y = cc->EvalAutomorphism(ca, kRot, *auto_keys);
        const Ctxt z = cc->EvalAutomorphism(y, kSwap, *auto_keys);
        x = cc->EvalMult(y, mask_main);
        cc->EvalAddInPlace(x, cc->EvalMult(z, mask_last));
      });
      check("rotation by 1", decrypt(x), want_rot);
      checked["rotate"] = true;
    }
    if (primes_of(ca) > 1) {
      x = ca->Clone();
      timed("mod_switch", [&] { cc->ModReduceInPlace(x); });
      check("modulus switch", decrypt(x), sa);
      checked["mod_switch"] = true;
      op_primes["mod_switch"] = primes_of(x);
      Ctxt y = cc->ModReduce(cb_);
      x = ca->Clone();
      timed("add_mixed", [&] { cc->EvalAddInPlace(x, y); });
      check("add at different prime sets", decrypt(x), want_add);
      checked["add_mixed"] = true;
      op_primes["add_mixed"] = primes_of(ca);
      op_primes["add_mixed_to"] = primes_of(x);
    }
  }

  nlohmann::json j;
  j["backend"] = "openfhe";
  j["m"] = m;
  j["phi"] = N;
  j["p"] = t;
  j["d"] = 1;
  j["slots"] = N;
  j["bits"] = a.bits;
  j["c"] = a.c;
  j["hwt"] = a.hwt;
  j["log2_q_ct"] = log2_q_ct;
  j["log2_p"] = log2_p;
  j["log2_q"] = log2_q_ct + log2_p;
  j["security"] = bgv::helib_security(m, N, log2_q_ct + log2_p, 0);
  j["reps"] = a.reps;
  j["keygen_s"] = keygen_s;
  j["keygen_keys"] = auto_indices.size();
  j["setup_s"] = std::chrono::duration<double>(Clock::now() - t_keys).count();
  for (const auto& [name, v] : ms) j[name + "_ms"] = cb::util::median(v);
  for (const auto& [name, v] : cpu_ms) j["cpu_ms"][name] = cb::util::median(v);
  j["checked"] = checked;
  j["op_primes"] = op_primes;
  j["cost_ops"] = a.cost_ops;
  if (!a.cost_ops) {
    j["rotate_dim0_automorphisms"] = 1;
    j["rotate_automorphisms"] = 2;
  }
  j["dims"] = nlohmann::json::array({{{"gen", 5}, {"ord", half}, {"good", true}},
                                     {{"gen", m - 1}, {"ord", 2}, {"good", true}}});
  j["openfhe"] = {
      {"version", openfhe_version()},
      {"tag", CB_OPENFHE_TAG},
      {"commit", CB_OPENFHE_COMMIT},
      {"scheme", "BGVRNS"},
      {"scaling", "FIXEDMANUAL"},
      {"key_switching", "HYBRID"},
      {"num_large_digits", crypto->GetNumPartQ()},
      {"secret_key", "UNIFORM_TERNARY"},
      {"security_level", "HEStd_NotSet"},
      {"ciphertext_prime_bits", q_bits},
      {"special_prime_bits", p_bits},
      {"log2_q_ct_minus_bits", log2_q_ct - double(a.bits)},
      {"notes",
       {"secret key uniform ternary (OpenFHE has no key of a given Hamming weight): --hwt recorded, not applied",
        "security: HElib's formula at OpenFHE's log2 QP for a dense key (engine/bgv/security.h), not OpenFHE's",
        "primes q_i = 1 mod m t (FIXEDMANUAL): the modulus switch needs no plaintext correction",
        "add clones its second operand (OpenFHE's EvalAddInPlace under FIXEDMANUAL); add_mixed drops the "
        "first operand's extra prime without scaling (LevelReduce)",
        "rotate: X -> X^5, X -> X^(m-1) of that, two masked products and an add",
        "no Frobenius map: the slots are F_p (d = 1)", "randomness: OpenFHE's own generator; --seed fixes the slot values only"}}};
  j["correct"] = true;
  return j.dump();
}

}  // namespace cb
