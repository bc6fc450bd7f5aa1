// slot_ring_bench: times ZmStar and SlotRing construction, encode and decode for the
// rings given on the command line (default: the AES ring 53261). Not a test; run by hand:
//   build/bin/slot_ring_bench 53261 164737
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "engine/algebra/slot_ring.h"

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<long> ms;
  for (int i = 1; i < argc; ++i) ms.push_back(std::atol(argv[i]));
  if (ms.empty()) ms.push_back(53261);
  for (long m : ms) {
    auto t0 = std::chrono::steady_clock::now();
    const cb::ZmStar zm(m);
    const double t_zm = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const cb::SlotRing ring(zm);
    const double t_ring = seconds_since(t0);
    std::mt19937_64 rng(1);
    std::vector<NTL::GF2X> v(zm.ell());
    for (auto& x : v)
      for (long i = 0; i < zm.d(); ++i)
        if (rng() & 1) NTL::SetCoeff(x, i);
    const int reps = 5;
    double t_enc = 1e9, t_dec = 1e9;
    NTL::GF2X a;
    bool ok = true;
    for (int r = 0; r < reps; ++r) {
      t0 = std::chrono::steady_clock::now();
      a = ring.encode(v);
      t_enc = std::min(t_enc, seconds_since(t0));
      t0 = std::chrono::steady_clock::now();
      ok = ok && ring.decode(a) == v;
      t_dec = std::min(t_dec, seconds_since(t0));
    }
    std::printf("m=%ld phi=%ld d=%ld ell=%ld dims=%ld: zmstar %.3f s, slot ring %.3f s, encode %.2f ms, decode %.2f ms%s\n",
                m, zm.phi(), zm.d(), zm.ell(), zm.dims(), t_zm, t_ring, 1e3 * t_enc, 1e3 * t_dec,
                ok ? "" : "  ROUND TRIP FAILED");
  }
}
