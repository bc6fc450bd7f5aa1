// hex.cpp: hex parsing and printing.
#include "ciphers/reference/hex.h"

#include "engine/errors.h"

namespace cb {

namespace {

int digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::vector<uint8_t> from_hex(const std::string& hex, const std::string& what) {
  std::string h = hex;
  if (h.size() >= 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h = h.substr(2);
  if (h.size() % 2 != 0)
    throw ParameterError(msg(what, " has ", h.size(), " hex digits: a byte string needs an even number"));
  std::vector<uint8_t> out(h.size() / 2);
  for (size_t i = 0; i < h.size(); ++i) {
    const int v = digit(h[i]);
    if (v < 0) throw ParameterError(msg(what, " has '", h[i], "' at position ", i, ": only hex digits are allowed"));
    out[i / 2] = uint8_t(out[i / 2] << 4 | v);
  }
  return out;
}

std::string to_hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

}  // namespace cb
