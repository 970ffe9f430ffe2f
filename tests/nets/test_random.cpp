// Tests of the seeded, platform-independent random streams (lib/flowcert/nets/random.hpp).
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include <flowcert/nets.hpp>

using flowcert::nets::RandomStream;

namespace {
std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }
}  // namespace

TEST_CASE("splitmix64 reproduces the published reference outputs for seed 1234567", "[random]") {
    // Reference values: Vigna's splitmix64.c (also Rosetta Code "Pseudo-random numbers/Splitmix64").
    std::uint64_t state = 1234567;
    const std::uint64_t expected[] = {6457827717110365317ULL, 3203168211198807973ULL, 9817491932198370423ULL,
                                      4593380528125082431ULL, 16408922859458223821ULL};
    for (std::uint64_t e : expected) CHECK(flowcert::nets::splitmix64_next(state) == e);
}

TEST_CASE("xoshiro256** matches a direct transcription of the reference algorithm", "[random]") {
    // Independent re-statement of xoshiro256** 1.0 from the paper's listing, run side by side.
    std::array<std::uint64_t, 4> s = {1, 2, 3, 4};
    flowcert::nets::Xoshiro256StarStar g(s);
    auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t r = rotl(s[1] * 5, 7) * 9;
        const std::uint64_t t = s[1] << 17;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
        REQUIRE(g.next() == r);
    }
    // First output from state {1,2,3,4}: rotl(2*5, 7)*9 = 1280*9 = 11520.
    flowcert::nets::Xoshiro256StarStar g2({1, 2, 3, 4});
    CHECK(g2.next() == 11520ULL);
}

TEST_CASE("log_basic_ops is within 2 ulps of the correctly rounded log over the whole double range", "[random]") {
    mpfr_t m;
    mpfr_init2(m, 200);
    RandomStream rs(7, "log-test", 0);
    int checked = 0;
    auto check = [&](double x) {
        mpfr_set_d(m, x, MPFR_RNDN);
        mpfr_log(m, m, MPFR_RNDN);
        const double ref = mpfr_get_d(m, MPFR_RNDN);
        const double got = flowcert::nets::log_basic_ops(x);
        const double ulp = std::nextafter(std::fabs(ref), INFINITY) - std::fabs(ref);
        INFO("x = " << x << " ref = " << ref << " got = " << got);
        if (ref == 0.0) REQUIRE(got == 0.0);
        else REQUIRE(std::fabs(got - ref) <= 2 * ulp);
        ++checked;
    };
    for (int i = 0; i < 200000; ++i) check(rs.uniform01() + 0x1p-60);              // the polar method's range
    for (int i = 0; i < 20000; ++i) check(std::ldexp(1.0 + rs.uniform01(), static_cast<int>(rs.next_u64() % 2000) - 1000));
    check(1.0); check(2.0); check(0.5); check(std::nextafter(1.0, 0.0)); check(std::nextafter(1.0, 2.0));
    check(0x1p-1074); check(0x1.fffffffffffffp+1023); check(1.4142135623730951); check(1.4142135623730949);
    mpfr_clear(m);
    CHECK(checked > 220000);
    CHECK(std::isnan(flowcert::nets::log_basic_ops(0.0)));
    CHECK(std::isnan(flowcert::nets::log_basic_ops(-1.0)));
}

TEST_CASE("the first Gaussian samples of a fixed key equal their golden bit patterns (platform independence)",
          "[random]") {
    // These bit patterns pin the seed scheme and the sampler. They were produced once by this
    // implementation; any platform or compiler that gives different bits breaks reproducibility
    // of every case file, so this test must never be "updated" to match a new machine.
    RandomStream rs(20260305, "X", 3);
    const std::uint64_t golden[] = {0xbfe7cfa55eb57a02ULL /* -0.74409740922766354 */, 0xbffe6156558bdc6dULL /* -1.8987639753011323 */,
                                    0xbfe9423e592f2c1dULL /* -0.78933637064745066 */, 0xbff55a4ec95285a2ULL /* -1.3345477928308829 */,
                                    0xbff249277a081414ULL /* -1.1428599135263129 */, 0x3ffba78bfeba1e9fULL /* 1.7284049940371131 */};
    for (std::uint64_t g : golden) {
        const double x = rs.gaussian();
        INFO("sample " << x);
        CHECK(bits_of(x) == g);
    }
    RandomStream ru(1, "uniform", 0);
    const std::uint64_t golden_u[] = {10897922635345456696ULL, 9484454402316977974ULL, 14808882101209332568ULL};
    for (std::uint64_t g : golden_u) CHECK(ru.next_u64() == g);
}

TEST_CASE("each Gaussian pair is within 4 ulps of the exact polar transform of its uniforms (MPFR reference)",
          "[random]") {
    // Re-derive the polar method from the raw 64-bit outputs of the same key and evaluate
    // u * sqrt(-2 ln s / s) at 200 bits: checks the sampler's formula, not only its bits.
    RandomStream rs(20260305, "X", 3), raw(20260305, "X", 3);
    mpfr_t s, f, t;
    mpfr_inits2(200, s, f, t, (mpfr_ptr)nullptr);
    int pairs = 0;
    while (pairs < 2000) {
        const double u = raw.uniform_pm1(), v = raw.uniform_pm1();
        const double ss = u * u + v * v;  // the sampler's s is this rounded value, by definition
        if (ss >= 1.0 || ss == 0.0) continue;
        mpfr_set_d(s, ss, MPFR_RNDN);
        mpfr_log(f, s, MPFR_RNDN);
        mpfr_mul_si(f, f, -2, MPFR_RNDN);
        mpfr_div(f, f, s, MPFR_RNDN);
        mpfr_sqrt(f, f, MPFR_RNDN);
        for (double c : {u, v}) {
            mpfr_mul_d(t, f, c, MPFR_RNDN);
            const double ref = mpfr_get_d(t, MPFR_RNDN);
            const double got = rs.gaussian();
            const double ulp = std::nextafter(std::fabs(ref), INFINITY) - std::fabs(ref);
            REQUIRE(std::fabs(got - ref) <= 4 * ulp);
        }
        ++pairs;
    }
    mpfr_clears(s, f, t, (mpfr_ptr)nullptr);
}

TEST_CASE("Gaussian samples have mean 0 and variance 1 within 5 standard errors on 1e5 samples", "[random]") {
    for (std::uint64_t seed : {1ULL, 2ULL, 99ULL}) {
        RandomStream rs(seed, "moments", 0);
        const int n = 100000;
        double s1 = 0, s2 = 0, s4 = 0;
        for (int i = 0; i < n; ++i) {
            const double x = rs.gaussian();
            s1 += x; s2 += x * x; s4 += x * x * x * x;
        }
        const double mean = s1 / n, var = s2 / n - mean * mean, m4 = s4 / n;
        // standard errors: mean 1/sqrt(n); variance sqrt(2/n); 4th moment sqrt(96/n) (E x^8 - 9 = 96)
        CHECK(std::fabs(mean) < 5.0 / std::sqrt(n));
        CHECK(std::fabs(var - 1.0) < 5.0 * std::sqrt(2.0 / n));
        CHECK(std::fabs(m4 - 3.0) < 5.0 * std::sqrt(96.0 / n));
    }
}

TEST_CASE("Gaussian tail frequencies match the normal law (P(|x| > 2) = 0.0455)", "[random]") {
    RandomStream rs(5, "tails", 0);
    const int n = 200000;
    int over2 = 0, neg = 0;
    for (int i = 0; i < n; ++i) {
        const double x = rs.gaussian();
        over2 += std::fabs(x) > 2.0;
        neg += x < 0.0;
    }
    const double p2 = 0.04550026389635842;
    CHECK(std::fabs(over2 / double(n) - p2) < 5 * std::sqrt(p2 * (1 - p2) / n));
    CHECK(std::fabs(neg / double(n) - 0.5) < 5 * std::sqrt(0.25 / n));
}

TEST_CASE("streams with different keys are distinct and uncorrelated, and do not depend on creation order or thread",
          "[random]") {
    const int n = 50000;
    auto draw = [n](std::uint64_t seed, const char* purpose, std::uint64_t index) {
        RandomStream rs(seed, purpose, index);
        std::vector<double> v(n);
        rs.fill_gaussian(v);
        return v;
    };
    const auto a = draw(1, "X", 0), b = draw(1, "X", 1), c = draw(2, "X", 0), d = draw(1, "w0", 0);
    for (const auto* other : {&b, &c, &d}) {
        double dot = 0;
        for (int i = 0; i < n; ++i) dot += a[i] * (*other)[i];
        CHECK(std::fabs(dot / n) < 5.0 / std::sqrt(n));  // correlation within 5 standard errors of 0
        CHECK(a != *other);
    }
    // Lag-1 autocorrelation within a stream.
    double lag = 0;
    for (int i = 0; i + 1 < n; ++i) lag += a[i] * a[i + 1];
    CHECK(std::fabs(lag / n) < 5.0 / std::sqrt(n));
    // Same key, made in another thread after other streams were used: same values.
    std::vector<double> e;
    std::thread t([&] { (void)draw(7, "X", 5); e = draw(1, "X", 1); });
    t.join();
    CHECK(e == b);
    // fill_gaussian equals the gaussian() loop.
    RandomStream r1(1, "X", 0);
    for (int i = 0; i < 11; ++i) REQUIRE(bits_of(r1.gaussian()) == bits_of(a[i]));
}

TEST_CASE("Gaussian sampling runs at 2e7 samples per second or more (Release build)", "[random][perf]") {
    RandomStream rs(3, "speed", 0);
    std::vector<double> v(4000000);
    // Thread CPU time, not wall time: the rate must not depend on the load of a shared machine.
    auto cpu_now = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec + 1e-9 * ts.tv_nsec;
    };
    const double t0 = cpu_now();
    rs.fill_gaussian(v);
    const double secs = cpu_now() - t0;
    double sink = 0;
    for (double x : v) sink += x;
    const double rate = v.size() / secs;
    INFO("rate = " << rate << " samples/s, sink = " << sink);
#ifdef NDEBUG
    CHECK(rate >= 2e7);
#else
    CHECK(rate >= 1e6);
#endif
}

#include "random_reference.hpp"

TEST_CASE("3,500 Gaussian samples of seven keys equal their stored digest computed without FMA contraction",
          "[random]") {
    // The reference was produced once with random.cpp compiled with -ffp-contract=off; contraction forced on
    // changes hundreds of these samples (test_random_contracted shows this reference catches it).
    const auto d = flowcert_test::gaussian_digest();
    CHECK(d.samples == flowcert_test::kGaussianDigestSamples);
    CHECK(d.fnv == flowcert_test::kGaussianDigestReference);
}
