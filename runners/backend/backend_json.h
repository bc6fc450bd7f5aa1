// backend_json.h: a backend's parameters (BackendInfo, backend.h) as JSON and back, the
// one spelling of their fields that run records ("params") and the plan cache's files share.
#pragma once

#include <nlohmann/json.hpp>

#include "backend/backend.h"

namespace cb {

// Every field, "name" (the backend) included.
inline nlohmann::json info_json(const BackendInfo& i) {
  return {{"name", i.name}, {"p", i.p}, {"m", i.m}, {"phi", i.phi}, {"d", i.d}, {"slots", i.slots}, {"bits", i.bits},
          {"c", i.c}, {"hwt", i.hwt}, {"log2_q", i.log2_q}, {"log2_q_ct", i.log2_q_ct}, {"log2_p", i.log2_p},
          {"security", i.security}};
}

// The inverse of info_json; nlohmann::json::out_of_range when a field is missing (a plan
// file written before "p" was recorded is then a miss, plan_cache.h, and is planned again).
inline BackendInfo info_of(const nlohmann::json& j) {
  BackendInfo i;
  i.name = j.at("name").get<std::string>();
  i.p = j.at("p");
  i.m = j.at("m"), i.phi = j.at("phi"), i.d = j.at("d"), i.slots = j.at("slots"), i.bits = j.at("bits");
  i.c = j.at("c"), i.hwt = j.at("hwt");
  i.log2_q = j.at("log2_q"), i.log2_q_ct = j.at("log2_q_ct"), i.log2_p = j.at("log2_p");
  i.security = j.at("security");
  return i;
}

}  // namespace cb
