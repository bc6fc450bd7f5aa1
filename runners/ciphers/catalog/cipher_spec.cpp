#include "ciphers/catalog/cipher_spec.h"

#include "ciphers/reference/hex.h"
#include "engine/errors.h"

namespace cb {

CipherField FieldInstance::make_field(const InstanceSpec& s) {
  if (s.p == 2) return GF2n(s.n, s.f_low);
  if (s.n != 1)
    throw ParameterError(msg(s.id, ": p=", s.p, " with n=", s.n, ": prime-field instances are F_p (n = 1) for now"));
  return PrimeField(s.p);
}

Elements FieldInstance::from_bytes(const std::vector<uint8_t>& bytes, long count, const std::string& what) const {
  const long eb = element_bytes();
  if (long(bytes.size()) != count * eb)
    throw ParameterError(msg(what, " has ", bytes.size(), " bytes: ", count, " elements of ",
                             CipherEntry::field_label(spec_), " take ", count * eb, " (", eb, " each)"));
  Elements v(count, 0);
  for (long i = 0; i < count; ++i) {
    for (long b = 0; b < eb; ++b) v[i] = (v[i] << 8) | bytes[i * eb + b];
    if (F_.is_prime()) {
      if (v[i] >= spec_.p)
        throw ParameterError(msg(what, ": element ", i, " is ", v[i], ", not below p=", spec_.p, " (F_", spec_.p,
                                 " elements are 0..", spec_.p - 1, ")"));
      continue;
    }
    if (spec_.n < 64 && (v[i] >> spec_.n))
      throw ParameterError(msg(what, ": element ", i, " has bits above x^", spec_.n - 1, " (GF(2^", spec_.n,
                               ") elements are below 2^", spec_.n, ")"));
  }
  return v;
}

std::vector<uint8_t> FieldInstance::to_bytes(const Elements& v) const {
  const long eb = element_bytes();
  std::vector<uint8_t> out;
  out.reserve(v.size() * eb);
  for (uint64_t x : v)
    for (long b = eb - 1; b >= 0; --b) out.push_back(uint8_t(x >> (8 * b)));
  return out;
}

Elements FieldInstance::parse(const std::string& text, long count, const std::string& what) const {
  if (!F_.is_prime()) return from_bytes(from_hex(text, what), count, what);
  Elements v;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(',', start);
    const std::string tok = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const long i = long(v.size());
    if (tok.empty() || tok.size() > 19 || tok.find_first_not_of("0123456789") != std::string::npos)
      throw ParameterError(msg(what, " ", text, ": element ", i, " '", tok, "' is not a decimal number (",
                               CipherEntry::field_label(spec_), " elements are written 0..", spec_.p - 1,
                               ", comma-separated)"));
    const uint64_t x = std::stoull(tok);
    if (x >= spec_.p)
      throw ParameterError(msg(what, " ", text, ": element ", i, " is ", x, ", not below p=", spec_.p, " (F_", spec_.p,
                               " elements are 0..", spec_.p - 1, ")"));
    v.push_back(x);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (long(v.size()) != count)
    throw ParameterError(msg(what, " ", text, " has ", v.size(), " element", v.size() == 1 ? "" : "s", ": ", spec_.id,
                             " needs ", count, " (of ", CipherEntry::field_label(spec_), ", comma-separated)"));
  return v;
}

std::string FieldInstance::format(const Elements& v) const {
  if (!F_.is_prime()) return to_hex(to_bytes(v));
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string CipherEntry::field_label(const InstanceSpec& i) {
  if (i.p == 2) return i.n == 1 ? std::string("GF(2)") : msg("GF(2^", i.n, ")");
  return msg("F_", i.p);
}

std::string CipherEntry::instance_label(const InstanceSpec& i) { return msg(field_label(i), "^", i.s); }

std::string CipherEntry::display_instance(const InstanceSpec& i) const {
  if (!name_instances) return display;
  return i.s == 1 ? msg(display, " ", field_label(i)) : msg(display, " ", instance_label(i));
}

}  // namespace cb
