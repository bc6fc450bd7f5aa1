// catalog.h: the registry of ciphers. Each entry lives in its own folder under
// runners/ciphers/ (its description, clear reference and vectors) and is listed once in
// the registry (CB_CIPHERS, runners/ciphers/CMakeLists.txt; catalog.cpp reads it); nothing
// else in the project names a cipher. The executables ask the catalog (run_cipher
// --list-ciphers writes it as JSON for the Python side).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ciphers/catalog/cipher_spec.h"

namespace cb {

// Every entry, in the registry's order (each checked once: required fields present,
// instances consistent; a broken entry throws ParameterError naming the field).
const std::vector<const CipherEntry*>& cipher_catalog();

// The entry named `name`; ParameterError listing the catalog's names otherwise.
const CipherEntry& find_cipher(const std::string& name);

// The entry's instance with field degree n (0: any) and state size s (0: any), the first
// one when both are 0; ParameterError naming the instances it has otherwise. p (0 or 2:
// GF(2^n)) > 2 asks for the F_p instance (n must then be 0 or 1): a p the cipher's
// definition excludes (CipherEntry::excludes) is refused first, naming the constraint.
const InstanceSpec& find_instance(const CipherEntry& e, long n, long s, uint64_t p = 0);

// The instance by its id ("aes", "vision8", "mimc63"); ParameterError listing the ids.
std::pair<const CipherEntry*, const InstanceSpec*> find_instance_id(const std::string& id);

// Checks an entry's declaration: ParameterError naming the first missing or inconsistent
// field ("cipher entry 'x': no instances"). The catalog runs it on every entry it lists.
void check_entry(const CipherEntry& e);

// The bit-sliced packing's name (ciphers/common/bit_sliced.h), the same for every entry.
inline const std::string kBitSliced = "bit-sliced";

// The packings an entry offers, in this order: "packed" and its sliced name (AES:
// "byte-sliced") when its rounds run on field elements (no Boolean step), "bit-sliced"
// when every instance's rounds run on bits (bit_round has no power map; decryption
// further needs an inverse circuit for each Boolean step).
std::vector<std::string> packings(const CipherEntry& e);

// Returns the entry's own name for `packing` ("sliced" and "byte-sliced" are one), or
// throws ParameterError naming the packings it has (and, for one it lacks, why).
std::string packing_name(const CipherEntry& e, const std::string& packing);

}  // namespace cb
