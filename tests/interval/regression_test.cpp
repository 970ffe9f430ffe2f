// Soundness regressions found by the randomized containment tests (containment_test.cpp) and
// the review of rounding.hpp / interval_mp.cpp. Each case failed before its fix (commit
// "fix unsound TwoProduct near overflow ..."): the exact value was outside the enclosure,
// except where marked as a boundary check.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <gmp.h>
#include <mpfr.h>

#include <cmath>
#include <limits>

using namespace flowcert;

namespace {
constexpr double kMax = std::numeric_limits<double>::max();

// Does [lo, hi] contain the exact quotient / product of the doubles a, b?
bool contains_exact(const IntervalD& r, double a, double b, char op) {
    mpq_t qa, qb, q, lo, hi;
    mpq_inits(qa, qb, q, lo, hi, nullptr);
    mpq_set_d(qa, a);
    mpq_set_d(qb, b);
    if (op == '/') mpq_div(q, qa, qb); else mpq_mul(q, qa, qb);
    bool ok = true;
    if (std::isfinite(r.lower())) { mpq_set_d(lo, r.lower()); ok = ok && mpq_cmp(lo, q) <= 0; }
    if (std::isfinite(r.upper())) { mpq_set_d(hi, r.upper()); ok = ok && mpq_cmp(q, hi) <= 0; }
    mpq_clears(qa, qb, q, lo, hi, nullptr);
    return ok;
}
}  // namespace

TEST_CASE("div near the overflow threshold encloses the exact quotient (TwoProduct overflow guard)") {
    // q * b is close to a = +-DBL_MAX; Dekker's TwoProduct(q, b) overflowed to NaN, whose sign
    // read as 0 ("exact"), so the quotient was not widened.
    const double cases[][2] = {{-kMax, -0x1.bf972f4f3f596p+136},
                               {-kMax, 0x1.202679d9a1d99p+281},
                               {kMax, -0x1.a4d9a9941247ep+986},
                               {kMax, 0x1.8f34020a74ec2p+986}};
    for (const auto& c : cases) {
        const IntervalD q = IntervalD::exact(c[0]) / IntervalD::exact(c[1]);
        INFO(c[0] << " / " << c[1] << " -> " << to_string(q));
        CHECK(contains_exact(q, c[0], c[1], '/'));
    }
}

// A boundary check rather than a regression: for mul, TwoProduct can only overflow when
// |a b| >= 2^1024 (1 - 2^-26), where fl(a b) overflows first (a search over 2e6 products
// near DBL_MAX found no counterexample before the kProdMax guard), so this passed before too.
TEST_CASE("mul whose product is just below DBL_MAX encloses the exact product") {
    const double a = 0x1.fffffffffffffp+511;  // a * a = 2^1024 - 2^972 + 2^918: rounds down to a double
    const IntervalD p = IntervalD::exact(a) * IntervalD::exact(a);
    INFO(to_string(p));
    CHECK(contains_exact(p, a, a, '*'));
    const IntervalD s = sqr(IntervalD::exact(a));
    CHECK(contains_exact(s, a, a, '*'));
}

TEST_CASE("sqrt of DBL_MAX encloses the exact square root") {
    const IntervalD r = sqrt(IntervalD::exact(kMax));
    mpfr_t ref;
    mpfr_init2(ref, 300);
    mpfr_set_d(ref, kMax, MPFR_RNDN);
    mpfr_sqrt(ref, ref, MPFR_RNDN);
    INFO(to_string(r));
    CHECK(mpfr_cmp_d(ref, r.lower()) > 0);
    CHECK(mpfr_cmp_d(ref, r.upper()) < 0);
    mpfr_clear(ref);
}

TEST_CASE("an error term that is NaN is never read as exact") {
    CHECK(rounding::error_sign(std::numeric_limits<double>::quiet_NaN()) == 2);
    CHECK(rounding::error_sign(std::numeric_limits<double>::infinity()) == 2);
    CHECK(rounding::error_sign(-0.0) == 0);
    CHECK(rounding::error_sign(-0x1p-1074) == -1);
}

TEST_CASE("IntervalMp rad covers x around mid_point even when the midpoint is inexact") {
    // [3.5, 6] at 3 bits: (3.5 + 6)/2 = 4.75 needs 5 bits, mid_point rounds it to 5 (or 4.5);
    // half the width (1.25) then misses a bound.
    const char* cases[][2] = {{"3.5", "6"}, {"-160", "-112"}};
    for (const auto& c : cases) {
        const IntervalMp x = hull(IntervalMp::from_decimal(c[0], Precision(3)), IntervalMp::from_decimal(c[1], Precision(3)));
        const IntervalMp m = mid_point(x);
        const IntervalMp ball = inflate(m, rad(x));
        INFO(to_string(x) << " mid_point " << to_string(m) << " rad " << rad(x));
        CHECK(subset(x, ball));
    }
}

TEST_CASE("pow(x, 0) is 1 for every x, including [0, 0] (set semantics)") {
    CHECK(is_point(pow(IntervalD(0), 0)));
    CHECK(pow(IntervalD(0), 0).lower() == 1.0);
    CHECK(contains(pow(IntervalMp(0), 0), 1.0));
}

TEST_CASE("log and log1p of intervals reaching +inf and the domain boundary are the whole line") {
    const double inf = std::numeric_limits<double>::infinity();
    const IntervalD a = log(IntervalD::bounds(0, inf));
    CHECK(a.lower() == -inf);
    CHECK(a.upper() == inf);
    const IntervalD b = log1p(IntervalD::bounds(-1, inf));
    CHECK(b.lower() == -inf);
    CHECK(b.upper() == inf);
    const IntervalMp c = log(IntervalMp::bounds(0, inf, Precision(80)));
    CHECK_FALSE(is_bounded(c));
}

TEST_CASE("the IntervalD rounding policy's median lies inside the interval, subnormal and unbounded ones included") {
    namespace bi = boost::numeric;
    const double dm = std::numeric_limits<double>::denorm_min();
    const double inf = std::numeric_limits<double>::infinity();
    for (const IntervalD& x : {IntervalD::exact(dm), IntervalD::bounds(-dm, -dm), IntervalD::bounds(-inf, -5),
                               IntervalD::bounds(3, inf), IntervalD::entire(), IntervalD::bounds(-kMax, kMax)}) {
        const double m = bi::median(x.boost());
        INFO(to_string(x) << " median " << m);
        CHECK(contains(x, m));
    }
}

TEST_CASE("the IntervalD rounding policy converts large integers outward") {
    detail::WidenRounding rnd;
    const long long k = (1LL << 62) + 1;  // not a double
    const double lo = rnd.conv_down(k), hi = rnd.conv_up(k);
    mpq_t q, l, h;
    mpq_inits(q, l, h, nullptr);
    mpq_set_si(q, 1, 1);
    mpq_mul_2exp(q, q, 62);
    mpq_t one;
    mpq_init(one);
    mpq_set_si(one, 1, 1);
    mpq_add(q, q, one);
    mpq_set_d(l, lo);
    mpq_set_d(h, hi);
    CHECK(mpq_cmp(l, q) < 0);
    CHECK(mpq_cmp(q, h) < 0);
    mpq_clears(q, l, h, one, nullptr);
    CHECK(rnd.conv_down(12345) == 12345.0);
}

TEST_CASE("[inf, inf] is rejected as an interval of reals by both back ends") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(IntervalD::bounds(inf, inf), std::invalid_argument);
    CHECK_THROWS_AS(IntervalD::bounds(-inf, -inf), std::invalid_argument);
    CHECK_THROWS_AS(IntervalMp::bounds(inf, inf, Precision(64)), std::invalid_argument);
    CHECK_THROWS_AS(IntervalMp::exact(-inf, Precision(64)), std::invalid_argument);
    CHECK_NOTHROW(IntervalMp::bounds(-inf, inf, Precision(64)));
}
