// Tightness for point inputs. Stated bounds (docs/arithmetic.md, "Tightness"):
//  * IntervalD + - * / sqrt: at most 1 ulp wide (upper == next_up(lower)), and a point when
//    the exact result is a double -- as long as operands and result stay inside the range
//    where the error-free transformations are exact (|result| in [2^-960, 2^1000], operands
//    below 2^995). In the guard zones outside it the bound is widened unconditionally: at
//    most 2 ulps.
//  * IntervalD exp, expm1, log, log1p, sin, cos, atan: at most 2 ulps (MPFI at 53 bits is
//    1 ulp, the conversion to double is exact in the normal range; 2 leaves room for the
//    subnormal range), and a point at the exact points (exp 0 = 1, log 1 = 0, ...).
//  * IntervalMp at p bits, point operands at p bits: width <= 2^(1-p) * mag(result) (1 ulp)
//    for + - * / sqrt, and <= 2^(2-p) * mag(result) (2 ulps) for the elementary functions.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <gmp.h>
#include <mpfr.h>

#include <cmath>
#include <functional>
#include <random>

#include "adapters.hpp"

using namespace flowcert;
using namespace flowcert::testing;

namespace {

// Number of doubles d with lower < d <= upper, capped at 10.
int ulps_wide(const IntervalD& r) {
    int k = 0;
    for (double d = r.lower(); d < r.upper() && k < 10; d = rounding::next_up(d)) ++k;
    return k;
}

// Is the rational a op b a double?
bool exact_is_double(double a, double b, char op) {
    mpq_t qa, qb, q;
    mpq_inits(qa, qb, q, nullptr);
    mpq_set_d(qa, a);
    mpq_set_d(qb, b);
    switch (op) {
    case '+': mpq_add(q, qa, qb); break;
    case '-': mpq_sub(q, qa, qb); break;
    case '*': mpq_mul(q, qa, qb); break;
    default: mpq_div(q, qa, qb); break;
    }
    mpfr_t t;
    mpfr_init2(t, 53);
    const int inexact = mpfr_set_q(t, q, MPFR_RNDN);
    const double d = mpfr_get_d(t, MPFR_RNDN);
    mpq_t back;
    mpq_init(back);
    mpq_set_d(back, d);
    const bool ok = inexact == 0 && mpq_equal(back, q) && std::isfinite(d);
    mpq_clears(qa, qb, q, back, nullptr);
    mpfr_clear(t);
    return ok;
}

// A random double with |x| in [2^emin, 2^emax), either sign; sometimes a short (exactly
// combinable) significand so that exact results occur.
double random_double(std::mt19937_64& rng, int emin, int emax) {
    const int e = std::uniform_int_distribution<int>(emin, emax - 1)(rng);
    const bool short_mantissa = rng() % 3 == 0;
    const std::uint64_t m = short_mantissa ? (rng() % 1024) | 1 : (rng() >> 11) | (std::uint64_t{1} << 52);
    double x = std::ldexp(static_cast<double>(m), e - (short_mantissa ? 10 : 52));
    return rng() & 1 ? -x : x;
}

bool in_exact_range(double v) {
    return std::fabs(v) >= rounding::kTiny && std::fabs(v) <= rounding::kProdMax;
}

}  // namespace

TEST_CASE("IntervalD + - * / of points are at most 1 ulp wide, and points when the result is a double") {
    std::mt19937_64 rng(0x7167);
    int checked = 0, exact_cases = 0;
    for (int i = 0; i < 20000; ++i) {
        const double a = random_double(rng, -400, 400), b = random_double(rng, -400, 400);
        const IntervalD x = IntervalD::exact(a), y = IntervalD::exact(b);
        const std::pair<char, IntervalD> results[] = {{'+', x + y}, {'-', x - y}, {'*', x * y}, {'/', x / y}};
        for (const auto& [op, r] : results) {
            const double approx = op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : a / b;
            if (!in_exact_range(approx) && approx != 0.0) continue;
            ++checked;
            INFO(a << " " << op << " " << b << " -> " << to_string(r));
            REQUIRE(ulps_wide(r) <= 1);
            if (exact_is_double(a, b, op)) {
                ++exact_cases;
                REQUIRE(is_point(r));
            }
        }
    }
    CHECK(checked > 70000);
    CHECK(exact_cases > 1000);  // the "point when exact" clause was exercised
}

TEST_CASE("IntervalD + - * / of points in the guard zones are at most 2 ulps wide") {
    std::mt19937_64 rng(0x6a7d);
    int checked = 0;
    for (int i = 0; i < 5000; ++i) {
        // tiny products / quotients and operands near the overflow threshold
        const double a = random_double(rng, -1074 + 60, -500), b = random_double(rng, -560, -400);
        const double c = random_double(rng, 995, 1024), d = random_double(rng, -3, 3);
        for (const IntervalD& r : {IntervalD::exact(a) * IntervalD::exact(b), IntervalD::exact(a) / IntervalD::exact(c),
                                   IntervalD::exact(c) * IntervalD::exact(d), IntervalD::exact(c) / IntervalD::exact(d)}) {
            if (!is_bounded(r)) continue;
            ++checked;
            INFO(to_string(r));
            REQUIRE(ulps_wide(r) <= 2);
        }
    }
    CHECK(checked > 10000);
}

TEST_CASE("IntervalD sqrt of a point is at most 1 ulp wide, and a point for perfect squares") {
    std::mt19937_64 rng(0x5a27);
    for (int i = 0; i < 20000; ++i) {
        const double a = std::fabs(random_double(rng, -1070, 990));  // subnormals included (scaled, still tight)
        const IntervalD r = sqrt(IntervalD::exact(a));
        INFO("sqrt " << a << " -> " << to_string(r));
        REQUIRE(ulps_wide(r) <= 1);
        const double s = std::fabs(random_double(rng, -450, 490));
        if (std::fma(s, s, -(s * s)) == 0.0) {  // s*s exact: sqrt(s*s) = s exactly
            const IntervalD p = sqrt(IntervalD::exact(s * s));
            REQUIRE(is_point(p));
            REQUIRE(p.lower() == s);
        }
    }
}

TEST_CASE("IntervalD elementary functions of points are at most 2 ulps wide, and exact at exact points") {
    std::mt19937_64 rng(0xe1e);
    using F = IntervalD (*)(const IntervalD&);
    const std::pair<const char*, F> fns[] = {{"exp", exp}, {"expm1", expm1}, {"log", log}, {"log1p", log1p},
                                             {"sin", sin},  {"cos", cos},     {"atan", atan}};
    int checked = 0;
    for (int i = 0; i < 3000; ++i) {
        const double a = random_double(rng, -30, 9);
        for (const auto& [name, f] : fns) {
            const bool log_domain = std::string(name) == "log" ? a > 0 : std::string(name) == "log1p" ? a > -1 : true;
            if (!log_domain) continue;
            const IntervalD r = f(IntervalD::exact(a));
            if (!is_bounded(r) || r.upper() == 0.0 || r.lower() == 0.0) continue;
            ++checked;
            INFO(name << "(" << a << ") -> " << to_string(r));
            REQUIRE(ulps_wide(r) <= 2);
        }
    }
    CHECK(checked > 15000);
    CHECK(is_point(exp(IntervalD(0))));
    CHECK(exp(IntervalD(0)).lower() == 1.0);
    CHECK(is_point(log(IntervalD(1))));
    CHECK(is_point(sin(IntervalD(0))));
    CHECK(is_point(cos(IntervalD(0))));
    CHECK(is_point(atan(IntervalD(0))));
    CHECK(is_point(expm1(IntervalD(0))));
    CHECK(is_point(log1p(IntervalD(0))));
}

namespace {
// width(r) <= 2^(k - p) * mag(r), evaluated exactly with MPFR.
bool within_ulps(const IntervalMp& r, long p, int k) {
    const Bounds b = AdapterMp::bounds(r);
    if (mpfr_inf_p(b.lo.v) || mpfr_inf_p(b.hi.v)) return false;
    mpfr_t w, m;
    mpfr_inits2(4 * p + 64, w, m, static_cast<mpfr_ptr>(nullptr));
    mpfr_sub(w, b.hi.v, b.lo.v, MPFR_RNDU);
    mpfr_abs(m, b.lo.v, MPFR_RNDN);
    if (mpfr_cmpabs(b.hi.v, m) > 0) mpfr_abs(m, b.hi.v, MPFR_RNDN);
    mpfr_mul_2si(m, m, k - p, MPFR_RNDN);
    const bool ok = mpfr_cmp(w, m) <= 0;
    mpfr_clears(w, m, static_cast<mpfr_ptr>(nullptr));
    return ok;
}
}  // namespace

TEST_CASE("IntervalMp results of point operands are within the stated multiple of 2^-prec") {
    std::mt19937_64 rng(0x3b);
    for (long p : {2L, 3L, 10L, 24L, 53L, 64L, 113L, 128L, 256L, 512L}) {
        const Format f = mp_format(p);
        int checked = 0;
        for (int i = 0; i < 300; ++i) {
            Bounds xb(p), yb(p);
            random_bound(rng, f, xb.lo.v, false);
            random_bound(rng, f, yb.lo.v, false);
            // moderate magnitudes (the elementary functions need finite, nonzero results)
            mpfr_set_exp(xb.lo.v, std::uniform_int_distribution<long>(-8, 4)(rng));
            mpfr_set_exp(yb.lo.v, std::uniform_int_distribution<long>(-8, 4)(rng));
            if (mpfr_zero_p(xb.lo.v) || mpfr_zero_p(yb.lo.v)) continue;
            mpfr_set(xb.hi.v, xb.lo.v, MPFR_RNDN);
            mpfr_set(yb.hi.v, yb.lo.v, MPFR_RNDN);
            const IntervalMp x = AdapterMp::make(xb, p), y = AdapterMp::make(yb, p);
            INFO(p << " bits, x = " << to_string(x) << ", y = " << to_string(y));
            for (const IntervalMp& r : {x + y, x - y, x * y, x / y, sqrt(abs(x))}) {
                if (is_point(r) && possibly_zero(r)) continue;  // exact zero: nothing to measure
                ++checked;
                INFO("basic op -> " << to_string(r));
                REQUIRE(within_ulps(r, p, 1));
            }
            for (const IntervalMp& r : {exp(x), log(abs(x)), sin(x), cos(x), atan(x), expm1(x)}) {
                ++checked;
                INFO("elementary -> " << to_string(r));
                REQUIRE(within_ulps(r, p, 2));
            }
        }
        CHECK(checked > 2000);
    }
}

TEST_CASE("decimal input is the tightest enclosure: 1 ulp, or a point when exact") {
    for (const char* s : {"0.1", "-1e-3", "2.5e-7", "8/3", "1e300", "-1e-310"}) {
        const IntervalD x = IntervalD::from_decimal(s);
        INFO(s << " -> " << to_string(x));
        CHECK(ulps_wide(x) == 1);
    }
    for (const char* s : {"0.5", "-3", "1/4", "0.375"}) CHECK(is_point(IntervalD::from_decimal(s)));
    for (long p : {2L, 24L, 113L, 512L}) {
        const IntervalMp x = IntervalMp::from_decimal("0.1", Precision(p));
        CHECK(within_ulps(x, p, 1));
        CHECK(is_point(IntervalMp::from_decimal("0.375", Precision(std::max(p, 3L)))));
    }
}
