#include "ciphers/catalog/catalog.h"

#include <algorithm>

#include "ciphers/catalog/keystream_spec.h"
#include "ciphers/catalog/program.h"
#include "engine/errors.h"

namespace cb {

// The entries: catalog_entries.inc has one line CB_ENTRY(name) per entry, in the registry's
// order (CB_CIPHERS in runners/ciphers/CMakeLists.txt), and each folder's entry.cpp defines
// name_entry().
#define CB_ENTRY(name) const CipherEntry& name##_entry();
#include "catalog_entries.inc"
#undef CB_ENTRY

namespace {

// Why an entry's instances do not run on elements (packed, sliced), or on bits; "" if they do.
std::string refusal(const CipherEntry& e, bool bits) {
  if (e.keystream()) return bits ? "a keystream generator runs one block per slot, one ciphertext per state element" : "";
  for (const auto& sp : e.instances) {
    const auto inst = e.make(sp);
    const std::string why = bits ? bits_refusal(*inst) : elements_refusal(*inst);
    if (!why.empty()) return why;
  }
  return "";
}

std::vector<const CipherEntry*> make_catalog() {
  std::vector<const CipherEntry*> all = {
#define CB_ENTRY(name) &name##_entry(),
#include "catalog_entries.inc"
#undef CB_ENTRY
  };
  for (auto* e : all) check_entry(*e);
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (all[i]->name == all[j]->name) throw ParameterError(msg("cipher catalog: two entries named ", all[i]->name));
      for (auto& a : all[i]->instances)
        for (auto& b : all[j]->instances)
          if (a.id == b.id) throw ParameterError(msg("cipher catalog: instance id ", a.id, " in ", all[j]->name, " and ",
                                                     all[i]->name));
    }
  return all;
}

std::string names() {
  std::string s;
  for (auto* e : cipher_catalog()) s += (s.empty() ? "" : ", ") + e->name;
  return s;
}

}  // namespace

void check_entry(const CipherEntry& e) {
  const std::string who = msg("cipher entry '", e.name, "'");
  auto need = [&](bool ok, const std::string& field) {
    if (!ok) throw ParameterError(msg(who, ": ", field, " is missing"));
  };
  need(!e.name.empty(), "name");
  need(!e.display.empty(), "display");
  need(!e.description.empty(), "description");
  need(!e.citation.empty(), "citation");
  need(!e.instances.empty(), "instances");
  need(e.make != nullptr || e.make_keystream != nullptr, "make (the function building an instance)");
  if (e.make && e.make_keystream)
    throw ParameterError(msg(who, ": both make and make_keystream: an entry is a block cipher or a keystream generator"));
  need(!e.sliced_name.empty(), "sliced_name");
  if (e.sliced_name == kBitSliced || e.sliced_name == "packed")
    throw ParameterError(msg(who, ": sliced_name ", e.sliced_name, " is another packing's name"));
  for (size_t i = 0; i < e.instances.size(); ++i) {
    const auto& in = e.instances[i];
    const std::string where = msg(who, " instance ", i, " (", in.id.empty() ? "?" : in.id, ")");
    auto bad = [&](bool ok, const std::string& what) {
      if (!ok) throw ParameterError(msg(where, ": ", what));
    };
    bad(!in.id.empty(), "id is missing");
    if (in.p != 2) {  // F_p: n = 1, no polynomial
      bad(in.p > 2 && in.p < PrimeField::kMaxP && util::is_prime(in.p),
          msg("p=", in.p, ": the characteristic is 2 (GF(2^n)) or an odd prime below 2^61"));
      bad(in.n == 1, msg("n=", in.n, " with p=", in.p, ": prime-field instances are F_p, n = 1"));
      bad(in.f_low == 0, msg("f_low=0x", std::hex, in.f_low, std::dec, " with p=", in.p, ": F_p has no field polynomial"));
    } else {
      bad(in.n >= 1 && in.n <= 64, msg("n=", in.n, ": the field degree must be 1..64 (1: a Boolean cipher)"));
      bad(in.f_low != 0 && (in.n == 64 || (in.f_low >> in.n) == 0),
          msg("f_low=0x", std::hex, in.f_low, std::dec, ": the field polynomial x^n + f_low needs 0 < f_low < 2^n"));
    }
    bad(in.s >= 1, msg("s=", in.s, ": a block has at least one element"));
    bad(in.rounds >= 1, msg("rounds=", in.rounds, ": at least one round"));
    bad(in.key_elements >= 1, msg("key_elements=", in.key_elements, ": a key has at least one element"));
    for (size_t j = 0; j < i; ++j)
      bad(e.instances[j].n != in.n || e.instances[j].s != in.s || e.instances[j].p != in.p,
          in.p == 2 ? msg("n=", in.n, ", s=", in.s, " is declared twice (instances are told apart by n and s)")
                    : msg("p=", in.p, ", s=", in.s, " is declared twice (instances are told apart by p, n and s)"));
  }
  if (e.keystream())
    for (const auto& in : e.instances) check_program(*e.make_keystream(in));
  if (packings(e).empty())
    throw ParameterError(msg(who, ": no packing runs it (on elements: ", refusal(e, false), "; on bits: ",
                             refusal(e, true), ")"));
}

const std::vector<const CipherEntry*>& cipher_catalog() {
  static const std::vector<const CipherEntry*> all = make_catalog();
  return all;
}

const CipherEntry& find_cipher(const std::string& name) {
  for (auto* e : cipher_catalog())
    if (e->name == name) return *e;
  throw ParameterError(msg("--cipher ", name, ": not in the catalog (", names(), ")"));
}

const InstanceSpec& find_instance(const CipherEntry& e, long n, long s, uint64_t p) {
  if (p == 0) p = 2;
  if (p != 2) {
    if (n != 0 && n != 1)
      throw ParameterError(msg("--field-bits ", n, " with --p ", p, ": prime-field instances are F_p (degree 1)"));
    if (p < 3 || p >= PrimeField::kMaxP || !util::is_prime(p))
      throw ParameterError(msg("--p ", p, ": the characteristic is 2 (GF(2^n)) or an odd prime below 2^61"));
    if (e.excludes)
      if (const std::string why = e.excludes(p); !why.empty()) throw ParameterError(why);
    n = 1;
  } else if (!n && !s) {
    return e.instances.front();
  }
  // Without --p, --field-bits and --state-size name a GF(2^n) instance.
  for (const auto& in : e.instances)
    if (in.p == p && (!n || in.n == n) && (!s || in.s == s)) return in;
  std::string have;
  for (const auto& in : e.instances) have += (have.empty() ? "" : ", ") + CipherEntry::instance_label(in);
  throw ParameterError(msg(e.name, " has no instance with", p != 2 ? msg(" --p ", p) : "",
                           n && p == 2 ? msg(" --field-bits ", n) : "", (n && p == 2) && s ? " and" : "",
                           p != 2 && s ? " and" : "", s ? msg(" --state-size ", s) : "", ": it has ", have));
}

std::pair<const CipherEntry*, const InstanceSpec*> find_instance_id(const std::string& id) {
  std::string ids;
  for (auto* e : cipher_catalog())
    for (const auto& in : e->instances) {
      if (in.id == id) return {e, &in};
      ids += (ids.empty() ? "" : ", ") + in.id;
    }
  throw ParameterError(msg("instance ", id, ": not in the catalog (", ids, ")"));
}

std::vector<std::string> packings(const CipherEntry& e) {
  std::vector<std::string> out;
  if (e.keystream()) return {e.sliced_name};  // one block per slot (keystream_circuit.h)
  if (refusal(e, false).empty()) out = {"packed", e.sliced_name};
  if (refusal(e, true).empty()) out.push_back(kBitSliced);
  return out;
}

std::string packing_name(const CipherEntry& e, const std::string& packing) {
  const auto have = packings(e);
  std::string list;
  for (size_t i = 0; i < have.size(); ++i) list += (i == 0 ? "" : i + 1 == have.size() ? " or " : ", ") + have[i];
  std::string name = packing;
  if (packing == "sliced" || packing == "byte-sliced") name = e.sliced_name;
  if (std::find(have.begin(), have.end(), name) != have.end()) return name;
  const bool bits = name == kBitSliced;
  const bool known = bits || name == "packed" || name == e.sliced_name;
  throw ParameterError(msg("--packing ", packing, ": ", e.name, " has ", list,
                           known ? msg(" (", refusal(e, bits), ")") : std::string()));
}

}  // namespace cb
