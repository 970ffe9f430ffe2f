// Tests of the proof steps of kh/theorem18_sparsity (lib/flowcert/proofs/kh/theorem18_steps.hpp) against closed forms:
// the exponents and escape times (exact rationals and 200-bit MPFI logarithms), the bounds b delta^kappa at dyadic
// deltas, and a sweep point on the weighted-squares net with x = e_1, whose loss flow has the logistic closed form
// q = w^2, q' = 8 c q (y - q): q(t) = y / (1 + (y/q0 - 1) e^{-8 c y t}). The zero tubes: exact zeros on a
// zero-preserving unit of the diagonal net (up to the ~1e-15 Lohner leak), a true leak off a set that is not one (the check must fail there).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/theorem18_steps.hpp>

#include "../../support/exact_reference.hpp"

using namespace flowcert;
namespace pk = flowcert::proofs::kh;
using I = IntervalD;

using flowcert::test_support::contains;
using flowcert::test_support::ref;

TEST_CASE("kappa = Delta/(Delta + 2 L^2 N) and the ratio exponent L kappa enclose the exact rationals", "[kh18]") {
    const auto e2 = pk::theorem18_exponents(2, I(1), I(1));  // 1/9, 2/9
    CHECK(contains(e2.kappa, ref("1") / ref("9")));
    CHECK(contains(e2.kappa_ratio, ref("2") / ref("9")));
    CHECK(width(e2.kappa) < 1e-15);
    const auto e3 = pk::theorem18_exponents(3, I::from_decimal("0.5"), I(2));  // 0.5 / 36.5 = 1/73, 3/73
    CHECK(contains(e3.kappa, ref("1") / ref("73")));
    CHECK(contains(e3.kappa_ratio, ref("3") / ref("73")));
    CHECK_FALSE(contains(e3.kappa, ref("1") / ref("72")));
}

TEST_CASE("the escape time from delta w* is ln(1/delta)/(2N) for L = 2 and delta^{-(L-2)}/(L(L-2)N) for L > 2", "[kh18]") {
    const I d = I::from_decimal("1e-2");
    CHECK(contains(pk::escape_time_from_kkt(2, d, I::from_decimal("1.5")), log(ref("100")) / ref("3")));
    CHECK(contains(pk::escape_time_from_kkt(3, d, I(2)), ref("100") / ref("6")));
    CHECK(contains(pk::escape_time_from_kkt(4, d, I(2)), ref("10000") / ref("16")));
    CHECK(contains(pk::theorem18_least_blowup_time(4, I(2)), ref("1") / ref("16")));
    CHECK(contains(pk::theorem18_b_delta_power(4, I(2), I(4)), ref("1") / ref("64")));
}

TEST_CASE("masked and scaled starts: exact zeros on w_z, delta w elsewhere", "[kh18]") {
    const std::vector<I> w = {I(1), I(-2), I::from_decimal("0.5"), I(4)};
    const auto x = pk::masked_start(w, I::from_decimal("0.25"), {1, 3});
    CHECK((lower(x[1]) == 0 && upper(x[1]) == 0 && lower(x[3]) == 0 && upper(x[3]) == 0));
    CHECK((lower(x[0]) == 0.25 && upper(x[0]) == 0.25 && lower(x[2]) == 0.125));
    const auto y = pk::scaled_start(w, I::from_decimal("0.25"));
    CHECK((lower(y[1]) == -0.5 && upper(y[3]) == 1));
}

TEST_CASE("the bounds b delta^kappa and the quotients by delta^kappa at a dyadic delta", "[kh18]") {
    pk::Theorem18Point p;
    p.n1 = I::from_decimal("0.75");
    p.ratio = I::from_decimal("0.125");
    p.sup_z = I::from_decimal("0.5");
    const pk::Theorem18Exponents e{I::from_decimal("0.5"), I(1)};  // delta^kappa = 1/2, delta^(L kappa) = 1/4
    const auto b = pk::theorem18_bounds(p, I::from_decimal("0.25"), e, I(3), I(2), I(5));
    CHECK(contains(b.b1_bound, ref("1.5")));
    CHECK(contains(b.b2_bound, ref("0.5")));
    CHECK(contains(b.ct_bound, ref("2.5")));
    CHECK(contains(b.q_norm, ref("1.5")));
    CHECK(contains(b.q_ratio, ref("0.5")));
    CHECK(contains(b.q_sup, ref("1")));
    CHECK_FALSE(contains(b.b1_bound, ref("1.5000001")));
}

TEST_CASE("a sweep point of the weighted-squares net x = e_1 encloses the logistic closed form", "[kh18]") {
    // H(x; w) = w^2 x (signs {1}), one sample x = 1, y = 4, loss sum (H - y)^2 (c = 1): q = w^2 solves
    // q' = 8 q (4 - q), q(t) = 4 / (1 + (4/q0 - 1) e^{-32 t}).
    const auto arch = nets::HomogeneousArchitecture::weighted_squares({1});
    nets::Mat<I> X(1, 1);
    X(0, 0) = I(1);
    nets::Vec<I> y(1);
    y(0) = I(4);
    const auto norm = nets::SquareLossNormalization::paper();
    const nets::Vec<I> yt = nets::Vec<I>::Constant(1, I(8));
    const pk::Theorem18Flows flows = pk::theorem18_flows(arch, norm, X, y, yt);
    const nets::HomogeneousModel<I> model(arch, X);
    const I delta = I::from_decimal("1e-3"), t1 = I::from_decimal("0.1"), t2 = I::from_decimal("0.25"),
            tt = I::from_decimal("0.05");
    const auto p = pk::theorem18_sweep_point(flows, pk::scaled_start({I(1)}, delta), {t1, t2}, tt, {}, model, y, norm, 20, false, arch);
    REQUIRE(p.ok);
    REQUIRE(p.t1_ok);
    auto q = [&](const char* t) {
        const IntervalMp q0 = ref("1e-6");
        return ref("4") / (ref("1") + (ref("4") / q0 - ref("1")) * exp(-ref("32") * ref(t)));
    };
    CHECK(contains(p.n1, sqrt(q("0.1"))));
    CHECK(width(p.n1) < 1e-9 * upper(p.n1));
    CHECK(contains(p.loss_end, sqr(q("0.3") - ref("4"))));  // L at T^2 + T~ = 0.3
    CHECK(contains(p.ratio, ref("0")));                     // empty w_z
    CHECK_FALSE(contains(p.n1, sqrt(q("0.1001"))));
}

TEST_CASE("zero tubes: exact zeros on a Lemma 16 unit of the diagonal net, a leak off a set that is not one", "[kh18]") {
    const auto arch = nets::HomogeneousArchitecture::diagonal(2, 2);  // u1, u2, v1, v2
    nets::Mat<I> X(2, 2);
    X << I(1), I(0), I(0), I(1);
    nets::Vec<I> y(2);
    y << I(1), I::from_decimal("0.5");
    const auto norm = nets::SquareLossNormalization::paper();
    const pk::Theorem18Flows flows = pk::theorem18_flows(arch, norm, X, y, I(2) * y);
    const nets::HomogeneousModel<I> model(arch, X);
    const std::vector<I> w = {I::from_decimal("0.5"), I::from_decimal("0.25"), I::from_decimal("0.5"), I::from_decimal("-0.75")};
    const std::vector<int> unit = {1, 3};  // u2, v2
    const auto zp = pk::theorem18_zero_preservation(arch, flows, unit);
    CHECK(zp.is_union);
    CHECK(zp.loss.proven);
    const auto good = pk::theorem18_zero_tube(flows, pk::masked_start(w, I::from_decimal("0.1"), unit), I(2), unit, model, y, norm, 12);
    REQUIRE(good.completed);
    CHECK(upper(good.check.sup_outputs) <= 1e-12);  // the Lohner leak of the support into w_z (zero_tube_tolerance)
    CHECK(good.check.gradient_exact);
    CHECK(good.outputs.size() == 31);
    const std::vector<int> half = {1};  // u2 alone: u2' = -dL/du2 = -2 (u2 v2 - 0.5) v2 != 0 at u2 = 0
    const auto zh = pk::theorem18_zero_preservation(arch, flows, half);
    CHECK_FALSE(zh.is_union);
    CHECK_FALSE(zh.loss.proven);
    const auto bad = pk::theorem18_zero_tube(flows, pk::masked_start(w, I::from_decimal("0.1"), half), I(2), half, model, y, norm, 12);
    REQUIRE(bad.completed);
    CHECK(lower(bad.check.sup_outputs) > 1e-6);
    CHECK_FALSE(bad.check.outputs_exact);
}
