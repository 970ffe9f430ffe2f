#include <flowcert/cert.hpp>

#include <CLI/Version.hpp>
#include <Eigen/Core>
#include <boost/version.hpp>
#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <toml++/toml.h>

#include <chrono>
#include <ctime>
#include <stdexcept>

namespace flowcert::cert {

namespace detail {
const char* git_commit();  // generated at build time (git_version.cmake)
}

#ifndef FLOWCERT_VERSION
#define FLOWCERT_VERSION "unknown"
#define FLOWCERT_COMPILER "unknown"
#define FLOWCERT_CXX_FLAGS "unknown"
#define FLOWCERT_BUILD_TYPE "unknown"
#endif

Provenance build_provenance() {
    Provenance p;
    p.flowcert_version = FLOWCERT_VERSION;
    p.git_commit = detail::git_commit();
    p.compiler = FLOWCERT_COMPILER;
    p.compiler_flags = FLOWCERT_CXX_FLAGS;
    p.build_type = FLOWCERT_BUILD_TYPE;
    auto v3 = [](long a, long b, long c) {
        return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
    };
    p.libraries = {
        {"Boost", v3(BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100)},
        {"Eigen", v3(EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)},
        {"GMP", gmp_version},
        {"MPFR", mpfr_get_version()},
        {"MPFI", mpfi_get_version()},
        {"toml++", v3(TOML_LIB_MAJOR, TOML_LIB_MINOR, TOML_LIB_PATCH)},
        {"nlohmann-json",
         v3(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH)},
        {"CLI11", CLI11_VERSION},
        {"OpenSSL", OPENSSL_FULL_VERSION_STR},
    };
    return p;
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("OpenSSL SHA-256 failed");
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
        out += hex[md[i] >> 4];
        out += hex[md[i] & 15];
    }
    return out;
}

std::string utc_now_iso8601() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace flowcert::cert
