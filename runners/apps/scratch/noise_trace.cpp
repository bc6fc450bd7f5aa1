// scratch: per-op bound vs measured noise on AES
#include <omp.h>
#include <cstdio>
#include <cstdlib>
#include "backend/bgv_backend.h"
#include "ciphers/aes/aes_circuit.h"
#include "engine/bgv/context.h"
#include "engine/bgv/chain.h"
#include "engine/util/canonical.h"
#include <random>
#include <map>

namespace cb {
struct Trace {
  using Ctxt = bgv::Ciphertext;
  using Ptxt = bgv::Plaintext;
  BgvBackend& b;
  mutable long n = 0;
  const ZmStar& zmstar() const { return b.zmstar(); }
  const GF2n& field() const { return b.field(); }
  long slot_count() const { return b.slot_count(); }
  Ptxt encode(const std::vector<uint64_t>& v) const { return b.encode(v); }
  Ctxt encrypt(const std::vector<uint64_t>& v) const { auto c = b.encrypt(v); show("enc", c); return c; }
  std::vector<uint64_t> decrypt(const Ctxt& c) const { return b.decrypt(c); }
  double lq(const Ctxt& c) const { return b.context().chain().log2_Q(c.primes()); }
  void show(const char* op, const Ctxt& c, const Ctxt* a0 = nullptr, const Ctxt* b0 = nullptr) const {
    bgv::RootBound m = getenv("MEAS") ? b.measured_root_noise(c) : c.noise;
    double slack = c.noise.log2_max() - m.log2_max();
    // slack at the worst measured root, and max over roots of bound/measured on the measured max
    std::printf("%5ld %-5s L=%2ld logQ=%7.1f bound=%7.2f meas=%7.2f slack=%5.2f cap=%7.2f", n++, op, c.level(), lq(c),
                c.noise.log2_max(), m.log2_max(), slack, b.capacity_bits(c));
    if (a0) {
      bgv::RootBound ma = getenv("MEAS") ? b.measured_root_noise(*a0) : a0->noise;
      std::printf(" | a: logQ=%7.1f bound=%7.2f meas=%7.2f", lq(*a0), a0->noise.log2_max(), ma.log2_max());
    }
    if (b0) {
      bgv::RootBound mb = getenv("MEAS") ? b.measured_root_noise(*b0) : b0->noise;
      std::printf(" | b: logQ=%7.1f bound=%7.2f meas=%7.2f", lq(*b0), b0->noise.log2_max(), mb.log2_max());
    }
    std::printf("\n");
  }
  void add(Ctxt& a, const Ctxt& c) const { Ctxt a0 = a; b.add(a, c); show("add", a, &a0, &c); }
  void add_plain(Ctxt& a, const Ptxt& p) const { Ctxt a0 = a; b.add_plain(a, p); show("addp", a, &a0); }
  void mul(Ctxt& a, const Ctxt& c) const { Ctxt a0 = a; b.mul(a, c); show("mul", a, &a0, &c); }
  mutable std::map<std::vector<long>, int> seen;
  void mul_plain(Ctxt& a, const Ptxt& p) const { Ctxt a0 = a; b.mul_plain(a, p); show("mulp", a, &a0);
    if (seen.count(p.coeffs())) return; seen[p.coeffs()] = 1;
    auto co = p.coeffs(); long nz = 0; std::mt19937 g(1);
    for (auto& x : co) if (x) { ++nz; if (g() & 1) x = -x; }
    auto emb = util::canonical_embedding(b.zmstar().m())->magnitudes(co);
    double mx = 0; for (double v : emb) mx = std::max(mx, v);
    std::printf("CONST nz=%ld log2|c|=%.2f signed=%.2f\n", nz, p.log2_norm(), std::log2(mx)); }
  void square(Ctxt& a) const { Ctxt a0 = a; b.square(a); show("sq", a, &a0); }
  void automorph(Ctxt& a, long k) const { Ctxt a0 = a; b.automorph(a, k); show("aut", a, &a0); }
  std::vector<Ctxt> automorph_many(const Ctxt& a, const std::vector<long>& ks) const {
    auto r = b.automorph_many(a, ks); for (auto& x : r) show("autm", x, &a); return r; }
  void require_automorphisms(const std::vector<long>& ks) { b.require_automorphisms(ks); }
  double capacity_bits(const Ctxt& c) const { return b.capacity_bits(c); }
};
}  // namespace cb

using namespace cb;
int main(int argc, char** argv) {
  omp_set_num_threads(1);
  BgvParams p;
  p.m = atol(argv[1]); p.bits = atol(argv[2]); p.seed = 3; long rounds = argc > 3 ? atol(argv[3]) : 1;
  BgvBackend bb(p, 8, aes128::kModulusLow);
  std::printf("%s\n", bb.context().chain().describe().c_str());
  Trace b{bb};
  AesCircuit<Trace, PackedRep> circ(b, rounds, false);
  b.require_automorphisms(circ.automorphisms());
  aes128::Block k{}, x{};
  for (int i = 0; i < 16; ++i) k[i] = i, x[i] = 17 * i;
  auto rk = aes128::Aes128(k).round_keys();
  circ.load_round_keys({rk.begin(), rk.end()});
  auto st = circ.encrypt_input({x});
  Evaluator<Trace> ev(b);
  for (auto& r : circ.run(ev, st)) std::printf("ROUND cap=%.2f\n", r.capacity_bits);
  b.show("end", st[0]);
}
