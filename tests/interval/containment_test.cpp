// Randomized containment: every operation of both back ends encloses the exact result at
// exact points drawn inside random operand intervals (reference.hpp explains the method).
// IntervalD runs at 53 bits; IntervalMp at precisions from 2 to 512 bits, binary operations
// also with mixed operand precisions. Fixed seeds, so a failure reproduces.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include "adapters.hpp"
#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::testing;

namespace {

const long kMpPrecisions[] = {2, 3, 7, 24, 53, 64, 113, 128, 200, 256, 512};
constexpr int kDrawsD = 3000;    // draws for IntervalD (4 points each)
constexpr int kDrawsMp = 300;    // draws per IntervalMp precision (11 precisions)

// Runs `body(checker, report, draws)` for IntervalD and for IntervalMp at every precision,
// and requires no violation and a minimum number of checks (the test cannot pass vacuously).
template <class Body>
void for_each_backend(Body body, double min_fraction_checked = 0.3) {
    {
        ContainmentChecker<IntervalD, AdapterD> c(53, 0xD0D0);
        CheckReport r;
        body(c, r, kDrawsD);
        INFO("IntervalD: " << r.summary());
        CHECK(r.violations == 0);
        CHECK(r.checks >= static_cast<long>(min_fraction_checked * kDrawsD));
    }
    for (long p : kMpPrecisions) {
        ContainmentChecker<IntervalMp, AdapterMp> c(p, 0xA0A0 + static_cast<std::uint64_t>(p));
        c.other_precs = {2, 24, 53, 113, 256};
        c.other_precs.push_back(p);
        CheckReport r;
        body(c, r, kDrawsMp);
        INFO("IntervalMp at " << p << " bits: " << r.summary());
        CHECK(r.violations == 0);
        CHECK(r.checks >= static_cast<long>(min_fraction_checked * kDrawsMp));
    }
}

bool is_zero_interval(const Bounds& b) { return mpfr_zero_p(b.lo.v) && mpfr_zero_p(b.hi.v); }

}  // namespace

TEST_CASE("add encloses the exact sum of any points of its operands", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.binary_q(r, "add", [](const auto& x, const auto& y) { return x + y; }, q_add, n);
        c.binary_q(r, "add-assign", [](auto x, const auto& y) { x += y; return x; }, q_add, n);
    });
}

TEST_CASE("sub encloses the exact difference of any points of its operands", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.binary_q(r, "sub", [](const auto& x, const auto& y) { return x - y; }, q_sub, n);
        c.binary_q(r, "sub-assign", [](auto x, const auto& y) { x -= y; return x; }, q_sub, n);
        c.unary_q(r, "neg", [](const auto& x) { return -x; }, q_neg, n);
    });
}

TEST_CASE("mul encloses the exact product of any points of its operands", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.binary_q(r, "mul", [](const auto& x, const auto& y) { return x * y; }, q_mul, n);
        c.binary_q(r, "mul-assign", [](auto x, const auto& y) { x *= y; return x; }, q_mul, n);
    });
}

TEST_CASE("div encloses the exact quotient of any points, also for divisors containing zero", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        // Set semantics: x / y is the hull of {a / b : a in x, b in y, b != 0}; only y = [0, 0]
        // (no admissible divisor) is a domain error.
        auto only_zero = [](const Bounds&, const Bounds& y) { return is_zero_interval(y); };
        c.binary_q(r, "div", [](const auto& x, const auto& y) { return x / y; }, q_div, n, false, only_zero);
        c.binary_q(r, "div-assign", [](auto x, const auto& y) { x /= y; return x; }, q_div, n, false, only_zero);
    });
}

TEST_CASE("div by intervals straddling or touching zero encloses every admissible quotient", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.draw_second = [](std::mt19937_64& rng, long) {  // divisors [-a, b], [0, b], [-a, 0]
            Bounds b(64);
            const int shape = static_cast<int>(rng() % 3);
            mpfr_set_si_2exp(b.lo.v, shape == 1 ? 0 : -static_cast<long>(rng() % 3 + 1), -static_cast<long>(rng() % 3),
                             MPFR_RNDN);
            mpfr_set_si_2exp(b.hi.v, shape == 2 ? 0 : static_cast<long>(rng() % 3 + 1), -static_cast<long>(rng() % 3),
                             MPFR_RNDN);
            return b;
        };
        auto only_zero = [](const Bounds&, const Bounds& y) { return is_zero_interval(y); };
        c.binary_q(r, "div by zero-containing", [](const auto& x, const auto& y) { return x / y; }, q_div, n, false,
                   only_zero);
        c.draw_second = {};
    });
}

TEST_CASE("aliased operations x op x enclose a op b for all points a, b of x", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        auto any_zero = [](const Bounds& x, const Bounds&) { return is_zero_interval(x); };
        c.binary_q(r, "x = x + x", [](auto x, const auto&) { x = x + x; return x; }, q_add, n, true);
        c.binary_q(r, "x += x", [](auto x, const auto&) { x += x; return x; }, q_add, n, true);
        c.binary_q(r, "x -= x", [](auto x, const auto&) { x -= x; return x; }, q_sub, n, true);
        c.binary_q(r, "x = x * x", [](auto x, const auto&) { x = x * x; return x; }, q_mul, n, true);
        c.binary_q(r, "x *= x", [](auto x, const auto&) { x *= x; return x; }, q_mul, n, true);
        c.binary_q(r, "x /= x", [](auto x, const auto&) { x /= x; return x; }, q_div, n, true, any_zero);
        c.unary_q(r, "x = sqr(x)", [](auto x) { x = sqr(x); return x; }, q_sqr, n);
    });
}

TEST_CASE("sqr, abs and relu enclose their exact values", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.unary_q(r, "sqr", [](const auto& x) { return sqr(x); }, q_sqr, n);
        c.unary_q(r, "abs", [](const auto& x) { return abs(x); }, q_abs, n);
        c.unary_q(r, "relu", [](const auto& x) { return relu(x); }, q_relu, n);
    });
}

TEST_CASE("integer powers enclose the exact power, negative exponents included", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        for (int k : {-3, -2, -1, 0, 1, 2, 3, 4, 5, 8}) {
            auto zero_only = [k](const Bounds& x) { return k < 0 && is_zero_interval(x); };
            c.unary_q(r, ("pow " + std::to_string(k)).c_str(), [k](const auto& x) { return pow(x, k); }, q_pow(k),
                      n / 4, zero_only);
        }
    });
}

TEST_CASE("min and max enclose the exact min and max of any points", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.binary_q(r, "min", [](const auto& x, const auto& y) { return min(x, y); }, q_min, n);
        c.binary_q(r, "max", [](const auto& x, const auto& y) { return max(x, y); }, q_max, n);
    });
}

TEST_CASE("leaky_relu encloses max(x, g x) for any x and slope g in [0, 1]", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.draw_second = [](std::mt19937_64& rng, long prec) {  // [g1, g2] inside [0, 1]
            Bounds b(prec);
            double g1 = static_cast<double>(rng() >> 11) * 0x1p-53, g2 = static_cast<double>(rng() >> 11) * 0x1p-53;
            if (rng() % 4 == 0) g1 = 0;
            if (rng() % 4 == 0) g2 = 1;
            if (g1 > g2) std::swap(g1, g2);
            mpfr_set_d(b.lo.v, g1, MPFR_RNDD);  // rounding keeps [0, 1]: 0 and 1 are representable
            mpfr_set_d(b.hi.v, g2, MPFR_RNDU);
            return b;
        };
        c.binary_q(r, "leaky_relu", [](const auto& x, const auto& g) { return leaky_relu(x, g); }, q_leaky, n);
        c.draw_second = {};
    });
}

TEST_CASE("hull encloses every point of both operands", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        int turn = 0;
        RatBinary either = [&turn](mpq_t o, const mpq_t x, const mpq_t y) {
            mpq_set(o, (turn++ % 2) ? x : y);
            return true;
        };
        c.binary_q(r, "hull", [](const auto& x, const auto& y) { return hull(x, y); }, either, n);
    });
}

TEST_CASE("sqrt encloses the square root of every nonnegative point (domain restricted)", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.unary_mpfr(r, "sqrt", [](const auto& x) { return sqrt(x); }, mpfr_sqrt, n,
                     [](mpfr_srcptr p) { return mpfr_sgn(p) >= 0; },
                     [](const Bounds& x) { return mpfr_sgn(x.hi.v) < 0; });
    });
}

TEST_CASE("exp and expm1 enclose their values at every point", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.unary_mpfr(r, "exp", [](const auto& x) { return exp(x); }, mpfr_exp, n);
        c.unary_mpfr(r, "expm1", [](const auto& x) { return expm1(x); }, mpfr_expm1, n);
    });
}

TEST_CASE("log and log1p enclose their values at every point of their domains", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.unary_mpfr(r, "log", [](const auto& x) { return log(x); }, mpfr_log, n,
                     [](mpfr_srcptr p) { return mpfr_sgn(p) > 0; },
                     [](const Bounds& x) { return mpfr_sgn(x.hi.v) <= 0; });
        c.unary_mpfr(r, "log1p", [](const auto& x) { return log1p(x); }, mpfr_log1p, n,
                     [](mpfr_srcptr p) { return mpfr_cmp_si(p, -1) > 0; },
                     [](const Bounds& x) { return mpfr_cmp_si(x.hi.v, -1) <= 0; });
    });
}

TEST_CASE("sin, cos and atan enclose their values at every point, huge arguments included", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) {
        c.unary_mpfr(r, "sin", [](const auto& x) { return sin(x); }, mpfr_sin, n);
        c.unary_mpfr(r, "cos", [](const auto& x) { return cos(x); }, mpfr_cos, n);
        c.unary_mpfr(r, "atan", [](const auto& x) { return atan(x); }, mpfr_atan, n);
    });
}

namespace {
// Intersection: when intersect() reports an overlap, `out` must equal x ∩ y exactly (the
// bounds are copied, never rounded); when it reports none, the two must be disjoint.
template <class I, class A>
void check_intersect(ContainmentChecker<I, A>& c, CheckReport& r, int n) {
    for (int d = 0; d < n; ++d) {
        const Bounds xb = c.draw();
        Bounds yb = c.draw();
        if (d % 2 == 0) {  // make an overlap likely: y around a point of x
            const Real p = random_point(c.rng, xb, xb.lo.prec());
            mpfr_set_prec(yb.lo.v, xb.lo.prec());
            mpfr_set(yb.lo.v, p.v, MPFR_RNDN);
            if (A::format(c.prec).subnormals)  // keep it a double (53-bit MPFR numbers below 2^-1022 are not)
                mpfr_set_d(yb.lo.v, mpfr_get_d(p.v, MPFR_RNDD), MPFR_RNDN);
        }
        if (mpfr_cmp(yb.lo.v, yb.hi.v) > 0) mpfr_swap(yb.lo.v, yb.hi.v);
        if (mpfr_inf_p(yb.lo.v) && mpfr_sgn(yb.lo.v) > 0) continue;
        const I x = A::make(xb, c.prec), y = A::make(yb, c.prec);
        I out = x;
        const bool overlap = intersect(x, y, out);
        ++r.checks;
        const bool disjoint = mpfr_cmp(xb.hi.v, yb.lo.v) < 0 || mpfr_cmp(yb.hi.v, xb.lo.v) < 0;
        if (overlap == disjoint) {
            r.fail("intersect said overlap=" + std::to_string(overlap) + " for " + xb.str() + ", " + yb.str());
            continue;
        }
        if (!overlap) continue;
        const Bounds ob = A::bounds(out);
        mpfr_srcptr lo = mpfr_cmp(xb.lo.v, yb.lo.v) >= 0 ? xb.lo.v : yb.lo.v;
        mpfr_srcptr hi = mpfr_cmp(xb.hi.v, yb.hi.v) <= 0 ? xb.hi.v : yb.hi.v;
        if (mpfr_cmp(ob.lo.v, lo) != 0 || mpfr_cmp(ob.hi.v, hi) != 0)
            r.fail("intersect of " + xb.str() + ", " + yb.str() + " gave " + ob.str());
    }
}
}  // namespace

TEST_CASE("intersect returns exactly the common part, or reports disjoint operands", "[containment]") {
    for_each_backend([](auto& c, CheckReport& r, int n) { check_intersect(c, r, n); });
}

namespace {
// mid is inside x (IntervalD) / mid_point is inside x (IntervalMp); x lies inside
// [mid - rad, mid + rad]; width >= upper - lower; mag >= |v| >= mig for every v in x.
void check_accessors(const Bounds& xb, mpfr_srcptr m, double rad_v, double width_v, double mag_v, double mig_v,
                     CheckReport& r) {
    Rat lo, hi, t, u;
    ++r.checks;
    const std::string where = " for x = " + xb.str();
    if (!in_bounds(xb, m)) r.fail("mid outside x" + where);
    if (mpfr_nan_p(m)) return;
    // rad: lo >= m - rad and hi <= m + rad (infinite bounds need rad = inf)
    if (!std::isinf(rad_v)) {
        if (!xb.finite_lo() || !xb.finite_hi()) { r.fail("finite rad of an unbounded interval" + where); return; }
        mpfr_get_q(t.v, m);
        mpq_set_d(u.v, rad_v);
        mpfr_get_q(lo.v, xb.lo.v);
        mpfr_get_q(hi.v, xb.hi.v);
        Rat a;
        mpq_sub(a.v, t.v, u.v);
        if (mpq_cmp(a.v, lo.v) > 0) r.fail("mid - rad above lower" + where);
        mpq_add(a.v, t.v, u.v);
        if (mpq_cmp(a.v, hi.v) < 0) r.fail("mid + rad below upper" + where);
    }
    if (!std::isinf(width_v)) {
        Rat w;
        mpfr_get_q(lo.v, xb.lo.v);
        mpfr_get_q(hi.v, xb.hi.v);
        mpq_sub(w.v, hi.v, lo.v);
        mpq_set_d(u.v, width_v);
        if (mpq_cmp(u.v, w.v) < 0) r.fail("width below upper - lower" + where);
    } else if (xb.finite_lo() && xb.finite_hi()) {
        // an infinite width of a bounded interval is allowed only when the exact width overflows
        Real w(60);
        mpfr_sub(w.v, xb.hi.v, xb.lo.v, MPFR_RNDU);  // an upper bound on the exact width
        if (mpfr_cmp_d(w.v, std::numeric_limits<double>::max()) <= 0) r.fail("needlessly infinite width" + where);
    }
    // mag >= max(|lo|, |hi|), mig <= min |v|
    Real a(xb.lo.prec()), b(xb.hi.prec());
    mpfr_abs(a.v, xb.lo.v, MPFR_RNDN);
    mpfr_abs(b.v, xb.hi.v, MPFR_RNDN);
    if (mpfr_cmp_d(a.v, mag_v) > 0 || mpfr_cmp_d(b.v, mag_v) > 0) r.fail("mag below a bound's magnitude" + where);
    const bool has_zero = mpfr_sgn(xb.lo.v) <= 0 && mpfr_sgn(xb.hi.v) >= 0;
    if (has_zero ? mig_v != 0.0 : (mpfr_cmp_d(a.v, mig_v) < 0 || mpfr_cmp_d(b.v, mig_v) < 0))
        r.fail("mig above min |x|" + where);
}
}  // namespace

TEST_CASE("mid, rad, width, mag and mig are consistent with the exact bounds", "[containment]") {
    {
        ContainmentChecker<IntervalD, AdapterD> c(53, 0x1D);
        CheckReport r;
        for (int d = 0; d < kDrawsD; ++d) {
            const Bounds xb = c.draw();
            const IntervalD x = AdapterD::make(xb, 53);
            Real m(53);
            mpfr_set_d(m.v, mid(x), MPFR_RNDN);
            check_accessors(xb, m.v, rad(x), width(x), mag(x), mig(x), r);
        }
        INFO("IntervalD: " << r.summary());
        CHECK(r.violations == 0);
        CHECK(r.checks == kDrawsD);
    }
    for (long p : kMpPrecisions) {
        ContainmentChecker<IntervalMp, AdapterMp> c(p, 0x1D + static_cast<std::uint64_t>(p));
        CheckReport r;
        for (int d = 0; d < kDrawsMp; ++d) {
            const Bounds xb = c.draw();
            const IntervalMp x = AdapterMp::make(xb, p);
            const Bounds mb = AdapterMp::bounds(mid_point(x));
            if (mpfr_cmp(mb.lo.v, mb.hi.v) != 0) {
                ++r.checks;
                r.fail("mid_point is not a point for " + xb.str());
                continue;
            }
            if (!xb.finite_lo() || !xb.finite_hi()) continue;  // mid_point of an unbounded interval: see docs
            check_accessors(xb, mb.lo.v, rad(x), width(x), mag(x), mig(x), r);
        }
        INFO("IntervalMp at " << p << " bits: " << r.summary());
        CHECK(r.violations == 0);
        CHECK(r.checks > kDrawsMp / 3);
    }
}
