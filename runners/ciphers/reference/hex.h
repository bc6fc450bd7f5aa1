// hex.h: byte strings <-> hex, as in the test vectors (lowercase, no separators).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

// Accepts an optional "0x" prefix and either case; throws ParameterError naming `what`
// on an odd number of digits or a non-hex character.
std::vector<uint8_t> from_hex(const std::string& hex, const std::string& what = "hex string");
std::string to_hex(const std::vector<uint8_t>& bytes);

}  // namespace cb
