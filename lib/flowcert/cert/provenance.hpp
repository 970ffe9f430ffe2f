// flowcert/cert/provenance.hpp -- what a certificate records about how it was produced.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flowcert::cert {

struct Provenance {
    std::string flowcert_version;  // project version, e.g. "0.1.0"
    std::string git_commit;        // `git describe --always --dirty` at build time ("unknown" outside git)
    std::string compiler;          // e.g. "GNU 12.2.0"
    std::string compiler_flags;    // CMAKE_CXX_FLAGS + build-type flags + the interval layer's flags
    std::string build_type;        // e.g. "Release"
    std::vector<std::pair<std::string, std::string>> libraries;  // name -> version (Boost, Eigen, MPFR, ...)
    long precision_bits = 0;       // working precision of IntervalMp in this run (53 if only IntervalD)
    std::vector<std::pair<std::string, std::string>> seeds;      // name -> value
    std::string case_file;         // as given on the command line
    std::string case_sha256;       // SHA-256 of the case file's bytes (hex)
    std::string command_line;
    std::string started_utc;       // ISO 8601
    double wall_time_seconds = 0;
    bool self_test_passed = false;
    std::string self_test;         // flowcert::run_rounding_self_test().summary()
};

// The build-time part of the provenance (version, commit, compiler, flags, libraries).
Provenance build_provenance();

// SHA-256 (OpenSSL) as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);
// The current UTC time as "2026-01-31T12:34:56Z".
std::string utc_now_iso8601();

}  // namespace flowcert::cert
