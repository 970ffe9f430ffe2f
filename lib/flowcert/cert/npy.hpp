// flowcert/cert/npy.hpp -- reading numpy's .npy files exactly (issue 18): data and weights saved with
// numpy.save / torch's state_dict via numpy enter a case file as `x = "data/x.npy"`.
// Format: numpy's NEP 1 (versions 1.0, 2.0, 3.0): the magic "\x93NUMPY", a version, a header length and a
// Python dict literal {'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }, then the raw data.
// Supported: float64 and float32 (each value exactly, written as a C99 hex float) and signed / unsigned
// integers of 1, 2, 4, 8 bytes (written in decimal), little or big endian, C or Fortran order.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace flowcert::cert {

struct NpyArray {
    std::vector<std::size_t> shape;   // () for a scalar
    std::string descr;                // numpy's dtype string, e.g. "<f8"
    std::vector<std::string> values;  // exact texts, in C (row-major) order
};

// Parses the bytes of a .npy file; throws std::runtime_error saying what is wrong (not a .npy file,
// unsupported dtype, truncated data, a non-finite value, ...).
NpyArray parse_npy(std::string_view bytes);
// Reads and parses a .npy file (the message of a failure names the file).
NpyArray read_npy(const std::filesystem::path& file);

}  // namespace flowcert::cert
