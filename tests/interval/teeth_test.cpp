// Teeth: the containment checker of reference.hpp must be able to fail. It is run, unchanged,
// against deliberately non-outward interval arithmetics and must FIND violations:
//  1. Boost.Interval with rounded_arith_exact<double> (plain round-to-nearest bounds);
//  2. flowcert's own error-free rounding with the directions swapped (rounds inward);
//  3. an exp that takes libm's std::exp at the endpoints (round-to-nearest, not rigorous).
// The same checker run against IntervalD / IntervalMp (containment_test.cpp) finds none.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <boost/numeric/interval.hpp>

#include <cmath>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::testing;
namespace bi = boost::numeric;
namespace il = boost::numeric::interval_lib;

namespace {

// 1. Round-to-nearest bounds.
using NearestInterval = bi::interval<double, il::policies<il::save_state<il::rounded_arith_exact<double>>,
                                                          il::checking_base<double>>>;

// 2. The error-free scheme of rounding.hpp with each direction reversed: inward rounding.
struct InwardRounding : detail::WidenRounding {
    double add_down(double x, double y) { return rounding::add(x, y, +1); }
    double add_up(double x, double y) { return rounding::add(x, y, -1); }
    double sub_down(double x, double y) { return rounding::add(x, -y, +1); }
    double sub_up(double x, double y) { return rounding::add(x, -y, -1); }
    double mul_down(double x, double y) { return rounding::mul(x, y, +1); }
    double mul_up(double x, double y) { return rounding::mul(x, y, -1); }
    double div_down(double x, double y) { return rounding::div(x, y, +1); }
    double div_up(double x, double y) { return rounding::div(x, y, -1); }
    double sqrt_down(double x) { return rounding::sqrt(x, +1); }
    double sqrt_up(double x) { return rounding::sqrt(x, -1); }
};
using InwardInterval = bi::interval<double, il::policies<InwardRounding, il::checking_base<double>>>;

template <class B>
struct BoostAdapter {
    static Format format(long) { return kDoubleFormat; }
    static B make(const Bounds& b, long) { return B(mpfr_get_d(b.lo.v, MPFR_RNDN), mpfr_get_d(b.hi.v, MPFR_RNDN)); }
    static Bounds bounds(const B& x) {
        Bounds b(53);
        mpfr_set_d(b.lo.v, x.lower(), MPFR_RNDN);
        mpfr_set_d(b.hi.v, x.upper(), MPFR_RNDN);
        return b;
    }
};

template <class B>
CheckReport run_basic_ops(std::uint64_t seed) {
    ContainmentChecker<B, BoostAdapter<B>> c(53, seed);
    CheckReport r;
    c.binary_q(r, "add", [](const B& x, const B& y) { return x + y; }, q_add, 2000);
    c.binary_q(r, "mul", [](const B& x, const B& y) { return x * y; }, q_mul, 2000);
    c.binary_q(r, "div", [](const B& x, const B& y) {
        if (y.lower() == 0 && y.upper() == 0) throw std::domain_error("div by [0, 0]");
        return x / y;
    }, q_div, 2000, false, [](const Bounds&, const Bounds& y) { return mpfr_zero_p(y.lo.v) && mpfr_zero_p(y.hi.v); });
    return r;
}

}  // namespace

TEST_CASE("the containment checker finds violations in round-to-nearest Boost.Interval arithmetic") {
    const CheckReport r = run_basic_ops<NearestInterval>(0x7ee7);
    INFO(r.summary());
    REQUIRE(r.checks > 10000);
    REQUIRE(r.violations > 0);
}

TEST_CASE("the containment checker finds violations when flowcert's rounding directions are swapped") {
    const CheckReport r = run_basic_ops<InwardInterval>(0x7ee8);
    INFO(r.summary());
    REQUIRE(r.checks > 10000);
    REQUIRE(r.violations > 0);
    // and the very same ops with the real policy pass (the difference is only the direction)
    const CheckReport ok = run_basic_ops<detail::BoostIntervalD>(0x7ee8);
    INFO(ok.summary());
    REQUIRE(ok.violations == 0);
}

TEST_CASE("the containment checker finds violations in an exp built on libm at the endpoints") {
    ContainmentChecker<NearestInterval, BoostAdapter<NearestInterval>> c(53, 0x7ee9);
    CheckReport r;
    c.unary_mpfr(r, "libm exp", [](const NearestInterval& x) {
        return NearestInterval(std::exp(x.lower()), std::exp(x.upper()));
    }, mpfr_exp, 3000);
    INFO(r.summary());
    REQUIRE(r.violations > 0);
}
