// test_vectors.h (tests only): an entry's vectors (runners/ciphers/<entry>/...) as states.
#pragma once

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace cb::testing_vectors {

struct Vector {
  std::string name;
  std::vector<uint64_t> key, plaintext, ciphertext;
  std::vector<std::vector<uint64_t>> round_states;  // after rounds 1..R
};

inline std::vector<uint64_t> elements(const nlohmann::json& j) {
  std::vector<uint64_t> v;
  for (auto& e : j) v.push_back(std::stoull(e.get<std::string>(), nullptr, 16));
  return v;
}

// file: relative to runners/ciphers (CB_CIPHERS_DIR), e.g. "aes128/vectors.json".
inline std::vector<Vector> load(const std::string& file) {
  const std::string path = std::string(CB_CIPHERS_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  const auto j = nlohmann::json::parse(in);
  std::vector<Vector> out;
  for (auto& v : j.at("vectors")) {
    Vector x;
    x.name = v.at("name").get<std::string>();
    x.key = elements(v.at("key"));
    x.plaintext = elements(v.at("plaintext"));
    x.ciphertext = elements(v.at("ciphertext"));
    for (auto& r : v.at("round_states")) x.round_states.push_back(elements(r));
    out.push_back(std::move(x));
  }
  return out;
}

inline std::string vision_file(long n, long m) {
  return "vision/vectors/vision_gf2_" + std::to_string(n) + "_m" + std::to_string(m) + ".json";
}

}  // namespace cb::testing_vectors
