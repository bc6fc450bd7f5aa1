#include "backend/plan_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "backend/backend_json.h"
#include "engine/errors.h"

namespace cb {

namespace {
using json = nlohmann::json;

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

json plan_to_json(const ChainPlan& p) {
  json ops = json::array();
  for (const auto& c : p.op_counts) ops.push_back({c.op, c.primes, c.dropped, c.count, c.lanes});
  return {{"bits", p.bits},
          {"info", info_json(p.info)},
          {"chain", p.chain},
          {"fresh_capacity", p.fresh_capacity},
          {"round_capacity", p.round_capacity},
          {"min_capacity", p.min_capacity},
          {"bits_per_round", p.bits_per_round},
          {"chains_tried", p.chains_tried},
          {"choice", p.choice},
          {"keys", p.keys},
          {"random_terms", p.random_terms},
          {"op_counts", ops},
          {"op_counts_bits", p.op_counts_bits}};
}

ChainPlan plan_of(const json& j) {
  ChainPlan p;
  p.bits = j.at("bits");
  p.info = info_of(j.at("info"));
  p.chain = j.at("chain").get<std::string>();
  p.fresh_capacity = j.at("fresh_capacity");
  p.round_capacity = j.at("round_capacity").get<std::vector<double>>();
  p.min_capacity = j.at("min_capacity");
  p.bits_per_round = j.at("bits_per_round");
  p.chains_tried = j.at("chains_tried");
  p.choice = j.at("choice").get<std::string>();
  p.keys = j.at("keys");
  p.random_terms = j.at("random_terms");
  for (const auto& o : j.at("op_counts"))
    p.op_counts.push_back({o.at(0).get<std::string>(), o.at(1).get<long>(), o.at(2).get<long>(), o.at(3).get<long>(),
                           o.at(4).get<long>()});
  p.op_counts_bits = j.at("op_counts_bits");
  return p;
}
}  // namespace

PlanCache::PlanCache(std::string dir) : dir_(std::move(dir)) {
  if (!enabled()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || ::access(dir_.c_str(), W_OK) != 0)
    throw ParameterError(msg("--plan-cache ", dir_, ": not a writable directory",
                             ec ? " (" + ec.message() + ")" : std::string{}, ": give another, or '' for no cache"));
}

std::string PlanCache::engine_identity() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  struct stat st {};
  if (ec || ::stat(exe.c_str(), &st) != 0) return "engine:unknown";
  std::ostringstream s;
  s << "engine:" << exe.string() << ":" << st.st_size << ":" << st.st_mtim.tv_sec << "." << st.st_mtim.tv_nsec;
  return s.str();
}

std::string PlanCache::path_of(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json", static_cast<unsigned long long>(fnv1a(key)));
  return (std::filesystem::path(dir_) / name).string();
}

std::optional<ChainPlan> PlanCache::load(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream f(path_of(key));
  if (f) {
    try {
      const json j = json::parse(f);
      if (j.at("key").get<std::string>() == key) {
        ChainPlan p = plan_of(j.at("plan"));
        ++hits_;
        return p;
      }
    } catch (const std::exception&) {
      // unreadable or of another layout: a miss, rewritten by store()
    }
  }
  ++misses_;
  return std::nullopt;
}

void PlanCache::store(const std::string& key, const ChainPlan& plan) const {
  if (!enabled()) return;
  std::error_code ec;
  const std::string path = path_of(key);
  const std::string tmp = msg(path, ".tmp", ::getpid());
  {
    std::ofstream f(tmp);
    f << json{{"key", key}, {"plan", plan_to_json(plan)}}.dump(1) << "\n";
    if (!f) throw ParameterError(msg("--plan-cache ", dir_, ": cannot write ", tmp));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw ParameterError(msg("--plan-cache ", dir_, ": cannot rename ", tmp, " to ", path, " (", ec.message(), ")"));
}

}  // namespace cb
