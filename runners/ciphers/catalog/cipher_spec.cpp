#include "ciphers/catalog/cipher_spec.h"

#include "engine/errors.h"

namespace cb {

Elements CipherInstance::from_bytes(const std::vector<uint8_t>& bytes, long count, const std::string& what) const {
  const long eb = element_bytes();
  if (long(bytes.size()) != count * eb)
    throw ParameterError(msg(what, " has ", bytes.size(), " bytes: ", count, " elements of GF(2^", spec_.n, ") take ",
                             count * eb, " (", eb, " each)"));
  Elements v(count, 0);
  for (long i = 0; i < count; ++i) {
    for (long b = 0; b < eb; ++b) v[i] = (v[i] << 8) | bytes[i * eb + b];
    if (spec_.n < 64 && (v[i] >> spec_.n))
      throw ParameterError(msg(what, ": element ", i, " has bits above x^", spec_.n - 1, " (GF(2^", spec_.n,
                               ") elements are below 2^", spec_.n, ")"));
  }
  return v;
}

std::vector<uint8_t> CipherInstance::to_bytes(const Elements& v) const {
  const long eb = element_bytes();
  std::vector<uint8_t> out;
  out.reserve(v.size() * eb);
  for (uint64_t x : v)
    for (long b = eb - 1; b >= 0; --b) out.push_back(uint8_t(x >> (8 * b)));
  return out;
}

std::string CipherEntry::instance_label(const InstanceSpec& i) { return msg("GF(2^", i.n, ")^", i.s); }

std::string CipherEntry::display_instance(const InstanceSpec& i) const {
  if (!name_instances) return display;
  return i.s == 1 ? msg(display, " GF(2^", i.n, ")") : msg(display, " ", instance_label(i));
}

}  // namespace cb
