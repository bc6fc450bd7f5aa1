// bench_ops: times a backend's basic operations at one parameter set: the project's BGV
// engine (--backend bgv, alias engine, the default) or HElib (--backend helib, when built with
// -DCB_HELIB_DIR; same ring, bits, c, hwt, same operations and checks; the JSON adds
// HElib's versions, NTL route, chain and key counts) or OpenFHE's BGV (--backend openfhe, when
// built with -DCB_OPENFHE_DIR; power-of-two m only, plaintext modulus --p = 1 mod m, same
// N, log2 Q and digits: backend/openfhe_bench.h says what it matches and what it cannot).
// --p P runs the engine at the prime plaintext modulus P (default 2; odd m or m = 2^k):
// slot values are then elements of F_P (in each slot's GF(P^d)), the Frobenius map is
// X -> X^P (none to time when d = 1, as on m = 2^k with P = 1 mod m), and every check is
// F_P arithmetic (ciphers/catalog/cipher_field.h).
//
// Every timed result is decrypted and compared with the same operation on the clear
// slots; a mismatch aborts with exit status 2 and no JSON. Times are medians over --reps
// repetitions (wall time "<op>_ms"; process CPU time in "cpu_ms", the fair figure on a
// shared machine with one thread), each on fresh copies of fresh ciphertexts (top level),
// single process, OMP_NUM_THREADS threads. "keygen_s" covers the secret, public and relinearization keys,
// all Frobenius keys X -> X^(2^j), j = 1..d-1, and the rotation keys the two rotations
// need: the set HElib's benchmark generates (with --cost-ops only the Frobenius keys of
// the hoisted maps, j = 1..min(d - 1, 8), and no rotations: what the cost model fits, at
// a fraction of the keys on large rings, e.g. 9 keys instead of 178 at m=90721). For the cost model (sage/cbparams/cost_model.py)
// it also times automorph_many (the Frobenius maps j = 1..min(d-1, 8) hoisted from one
// input; "automorph_many_count" of them) and, on the engine, a modulus switch dropping
// the top prime of a fresh ciphertext ("mod_switch") and an add of a fresh ciphertext and
// one a prime lower ("add_mixed": the level decision of such adds), and reports in "op_primes" at how
// many primes each operation's result lives ("fresh": the inputs'). On the engine,
// "op_profile" gives each engine step's own time over all repetitions, under the chain
// planner's names (engine/bgv/op_profile.h): what the cost model fits. "sizes" gives the
// bytes of the public key and the evaluation keys generated above, of a fresh ciphertext
// and of (a b)^2 (depth 2, where the backend leaves it), and the expansion (ciphertext bits
// per plaintext bit, slots x bits per element) as apps/record_sizes.h computes them: the
// engine's stored residues, HElib's own serialization, side by side.
//
// Bad input is refused before any work, with a message naming the value and exit status 1:
// an --m or --bits given twice, a --json path that cannot be written, a key weight that
// HElib's security formula rates at 0 bits (unless --allow-insecure; the JSON then says
// "insecure_key": true), and whatever the engine's Context refuses (even m, too few bits,
// c < 1, ...). A JSON that cannot be written at the end is an error too (exit 1).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>

#include "backend/bgv_backend.h"
#ifdef CB_HAVE_HELIB
#include "backend/helib_backend.h"
#endif
#ifdef CB_HAVE_OPENFHE
#include "backend/openfhe_bench.h"
#endif
#include "apps/record_sizes.h"
#include "backend/permute.h"
#include "engine/util/bench_timing.h"
#include "engine/algebra/slot_ring.h"
#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/cipher_field.h"
#include "engine/algebra/subfield.h"
#include "engine/bgv/context.h"
#include "engine/bgv/security.h"
#include "engine/errors.h"

namespace {

using Clock = std::chrono::steady_clock;

double peak_rss_mb() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

struct Mismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// a in GF(2)[Y] as a hex integer, bit i = coefficient of Y^i (what Sage's cross-checks read).
std::string gf2x_hex(const NTL::GF2X& a) {
  const long deg = NTL::deg(a);
  if (deg < 0) return "0x0";
  std::string s = "0x";
  for (long nib = deg / 4; nib >= 0; --nib) {
    int v = 0;
    for (long b = 3; b >= 0; --b) v = 2 * v + (4 * nib + b <= deg && NTL::IsOne(NTL::coeff(a, 4 * nib + b)));
    s += "0123456789abcdef"[v];
  }
  return s;
}

// One value of an option that CLI11 collects into a vector (to name a repeated option).
long single(const std::vector<long>& v, const char* name) {
  if (v.size() != 1) {
    std::string all;
    for (long x : v) all += (all.empty() ? "" : ", ") + std::to_string(x);
    throw cb::ParameterError(cb::msg(name, " given ", v.size(), " times (", all,
                                     "): bench_ops measures one parameter set; run it once per value"));
  }
  return v[0];
}

// Refuse a --json path that cannot be written, before any work: open it for writing
// without truncating it (a file this creates is removed again).
void check_writable(const std::string& path) {
  const bool existed = access(path.c_str(), F_OK) == 0;
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) throw cb::ParameterError(cb::msg("--json ", path, ": cannot write it (", std::strerror(errno), ")"));
  close(fd);
  if (!existed) unlink(path.c_str());
}

// Key weights HElib's security formula rates at 0 bits whatever the ring: the weights w
// with helib_security_level(large X, w) = 0 (1..119 in HElib 2.3.0; negative weights too).
void check_key_weight(long hwt, bool allow_insecure) {
  auto rated_zero = [](long w) { return cb::bgv::helib_security_level(1e6, 1.0, w) <= 0; };
  if (hwt < 0) throw cb::ParameterError(cb::msg("--hwt ", hwt, " is negative: 0 is a dense key, else a weight"));
  if (!rated_zero(hwt) || allow_insecure) return;
  long least = hwt;
  while (rated_zero(least)) ++least;
  throw cb::ParameterError(cb::msg("--hwt ", hwt, ": HElib's security formula rates key weights 1 to ", least - 1,
                                   " at 0 bits; use 0 (dense) or at least ", least, ", or --allow-insecure"));
}

void write_json(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  out.close();
  if (!out) throw std::runtime_error(cb::msg("--json ", path, ": writing failed (", std::strerror(errno), ")"));
}


// What only one backend has: the engine's prime counts, HElib's versions, chain and keys.
void backend_fields(const cb::BgvBackend& be, nlohmann::json& j) {
  j["backend"] = "bgv";
  j["primes"] = {{"ciphertext", be.context().L() - be.context().S()}, {"small", be.context().S()}, {"special", be.context().K()}};
  j["transforms"] = be.context().transform_algorithms();
}
#ifdef CB_HAVE_HELIB
void backend_fields(const cb::HelibBackend& be, nlohmann::json& j) {
  j["backend"] = "helib";
  j.update(nlohmann::json::parse(be.report_json()));
}
#endif

struct Args {
  long m, bits, c, hwt, reps, n, keep_uniform_mib;
  uint64_t seed;
  std::string json_path;
  bool quiet;
  std::function<void(const std::string&)> log;
  bool allow_insecure = false;
  bool cost_ops = false;  // --cost-ops
};

// The field the slot values live in: GF(2^n) at p = 2, F_p at an odd p.
template <class B>
cb::CipherField slot_field(const B& be) {
  if (cb::slot_characteristic(be) != 2) return cb::CipherField(be.prime_field());
  return cb::CipherField(be.field());
}

// Times the operations on backend `be` (keys generated here), checks each result, writes JSON.
template <class B>
int bench(B& be, const Args& args, Clock::time_point t_setup) {
  const long m = args.m, bits = args.bits, c = args.c, hwt = args.hwt, reps = args.reps, n = args.n;
  const uint64_t seed = args.seed;
  const std::string& json_path = args.json_path;
  const bool quiet = args.quiet;
  const auto& log = args.log;
  const cb::ZmStar& zm = be.zmstar();
  const cb::CipherField f = slot_field(be);
  const uint64_t p = f.p();
  // The Frobenius map X -> X^p; k = 1 when d = 1 (nothing to time).
  const long frob_k = zm.power(long(p % uint64_t(m)), 1);
  const long ell = be.slot_count();
  const auto rot_dim0 = cb::SlotPermutation::rotate_dim(zm, 0, 1);
  const auto rot_1 = cb::SlotPermutation::rotate(zm, 1);
  const cb::PermutationPlan<B> plan_dim0(be, rot_dim0), plan_1(be, rot_1);
  std::vector<long> keys;
  for (long j = 1; j < (args.cost_ops ? std::min<long>(zm.d(), 9) : zm.d()); ++j) keys.push_back(zm.power(frob_k, j));
  if (!args.cost_ops) {
    for (long k : plan_dim0.automorphisms()) keys.push_back(k);
    for (long k : plan_1.automorphisms()) keys.push_back(k);
  }
  be.require_automorphisms(keys);
  const double keygen_s = be.keygen_seconds();
  const auto info = be.info();
  log(cb::msg("m=", m, " p=", p, " phi=", info.phi, " d=", info.d, " slots=", ell, " log2 Q=", info.log2_q,
              " (ciphertext ", info.log2_q_ct, ", special ", info.log2_p, ") security=", info.security,
              " keygen ", keygen_s, " s, threads ", omp_get_max_threads()));

  std::mt19937_64 g(seed ? seed : 42);
  auto random_slots = [&] {
    std::vector<uint64_t> v(ell);
    for (auto& x : v) x = f.is_prime() ? g() % p : n == 64 ? g() : g() & ((1ULL << n) - 1);
    return v;
  };
  const auto a = random_slots(), b = random_slots(), k = random_slots();
  const auto ptxt_k = be.encode(k);

  cb::util::OpTimes times;  // engine/util/bench_timing.h
  auto& ms = times.wall;
  auto& cpu_ms = times.cpu;
  auto timed = [&](const std::string& name, const std::function<void()>& fn) { times.time(name, fn); };
  auto check = [&](const std::string& what, const std::vector<uint64_t>& got, const std::vector<uint64_t>& want) {
    if (got != want) throw Mismatch("bench_ops: " + what + " decrypted to a wrong result");
  };
  auto apply = [&](const std::vector<uint64_t>& v, const std::function<uint64_t(long)>& fn) {
    std::vector<uint64_t> r(v.size());
    for (long i = 0; i < long(v.size()); ++i) r[i] = fn(i);
    return r;
  };
  const auto want_add = apply(a, [&](long i) { return f.add(a[i], b[i]); });
  const auto want_mul = apply(a, [&](long i) { return f.mul(a[i], b[i]); });
  const auto want_mulc = apply(a, [&](long i) { return f.mul(a[i], k[i]); });
  const auto want_frob = apply(a, [&](long i) { return f.pow(a[i], p); });
  const auto want_dim0 = rot_dim0.apply_clear(a);
  const auto want_rot = rot_1.apply_clear(a);
  std::vector<long> hoisted_ks;  // X -> X^(2^j), j = 1..min(d - 1, 8): keys made above
  std::vector<std::vector<uint64_t>> want_hoisted;
  std::vector<uint64_t> frob = a;
  for (long j = 1; j < std::min<long>(zm.d(), 9); ++j) {
    hoisted_ks.push_back(zm.power(frob_k, j));
    frob = apply(frob, [&](long i) { return f.pow(frob[i], p); });
    want_hoisted.push_back(frob);
  }
  std::map<std::string, long> op_primes;
  // The engine's own time per step over the repetitions (engine/bgv/op_profile.h): what
  // the cost model fits, each step apart from the mod switches and key switch inside it.
  if constexpr (std::is_same_v<B, cb::BgvBackend>) be.reset_op_profile();

  for (long r = 0; r < reps; ++r) {
    log(cb::msg("repetition ", r + 1, "/", reps));
    typename B::Ctxt ca, cb_;
    timed("encrypt", [&] { ca = be.encrypt(a); });
    cb_ = be.encrypt(b);
    std::vector<uint64_t> out;
    timed("decrypt", [&] { out = be.decrypt(ca); });
    check("encrypt/decrypt", out, a);

    auto x = ca;
    timed("add", [&] { be.add(x, cb_); });
    check("add", be.decrypt(x), want_add);
    x = ca;
    timed("mul_relin", [&] { be.mul(x, cb_); });
    check("multiply", be.decrypt(x), want_mul);
    x = ca;
    timed("mul_const", [&] { be.mul_plain(x, ptxt_k); });
    check("multiply by constant", be.decrypt(x), want_mulc);
    if (frob_k != 1) {
      x = ca;
      timed("frobenius", [&] { be.automorph(x, frob_k); });
      check("Frobenius", be.decrypt(x), want_frob);
    }
    if (!args.cost_ops) {
      x = ca;
      timed("rotate_dim0", [&] { plan_dim0.apply(be, x); });
      check("rotation along dimension 0", be.decrypt(x), want_dim0);
      x = ca;
      timed("rotate", [&] { plan_1.apply(be, x); });
      check("rotation by 1", be.decrypt(x), want_rot);
    }
    if constexpr (cb::has_automorph_many<B>::value) {
      // Hoisted Frobenius maps X -> X^(p^j), j = 1..hoisted, on one input (digits shared);
      // none when d = 1.
      std::vector<typename B::Ctxt> many;
      if (!hoisted_ks.empty()) timed("automorph_many", [&] { many = be.automorph_many(ca, hoisted_ks); });
      for (size_t i = 0; i < many.size(); ++i) check("hoisted Frobenius", be.decrypt(many[i]), want_hoisted[i]);
    }
    if constexpr (std::is_same_v<B, cb::BgvBackend>) {
      // At how many primes each operation ran (a cost model's variable), and a modulus
      // switch dropping the top prime of a fresh ciphertext.
      auto primes_after = [&](const std::string& name, const std::function<void(typename B::Ctxt&)>& fn) {
        auto y = ca;
        fn(y);
        op_primes[name] = y.level();
      };
      op_primes["fresh"] = ca.level();
      primes_after("add", [&](auto& y) { be.add(y, cb_); });
      primes_after("mul_relin", [&](auto& y) { be.mul(y, cb_); });
      primes_after("mul_const", [&](auto& y) { be.mul_plain(y, ptxt_k); });
      if (frob_k != 1) primes_after("frobenius", [&](auto& y) { be.automorph(y, frob_k); });
      if (ca.level() > 1) {
        x = ca;
        timed("mod_switch", [&] { be.mod_switch_to(x, ca.level() - 1); });
        check("modulus switch", be.decrypt(x), a);
        op_primes["mod_switch"] = x.level();
      }
      if (ca.level() > 1) {
        // An add of two ciphertexts at different prime sets (one a prime lower): the
        // engine decides the sum's primes (Levels::sum_set) and switches both there; the
        // cost model's add_decide. "add_mixed_to": the sum's primes.
        auto y = cb_;
        be.mod_switch_to(y, cb_.level() - 1);
        x = ca;
        timed("add_mixed", [&] { be.add(x, y); });
        check("add at different prime sets", be.decrypt(x), want_add);
        op_primes["add_mixed"] = ca.level();
        op_primes["add_mixed_to"] = x.level();
      }
    }
  }

  // Sizes (apps/record_sizes.h): the keys made above, a fresh ciphertext, and the output
  // of a depth-2 circuit, (a b)^2, at the primes the backend leaves it (checked).
  nlohmann::json sizes;
  {
    const auto fresh = be.encrypt(a);
    auto out = fresh;
    be.mul(out, be.encrypt(b));
    be.square(out);
    check("(a b)^2 for the sizes", be.decrypt(out), apply(a, [&](long i) { return f.mul(want_mul[i], want_mul[i]); }));
    sizes = cb::apps::record_sizes_json(be, fresh, out, double(ell) * cb::apps::slot_element_bits(be));
    sizes["output"] = "(a b)^2: depth 2";
    sizes["output_capacity_bits"] = be.capacity_bits(out);
  }

  nlohmann::json j;
  j["m"] = m;
  j["p"] = p;
  j["phi"] = info.phi;
  j["d"] = info.d;
  j["slots"] = ell;
  j["bits"] = bits;
  j["c"] = c;
  j["hwt"] = hwt;
  j["log2_q"] = info.log2_q;
  j["log2_q_ct"] = info.log2_q_ct;
  j["log2_p"] = info.log2_p;
  backend_fields(be, j);
  if constexpr (std::is_same_v<B, cb::BgvBackend>) {
    j["keep_uniform_mib"] = args.keep_uniform_mib;
    j["encryption"] = be.secret_key_encryption() ? "secret" : "public";
    j["compact_keys"] = be.memory().compact_keys;  // a_j regenerated, b_j unpacked at each use (keys.h)
  }
  j["security"] = info.security;
  j["threads"] = omp_get_max_threads();
  j["reps"] = reps;
  j["keygen_s"] = keygen_s;
  j["keygen_keys"] = keys.size();
  j["setup_s"] = std::chrono::duration<double>(Clock::now() - t_setup).count();
  for (const auto& [name, v] : ms) j[name + "_ms"] = cb::util::median(v);
  for (const auto& [name, v] : cpu_ms) j["cpu_ms"][name] = cb::util::median(v);
  if (!op_primes.empty()) j["op_primes"] = op_primes;
  if constexpr (std::is_same_v<B, cb::BgvBackend>) {
    j["op_profile"] = nlohmann::json::array();
    for (const auto& e : be.op_profile())
      j["op_profile"].push_back({{"op", e.op}, {"primes", e.primes}, {"dropped", e.dropped}, {"count", e.count},
                                 {"seconds", e.seconds}});
  }
  if constexpr (cb::has_automorph_many<B>::value) j["automorph_many_count"] = hoisted_ks.size();
  j["cost_ops"] = args.cost_ops;
  j["rotate_dim0_automorphisms"] = plan_dim0.automorphisms().size();
  j["rotate_automorphisms"] = plan_1.automorphisms().size();
  j["dims"] = nlohmann::json::array();
  for (long i = 0; i < zm.dims(); ++i)
    j["dims"].push_back({{"gen", zm.gen(i)}, {"ord", zm.ord(i)}, {"good", zm.good(i)}});
  j["sizes"] = sizes;
  j["peak_rss_mb"] = peak_rss_mb();
  j["correct"] = true;
  if (args.allow_insecure) j["insecure_key"] = j["security"] <= 0;
  write_json(json_path, j);
  if (!quiet) std::cout << j.dump(2) << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times a backend's basic operations (the BGV engine or HElib); every result is checked by decryption."};
  long c = 3, hwt = 120, reps = 5, n = 8;
  std::vector<long> m_values, bits_values;
  uint64_t seed = 0;
  std::string json_path;
  bool quiet = false;
  app.add_option("--m", m_values, "cyclotomic index (odd)")->required()->allow_extra_args(false);
  app.add_option("--bits", bits_values, "ciphertext-modulus bits")->required()->allow_extra_args(false);
  app.add_option("--c", c, "key-switching digits")->capture_default_str();
  app.add_option("--hwt", hwt, "secret-key Hamming weight, 0 = dense (HElib's benchmark: dense, --hwt 0); 120 as run_cipher and the pipeline")
      ->capture_default_str();
  app.add_option("--reps", reps, "repetitions per operation (median reported)")->capture_default_str();
  app.add_option("--field-bits", n, "slot values live in GF(2^n), n | d (8: the AES field)")
      ->capture_default_str();
  app.add_option("--seed", seed, "randomness seed, 0 = fresh")->capture_default_str();
  long keep_uniform_mib = 64;
  app.add_option("--keep-uniform-mib", keep_uniform_mib,
                 "keys whose uniform half exceeds this many MiB are stored compact: that half as its seed, "
                 "the other bit-packed (0: all keys compact, 0.39 of the key memory, slower key switching)")
      ->capture_default_str();
  std::string encryption = "public";
  app.add_option("--encryption", encryption,
                 "public (default: HElib's PubKey::Encrypt, what the comparison times) or secret (the data owner's, "
                 "as run_cipher's default; BGV engine only)")
      ->check(CLI::IsMember({"public", "secret"}))
      ->capture_default_str();
  app.add_option("--json", json_path, "output file")->required();
  app.add_flag("--quiet", quiet, "no progress on stderr");
  std::string backend = "bgv";
#ifdef CB_HAVE_HELIB
  app.add_option("--backend", backend, "bgv (the project's engine, default; also: engine) or helib (HElib 2.3.0)")
      ->check(CLI::IsMember({"bgv", "engine", "helib"
#ifdef CB_HAVE_OPENFHE
                             , "openfhe"
#endif
      }));
#elif defined(CB_HAVE_OPENFHE)
  app.add_option("--backend", backend, "bgv (the project's engine, default; also: engine) or openfhe (OpenFHE 1.5.1's BGV)")
      ->check(CLI::IsMember({"bgv", "engine", "openfhe"}));
#else
  app.add_option("--backend", backend, "bgv (the project's engine, default; also: engine); helib needs a build with make helib")
      ->check(CLI::IsMember({"bgv", "engine"}));
#endif
  bool info_only = false;
  app.add_flag("--info-only", info_only,
               "only build the chain and report it (primes, log2 of the moduli, security): no keys");
  bool cost_ops = false;
  app.add_flag("--cost-ops", cost_ops,
               "only what the cost model fits: no rotations, and of the Frobenius keys only the hoisted maps' "
               "(j = 1..8)");
  bool allow_insecure = false;
  app.add_flag("--allow-insecure", allow_insecure,
               "accept a key weight HElib's formula rates at 0 bits (the JSON says insecure_key)");
  uint64_t p = 0;
  app.add_option("--p", p, "plaintext modulus, a prime: the engine's and HElib's (default 2; odd m or m = 2^k) or "
                           "OpenFHE's (a prime = 1 mod m; default 65537)");
  long threads = 0;
  app.add_option("--threads", threads, "OpenMP threads (default: OMP_NUM_THREADS; --backend openfhe: 1 when it is unset)");
  CLI11_PARSE(app, argc, argv);

  try {
    const long m = single(m_values, "--m"), bits = single(bits_values, "--bits");
    if (threads < 0) throw cb::ParameterError(cb::msg("--threads ", threads, " must be positive (0: the default)"));
    if (threads > 0) omp_set_num_threads(int(threads));
    check_writable(json_path);
    check_key_weight(hwt, allow_insecure);
    if (reps < 1) throw cb::ParameterError(cb::msg("--reps=", reps, " must be at least 1"));
    // The field polynomial of GF(2^n): the one the catalog's ciphers use for that n.
    std::map<long, uint64_t> kFieldPoly;
    std::string degrees;
    for (const cb::CipherEntry* e : cb::cipher_catalog())
      for (const auto& in : e->instances)
        if (in.p == 2 && !kFieldPoly.count(in.n))  // GF(2^n) instances: F_p ones have no field polynomial
          kFieldPoly[in.n] = in.f_low, degrees += cb::msg(degrees.empty() ? "" : ", ", in.n);
    if ((p == 0 || p == 2) && !kFieldPoly.count(n))
      throw cb::ParameterError(cb::msg("--field-bits=", n, " must be a field degree of the catalog's ciphers (", degrees, ")"));
    auto log = [&](const std::string& s) {
      if (!quiet) std::cerr << "[bench_ops] " << s << std::endl;
    };

    if (backend == "helib" && encryption == "secret")
      throw cb::ParameterError("--encryption secret: the HElib backend encrypts with the public key only");
    if (info_only && backend == "helib")
      throw cb::ParameterError("--info-only reports the engine's chain; HElib's chain is in the JSON of a --backend helib run");
#ifdef CB_HAVE_OPENFHE
    if (backend == "openfhe") {
      if (info_only) throw cb::ParameterError("--info-only reports the engine's chain; OpenFHE's is in the JSON of a --backend openfhe run");
      if (encryption == "secret") throw cb::ParameterError("--encryption secret: the OpenFHE bench encrypts with the public key only");
      if (threads == 0 && !std::getenv("OMP_NUM_THREADS")) omp_set_num_threads(1);
      const auto t_setup = Clock::now();
      const cb::OpenfheBenchParams op{m, bits, c, hwt, p ? p : 65537, reps, seed, cost_ops};
      auto j = nlohmann::json::parse(cb::openfhe_bench(op, log));
      j["threads"] = omp_get_max_threads();
      j["setup_s"] = std::chrono::duration<double>(Clock::now() - t_setup).count();
      j["peak_rss_mb"] = peak_rss_mb();
      write_json(json_path, j);
      if (!quiet) std::cout << j.dump(2) << std::endl;
      return 0;
    }
#endif
    if (info_only) {
      cb::bgv::ContextParams cp{m, bits, c, hwt};
      cp.p = long(p ? p : 2);
      const cb::bgv::Context ctx(cp);
      nlohmann::json j;
      j["m"] = m;
      j["p"] = cp.p;
      j["phi"] = ctx.phi();
      j["d"] = ctx.zmstar().d();
      j["slots"] = ctx.zmstar().ell();
      j["bits"] = bits;
      j["c"] = c;
      j["hwt"] = hwt;
      j["log2_q_ct"] = ctx.log2_Q();
      j["log2_p"] = ctx.log2_P();
      j["log2_q"] = ctx.log2_Q() + ctx.log2_P();
      j["security"] = ctx.security();
      for (long i = 0; i < ctx.num_primes(); ++i)
        j[i < ctx.S() ? "small_primes" : i < ctx.L() ? "ciphertext_primes" : "special_primes"].push_back(ctx.q(i));
      j["digits"] = ctx.digits();
      // The slot structure, for independent checks (sage/cbparams/sagecheck.py): the
      // hypercube of Z_m^*/<2>, the slot field K = GF(2)[Y]/G with its m-th root zeta, and
      // theta, the root of the cipher field's modulus that embeds GF(2^n) in K (n | d).
      const cb::ZmStar& zm = ctx.zmstar();
      j["dims"] = nlohmann::json::array();
      for (long i = 0; i < zm.dims(); ++i)
        j["dims"].push_back({{"gen", zm.gen(i)}, {"ord", zm.ord(i)}, {"good", zm.good(i)}, {"twist", zm.twist(i)}});
      try {
        if (cp.p != 2) throw cb::ParameterError("the slot field is reported at p = 2 only (sagecheck's cross-check)");
        const cb::SlotRing ring(zm);
        j["slot_field"] = {{"G", gf2x_hex(ring.G())}, {"zeta", gf2x_hex(ring.zeta())}};
        if (zm.d() % n == 0) {
          const cb::Subfield sub(ring, n, kFieldPoly.at(n));
          NTL::GF2X f_low;
          for (long i = 0; i < 64; ++i) NTL::SetCoeff(f_low, i, (kFieldPoly.at(n) >> i) & 1);
          j["field"] = {{"n", n}, {"f_low", gf2x_hex(f_low)}, {"theta", gf2x_hex(sub.theta())}};
        }
      } catch (const cb::ParameterError& e) {
        j["slot_field_error"] = e.what();  // e.g. d > 1024: the chain exists, the slots do not
      }
      if (allow_insecure) j["insecure_key"] = j["security"] <= 0;
      write_json(json_path, j);
      if (!quiet) std::cout << j.dump(2) << std::endl;
      return 0;
    }

    const auto t_setup = Clock::now();
    const Args args{m, bits, c, hwt, reps, n, keep_uniform_mib, seed, json_path, quiet, log, allow_insecure, cost_ops};
#ifdef CB_HAVE_HELIB
    if (backend == "helib") {
      if (p != 0 && p != 2) {
        cb::HelibBackend be(cb::HelibParams{m, bits, c, hwt, seed}, cb::PrimeField(p));
        return bench(be, args, t_setup);
      }
      cb::HelibBackend be(cb::HelibParams{m, bits, c, hwt, seed}, n, kFieldPoly.at(n));
      return bench(be, args, t_setup);
    }
#endif
    const cb::BgvParams bp{m, bits, c, hwt, seed, keep_uniform_mib, encryption == "secret"};
    if (p != 0 && p != 2) {
      cb::BgvBackend be(bp, cb::PrimeField(p));
      return bench(be, args, t_setup);
    }
    cb::BgvBackend be(bp, n, kFieldPoly.at(n));
    return bench(be, args, t_setup);
  } catch (const Mismatch& e) {
    std::cerr << e.what() << std::endl;
    return 2;
#ifdef CB_HAVE_OPENFHE
  } catch (const cb::OpenfheMismatch& e) {
    std::cerr << e.what() << std::endl;
    return 2;
#endif
  } catch (const std::exception& e) {
    std::cerr << "bench_ops: " << e.what() << std::endl;
    return 1;
  }
}
