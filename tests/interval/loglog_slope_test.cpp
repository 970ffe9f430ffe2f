// loglog_slope (flowcert/interval/loglog_slope.hpp) against exact references: power laws E = C delta^k whose
// values are exact doubles (slope exactly k), interval inputs whose true slope range is a rational interval
// (powers of two), overlapping enclosures, the inputs for which the slope is not bounded, and the promise that
// the result lies inside both interval forms the verifiers computed before (difference of logs, log of a ratio).
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <cmath>
#include <random>

using namespace flowcert;

namespace {

IntervalD ex(double x) { return IntervalD::exact(x); }
IntervalD bnd(double lo, double hi) { return IntervalD::bounds(lo, hi); }

// The two forms of the former copies (verifiers/kh/theorem4_limit_path.cpp, verifiers/bf/theorem1_alignment.cpp and
// proofs::kh::loglog_slope: difference of logs; verifiers/kh/theorem10_escape.cpp and proofs::rh::gap_slope: log of
// a ratio).
template <Interval I> I by_difference(const I& ea, const I& eb, const I& da, const I& db) {
    return (log(ea) - log(eb)) / (log(da) - log(db));
}
template <Interval I> I by_quotient(const I& ea, const I& eb, const I& da, const I& db) { return log(ea / eb) / log(da / db); }

}  // namespace

TEST_CASE("loglog_slope: a power law with exact values has exactly its exponent", "[loglog_slope]") {
    // E = 3 delta^(1/4) at delta = 1/16 and 1/256: E = 3/2 and 3/4, slope 1/4
    const auto s = loglog_slope(ex(1.5), ex(0.75), ex(1.0 / 16), ex(1.0 / 256));
    REQUIRE(s.has_value());
    CHECK(contains(*s, 0.25));
    CHECK(width(*s) < 1e-15);
    // E = 5 delta^3 at delta = 1/2 and 1/8: 5/8 and 5/512, slope 3; the order of the two points does not matter
    for (const auto& r : {loglog_slope(ex(5.0 / 8), ex(5.0 / 512), ex(0.5), ex(0.125)),
                          loglog_slope(ex(5.0 / 512), ex(5.0 / 8), ex(0.125), ex(0.5))}) {
        REQUIRE(r.has_value());
        CHECK(contains(*r, 3.0));
        CHECK(width(*r) < 1e-14);
    }
    // a decreasing power law: E = 7 delta^(-2) at delta = 1/4, 1/2: 112 and 28, slope -2
    const auto neg = loglog_slope(ex(112.0), ex(28.0), ex(0.25), ex(0.5));
    REQUIRE(neg.has_value());
    CHECK(contains(*neg, -2.0));
    CHECK(width(*neg) < 1e-14);
}

TEST_CASE("loglog_slope: decimal deltas and enclosed values of C delta^k", "[loglog_slope]") {
    // E = 3 delta^2 at the decimal deltas 1e-3 and 1e-4 (neither a double): slope exactly 2
    const IntervalD da = IntervalD::from_decimal("1e-3"), db = IntervalD::from_decimal("1e-4");
    const auto s = loglog_slope(IntervalD(3) * sqr(da), IntervalD(3) * sqr(db), da, db);
    REQUIRE(s.has_value());
    CHECK(contains(*s, 2.0));
    CHECK(width(*s) < 1e-13);

    // the same at 256 bits: the enclosure is as narrow as the precision
    const Precision p(256);
    const IntervalMp ma = IntervalMp::from_decimal("1e-3", p), mb = IntervalMp::from_decimal("1e-4", p);
    const auto m = loglog_slope(IntervalMp::from_integer(3, p) * sqr(ma), IntervalMp::from_integer(3, p) * sqr(mb), ma, mb);
    REQUIRE(m.has_value());
    CHECK(contains(*m, 2.0));
    CHECK(width(*m) < 1e-70);
    CHECK(m->precision() == 256);
    // and a non-integer exponent with exact values: E = 3 delta^(1/4) at 1/16, 1/256
    const auto q = loglog_slope(IntervalMp::exact(1.5, p), IntervalMp::exact(0.75, p), IntervalMp::exact(1.0 / 16, p),
                                IntervalMp::exact(1.0 / 256, p));
    REQUIRE(q.has_value());
    CHECK(contains(*q, 0.25));
    CHECK(width(*q) < 1e-70);
}

TEST_CASE("loglog_slope: interval inputs enclose the true slope range, tightly", "[loglog_slope]") {
    // E_a in [2^-6, 2^-4] at delta = 1/16, E_b in [2^-3, 2^-2] at delta = 1/4: ln(delta_a/delta_b) = -2 ln 2,
    // slope range [ln(2^-4 / 2^-3), ln(2^-6 / 2^-2)] / (-2 ln 2) = [1/2, 2] exactly.
    const auto s = loglog_slope(bnd(0x1p-6, 0x1p-4), bnd(0x1p-3, 0x1p-2), ex(1.0 / 16), ex(0.25));
    REQUIRE(s.has_value());
    CHECK(lower(*s) <= 0.5);  // sound
    CHECK(upper(*s) >= 2.0);
    CHECK(lower(*s) >= 0.5 - 1e-15);  // tight
    CHECK(upper(*s) <= 2.0 + 1e-15);

    // overlapping enclosures: E_a in [1, 4] at delta = 1/2, E_b in [2, 8] at delta = 1/8: ln(delta_a/delta_b) = 2 ln 2,
    // slope range [ln(1/8), ln(4/2)] / (2 ln 2) = [-3/2, 1/2]: bounded, and it contains 0 (no sign of the slope)
    const auto o = loglog_slope(bnd(1, 4), bnd(2, 8), ex(0.5), ex(0.125));
    REQUIRE(o.has_value());
    CHECK(contains(*o, 0.0));
    CHECK(lower(*o) <= -1.5);
    CHECK(upper(*o) >= 0.5);
    CHECK(lower(*o) >= -1.5 - 1e-15);
    CHECK(upper(*o) <= 0.5 + 1e-15);
    // identical enclosures at two deltas: the range is symmetric, [-ln 4, ln 4] / (2 ln 2) = [-1, 1]
    const auto same = loglog_slope(bnd(1, 2), bnd(1, 2), ex(0.5), ex(0.125));
    REQUIRE(same.has_value());
    CHECK(lower(*same) <= -0.5);
    CHECK(upper(*same) >= 0.5);
    CHECK(lower(*same) >= -0.5 - 1e-15);
    CHECK(upper(*same) <= 0.5 + 1e-15);
}

TEST_CASE("loglog_slope says so when the enclosures do not bound the slope", "[loglog_slope]") {
    const IntervalD e = ex(1.0), da = ex(0.5), db = ex(0.25);
    CHECK(loglog_slope(e, e, da, db).has_value());  // the control: a defined slope (0)
    // E not certainly positive: ln E unbounded below (0 touched) or undefined (negative part); never a throw
    CHECK_FALSE(loglog_slope(bnd(0, 1), e, da, db).has_value());
    CHECK_FALSE(loglog_slope(e, bnd(0, 0), da, db).has_value());
    CHECK_FALSE(loglog_slope(bnd(-1, 1), e, da, db).has_value());
    CHECK_FALSE(loglog_slope(e, bnd(-2, -1), da, db).has_value());
    // an infinite upper bound of E: the slope is unbounded on one side
    CHECK_FALSE(loglog_slope(bnd(1, INFINITY), e, da, db).has_value());
    // equal deltas, overlapping delta enclosures, a non-positive delta: the denominator may vanish or is undefined
    CHECK_FALSE(loglog_slope(e, ex(2.0), da, da).has_value());
    CHECK_FALSE(loglog_slope(e, ex(2.0), bnd(0.1, 0.2), bnd(0.15, 0.3)).has_value());
    CHECK_FALSE(loglog_slope(e, ex(2.0), bnd(0, 0.5), db).has_value());
    CHECK_FALSE(loglog_slope(e, ex(2.0), da, bnd(-0.25, -0.125)).has_value());
    // the same at 128 bits
    const Precision p(128);
    CHECK(loglog_slope(IntervalMp::exact(1, p), IntervalMp::exact(2, p), IntervalMp::exact(0.5, p), IntervalMp::exact(0.25, p))
              .has_value());
    CHECK_FALSE(loglog_slope(IntervalMp::bounds(0, 1, p), IntervalMp::exact(2, p), IntervalMp::exact(0.5, p),
                             IntervalMp::exact(0.25, p))
                    .has_value());
    CHECK_FALSE(loglog_slope(IntervalMp::exact(1, p), IntervalMp::exact(2, p), IntervalMp::exact(0.5, p),
                             IntervalMp::exact(0.5, p))
                    .has_value());
}

TEST_CASE("loglog_slope lies inside both former interval forms, and each form is sometimes the tighter", "[loglog_slope]") {
    std::mt19937_64 gen(15);
    std::uniform_real_distribution<double> expo(-12, 2), rel(0, 1e-9);
    int diff_narrower = 0, quot_narrower = 0;
    for (int k = 0; k < 4000; ++k) {
        const double a = std::exp(expo(gen)), b = (k % 4 == 0) ? a * (1 + 1e-3 * rel(gen) * 1e9) : std::exp(expo(gen));
        const IntervalD ea = (k % 2) ? ex(a) : bnd(a, a * (1 + rel(gen)));
        const IntervalD eb = (k % 3) ? ex(b) : bnd(b, b * (1 + rel(gen)));
        const double u = std::exp(expo(gen)), v = std::exp(expo(gen));
        if (u == v) continue;
        const IntervalD da = ex(u), db = ex(v);
        const auto s = loglog_slope(ea, eb, da, db);
        REQUIRE(s.has_value());
        const IntervalD f1 = by_difference(ea, eb, da, db), f2 = by_quotient(ea, eb, da, db);
        INFO("k = " << k << ", f1 = " << to_string(f1, 17) << ", f2 = " << to_string(f2, 17) << ", s = " << to_string(*s, 17));
        CHECK(subset(*s, f1));
        CHECK(subset(*s, f2));
        if (subset(f1, f2) && !subset(f2, f1)) ++diff_narrower;
        if (subset(f2, f1) && !subset(f1, f2)) ++quot_narrower;
    }
    // the intersection matters: neither form alone would satisfy both subset checks above
    CHECK(diff_narrower > 0);
    CHECK(quot_narrower > 0);

    // at 128 bits, on a few decimal sweeps
    const Precision p(128);
    for (const char* dec : {"1e-2", "3e-3", "1e-4"}) {
        const IntervalMp da = IntervalMp::from_decimal(dec, p), db = IntervalMp::from_decimal("2e-5", p);
        const IntervalMp ea = IntervalMp::from_integer(7, p) * sqrt(da), eb = IntervalMp::from_integer(7, p) * sqrt(db);
        const auto s = loglog_slope(ea, eb, da, db);
        REQUIRE(s.has_value());
        CHECK(contains(*s, 0.5));
        CHECK(subset(*s, by_difference(ea, eb, da, db)));
        CHECK(subset(*s, by_quotient(ea, eb, da, db)));
    }
}
