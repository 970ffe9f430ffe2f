// Tests of lib/flowcert/proofs/kh/flow_tools.hpp (kh/theorem10_escape, kh/first_saddle): the limiting-path formula t_p of
// the ray ODE against the paper's closed form (Example 1) and against rigorous integration of the ray ODE (L = 3
// closed form, L = 4 series), escape brackets against an exact blow-up solution, and the square-loss Hessian at
// Example 1's saddle.
#include <catch2/catch.hpp>

#include <flowcert/proofs/kh/flow_tools.hpp>

using namespace flowcert;
namespace pk = flowcert::proofs::kh;
using pk::Ray;

namespace {

Ray<IntervalD> make_ray(int L, const char* N, const char* S) {
    Ray<IntervalD> r;
    r.L = L;
    r.N = IntervalD::from_decimal(N);
    r.S = IntervalD::from_decimal(S);
    return r;
}

// rho(t_b) from rho(t_a) by the rigorous integrator on rho' = L rho^{L-1} (N - S rho^L).
IntervalD integrate_ray(int L, const char* N, const char* S, double rho_a, const IntervalD& dt) {
    taylor::VectorField f({"r"});
    const auto r = f.var(0);
    f.set_rhs({L * (pow(r, L - 1) * (f.constant(N) - f.constant(S) * pow(r, L)))});
    ode::Options o;
    const auto res = ode::integrate<IntervalD>(f, {}, {IntervalD::exact(rho_a)}, dt, {}, o, 53);
    REQUIRE(res.ok());
    return res.final_box[0];
}

}  // namespace

TEST_CASE("the ray radius of Example 1 encloses the paper's p(t) = 2/sqrt(1 + 4 exp(-32 t)) at 256 bits") {
    // Example 1: N* = 8, S = 2c ||H(X; e1)||^2 = 2 [spec 6.3].
    const Ray<IntervalD> ray = make_ray(2, "8", "2");
    const Precision p(256);
    for (double t : {-1.0, -0.3, 0.0, 0.05, 0.2, 0.5}) {
        IntervalD rho;
        REQUIRE(ray.radius_at(IntervalD::exact(t), rho));
        const IntervalMp tm = IntervalMp::exact(t, p);
        const IntervalMp exact = IntervalMp::from_integer(2, p) /
                                 sqrt(IntervalMp::from_integer(1, p) + IntervalMp::from_integer(4, p) *
                                                                           exp(-IntervalMp::from_integer(32, p) * tm));
        CAPTURE(t, to_string(rho), to_string(exact));
        CHECK(lower(rho) <= lower(exact));
        CHECK(upper(exact) <= upper(rho));
        CHECK(width(rho) < 1e-12);
    }
}

TEST_CASE("t_p differences equal the flow time of the ray ODE (L = 3 closed form, L = 4 series)") {
    struct C {
        int L;
        const char* N;
        const char* S;
    };
    for (const C c : {C{3, "1.9245", "0.148"}, C{3, "2", "1"}, C{4, "1.5", "0.7"}}) {
        const Ray<IntervalD> ray = make_ray(c.L, c.N, c.S);
        const double rs = mid(ray.rho_star());
        for (double a : {0.05, 0.3}) {
            for (double bfrac : {0.5, 0.9, 0.999}) {
                const double b = bfrac * rs;
                if (!(b > a)) continue;
                const IntervalD dt = ray.time_of(IntervalD::exact(b)) - ray.time_of(IntervalD::exact(a));
                const IntervalD rb = integrate_ray(c.L, c.N, c.S, a, dt);
                CAPTURE(c.L, a, b, to_string(dt), to_string(rb));
                // rb encloses rho(a -> dt) = b; the time enclosure is tiny, so rb must be tight around b.
                CHECK(contains(rb, b));
                CHECK(width(rb) < 1e-8);
            }
        }
    }
}

TEST_CASE("a wrong t_p is detected: shifting the flow time by 1e-6 moves the integrated radius off") {
    const Ray<IntervalD> ray = make_ray(3, "2", "1");
    const double a = 0.2, b = 0.8 * mid(ray.rho_star());
    const IntervalD dt = ray.time_of(IntervalD::exact(b)) - ray.time_of(IntervalD::exact(a)) + IntervalD::from_decimal("1e-6");
    const IntervalD rb = integrate_ray(3, "2", "1", a, dt);
    CHECK_FALSE(contains(rb, b));
}

TEST_CASE("the escape bracket of x' = x^2 from x(0) = 1 contains the exact crossing time 1 - 1/r") {
    taylor::VectorField f({"x"});
    f.set_rhs({sqr(f.var(0))});
    ode::Options o;
    const IntervalD r = IntervalD(4);
    const auto e = pk::refined_escape<IntervalD>(f, {}, {IntervalD(1)}, 0.9, r, o, 53, 2, 32);
    REQUIRE(e.ok);
    CHECK(e.lo <= 0.75);
    CHECK(0.75 <= e.hi);
    CHECK(e.hi - e.lo < 1e-3);
}

TEST_CASE("the square-loss Hessian of Example 1 at the saddle (2, 0) encloses diag(32, -4) and the loss 1") {
    const auto arch = nets::HomogeneousArchitecture::example1();
    nets::Mat<IntervalD> X(2, 2);
    X << IntervalD(1), IntervalD(0), IntervalD(0), IntervalD(1);
    nets::Vec<IntervalD> y(2);
    y << IntervalD(4), IntervalD(1);
    const nets::HomogeneousModel<IntervalD> m(arch, X);
    nets::Vec<IntervalD> w(2);
    w << IntervalD(2), IntervalD(0);
    const auto d = pk::square_loss_derivatives<IntervalD>(m, w, y, nets::SquareLossNormalization::paper(), true);
    REQUIRE(d.ok);
    CHECK(contains(d.value, 1.0));
    CHECK(contains(d.gradient(0), 0.0));
    CHECK(contains(d.gradient(1), 0.0));
    CHECK(contains(d.hessian(0, 0), 32.0));
    CHECK(contains(d.hessian(1, 1), -4.0));
    CHECK(contains(d.hessian(0, 1), 0.0));
    CHECK(width(d.hessian(0, 0)) < 1e-12);
}

TEST_CASE("t_p has the exact normalization of p's shift: t_p(rho) + rho^-(L-2)/(L(L-2)N) -> 0 as rho -> 0") {
    // p(t) = lim psi(t + delta^{-(L-2)}/(L(L-2)N*), delta w*) fixes the additive constant of t_p: G(0) = 0.
    for (int L : {3, 4}) {
        const Ray<IntervalD> ray = make_ray(L, "2", "1");
        const double rho = 1e-3;
        const IntervalD lead = IntervalD(1) / (IntervalD(L * (L - 2)) * ray.N * pow(IntervalD::exact(rho), L - 2));
        const IntervalD rest = ray.time_of(IntervalD::exact(rho)) + lead;
        CAPTURE(L, to_string(rest));
        // rest = (S/(L N)) G(rho) with G(rho) ~ rho^2/(2N): about 1e-8 here.
        CHECK(mag(rest) < 1e-6);
        CHECK(mig(rest) > 0);
    }
}
