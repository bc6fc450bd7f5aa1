// errors.h: the engine's exception hierarchy.
//
// One root, cb::Error (a std::runtime_error), and a few narrow kinds, so callers can
// catch what they can act on. Messages name the offending value and the constraint it
// breaks, e.g. "m=53262 is even: the ring needs odd m". The library never prints.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace cb {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A parameter or argument outside what the engine supports (even m, n not dividing d, ...).
struct ParameterError : Error {
  using Error::Error;
};

// The noise estimate says the ciphertext has no capacity left: decrypting or multiplying
// further would give a wrong result, so the engine refuses instead.
struct CapacityError : Error {
  using Error::Error;
};

// A key that is missing (no key-switching key for X -> X^k) or does not match.
struct KeyError : Error {
  using Error::Error;
};

// Builds a message from streamable parts: cb::msg("m=", m, " is even").
template <class... Parts>
std::string msg(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

}  // namespace cb
