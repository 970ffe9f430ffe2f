// flowcert/cert/case_arrays.hpp -- (implementation header of case.cpp; needs toml++, not part of cert.hpp)
// Array keys read from .npy files: a key of type `numbers` or `matrix` whose value is a string names a
// .npy file, relative to the case file's directory (`x = "figure2_x.npy"`); it is replaced in the parsed
// TOML by the array of its exact values (float64 as hex floats) before validation, so every rule of
// the key (shape, constraints) applies as if the numbers had been written in the file.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <vector>

#include <flowcert/cert.hpp>

namespace flowcert::cert::detail {

// Expands the .npy references of the keys in `schema` (recursively in table / tables keys) of `root`.
// Appends "name sha256\n" of every file read to `digests` (named in the embedded case). Throws
// CaseError (file, line, key) when a file cannot be read or has the wrong number of dimensions.
void expand_array_files(toml::table& root, const std::vector<KeySpec>& schema, const std::string& case_file,
                        std::string& digests);

}  // namespace flowcert::cert::detail
