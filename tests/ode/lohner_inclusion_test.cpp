// Tests of ode::lohner_inclusion_step (lib/flowcert/ode/lohner_inclusion.hpp): the Lohner step of a
// differential inclusion x' = f(x, u), u(t) in U, against closed-form reachable sets of linear systems
// (long double), including the extreme and switching inputs.
#include <catch2/catch.hpp>

#include <flowcert/ode.hpp>

#include <cmath>
#include <vector>

using namespace flowcert;
using flowcert::ode::LohnerSet;

namespace {

taylor::VectorField field_of(const char* formula) {
    auto p = taylor::parse_formula(formula);
    REQUIRE(p.ok());
    return *p.field;
}

// A priori box over [0, H] by the Picard inclusion X + [0, H] f(W, U) inside int W (test helper).
std::vector<IntervalD> apriori(const taylor::VectorField& f, const std::vector<IntervalD>& X, const std::vector<IntervalD>& U,
                               double H) {
    taylor::TaylorEvaluator<IntervalD> ev(f, {});
    const std::size_t N = X.size();
    std::vector<IntervalD> W(N), v(N + U.size()), F(N + U.size());
    for (std::size_t i = 0; i < N; ++i) W[i] = inflate(X[i], 0.5 * H * (1 + mag(X[i])));
    for (int it = 0; it < 20; ++it) {
        for (std::size_t i = 0; i < N; ++i) v[i] = W[i];
        for (std::size_t l = 0; l < U.size(); ++l) v[N + l] = U[l];
        REQUIRE(ev.evaluate(v, F).ok());
        bool ok = true;
        std::vector<IntervalD> Nw(N);
        for (std::size_t i = 0; i < N; ++i) {
            Nw[i] = X[i] + IntervalD::bounds(0.0, H) * F[i];
            if (!(W[i].lower() < Nw[i].lower() && Nw[i].upper() < W[i].upper())) ok = false;
        }
        if (ok) return W;
        for (std::size_t i = 0; i < N; ++i) W[i] = inflate(hull(W[i], Nw[i]), 0.5 * width(Nw[i]) + 1e-12);
    }
    FAIL("no a priori box");
    return W;
}

bool holds(const IntervalD& x, long double v) {
    const long double tol = 1e-15L * std::max(1.0L, std::fabs(v));
    return static_cast<long double>(x.lower()) - tol <= v && v <= static_cast<long double>(x.upper()) + tol;
}

}  // namespace

TEST_CASE("x' = -x + u, |u| <= eps: one Lohner inclusion step encloses the exact reachable interval and is as narrow",
          "[ode][lohner_inclusion]") {
    const auto f = field_of("var:x,u; fun:-x+u, 0;");
    const IntervalD X0 = IntervalD::bounds(0.99, 1.01), U = IntervalD::bounds(-0.01, 0.01);
    const double h = 0.125;  // exact binary
    const LohnerSet set = LohnerSet::from_box({X0});
    ode::LohnerStepInput in;
    in.h = IntervalD::exact(h);
    in.order = 10;
    in.apriori = apriori(f, {X0}, {U}, h);
    in.input = {U};
    const auto r = ode::lohner_inclusion_step(f, {}, set, in);
    REQUIRE(r.ok);
    const IntervalD x = r.end.box()[0];
    const long double e = std::exp(-0.125L);
    const long double lo = 0.99L * e - 0.01L * (1 - e), hi = 1.01L * e + 0.01L * (1 - e);
    CHECK(holds(x, lo));
    CHECK(holds(x, hi));
    CHECK(static_cast<long double>(width(x)) <= 1.001L * (hi - lo) + 1e-15L);
    // the deviation bound is the exact one here: int_0^h e^{-(h-s)} eps ds = eps (1 - e^{-h})
    CHECK(holds(r.deviation[0], 0.01L * (1 - e)));
    CHECK(static_cast<long double>(r.deviation[0].upper()) <= 1.001L * 0.01L * (1 - e));
    // the Taylor model of the step contains the extreme solutions at s = h / 2
    const IntervalD s = IntervalD::exact(h / 2);
    const IntervalD xm = ode::poly_at(r.model[0].c, 10, s) + r.model[0].r;
    const long double em = std::exp(-0.0625L);
    CHECK(holds(xm, 0.99L * em - 0.01L * (1 - em)));
    CHECK(holds(xm, 1.01L * em + 0.01L * (1 - em)));
}

TEST_CASE("a rotation with a bounded force: ten Lohner inclusion steps enclose constant and switching inputs from "
          "every corner",
          "[ode][lohner_inclusion]") {
    // x' = y, y' = -x + u: with u constant on a piece, (x - u, y) rotates.
    const auto f = field_of("var:x,y,u; fun:y, -x+u, 0;");
    const double r0 = 1e-6, eps = 1e-3, h = 0.125;
    const IntervalD U = IntervalD::bounds(-eps, eps);
    LohnerSet set = LohnerSet::from_box({IntervalD::bounds(1 - r0, 1 + r0), IntervalD::bounds(-r0, r0)});
    for (int step = 0; step < 10; ++step) {
        ode::LohnerStepInput in;
        in.h = IntervalD::exact(h);
        in.order = 12;
        in.apriori = apriori(f, set.box(), {U}, h);
        in.input = {U};
        auto r = ode::lohner_inclusion_step(f, {}, set, in);
        REQUIRE(r.ok);
        set = r.end;
    }
    const auto box = set.box();  // t = 1.25
    auto rotate = [](long double& x, long double& y, long double u, long double t) {
        const long double c = std::cos(t), s = std::sin(t), xs = x - u;
        x = u + c * xs + s * y;
        y = -s * xs + c * y;
    };
    std::size_t checked = 0;
    for (int cx : {-1, 1})
        for (int cy : {-1, 1})
            for (int kind = 0; kind < 4; ++kind) {
                long double x = 1 + cx * r0, y = cy * r0;
                const long double u1 = (kind & 1) ? eps : -eps, u2 = (kind & 2) ? eps : -eps;
                rotate(x, y, u1, 0.4L);  // switching input at t = 0.4
                rotate(x, y, u2, 0.85L);
                CHECK(holds(box[0], x));
                CHECK(holds(box[1], y));
                ++checked;
            }
    CHECK(checked == 16);
    // not much wider than the true reachable set (2 r0 + 2 eps (1 - cos) - scale)
    CHECK(width(box[0]) < 3 * (2 * r0 + 2 * eps * 1.25));
}

TEST_CASE("deviation_bound: a contracting Metzler majorant gives eps (1 - e^{-H}) / 1", "[ode][lohner_inclusion]") {
    linalg::IMatrixD J(1, 1);
    J(0, 0) = IntervalD(-1);
    const auto E = ode::deviation_bound(J, {0.5}, 2.0);
    const long double exact = 0.5L * (1 - std::exp(-2.0L));
    CHECK(E[0] >= exact);
    CHECK(E[0] <= 1.001 * exact);
}

TEST_CASE("shifts added to a Lohner set between steps are carried by the next step's Jacobian", "[ode][lohner_inclusion]") {
    const auto f = field_of("var:x,y,u; fun:y, -x+u, 0;");
    const double h = 0.125;
    const IntervalD U = IntervalD::bounds(0.0, 0.0);
    LohnerSet set = LohnerSet::from_box({IntervalD::bounds(1 - 1e-9, 1 + 1e-9), IntervalD::bounds(-1e-9, 1e-9)});
    long double x = 1, y = 0;
    auto rotate = [](long double& xx, long double& yy, long double t) {
        const long double c = std::cos(t), s = std::sin(t), x0 = xx;
        xx = c * x0 + s * yy;
        yy = -s * x0 + c * yy;
    };
    for (int step = 0; step < 6; ++step) {
        if (step == 2 || step == 4) {  // x += [0.25, 0.25 + 1e-9], y -= 0.5
            set.add({IntervalD::bounds(0.25, 0.25 + 1e-9), IntervalD::bounds(-0.5, -0.5)});
            x += 0.25L;
            y -= 0.5L;
        }
        ode::LohnerStepInput in;
        in.h = IntervalD::exact(h);
        in.order = 12;
        in.apriori = apriori(f, set.box(), {U}, h);
        in.input = {U};
        auto r = ode::lohner_inclusion_step(f, {}, set, in);
        REQUIRE(r.ok);
        set = r.end;
        rotate(x, y, 0.125L);
        const auto box = set.box();
        CHECK(holds(box[0], x));
        CHECK(holds(box[1], y));
        CHECK(width(box[0]) < 1e-8);
    }
}

TEST_CASE("a large shift keeps the centre inside the set (the mean-value form needs the segment [c, x0])",
          "[ode][lohner_inclusion]") {
    LohnerSet set = LohnerSet::from_box({IntervalD::bounds(-1e-3, 1e-3)});
    set.add({IntervalD::bounds(5.0, 5.0 + 1e-6)});
    const auto b = set.box();
    CHECK(contains(b[0], set.c(0)));
    CHECK(subset(IntervalD::bounds(5.0 - 1e-3, 5.0 + 1e-6 + 1e-3), b[0]));
}
