// Tests of lib/flowcert/proofs/kh/first_saddle.hpp beyond the flow tools: the order of the stationary point p* of
// Example 1 (a strict saddle at (2, 0), a strict minimum at (2, 1)), a degenerate saddle found by a descent
// direction, and the Example 1 post-saddle closed form against the solution w1(t), w2(t) evaluated at 512 bits.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/first_saddle.hpp>

using namespace flowcert;
namespace pk = flowcert::proofs::kh;

namespace {

struct Example1 {
    nets::HomogeneousArchitecture arch = nets::HomogeneousArchitecture::example1();
    nets::Mat<IntervalD> X{2, 2};
    nets::Vec<IntervalD> y{2};
    Example1() {
        X << IntervalD(1), IntervalD(0), IntervalD(0), IntervalD(1);
        y << IntervalD(4), IntervalD(1);
    }
    pk::StationaryOrder order_at(double w1, double w2) const {
        const nets::HomogeneousModel<IntervalD> m(arch, X);
        linalg::IVector<IntervalD> box(2);
        box << IntervalD::exact(w1), IntervalD::exact(w2);
        return pk::stationary_order(m, y, nets::SquareLossNormalization::paper(), box,
                                    {IntervalD::exact(w1), IntervalD::exact(w2)}, 0, 1);
    }
};

}  // namespace

TEST_CASE("stationary_order: Example 1's first saddle (2, 0) is a strict saddle, (2, 1) a strict minimum") {
    const Example1 e;
    // L = (w1^2 - 4)^2 + (w2^2 - 1)^2, Hess = diag(12 w1^2 - 16, 12 w2^2 - 4).
    const pk::StationaryOrder s = e.order_at(2, 0);
    REQUIRE(s.spectrum);
    CHECK(s.negative == 1);
    CHECK(s.positive == 1);
    CHECK(s.saddle());
    CHECK_FALSE(s.strict_minimum());
    CHECK(contains(s.loss, 1.0));
    const pk::StationaryOrder m = e.order_at(2, 1);
    REQUIRE(m.spectrum);
    CHECK(m.negative == 0);
    CHECK(m.strict_minimum());
    CHECK_FALSE(m.saddle());
    CHECK(m.descent.empty());
    CHECK(contains(m.loss, 0.0));
}

TEST_CASE("stationary_order: a degenerate point is a saddle only through a certified descent direction") {
    // Data (1, 0) -> 4, (0, 1) -> 0: at (2, 0) the Hessian is diag(32, 0) (no negative eigenvalue), and along
    // w2 = t the loss t^4 increases: no descent direction, not a saddle.
    Example1 e;
    e.y << IntervalD(4), IntervalD(0);
    const pk::StationaryOrder flat = e.order_at(2, 0);
    REQUIRE(flat.spectrum);
    CHECK(flat.negative == 0);
    CHECK(flat.zero >= 1);
    CHECK(flat.descent.empty());
    CHECK_FALSE(flat.saddle());
    // Depth-3 diagonal net, X = I, y = (1, 1), p* = block 0 at (1, 1, 1), block 1 at 0: L(p*) = 1, the Hessian
    // vanishes on block 1 (a product of three factors) and is only semidefinite on block 0; along block 1 = t
    // the loss (t^3 - 1)^2 < 1 for t = 0.1: a certified third-order descent, so p* is a saddle.
    const auto arch = nets::HomogeneousArchitecture::diagonal(2, 3);
    nets::Mat<IntervalD> X(2, 2);
    X << IntervalD(1), IntervalD(0), IntervalD(0), IntervalD(1);
    nets::Vec<IntervalD> y(2);
    y << IntervalD(1), IntervalD(1);
    const nets::HomogeneousModel<IntervalD> m(arch, X);
    std::vector<IntervalD> pstar(6, IntervalD(0));
    linalg::IVector<IntervalD> box(6);
    for (int f = 0; f < 3; ++f) pstar[f * 2] = IntervalD(1);
    for (int j = 0; j < 6; ++j) box(j) = pstar[j];
    const pk::StationaryOrder deg = pk::stationary_order(m, y, nets::SquareLossNormalization::paper(), box, pstar, 0, 3);
    REQUIRE(deg.spectrum);
    CHECK(deg.negative == 0);
    CHECK(deg.zero >= 1);
    CHECK_FALSE(deg.descent.empty());
    CHECK(deg.saddle());
    CHECK(contains(deg.loss, 1.0));
}

TEST_CASE("the Example 1 post-saddle closed form encloses 2 - w1(t) and w2(t) of the exact solution at 512 bits") {
    // [KH2025, Example 1]: w1(t) = 2 delta / sqrt(delta^2 + (8 - delta^2) e^{-32 t}),
    //                      w2(t) = delta / sqrt(delta^2 + (2 - delta^2) e^{-8 t}), at t = 5 ln(kappa/delta)/16.
    const Precision p128(128), p512(512);
    for (const char* dtxt : {"1e-2", "1e-4", "3e-7"}) {
        const IntervalMp kappa = IntervalMp::from_decimal("0.5", p128), dl = IntervalMp::from_decimal(dtxt, p128);
        const pk::Example1PostSaddle c = pk::example1_post_saddle_closed_form(dl, kappa, p128);
        const auto k = [&](long v) { return IntervalMp::from_integer(v, p512); };
        const IntervalMp K = IntervalMp::from_decimal("0.5", p512), D = IntervalMp::from_decimal(dtxt, p512);
        const IntervalMp t = k(5) * log(K / D) / k(16);
        const IntervalMp w1 = k(2) * D / sqrt(sqr(D) + (k(8) - sqr(D)) * exp(-k(32) * t));
        const IntervalMp w2 = D / sqrt(sqr(D) + (k(2) - sqr(D)) * exp(-k(8) * t));
        const IntervalMp gap = k(2) - w1, ratio = gap * pow(K, 10) / pow(D, 8);
        CAPTURE(dtxt, to_string(c.gap), to_string(gap));
        CHECK(subset(gap, c.gap));
        CHECK(subset(w2, c.w2));
        CHECK(subset(ratio, c.ratio));
        CHECK(subset(t, c.time));
        CHECK(lower(c.ratio) > 7);
        CHECK(upper(c.ratio) <= 8);
        // Teeth against the printed O(delta^10): (2 - w1)/delta^10 >= 7 / (kappa^10 delta^2) = 7168 / delta^2.
        CHECK(lower(gap / pow(D, 10)) >= 7000 / upper(sqr(D)));
    }
}

// ---- the pieces moved from the kh/first_saddle verifier body (issue 15), against Example 1's closed forms:
// L(w) = (w1^2 - 4)^2 + (w2^2 - 1)^2, grad L = (4 w1 (w1^2 - 4), 4 w2 (w2^2 - 1)); N(u) = 8 u1^2 + 2 u2^2, so
// w* = e1, N* = 8, S = 2 ||H(X; e1)||^2 = 2, rho* = (N*/S)^(1/2) = 2 and p* = (2, 0) with L(p*) = 1.

namespace {
struct Example1Flow : Example1 {
    taylor::VectorField field =
        nets::homogeneous_loss_flow_field(arch, 2, nets::SquareLossNormalization::paper());
    std::vector<IntervalD> params = nets::homogeneous_flow_parameters<IntervalD>(X, y);
    linalg::IVector<IntervalD> e1() const {
        linalg::IVector<IntervalD> w(2);
        w << IntervalD(1), IntervalD(0);
        return w;
    }
};
}  // namespace

TEST_CASE("unit_direction and loss_gradient against closed forms", "[kh][first_saddle]") {
    const std::vector<IntervalD> u = pk::unit_direction({"3", "4"});
    CHECK(contains(u[0], 0.6));
    CHECK(contains(u[1], 0.8));
    CHECK(width(u[0]) < 1e-15);
    const Example1Flow e;
    const std::vector<IntervalD> g = pk::loss_gradient(e.field, e.params, {IntervalD(1), IntervalD(2)});
    CHECK(contains(g[0], -12.0));  // 4 * 1 * (1 - 4)
    CHECK(contains(g[1], 24.0));   // 4 * 2 * (4 - 1)
    CHECK(width(g[0]) < 1e-12);
    CHECK(contains(pk::gradient_norm_on_ray(e.field, e.params, e.e1(), IntervalD(1)), 12.0));
}

TEST_CASE("bounded_limit: Example 1's p* = (2, 0), the unique zero of grad L in its box, a strict saddle", "[kh][first_saddle]") {
    const Example1Flow e;
    const nets::HomogeneousModel<IntervalD> m(e.arch, e.X);
    const pk::BoundedLimit b = pk::bounded_limit(m, e.y, nets::SquareLossNormalization::paper(), e.e1(), IntervalD(8), 2, 0, 1);
    REQUIRE(b.bounded);
    CHECK(contains(b.ray.S, 2.0));
    REQUIRE(b.pstar.size() == 2);
    CHECK(contains(b.pstar[0], 2.0));
    CHECK(contains(b.pstar[1], 0.0));
    REQUIRE(b.stationary.ok);
    REQUIRE(b.inside);
    CHECK(b.order.negative == 1);
    CHECK(contains(b.order.loss, 1.0));
    // S = 0 (the zero model direction): not bounded, nothing further is claimed.
    linalg::IVector<IntervalD> zero(2);
    zero << IntervalD(0), IntervalD(0);
    const pk::BoundedLimit z = pk::bounded_limit(m, e.y, nets::SquareLossNormalization::paper(), zero, IntervalD(8), 2, 0, 1);
    CHECK_FALSE(z.bounded);
    CHECK_FALSE(z.inside);
}

TEST_CASE("logistic_ray_unbounded: the sign condition y_i H(x_i -- w*) >= 0, some > 0", "[kh][first_saddle]") {
    Example1Flow e;
    const nets::HomogeneousModel<IntervalD> m(e.arch, e.X);
    CHECK(pk::logistic_ray_unbounded(m, e.y, e.e1()));  // a = (4, 0)
    e.y << IntervalD(-4), IntervalD(1);
    CHECK_FALSE(pk::logistic_ray_unbounded(m, e.y, e.e1()));  // a_0 = -4 < 0
    e.y << IntervalD(0), IntervalD(1);
    CHECK_FALSE(pk::logistic_ray_unbounded(m, e.y, e.e1()));  // a = (0, 0): none positive
}

TEST_CASE("at_t_delta: distance, norm, cosine and gradient norm at a state", "[kh][first_saddle]") {
    const Example1Flow e;
    const pk::AtTdelta a = pk::at_t_delta(e.field, e.params, {IntervalD(2), IntervalD::exact(0.5)}, {IntervalD(2), IntervalD(0)});
    CHECK(contains(a.distance, 0.5));
    CHECK(contains(a.norm * a.norm, 4.25));
    CHECK(contains(a.cosine * a.cosine * IntervalD::exact(4.25), 16.0));  // cos = 4 / sqrt(4.25)
    CHECK(contains(a.gradient, 1.5));                              // |4 * 0.5 * (0.25 - 1)|, the w1 entry is 0
    CHECK(width(a.gradient) < 1e-12);
}

TEST_CASE("unbounded_bounds: 1/(2 eps) and 1 - eps", "[kh][first_saddle]") {
    const pk::UnboundedBounds b = pk::unbounded_bounds(IntervalD::exact(0.125));
    CHECK(b.norm_min.lower() == 4);
    CHECK(b.norm_min.upper() == 4);
    CHECK(contains(b.cosine_min, 0.875));
    const pk::UnboundedBounds t = pk::unbounded_bounds(IntervalD::from_decimal("0.1"));  // 0.1 is not a double
    CHECK(contains(t.norm_min, 5.0));
    CHECK(t.norm_min.lower() < 5);
    CHECK(t.norm_min.upper() > 5);
}

TEST_CASE("logistic_ncf_weights: ytilde = y/2", "[kh][first_saddle]") {
    nets::Vec<IntervalD> y(2);
    y << IntervalD(4), IntervalD(-1);
    const nets::Vec<IntervalD> t = pk::logistic_ncf_weights(y);
    CHECK(contains(t(0), 2.0));
    CHECK(contains(t(1), -0.5));
    CHECK(width(t(0)) == 0);
}
