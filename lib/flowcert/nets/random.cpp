// Seeded, platform-independent random streams; see random.hpp for the seed scheme.
#include "flowcert/nets/random.hpp"

#include <bit>
#include <cmath>
#include <limits>

#if defined(__FAST_MATH__)
#error "random.cpp must not be built with -ffast-math: Gaussian samples would differ across platforms"
#endif
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "random.cpp needs double evaluation in double precision (FLT_EVAL_METHOD == 0, e.g. SSE2)"
#endif

namespace flowcert::nets {

std::uint64_t mix64(std::uint64_t z) noexcept {
    // [Vigna, splitmix64.c] finalizer (Stafford's Mix13 variant)
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t splitmix64_next(std::uint64_t& state) noexcept {
    state += 0x9e3779b97f4a7c15ULL;
    return mix64(state);
}

std::uint64_t purpose_id(std::string_view purpose) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64 offset basis
    for (unsigned char c : purpose) {
        h ^= c;
        h *= 0x100000001b3ULL;  // FNV 64 prime
    }
    return h;
}

std::array<std::uint64_t, 4> RandomStream::initial_state(std::uint64_t seed, std::string_view purpose,
                                                         std::uint64_t index) noexcept {
    std::uint64_t key = mix64(mix64(mix64(seed) ^ purpose_id(purpose)) + index);
    std::array<std::uint64_t, 4> s{};
    for (auto& w : s) w = splitmix64_next(key);
    // xoshiro must not start from the all-zero state (probability 2^-256; guarded anyway).
    if ((s[0] | s[1] | s[2] | s[3]) == 0) s[0] = 1;
    return s;
}

RandomStream::RandomStream(std::uint64_t seed, std::string_view purpose, std::uint64_t index) noexcept
    : gen_(initial_state(seed, purpose, index)) {}

double log_basic_ops(double x) noexcept {
    if (!(x > 0.0) || !(x <= std::numeric_limits<double>::max())) return std::numeric_limits<double>::quiet_NaN();
    // x = m * 2^e with m in [sqrt(1/2), sqrt(2)), by exact bit manipulation.
    int e = 0;
    if (x < 0x1p-1022) {  // subnormal: scale up exactly
        x *= 0x1p54;
        e -= 54;
    }
    auto bits = std::bit_cast<std::uint64_t>(x);
    e += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;  // m in [1, 2)
    double m = std::bit_cast<double>(bits);
    if (m >= 1.4142135623730951) {  // m > sqrt 2: halve (exact)
        m *= 0.5;
        ++e;
    }
    // log m = 2 atanh(t), t = (m - 1)/(m + 1), |t| <= 0.1716, t^2 <= 0.02944:
    // 2 (t + t^3/3 + ... + t^23/23); the truncation error is < 2 t^25/25 < 1e-20 relative.
    const double t = (m - 1.0) / (m + 1.0);
    const double t2 = t * t;
    double p = 1.0 / 23.0;
    p = p * t2 + 1.0 / 21.0;
    p = p * t2 + 1.0 / 19.0;
    p = p * t2 + 1.0 / 17.0;
    p = p * t2 + 1.0 / 15.0;
    p = p * t2 + 1.0 / 13.0;
    p = p * t2 + 1.0 / 11.0;
    p = p * t2 + 1.0 / 9.0;
    p = p * t2 + 1.0 / 7.0;
    p = p * t2 + 1.0 / 5.0;
    p = p * t2 + 1.0 / 3.0;
    const double log_m = 2.0 * t + 2.0 * t * (t2 * p);
    // e ln 2 with ln 2 ~ LN2_HI + LN2_LO (fdlibm's split): LN2_HI has 33 significant bits, so
    // e * LN2_HI is exact for |e| <= 1100.
    constexpr double kLn2Hi = 0x1.62e42feep-1;
    constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
    const double de = static_cast<double>(e);
    return de * kLn2Hi + (log_m + de * kLn2Lo);
}

double RandomStream::gaussian() noexcept {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    // [Marsaglia & Bray 1964] polar method.
    double u, v, s;
    do {
        u = uniform_pm1();
        v = uniform_pm1();
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    // sqrt and / are correctly rounded in IEEE 754, so f is the same everywhere.
    const double f = std::sqrt(-2.0 * log_basic_ops(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
}

void RandomStream::fill_gaussian(std::span<double> out) noexcept {
    for (double& x : out) x = gaussian();
}

}  // namespace flowcert::nets
