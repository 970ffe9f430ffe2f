// Tests of the proof steps of kh/theorem4_limit_path (lib/flowcert/proofs/kh/theorem4_steps.hpp) against closed forms:
// the unit direction, the Lemma 23 cap criteria (exact rationals, 200-bit MPFI square roots), the exhibited shift
// s0 = ln(1/c0)/(2N*), the power law C~ delta^kappa at dyadic deltas, and the closed-form path selection on
// [KH2025, Example 1] (w* = e_1, Q = 4: p_1 = 2/sqrt(1 + 4 e^{-32 t})) with a certified KKT point, and its refusal
// when X X^T is not diagonal.
#include <catch2/catch.hpp>

#include <vector>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/theorem4_steps.hpp>

#include "../../support/exact_reference.hpp"

using namespace flowcert;
namespace pk = flowcert::proofs::kh;
using I = IntervalD;

using flowcert::test_support::contains;
using flowcert::test_support::ref;

TEST_CASE("the unit direction of (3, 4) is (0.6, 0.8) -- the zero vector has none", "[kh4]") {
    const auto w = pk::unit_direction<I>({I(3), I(4)});
    REQUIRE(w);
    CHECK(contains((*w)[0], ref("0.6")));
    CHECK(contains((*w)[1], ref("0.8")));
    CHECK_FALSE(pk::unit_direction<I>({I(0), I(0)}));
}

TEST_CASE("the exhibited shift: c0 = w*^T w0, s0 = T1 = ln(1/c0)/(2N*), b_delta = 1 -- undefined for c0 <= 0", "[kh4]") {
    linalg::IVectorD wstar(2);
    wstar << I(1), I(0);
    const auto s = pk::theorem4_shift<I>(wstar, {I::from_decimal("0.6"), I::from_decimal("0.8")}, I(2));
    REQUIRE(s.defined);
    CHECK(contains(s.c0, ref("0.6")));
    CHECK(contains(s.s0, log(ref("1") / ref("0.6")) / ref("4")));
    CHECK(contains(s.T1, log(ref("1") / ref("0.6")) / ref("4")));
    CHECK(contains(s.b_delta, ref("1")));
    // s_delta = s0 + ln(1/delta)/(2N*)
    CHECK(contains(s.at(I::from_decimal("0.5")), (log(ref("1") / ref("0.6")) + log(ref("2"))) / ref("4")));
    CHECK_FALSE(pk::theorem4_shift<I>(wstar, {I(0), I(1)}, I(2)).defined);
    CHECK_FALSE(pk::theorem4_shift<I>(wstar, {I::from_decimal("-0.6"), I::from_decimal("0.8")}, I(2)).defined);
}

TEST_CASE("the power law: C~ = E(delta_1)/delta_1^kappa rounded up, C~ delta^kappa at another delta", "[kh4]") {
    const double C = pk::power_law_constant(I::from_decimal("0.5"), I::from_decimal("0.25"), I::from_decimal("0.5"));
    CHECK(C >= 1.0);
    CHECK(C < 1.0 + 1e-14);
    const I b = pk::power_law_bound(1.0, I::from_decimal("0.5"), I::from_decimal("0.0625"), 53);
    CHECK(contains(b, ref("0.25")));
    CHECK(width(b) < 1e-15);
}

TEST_CASE("Example 1: the cap criteria, the rates and the closed-form path of the certified KKT point", "[kh4]") {
    // X = I_2, y = (4, 1), loss sum (p - y)^2: N(w) = 8 w1^2 + 2 w2^2 (ytilde = 2y), w* = e_1, N* = 8, Delta_max = 12.
    const auto arch = nets::HomogeneousArchitecture::example1();
    nets::Mat<I> X(2, 2);
    X << I(1), I(0), I(0), I(1);
    nets::Vec<I> y(2);
    y << I(4), I(1);
    const auto norm = nets::SquareLossNormalization::paper();
    const nets::Ncf<I> ncf(nets::HomogeneousModel<I>(arch, X), nets::ncf_weights<I>(y, norm));
    const nets::Ncf<double> ncf_d(nets::HomogeneousModel<double>(arch, linalg::mid<I>(linalg::IMatrix<I>(X))),
                                  nets::ncf_weights<double>(Eigen::Vector2d(4, 1), norm));
    const pk::PositiveKkt<I> kkt = pk::certify_positive_kkt(ncf, ncf_d, Eigen::Vector2d(0.9, 0.1));
    REQUIRE(kkt.proven());
    const I N = kkt.ncf_value, D = kkt.spectrum.delta_max;
    CHECK(contains(N, ref("8")));
    CHECK(contains(D, ref("12")));
    // Delta = 6, gamma = 1/2: (1 - gamma)(2 - gamma) Delta_max = 9; N > 0 on the cap: lambda_min(Hess N) = 4 > 0 gives
    // (1/4) 8 + (3/4) 0 / 2 = 2; the largest gamma 1 - (sqrt(3) - 1)/2; kappa = 6/(6 + 64) = 3/35.
    const auto cap = pk::theorem4_cap(ncf, kkt.existence.u, N, D, I(6), I::from_decimal("0.5"));
    REQUIRE(cap.gamma_below_one);
    CHECK(contains(cap.cap_rhs, ref("9")));
    CHECK(contains(cap.n_lower, ref("2")));
    CHECK(contains(cap.largest_gamma, ref("1") - (sqrt(ref("3")) - ref("1")) / ref("2")));
    CHECK(contains(cap.kappa, ref("3") / ref("35")));
    CHECK_FALSE(pk::theorem4_cap(ncf, kkt.existence.u, N, D, I(6), I::from_decimal("1.5")).gamma_below_one);
    const auto rates = pk::theorem4_rates(I(6), D, N);
    CHECK(contains(rates.rate, ref("0.75")));
    const std::vector<I> w0 = {I::from_decimal("0.6"), I::from_decimal("0.8")};
    const I c0 = pk::theorem4_shift<I>(kkt.existence.u, w0, N).c0;
    const auto f = pk::theorem4_closed_form<I>(false, arch, X, y, I(2) * y, I(1), kkt.existence, c0, {0, 1});
    REQUIRE(f.error.empty());
    CHECK(f.in_box);
    CHECK(f.kstar == 0);
    REQUIRE(f.path);
    // p_1(t) = 2 / sqrt(1 + 4 e^{-32 t}) (A = B = Q = 4, r = 32) at t = 0.1, p_2 = 0
    const auto p = f.path->at(I::from_decimal("0.1"));
    CHECK(contains(p[0], ref("2") / sqrt(ref("1") + ref("4") * exp(-ref("3.2")))));
    CHECK((lower(p[1]) == 0 && upper(p[1]) == 0));
    // the diagonal closed form needs X X^T diagonal
    const auto darch = nets::HomogeneousArchitecture::diagonal(2, 2);
    nets::Mat<I> Xn(2, 2);
    Xn << I(1), I(1), I(0), I(1);
    const auto g = pk::theorem4_closed_form<I>(true, darch, Xn, y, I(2) * y, I(1), kkt.existence, c0, {});
    CHECK(g.error == "limit_path = diagonal needs X X^T diagonal");
    CHECK(g.error_key == "inputs");
}
