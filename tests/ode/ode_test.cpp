// Soundness of the rigorous integrator against closed forms evaluated with MPFR (IntervalMp at
// 300 bits, itself an enclosure of the exact value): containment first, then width.
#include <catch2/catch.hpp>
#include <flowcert/ode.hpp>

#include <cmath>
#include <random>

using namespace flowcert;
using namespace flowcert::ode;

namespace {
const Precision kRef(300);
IntervalMp R(long k) { return IntervalMp::from_integer(k, kRef); }
IntervalMp Rd(const char* s) { return IntervalMp::from_decimal(s, kRef); }
bool encloses(const IntervalD& enc, const IntervalMp& exact) { return subset(exact, to_interval_mp(enc, kRef)); }
bool encloses(const IntervalMp& enc, const IntervalMp& exact) { return subset(exact, enc); }
IntervalD D(const char* s) { return IntervalD::from_decimal(s); }

taylor::VectorField field(const char* formula) {
    auto r = taylor::parse_formula(formula);
    INFO(r.message(formula));
    REQUIRE(r.ok());
    return *r.field;
}

template <class I>
Result<I> run(const taylor::VectorField& f, std::vector<I> p, std::vector<I> x0, I T, Options opt = {}, long bits = 53,
              std::vector<I> outs = {}) {
    auto res = integrate(f, p, x0, T, outs, opt, bits);
    INFO("status " << to_string(res.status) << ": " << res.reason);
    REQUIRE(res.ok());
    return res;
}

// e^{At} for A upper triangular 3x3 with distinct diagonal (Parlett / divided differences).
struct Linear3 {
    IntervalMp a12 = R(4), a13 = R(1), a23 = R(3), l1 = R(-1), l2 = R(-2), l3 = Rd("-0.5");
    std::vector<IntervalMp> expm(const IntervalMp& t) const {
        const IntervalMp e1 = exp(l1 * t), e2 = exp(l2 * t), e3 = exp(l3 * t);
        const IntervalMp d12 = (e1 - e2) / (l1 - l2), d23 = (e2 - e3) / (l2 - l3), d13 = (e1 - e3) / (l1 - l3);
        const IntervalMp d123 = (d12 - d23) / (l1 - l3);
        const IntervalMp z = R(0);
        return {e1, a12 * d12, a13 * d13 + a12 * a23 * d123, z, e2, a23 * d23, z, z, e3};
    }
};
const char* kLinear3 = "var:x,y,z; fun: -x + 4*y + z, -2*y + 3*z, -0.5*z;";
}  // namespace

TEST_CASE("rotation: the enclosure at T = 10 contains (cos 10, sin 10) and is narrower than 1e-12") {
    auto f = field("var:x,y; fun:-y, x;");
    auto res = run<IntervalD>(f, {}, {IntervalD(1), IntervalD(0)}, IntervalD(10));
    REQUIRE(encloses(res.final_box[0], cos(R(10))));
    REQUIRE(encloses(res.final_box[1], sin(R(10))));
    REQUIRE(width(res.final_box[0]) < 1e-12);
    REQUIRE(width(res.final_box[1]) < 1e-12);
}

TEST_CASE("exponential decay and growth are enclosed with small relative width") {
    auto f = field("var:x; par:a; fun:a*x;");
    auto dec = run<IntervalD>(f, {IntervalD(-1)}, {IntervalD(1)}, IntervalD(5));
    REQUIRE(encloses(dec.final_box[0], exp(R(-5))));
    REQUIRE(width(dec.final_box[0]) < 1e-14);
    auto gro = run<IntervalD>(f, {IntervalD(2)}, {IntervalD(1)}, IntervalD(5));
    REQUIRE(encloses(gro.final_box[0], exp(R(10))));
    REQUIRE(width(gro.final_box[0]) / upper(gro.final_box[0]) < 1e-13);
}

TEST_CASE("a non-normal 3x3 linear system is enclosed around its matrix exponential solution") {
    auto f = field(kLinear3);
    Options opt;
    opt.c1 = true;
    const auto res = run<IntervalD>(f, {}, {IntervalD(1), IntervalD(2), IntervalD(3)}, IntervalD(4), opt);
    const auto E = Linear3{}.expm(R(4));
    const IntervalMp x0[3] = {R(1), R(2), R(3)};
    for (int i = 0; i < 3; ++i) {
        const IntervalMp xi = E[3 * i] * x0[0] + E[3 * i + 1] * x0[1] + E[3 * i + 2] * x0[2];
        REQUIRE(encloses(res.final_box[i], xi));
        REQUIRE(width(res.final_box[i]) < 1e-13);
    }
    SECTION("the C^1 enclosure contains the exact derivative of the flow, e^{AT}") {
        REQUIRE(res.final_derivative.size() == 9);
        for (int e = 0; e < 9; ++e) {
            INFO("entry " << e << " " << to_string(res.final_derivative[e]));
            REQUIRE(encloses(res.final_derivative[e], E[e]));
            REQUIRE(width(res.final_derivative[e]) < 1e-10);
        }
    }
}

TEST_CASE("logistic equation: the enclosure contains x0 e^t / (1 - x0 + x0 e^t)") {
    auto f = field("var:x; fun:x*(1-x);");
    auto res = run<IntervalD>(f, {}, {D("0.1")}, IntervalD(3));
    const IntervalMp x0 = Rd("0.1"), e = exp(R(3));
    REQUIRE(encloses(res.final_box[0], x0 * e / (R(1) - x0 + x0 * e)));
    INFO("width " << width(res.final_box[0]));
    REQUIRE(width(res.final_box[0]) < 1e-14);
}

TEST_CASE("x' = x^2 is enclosed up to T = 0.9, close to its blow-up at 1") {
    auto f = field("var:x; fun:x^2;");
    auto res = run<IntervalD>(f, {}, {IntervalD(1)}, D("0.9"));
    REQUIRE(encloses(res.final_box[0], R(10)));
    REQUIRE(width(res.final_box[0]) < 1e-11);
}

TEST_CASE("x' = x^2 integrated past its blow-up fails with a reason, never with a wrong enclosure") {
    auto f = field("var:x; fun:x^2;");
    auto res = integrate<IntervalD>(f, {}, {IntervalD(1)}, D("1.5"), {}, Options{}, 53);
    REQUIRE_FALSE(res.ok());
    REQUIRE(res.status != Status::not_run);
    REQUIRE_FALSE(res.reason.empty());
    REQUIRE(certainly_less(res.time, IntervalD(1)));
    REQUIRE(res.offending_set.size() == 1);
}

TEST_CASE("Riccati x' = 1 + x^2 from 0 encloses tan(T) at T = 1.5") {
    auto f = field("var:x; fun:1 + x^2;");
    auto res = run<IntervalD>(f, {}, {IntervalD(0)}, D("1.5"));
    const IntervalMp T = Rd("1.5");
    REQUIRE(encloses(res.final_box[0], sin(T) / cos(T)));
    REQUIRE(width(res.final_box[0]) < 1e-11);
}

TEST_CASE("diagonal linear net gradient flow (kh-beyond-origin 9A) matches its logistic closed form") {
    // u' = (b - s u v) v, v' = (b - s u v) u; with u0 = v0, q = uv solves q' = 2q(b - s q):
    // q(t) = (b/s) / (1 + ((b/s)/q0 - 1) e^{-2bt}), u = v = sqrt(q).
    auto f = field("var:u,v; par:b,s; fun:(b-s*u*v)*v, (b-s*u*v)*u;");
    auto res = run<IntervalD>(f, {IntervalD(3), IntervalD(1)}, {D("0.1"), D("0.1")}, IntervalD(2));
    const IntervalMp K = R(3), q0 = Rd("0.01");
    const IntervalMp q = K / (R(1) + (K / q0 - R(1)) * exp(R(-12)));
    REQUIRE(encloses(res.final_box[0], sqrt(q)));
    REQUIRE(encloses(res.final_box[1], sqrt(q)));
    REQUIRE(width(res.final_box[0]) < 1e-12);
}

TEST_CASE("1000 random points of an initial box have exact solutions inside the box's enclosure") {
    std::mt19937_64 rng(20261130);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    auto pick = [&](const IntervalD& box) {
        const double x = box.lower() + U(rng) * (box.upper() - box.lower());
        return std::min(std::max(x, box.lower()), box.upper());  // an exact double inside the box
    };
    SECTION("logistic equation") {
        auto f = field("var:x; fun:x*(1-x);");
        const IntervalD box = D("0.1") + IntervalD::bounds(-1e-3, 1e-3);
        auto res = run<IntervalD>(f, {}, {box}, IntervalD(3));
        REQUIRE(width(res.final_box[0]) < 1e-2);
        const IntervalMp e = exp(R(3));
        for (int k = 0; k < 1000; ++k) {
            const IntervalMp x0 = IntervalMp::exact(pick(box), kRef);
            REQUIRE(encloses(res.final_box[0], x0 * e / (R(1) - x0 + x0 * e)));
        }
    }
    SECTION("rotation from a wide box with a low-order Jacobian (the boxed tail carries terms q+1..p)") {
        auto f = field("var:x,y; fun:-y, x;");
        std::vector<IntervalD> box{IntervalD(1) + IntervalD::bounds(-0.1, 0.1), IntervalD::bounds(-0.1, 0.1)};
        for (int q : {1, 3}) {
            Options opt;
            opt.jacobian_order = q;
            auto res = run<IntervalD>(f, {}, box, IntervalD(3), opt);
            INFO("q = " << q << " width " << width(res.final_box[0]));
            // the exact image has width 0.2 sqrt 2 at most; q = 1 boxes much of the step (wrapping)
            REQUIRE(width(res.final_box[0]) < (q == 1 ? 5.0 : 0.5));
            const IntervalMp c = cos(R(3)), s = sin(R(3));
            for (int k = 0; k < 1000; ++k) {
                const IntervalMp x = IntervalMp::exact(pick(box[0]), kRef), y = IntervalMp::exact(pick(box[1]), kRef);
                REQUIRE(encloses(res.final_box[0], c * x - s * y));
                REQUIRE(encloses(res.final_box[1], s * x + c * y));
            }
        }
    }
    SECTION("non-normal 3x3 linear system") {
        auto f = field(kLinear3);
        std::vector<IntervalD> box{IntervalD(1), IntervalD(2), IntervalD(3)};
        for (auto& b : box) b = b + IntervalD::bounds(-0.01, 0.01);
        auto res = run<IntervalD>(f, {}, box, IntervalD(2));
        const auto E = Linear3{}.expm(R(2));
        for (int k = 0; k < 1000; ++k) {
            IntervalMp x0[3];
            for (int j = 0; j < 3; ++j) x0[j] = IntervalMp::exact(pick(box[j]), kRef);
            for (int i = 0; i < 3; ++i)
                REQUIRE(encloses(res.final_box[i], E[3 * i] * x0[0] + E[3 * i + 1] * x0[1] + E[3 * i + 2] * x0[2]));
        }
    }
}

TEST_CASE("the MPFR back end at 256 bits reaches width <= 1e-40 at T = 1 (rotation)") {
    auto f = field("var:x,y; fun:-y, x;");
    const Precision p(256);
    Options opt;
    opt.order = 40;
    auto res = run<IntervalMp>(f, {}, {IntervalMp::from_integer(1, p), IntervalMp::from_integer(0, p)},
                               IntervalMp::from_integer(1, p), opt, 256);
    REQUIRE(encloses(res.final_box[0], cos(R(1))));
    REQUIRE(encloses(res.final_box[1], sin(R(1))));
    REQUIRE(width(res.final_box[0]) <= 1e-40);
    REQUIRE(width(res.final_box[1]) <= 1e-40);
}

TEST_CASE("double and MPFR enclosures of Lorenz at T = 1 intersect") {
    auto f = field("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    auto rd = run<IntervalD>(f, {IntervalD(10), IntervalD(28), D("8/3")}, std::vector<IntervalD>(3, IntervalD(1)),
                             IntervalD(1));
    const Precision p(128);
    Options opt;
    opt.order = 30;
    auto rm = run<IntervalMp>(f,
                              {IntervalMp::from_integer(10, p), IntervalMp::from_integer(28, p),
                               IntervalMp::from_decimal("8/3", p)},
                              std::vector<IntervalMp>(3, IntervalMp::from_integer(1, p)),
                              IntervalMp::from_integer(1, p), opt, 128);
    for (int i = 0; i < 3; ++i) {
        IntervalMp both;
        INFO(to_string(rd.final_box[i]) << " vs " << to_string(rm.final_box[i]));
        REQUIRE(intersect(to_interval_mp(rd.final_box[i], p), rm.final_box[i], both));
        REQUIRE(width(rm.final_box[i]) < width(rd.final_box[i]));
    }
}

TEST_CASE("output times and tube pieces enclose the rotation at those times and throughout each step") {
    auto f = field("var:x,y; fun:-y, x;");
    Options opt;
    opt.record_tubes = true;
    auto res = run<IntervalD>(f, {}, {IntervalD(1), IntervalD(0)}, IntervalD(3), opt, 53,
                              {IntervalD(1), D("2.5")});
    REQUIRE(res.outputs.size() == 2);
    REQUIRE(encloses(res.outputs[0].box[0], cos(R(1))));
    REQUIRE(encloses(res.outputs[1].box[1], sin(Rd("2.5"))));
    REQUIRE(res.tube.size() == static_cast<std::size_t>(res.steps * opt.tube_pieces));
    // the pieces (Taylor polynomial over each eighth of a step) are far narrower than one box a step
    Options whole = opt;
    whole.tube_pieces = 1;
    auto coarse = run<IntervalD>(f, {}, {IntervalD(1), IntervalD(0)}, IntervalD(3), whole, 53, {});
    double w8 = 0, w1 = 0;
    for (const auto& piece : res.tube) w8 = std::max(w8, width(piece.box[0]));
    for (const auto& piece : coarse.tube) w1 = std::max(w1, width(piece.box[0]));
    REQUIRE(w8 < 0.5 * w1);
    for (const auto& piece : res.tube)
        for (int q = 0; q <= 4; ++q) {  // sample times across the step
            const IntervalMp t0 = IntervalMp::exact(upper(piece.t0), kRef), t1 = IntervalMp::exact(lower(piece.t1), kRef);
            const IntervalMp t = t0 + (t1 - t0) * R(q) / R(4);
            REQUIRE(encloses(piece.box[0], cos(t)));
            REQUIRE(encloses(piece.box[1], sin(t)));
        }
}

TEST_CASE("with the C^1 enclosure a step whose set reaches a relu kink is refused with reason relu_kink at the right time") {
    // x' = relu(x) - 1 from 0.5: x = 1 - e^t / 2 reaches the kink x = 0 at t = ln 2. The C^0
    // integration goes through the kink (switching_test.cpp); the derivative is not continued.
    auto f = field("var:x; fun:relu(x) - 1;");
    Options c1;
    c1.c1 = true;
    auto res = integrate<IntervalD>(f, {}, {D("0.5")}, IntervalD(1), {}, c1, 53);
    REQUIRE(res.status == Status::relu_kink);
    REQUIRE(res.reason.find("relu") != std::string::npos);
    REQUIRE(certainly_less(res.time, D("0.6932")));
    REQUIRE(certainly_less(D("0.5"), res.time));
    // the set reached before the failure is still valid: x(time) = 1 - e^time / 2, where the exact
    // time lies somewhere in res.time (|x'| <= 1, so inflating by width(time) covers that spread)
    const IntervalMp t = to_interval_mp(res.time, kRef);
    REQUIRE(subset(R(1) - exp(t) / R(2), to_interval_mp(inflate(res.final_box[0], width(res.time)), kRef)));
    SECTION("an initial set straddling the kink is refused at once") {
        auto r2 = integrate<IntervalD>(f, {}, {IntervalD::bounds(-0.1, 0.1)}, IntervalD(1), {}, c1, 53);
        REQUIRE(r2.status == Status::relu_kink);
        REQUIRE(r2.steps == 0);
        REQUIRE(r2.offending_set.size() == 1);
    }
}

TEST_CASE("invalid arguments are reported as invalid_input, not as a result") {
    auto f = field("var:x; fun:-x;");
    REQUIRE(integrate<IntervalD>(f, {}, {IntervalD(1), IntervalD(2)}, IntervalD(1), {}, Options{}, 53).status ==
            Status::invalid_input);
    REQUIRE(integrate<IntervalD>(f, {}, {IntervalD(1)}, IntervalD(-1), {}, Options{}, 53).status ==
            Status::invalid_input);
    REQUIRE(integrate<IntervalD>(f, {IntervalD(1)}, {IntervalD(1)}, IntervalD(1), {}, Options{}, 53).status ==
            Status::invalid_input);
}

TEST_CASE("C^1 enclosures of nonlinear flows contain the exact derivative with respect to x0") {
    Options opt;
    opt.c1 = true;
    SECTION("x' = x^2: d x(T) / d x0 = 1 / (1 - x0 T)^2") {
        auto f = field("var:x; fun:x^2;");
        auto res = run<IntervalD>(f, {}, {D("0.5")}, D("1.5"), opt);
        const IntervalMp d = R(1) / sqr(R(1) - Rd("0.5") * Rd("1.5"));
        REQUIRE(encloses(res.final_derivative[0], d));
        REQUIRE(width(res.final_derivative[0]) < 1e-11);
    }
    SECTION("logistic, from a box: d x(T)/d x0 = e^T / (1 - x0 + x0 e^T)^2 for every x0 of the box") {
        auto f = field("var:x; fun:x*(1-x);");
        const IntervalD box = D("0.1") + IntervalD::bounds(-1e-4, 1e-4);
        auto res = run<IntervalD>(f, {}, {box}, IntervalD(3), opt);
        const IntervalMp e = exp(R(3));
        for (double x0 : {lower(box), mid(box), upper(box)}) {
            const IntervalMp x = IntervalMp::exact(x0, kRef);
            REQUIRE(encloses(res.final_derivative[0], e / sqr(R(1) - x + x * e)));
        }
        REQUIRE(width(res.final_derivative[0]) < 1e-2);
    }
    SECTION("Lorenz to T = 5: the derivative enclosure stays narrow (Lohner form, no wrapping blow-up)") {
        auto f = field("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
        auto res = run<IntervalD>(f, {IntervalD(10), IntervalD(28), D("8/3")}, std::vector<IntervalD>(3, IntervalD(1)),
                                  IntervalD(5), opt);
        for (const auto& v : res.final_derivative) REQUIRE(width(v) < 1e-7);
    }
}
