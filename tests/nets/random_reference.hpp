// tests/nets/random_reference.hpp -- a digest of 3,500 Gaussian samples of seven fixed keys and its stored
// reference value, produced once by random.cpp compiled with -ffp-contract=off (no fused multiply-add).
// Shared by test_random (the library build must reproduce it) and test_random_contracted (random.cpp
// rebuilt with contraction forced on must not: the reference detects contraction).
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

// test_random_contracted compiles random.cpp itself, with the layer's definition FLOWCERT_NETS_INTERNAL and
// without the layer's other headers (nor Eigen; tests/nets/CMakeLists.txt); every other test uses the umbrella.
#if defined(FLOWCERT_NETS_INTERNAL)
#include "flowcert/nets/random.hpp"
#else
#include <flowcert/nets.hpp>
#endif

namespace flowcert_test {

struct SampleDigest {
    std::uint64_t fnv = 0xcbf29ce484222325ULL;  // FNV-1a 64 over the bit patterns of the samples
    int samples = 0;
};

// 7 streams (seeds 1..7, purpose "X", index 0..6) x 500 samples, in that order.
inline SampleDigest gaussian_digest() {
    SampleDigest d;
    for (std::uint64_t k = 0; k < 7; ++k) {
        flowcert::nets::RandomStream rs(k + 1, "X", k);
        for (int j = 0; j < 500; ++j) {
            std::uint64_t b = std::bit_cast<std::uint64_t>(rs.gaussian());
            for (int byte = 0; byte < 8; ++byte, b >>= 8) {
                d.fnv ^= b & 0xff;
                d.fnv *= 0x100000001b3ULL;
            }
            ++d.samples;
        }
    }
    return d;
}

inline constexpr std::uint64_t kGaussianDigestReference = 0x914297d546c341cbULL;
inline constexpr int kGaussianDigestSamples = 3500;

}  // namespace flowcert_test
