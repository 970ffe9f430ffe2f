#include <catch2/catch.hpp>
#include <flowcert/taylor.hpp>

#include <cmath>
#include <random>

using namespace flowcert;
using namespace flowcert::taylor;

namespace {
const Precision kRef(300);
IntervalMp ref_int(long k) { return IntervalMp::from_integer(k, kRef); }
IntervalMp R300(long k) { return IntervalMp::from_integer(k, kRef); }
bool encloses(const IntervalD& enc, const IntervalMp& exact) { return subset(exact, to_interval_mp(enc, kRef)); }

// Taylor coefficients of y(t) = y0 + int_0^t g(s) ds from the field (t' = 1, y' = g(t)):
// y_k = g_{k-1} / k. The reference g_{k} are exact values from MPFR.
VectorField field_of(const std::string& g) {
    auto r = parse_formula("var:t,y; fun:1, " + g + ";");
    REQUIRE(r.ok());
    return *r.field;
}
}  // namespace

TEST_CASE("Taylor coefficients of exp, sin, cos, log, sqrt and a quotient enclose the exact series") {
    const int K = 12;
    std::vector<IntervalD> x0{IntervalD::from_decimal("0.3"), IntervalD(0)};
    const IntervalMp t0 = IntervalMp::from_decimal("0.3", kRef);
    // g^{(j)}(t0) / j!  for each g, exactly (MPFR reference)
    auto check = [&](const std::string& g, auto gk) {
        auto f = field_of(g);
        TaylorEvaluator<IntervalD> ev(f, {});
        REQUIRE(ev.compute(x0, K).ok());
        for (int k = 1; k <= K; ++k) {
            const IntervalMp exact = gk(k - 1) / ref_int(k);  // y_k = g_{k-1}/k
            INFO(g << " k=" << k << " enclosure " << to_string(ev.coeff(1, k)) << " exact " << to_string(exact));
            REQUIRE(encloses(ev.coeff(1, k), exact));
            REQUIRE(width(ev.coeff(1, k)) < 1e-12);
        }
    };
    auto fact = [](int j) { IntervalMp f = ref_int(1); for (int i = 2; i <= j; ++i) f = f * ref_int(i); return f; };
    check("exp(t)", [&](int j) { return exp(t0) / fact(j); });
    check("sin(t)", [&](int j) {
        const IntervalMp d = (j % 4 == 0) ? sin(t0) : (j % 4 == 1) ? cos(t0) : (j % 4 == 2) ? -sin(t0) : -cos(t0);
        return d / fact(j);
    });
    check("cos(t)", [&](int j) {
        const IntervalMp d = (j % 4 == 0) ? cos(t0) : (j % 4 == 1) ? -sin(t0) : (j % 4 == 2) ? -cos(t0) : sin(t0);
        return d / fact(j);
    });
    // log(1+t): j-th coefficient (-1)^{j+1} / (j (1+t0)^j), j >= 1
    check("log(1+t)", [&](int j) {
        if (j == 0) return log(ref_int(1) + t0);
        IntervalMp v = ref_int(1) / (ref_int(j) * pow(ref_int(1) + t0, j));
        return j % 2 ? v : -v;
    });
    // 1/(2+t): (-1)^j / (2+t0)^{j+1}
    check("1/(2+t)", [&](int j) {
        IntervalMp v = ref_int(1) / pow(ref_int(2) + t0, j + 1);
        return j % 2 ? -v : v;
    });
    // sqrt(1+t): binom(1/2, j) (1+t0)^{1/2 - j}
    check("sqrt(1+t)", [&](int j) {
        IntervalMp b = ref_int(1);
        for (int i = 0; i < j; ++i) b = b * (ref_int(1) / ref_int(2) - ref_int(i)) / ref_int(i + 1);
        return b * sqrt(ref_int(1) + t0) / pow(ref_int(1) + t0, j);
    });
    check("relu(t+1) - relu(-t-1)", [&](int j) {
        if (j == 0) return ref_int(1) + t0;
        return j == 1 ? ref_int(1) : ref_int(0);
    });
}

TEST_CASE("C^1 coefficients of x' = x^2 enclose d x_k / d x0 = (k+1) x0^k") {
    // x(t) = x0 / (1 - x0 t): x_k = x0^{k+1}
    auto r = parse_formula("var:x; fun:x^2;");
    REQUIRE(r.ok());
    TaylorEvaluator<IntervalD> ev(*r.field, {});
    const IntervalD x0 = IntervalD::from_decimal("0.7");
    REQUIRE(ev.compute_c1(std::vector<IntervalD>{x0}, 15).ok());
    const IntervalMp x = IntervalMp::from_decimal("0.7", kRef);
    for (int k = 0; k <= 15; ++k) {
        REQUIRE(encloses(ev.coeff(0, k), pow(x, k + 1)));
        REQUIRE(encloses(ev.dcoeff(0, k, 0), ref_int(k + 1) * pow(x, k)));
    }
}

TEST_CASE("C^1 coefficients through exp, log, sin, division and sqrt agree with the exact derivative") {
    // one variable x, field g(x); x_1 = g(x0), d x_1/dx0 = g'(x0); x_2 = g g'/2, d x_2 = (g'^2 + g g'')/2
    auto r = parse_formula("var:x; fun: exp(x)*sin(x) + log(x)/sqrt(x);");
    REQUIRE(r.ok());
    TaylorEvaluator<IntervalMp> ev(*r.field, {}, 200);
    const IntervalMp x = IntervalMp::from_decimal("1.3", Precision(200));
    REQUIRE(ev.compute_c1(std::vector<IntervalMp>{x}, 2).ok());
    const IntervalMp g = exp(x) * sin(x) + log(x) / sqrt(x);
    const IntervalMp half = IntervalMp::from_decimal("0.5", Precision(200));
    const IntervalMp dg = exp(x) * (sin(x) + cos(x)) + (IntervalMp(1) - half * log(x)) / (x * sqrt(x));
    REQUIRE(subset(g, ev.coeff(0, 1)));
    REQUIRE(width(ev.coeff(0, 1)) < 1e-50);
    REQUIRE(subset(dg, ev.dcoeff(0, 1, 0)));
    REQUIRE(width(ev.dcoeff(0, 1, 0)) < 1e-50);
    // x_2 = g g' / 2
    REQUIRE(subset(g * dg * half, ev.coeff(0, 2)));
}

TEST_CASE("a relu argument whose enclosure contains 0 is refused with that reason") {
    auto r = parse_formula("var:x; fun: relu(x) - x;");
    REQUIRE(r.ok());
    TaylorEvaluator<IntervalD> ev(*r.field, {});
    auto res = ev.compute(std::vector<IntervalD>{IntervalD::bounds(-0.1, 0.1)}, 5);
    REQUIRE(res.status == EvalStatus::relu_kink);
    REQUIRE(res.reason.find("relu") != std::string::npos);
    REQUIRE(ev.compute(std::vector<IntervalD>{IntervalD::bounds(0.1, 0.2)}, 5).ok());
}

TEST_CASE("the double evaluator (non-rigorous predictor) lies inside the interval coefficients of a point") {
    auto r = parse_formula("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    REQUIRE(r.ok());
    TaylorEvaluator<double> ed(*r.field, {10.0, 28.0, 8.0 / 3.0});
    TaylorEvaluator<IntervalD> ei(*r.field, {IntervalD(10), IntervalD(28), IntervalD::from_decimal("8/3")});
    REQUIRE(ed.compute(std::vector<double>{1, 1, 1}, 20).ok());
    REQUIRE(ei.compute(std::vector<IntervalD>(3, IntervalD(1)), 20).ok());
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k <= 20; ++k) {
            const double d = ed.coeff(i, k);
            const IntervalD& e = ei.coeff(i, k);
            // the double run rounds 8/3 and every operation: it is near, not necessarily inside
            REQUIRE(std::fabs(d - mid(e)) <= 1e-12 * (1 + mag(e)) + width(e));
        }
}

TEST_CASE("IntervalD coefficients over random boxes (fast midpoint-radius products) contain the 300-bit coefficients of points inside") {
    // Lorenz and a cubic field with cancellation; random centres of both signs, radii from 0 to 10.
    const char* formulas[] = {"var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;",
                              "var:x,y,z; par:s,r,b; fun:x*x*y - y*y*x + s*z^3, (x-y)*(x+y)*r - z^2, b*x*y*z - x;"};
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (const char* text : formulas) {
        auto f = *parse_formula(text).field;
        TaylorEvaluator<IntervalD> ed(f, {IntervalD(10), IntervalD(28), IntervalD::from_decimal("8/3")});
        TaylorEvaluator<IntervalMp> em(f, {R300(10), R300(28), IntervalMp::from_decimal("8/3", kRef)}, 300);
        for (int trial = 0; trial < 200; ++trial) {
            const double rad = trial % 4 == 0 ? 0.0 : std::pow(10.0, -12 + 13 * (U(rng) + 1) / 2);
            std::vector<IntervalD> xd;
            std::vector<IntervalMp> xm;
            for (int i = 0; i < 3; ++i) {
                const double c = 20 * U(rng);
                xd.push_back(IntervalD::bounds(c - rad, c + rad));
                xm.push_back(to_interval_mp(xd.back(), kRef));
            }
            const bool c1 = trial % 2 == 1;
            const int K = 20;
            if (rad > 0)  // an exact point of the box: its coefficients must lie in the box's
                for (int i = 0; i < 3; ++i) {
                    // corners half of the time (where midpoint-radius bounds are tight), else inside
                    const double p = trial % 3 == 0 ? (U(rng) > 0 ? upper(xd[i]) : lower(xd[i]))
                                                    : std::min(std::max(mid(xd[i]) + rad * U(rng), lower(xd[i])), upper(xd[i]));
                    xm[i] = IntervalMp::exact(p, kRef);
                }
            REQUIRE((c1 ? ed.compute_c1(xd, K) : ed.compute(xd, K)).ok());
            REQUIRE((c1 ? em.compute_c1(xm, K) : em.compute(xm, K)).ok());
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k <= K; ++k) {
                    {  // the MPFR enclosure of a point is far thinner than the double one
                        INFO("trial " << trial << " i " << i << " k " << k);
                        REQUIRE(subset(em.coeff(i, k), to_interval_mp(ed.coeff(i, k), kRef)));
                        if (c1)
                            for (int j = 0; j < 3; ++j)
                                REQUIRE(subset(em.dcoeff(i, k, j), to_interval_mp(ed.dcoeff(i, k, j), kRef)));
                    }
                }
        }
    }
}

TEST_CASE("a product of exact points through the fast kernel encloses the exact product, coefficient by coefficient") {
    // x_1 = x0 y0 and x_{k+1} = (x y)_k / (k+1) come straight out of the product kernel.
    auto f = *parse_formula("var:x,y; fun: x*y, x^2 - y;").field;
    TaylorEvaluator<IntervalD> ed(f, {});
    TaylorEvaluator<IntervalMp> em(f, {}, 600);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> U(-3.0, 3.0);
    for (int trial = 0; trial < 500; ++trial) {
        const double a = U(rng), b = U(rng);
        REQUIRE(ed.compute_c1(std::vector<IntervalD>{IntervalD::exact(a), IntervalD::exact(b)}, 12).ok());
        REQUIRE(em.compute_c1(std::vector<IntervalMp>{IntervalMp::exact(a, Precision(600)),
                                                      IntervalMp::exact(b, Precision(600))},
                              12)
                    .ok());
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k <= 12; ++k) {
                REQUIRE(subset(em.coeff(i, k), to_interval_mp(ed.coeff(i, k), Precision(600))));
                for (int j = 0; j < 2; ++j)
                    REQUIRE(subset(em.dcoeff(i, k, j), to_interval_mp(ed.dcoeff(i, k, j), Precision(600))));
            }
    }
}
