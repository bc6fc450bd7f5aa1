// vision_test_circuit.h (tests only): the catalog's circuit for a Vision instance, built
// from the reference's parameters, so the Vision tests read as before the catalog.
#pragma once

#include <map>
#include <memory>
#include <utility>

#include "ciphers/catalog/catalog.h"
#include "ciphers/catalog/circuit.h"
#include "ciphers/vision/vision.h"

namespace cb {

inline const CipherInstance& vision_instance(long n, long s) {
  static std::map<std::pair<long, long>, std::unique_ptr<CipherInstance>> made;
  auto& p = made[{n, s}];
  if (!p) {
    const CipherEntry& e = find_cipher("vision");
    p = e.make(find_instance(e, n, s));
  }
  return *p;
}

template <class B, template <class> class Rep>
class VisionCircuit : public CipherCircuit<B, Rep> {
 public:
  VisionCircuit(const B& b, const Vision& ref, long rounds, bool decrypt, bool fused = false)
      : CipherCircuit<B, Rep>(b, vision_instance(ref.n(), ref.m()), rounds, decrypt, fused) {}
};

}  // namespace cb
