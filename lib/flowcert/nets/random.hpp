// flowcert/nets/random.hpp -- seeded, platform-independent random streams.
//
// Every random number in a flowcert case comes from a `RandomStream` keyed by
// (seed, purpose, index), e.g. (42, "X", i) for row i of a data matrix. A stream depends
// only on its key, never on how many threads run or in which order streams are made, so
// an instance is reproducible bit for bit on any IEEE-754 machine.
//
// Seed scheme (fixed; changing it changes every case, so it is pinned by golden tests):
//   purpose_id(p) = FNV-1a 64-bit hash of the bytes of p
//   key           = mix64(mix64(mix64(seed) ^ purpose_id(p)) + index)      (mix64 = SplitMix64 finalizer)
//   state[0..3]   = four successive SplitMix64 outputs started at key
//   generator     = xoshiro256** (Blackman & Vigna 2018) on that state.
// Uniforms: uniform01() = (u64 >> 11) * 2^-53 in [0, 1), exactly representable.
// Gaussians: Marsaglia's polar method [Marsaglia & Bray 1964] with u, v = (u64 >> 11) * 2^-52 - 1,
//   and log computed by `log_basic_ops` from + - * / and exact bit manipulation only (no libm),
//   so the samples are bit-identical on every IEEE-754 platform when the code is compiled without
//   FMA contraction (random.cpp is compiled with -ffp-contract=off, lib/flowcert/nets/CMakeLists.txt;
//   tests/nets/test_random pins a digest of 3,500 samples) and with SSE2 doubles (no x87).
//   Samples are produced in pairs; the second of a pair is returned by the next call.
//
// NOT rigorous and not cryptographic: these numbers define instances; they never enter an
// enclosure as an approximation of something else (a generated double is an exact datum).
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace flowcert::nets {

// SplitMix64 (Steele, Lea & Flood 2014; Vigna's splitmix64.c): advances `state` and returns the next output.
std::uint64_t splitmix64_next(std::uint64_t& state) noexcept;
// The SplitMix64 output finalizer (a bijection of 64-bit words).
std::uint64_t mix64(std::uint64_t z) noexcept;
// FNV-1a 64-bit hash of the bytes of `purpose`.
std::uint64_t purpose_id(std::string_view purpose) noexcept;

// xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2018).
class Xoshiro256StarStar {
public:
    explicit Xoshiro256StarStar(const std::array<std::uint64_t, 4>& state) noexcept : s_(state) {}
    std::uint64_t next() noexcept {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    const std::array<std::uint64_t, 4>& state() const noexcept { return s_; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    std::array<std::uint64_t, 4> s_;
};

// Natural logarithm of a finite x > 0 from IEEE basic operations only (+ - * / and exact exponent
// extraction), hence bit-identical on every IEEE-754 platform. Accurate to a few ulps (tested
// against MPFR). NOT rigorous (no error bound is claimed); for sampling only. Returns NaN for
// x <= 0, NaN or inf.
double log_basic_ops(double x) noexcept;

class RandomStream {
public:
    // The stream of key (seed, purpose, index); see the seed scheme above.
    RandomStream(std::uint64_t seed, std::string_view purpose, std::uint64_t index) noexcept;

    std::uint64_t next_u64() noexcept { return gen_.next(); }
    // Uniform on [0, 1), a multiple of 2^-53.
    double uniform01() noexcept { return static_cast<double>(gen_.next() >> 11) * 0x1p-53; }
    // Uniform on [-1, 1), a multiple of 2^-52.
    double uniform_pm1() noexcept { return static_cast<double>(gen_.next() >> 11) * 0x1p-52 - 1.0; }
    // A standard normal sample (polar method; bit-identical across IEEE-754 platforms).
    double gaussian() noexcept;
    // Fills `out` with successive gaussian() samples (same values as calling gaussian() in a loop).
    void fill_gaussian(std::span<double> out) noexcept;

    static std::array<std::uint64_t, 4> initial_state(std::uint64_t seed, std::string_view purpose,
                                                      std::uint64_t index) noexcept;

private:
    Xoshiro256StarStar gen_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace flowcert::nets
