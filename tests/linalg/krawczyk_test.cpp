// Krawczyk / interval Newton for nonlinear systems.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::linalg;
using namespace flowcert::linalg::test;

namespace {

// F(x, y) = (x^2 + y^2 - 1, x - y): zero at (1/sqrt2, 1/sqrt2) (and its negative).
template <class I> IVector<I> circle_line(const IVector<I>& v) {
    IVector<I> f(2);
    f(0) = sqr(v(0)) + sqr(v(1)) - 1;
    f(1) = v(0) - v(1);
    return f;
}
template <class I> IMatrix<I> circle_line_jacobian(const IVector<I>& v) {
    IMatrix<I> J(2, 2);
    J(0, 0) = 2 * v(0);
    J(0, 1) = 2 * v(1);
    J(1, 0) = constant_like(v(0), 1);
    J(1, 1) = constant_like(v(0), -1);
    return J;
}

template <class I> IVector<I> box2(const char* lo0, const char* hi0, const char* lo1, const char* hi1) {
    IVector<I> X(2);
    const long p = kBits<I>;
    X(0) = hull(IntervalTraits<I>::from_decimal(lo0, p), IntervalTraits<I>::from_decimal(hi0, p));
    X(1) = hull(IntervalTraits<I>::from_decimal(lo1, p), IntervalTraits<I>::from_decimal(hi1, p));
    return X;
}

// Exact test that 1/sqrt(2) ∈ x: lower <= 0 or lower^2 <= 1/2, and upper > 0 and upper^2 >= 1/2.
template <class I> bool encloses_inv_sqrt2(const I& x) {
    const Q lo = lower_q(x), hi = upper_q(x), half(1, 2);
    return (lo <= 0 || lo * lo <= half) && hi > 0 && hi * hi >= half;
}

}  // namespace

TEMPLATE_TEST_CASE("krawczyk proves a unique zero of the circle-line system and encloses 1/sqrt2", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    const auto r = krawczyk<I>(circle_line<I>, circle_line_jacobian<I>, box2<I>("0.5", "1", "0.5", "1"));
    INFO(r.reason);
    REQUIRE(r.status == KrawczykStatus::unique_zero);
    REQUIRE(encloses_inv_sqrt2(r.box(0)));
    REQUIRE(encloses_inv_sqrt2(r.box(1)));
    REQUIRE(max_width<I>(r.box) < (std::is_same_v<I, IntervalD> ? 1e-14 : 1e-35));
}

TEMPLATE_TEST_CASE("krawczyk proves there is no zero in a box far from the solution set", "", IntervalD, IntervalMp) {
    using I = TestType;
    const auto r = krawczyk<I>(circle_line<I>, circle_line_jacobian<I>, box2<I>("2", "3", "2", "3"));
    INFO(r.reason);
    REQUIRE(r.status == KrawczykStatus::no_zero);
}

TEMPLATE_TEST_CASE("krawczyk does not claim uniqueness or absence where the Jacobian is singular", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    // F(x, y) = (x^2, y): a double zero at the origin, J = diag(2x, 1) singular there.
    VectorFunction<I> F = [](const IVector<I>& v) {
        IVector<I> f(2);
        f(0) = sqr(v(0));
        f(1) = v(1);
        return f;
    };
    JacobianFunction<I> J = [](const IVector<I>& v) {
        IMatrix<I> M(2, 2);
        M(0, 0) = 2 * v(0);
        M(0, 1) = constant_like(v(0), 0);
        M(1, 0) = constant_like(v(0), 0);
        M(1, 1) = constant_like(v(0), 1);
        return M;
    };
    const auto r = krawczyk<I>(F, J, box2<I>("-0.1", "0.1", "-0.1", "0.1"));
    INFO(r.reason);
    REQUIRE(r.status == KrawczykStatus::not_proven);
}

TEMPLATE_TEST_CASE("krawczyk never claims a unique zero in a box holding two zeros", "", IntervalD, IntervalMp) {
    using I = TestType;
    // F(x, y) = (x^2 - 1/4, y): zeros (+-1/2, 0), both in the box.
    VectorFunction<I> F = [](const IVector<I>& v) {
        IVector<I> f(2);
        f(0) = sqr(v(0)) - decimal_like(v(0), "0.25");
        f(1) = v(1);
        return f;
    };
    JacobianFunction<I> J = [](const IVector<I>& v) {
        IMatrix<I> M(2, 2);
        M(0, 0) = 2 * v(0);
        M(0, 1) = constant_like(v(0), 0);
        M(1, 0) = constant_like(v(0), 0);
        M(1, 1) = constant_like(v(0), 1);
        return M;
    };
    const auto r = krawczyk<I>(F, J, box2<I>("-1", "1.1", "-1", "1"));
    INFO(r.reason);
    REQUIRE(r.status == KrawczykStatus::not_proven);
}

TEMPLATE_TEST_CASE("krawczyk_around proves the zero near an approximate solution by epsilon-inflation", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    const IVector<I> x0 = to_interval<I>(Eigen::VectorXd(Eigen::Vector2d(0.7, 0.71)), kBits<I>);
    const auto r = krawczyk_around<I>(circle_line<I>, circle_line_jacobian<I>, x0);
    INFO(r.reason);
    REQUIRE(r.status == KrawczykStatus::unique_zero);
    REQUIRE(encloses_inv_sqrt2(r.box(0)));
    REQUIRE(encloses_inv_sqrt2(r.box(1)));
    REQUIRE(subset<I>(r.box, r.uniqueness_box));
    REQUIRE(max_width<I>(r.box) < (std::is_same_v<I, IntervalD> ? 1e-14 : 1e-35));
}

TEMPLATE_TEST_CASE("krawczyk reports an exception thrown by the callable as not_proven", "", IntervalD, IntervalMp) {
    using I = TestType;
    VectorFunction<I> F = [](const IVector<I>&) -> IVector<I> { throw std::domain_error("log of a negative box"); };
    const auto r = krawczyk<I>(F, circle_line_jacobian<I>, box2<I>("0.5", "1", "0.5", "1"));
    REQUIRE(r.status == KrawczykStatus::not_proven);
    REQUIRE_THAT(r.reason, Catch::Contains("log of a negative box"));
}
