#include "engine/util/cyclotomic_transform.h"

#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <string>

#include "engine/errors.h"
#include "engine/util/ifma.h"
#include "engine/util/primes.h"

namespace cb::util {

namespace {
bool is_fast(uint64_t q) { return kIfmaCompiled && q < kMaxIfmaModulus; }

// Z_m^* in increasing order, one copy per m while any transform holds it.
std::shared_ptr<const std::vector<long>> zmstar_for(long m) {
  static std::mutex mu;
  static std::map<long, std::weak_ptr<const std::vector<long>>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto z = cache[m].lock()) return z;
  auto z = std::make_shared<std::vector<long>>();
  for (long j = 1; j < m; ++j)
    if (std::gcd(j, m) == 1) z->push_back(j);
  z->shrink_to_fit();
  cache[m] = z;
  return z;
}
}  // namespace

double CyclotomicTransform::bluestein_cost(long m) {
  const long n = bluestein_length(m);
  long phi = m;  // Euler's phi from the distinct prime factors (a gcd per j was 2% of a setup)
  for (uint64_t p : prime_factors(uint64_t(m))) phi = phi / long(p) * (long(p) - 1);
  // two NTTs without level 0 (n/2 (log2 n - 1) butterflies each), the kernel product,
  // two chirp products per coefficient and the values' compression
  return double(n) * (std::log2(double(n)) - 1) + double(n) + 2.0 * double(m) + double(phi);
}

CyclotomicTransform::Algorithm CyclotomicTransform::algorithm_for(long m, uint64_t q) { return choose(m, is_fast(q)); }
CyclotomicTransform::Algorithm CyclotomicTransform::algorithm_for(long m) { return choose(m, kIfmaCompiled); }

namespace {
double cost_of(CyclotomicTransform::Algorithm a, long m) {
  using A = CyclotomicTransform::Algorithm;
  return a == A::negacyclic     ? NegacyclicTransform::cost(m)
         : a == A::prime_factor ? PrimeFactorTransform::cost(m)
                                : CyclotomicTransform::bluestein_cost(m);
}

bool even_not_power_of_two(long m) { return m % 2 == 0 && (m <= 0 || (m & (m - 1)) != 0); }

std::string even_message(long m) {
  return msg("m=", m, " is even but not a power of two: the transforms take odd m or m = 2^k");
}
}  // namespace

double CyclotomicTransform::cost(long m, uint64_t q) { return cost_of(algorithm_for(m, q), m); }

double CyclotomicTransform::cost(long m) { return cost_of(algorithm_for(m), m); }

uint64_t CyclotomicTransform::step(long m) {
  if (m >= 1 && m % 2 == 1) return uint64_t(m) * uint64_t(bluestein_length(m));
  if (NegacyclicTransform::applies(m)) return uint64_t(m);
  if (even_not_power_of_two(m)) throw ParameterError(msg("CyclotomicTransform: ", even_message(m)));
  throw ParameterError(msg("CyclotomicTransform: m=", m, " must be odd >= 1 or a power of two >= 4"));
}

CyclotomicTransform::Algorithm CyclotomicTransform::choose(long m, bool fast) {
  if (NegacyclicTransform::applies(m)) return Algorithm::negacyclic;
  if (fast && PrimeFactorTransform::applies(m) &&
      PrimeFactorTransform::cost(m) < kPrimeFactorShare * bluestein_cost(m))
    return Algorithm::prime_factor;
  return Algorithm::bluestein;
}

const char* CyclotomicTransform::name(Algorithm a) {
  switch (a) {
    case Algorithm::automatic: return "automatic";
    case Algorithm::bluestein: return "bluestein";
    case Algorithm::prime_factor: return "prime_factor";
    case Algorithm::negacyclic: return "negacyclic";
  }
  return "?";
}

CyclotomicTransform::CyclotomicTransform(long m, uint64_t q, Algorithm algorithm)
    : m_(m), q_(q), zeta_(0), fast_(is_fast(q)) {
  if (m % 2 == 0) {
    if (even_not_power_of_two(m)) throw ParameterError(msg("CyclotomicTransform: ", even_message(m)));
    if (algorithm != Algorithm::automatic && algorithm != Algorithm::negacyclic)
      throw ParameterError(msg("CyclotomicTransform: m=", m, " is a power of two: the ", name(algorithm),
                               " algorithm needs odd m (the negacyclic transform serves m = 2^k)"));
    nc_ = std::make_unique<NegacyclicTransform>(m, q);  // checks 4 <= m <= 2^24 and q
    zeta_ = nc_->zeta();
    return;
  }
  if (algorithm == Algorithm::negacyclic)
    throw ParameterError(msg("CyclotomicTransform: m=", m, " is odd: the negacyclic transform needs m = 2^k"));
  BluesteinTransform::check(m, q);  // odd m >= 3, prime q = 1 mod m N: what both need
  if (algorithm == Algorithm::automatic) algorithm = choose(m, fast_);
  if (algorithm == Algorithm::prime_factor) {
    if (!PrimeFactorTransform::applies(m))
      throw ParameterError(msg("CyclotomicTransform: m=", m, " is not squarefree: the prime-factor algorithm needs "
                               "distinct prime factors"));
    zeta_ = primitive_root_of_unity(uint64_t(m), q);
    zmstar_ = zmstar_for(m);
    pf_ = std::make_unique<PrimeFactorTransform>(m, q, zeta_);
  } else {
    bl_ = std::make_unique<BluesteinTransform>(m, q);
    zeta_ = bl_->zeta();
  }
}

size_t CyclotomicTransform::bytes() const {
  return nc_ ? nc_->bytes() : pf_ ? pf_->bytes() : bl_->bytes();
}

size_t CyclotomicTransform::tables_bytes(long m, long phi, const std::vector<uint64_t>& primes) {
  size_t total = 0;
  if (NegacyclicTransform::applies(m)) return primes.size() * NegacyclicTransform::table_bytes(m);
  bool shared = false;
  for (uint64_t q : primes) {
    if (choose(m, is_fast(q)) == Algorithm::prime_factor) {
      total += PrimeFactorTransform::table_bytes(m);
      shared = true;
    } else {
      total += BluesteinTransform::table_bytes(m, phi, bluestein_length(m));
    }
  }
  return total + (shared ? shared_bytes(m, phi) : 0);
}

size_t CyclotomicTransform::shared_bytes(long m, long phi) {
  return PrimeFactorTransform::shared_bytes(m) + size_t(phi) * sizeof(long);
}

}  // namespace cb::util
