#include "engine/bgv/op_profile.h"

namespace cb::bgv {

namespace {
thread_local OpProfile::Scope* t_current = nullptr;
}

OpProfile::Scope::Scope(const OpProfile& p, const char* op, long primes, long dropped, long count)
    : p_(p), op_(op), primes_(primes), dropped_(dropped), count_(count), t0_(std::chrono::steady_clock::now()),
      outer_(t_current) {
  t_current = this;
}

OpProfile::Scope::~Scope() {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  t_current = outer_;
  if (count_ <= 0) {  // not a step after all: its own time stays the outer step's
    if (outer_) outer_->nested_ += nested_;
    return;
  }
  if (outer_) outer_->nested_ += s;
  p_.add(op_, primes_, dropped_, count_, s - nested_);
}

void OpProfile::add(const char* op, long primes, long dropped, long count, double seconds) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto& e = acc_[{op, primes, dropped}];
  e.first += count;
  e.second += seconds;
}

std::vector<OpProfile::Entry> OpProfile::entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Entry> out;
  for (const auto& [k, v] : acc_) out.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), v.first, v.second});
  return out;
}

void OpProfile::reset() {
  std::lock_guard<std::mutex> lock(mu_);
  acc_.clear();
}

}  // namespace cb::bgv
