// toy_keystream_test.h: the keystream tests' toy instance (both packings' tests use it):
// four elements, three out, every operation of keystream_spec.h once, material from
// SHAKE128 per (nonce, counter). Test-only.
#pragma once

#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/reference/shake128.h"

namespace cb::testing {

class ToyKeystream : public KeystreamInstance {
 public:
  using KeystreamInstance::KeystreamInstance;
  long state_size() const override { return 4; }
  std::vector<KsRound> program() const override {
    const uint64_t two = 2 % element_field().p(), one = 1;
    return {{{"start", {KsOp::add_key(0, 2), KsOp::affine(2, 2, false)}},
             {"ark", {KsOp::key_mul(0, 4)}},
             {"affine", {KsOp::affine(0, 4)}}},
            {{"mix", {KsOp::linear({{0, 0, two}, {0, 1, one}, {1, 0, one}, {1, 1, two}, {2, 3, one}, {3, 2, one}})}},
             {"sbox", {KsOp::quadratic({{0, 3, one}}, {{1, 0, 0, one}, {2, 1, 3, one}, {3, 2, 2, two}})}}},
            {{"cube", {KsOp::power(3)}}, {"affine", {KsOp::affine(0, 4)}, }, {"final", {KsOp::add_key(1, 3), KsOp::truncate(3)}}}};
  }
  KsMaterial material(uint64_t nonce, uint64_t counter) const override {
    Shake128 x = Shake128::for_block(nonce, counter);
    const uint64_t p = element_field().p() == 2 ? 2 : element_field().p();
    auto draw = [&] { return x.next_u64_be() % p; };
    auto vec = [&](long k) {
      Elements v;
      for (long i = 0; i < k; ++i) v.push_back(draw());
      return v;
    };
    KsMaterial m;
    m.c.push_back(vec(2));
    m.rc.push_back(vec(4));
    for (int a = 0; a < 2; ++a) {
      std::vector<Elements> M;
      for (int i = 0; i < 4; ++i) M.push_back(vec(4));
      m.M.push_back(M);
      m.c.push_back(vec(4));
    }
    return m;
  }
  Elements keystream(const Elements& key, uint64_t nonce, uint64_t counter) const override {
    return eval_program(*this, key, material(nonce, counter));
  }
};

InstanceSpec toy_spec(uint64_t p) {
  InstanceSpec s{"toy", 1, p == 2 ? 1u : 0u, 3, 3, 4, p};
  return s;
}

}  // namespace cb::testing
