// The double-double centre coefficients of the Lohner step (lib/flowcert/ode/centre_dd.hpp)
// against exact Taylor coefficients computed with GMP rationals: containment first, then width.
#include <catch2/catch.hpp>
#include <flowcert/ode.hpp>

#include "flowcert/ode/centre_dd.hpp"

#include <gmp.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace flowcert;
using flowcert::ode::detail::CentreDD;
using flowcert::ode::detail::DD;

namespace {

// An exact rational, RAII.
struct Q {
    mpq_t v;
    Q() { mpq_init(v); }
    explicit Q(double d) : Q() { mpq_set_d(v, d); }
    explicit Q(const std::string& s) : Q() { REQUIRE_FALSE(parse_rational(s, v).has_value()); }
    Q(const Q& o) : Q() { mpq_set(v, o.v); }
    Q& operator=(const Q& o) { mpq_set(v, o.v); return *this; }
    ~Q() { mpq_clear(v); }
};

// Exact Taylor coefficients x_k, k <= order, of the solution of the polynomial field through x0.
std::vector<std::vector<Q>> exact_coefficients(const taylor::VectorField& f, const std::vector<Q>& params,
                                               const std::vector<Q>& x0, int order) {
    using taylor::Op;
    const auto& nodes = f.nodes();
    std::vector<std::vector<Q>> val(nodes.size(), std::vector<Q>(order + 1));
    for (std::size_t id = 0; id < nodes.size(); ++id) {
        if (nodes[id].op == Op::Param) val[id][0] = params[nodes[id].index];
        if (nodes[id].op == Op::Const) val[id][0] = Q(f.constants()[nodes[id].index]);
    }
    for (int i = 0; i < f.dimension(); ++i) val[i][0] = x0[i];
    Q t;
    for (int k = 0; k < order; ++k) {
        for (std::size_t id = f.dimension(); id < nodes.size(); ++id) {
            const auto& nd = nodes[id];
            if (nd.op == Op::Param || nd.op == Op::Const) continue;
            mpq_t& w = val[id][k].v;
            const auto& u = val[nd.a];
            switch (nd.op) {
                case Op::Add: mpq_add(w, u[k].v, val[nd.b][k].v); break;
                case Op::Sub: mpq_sub(w, u[k].v, val[nd.b][k].v); break;
                case Op::Neg: mpq_neg(w, u[k].v); break;
                case Op::Div:  // by a constant in these fields
                    REQUIRE(nodes[nd.b].constant);
                    REQUIRE(mpq_sgn(val[nd.b][0].v) != 0);
                    if (k == 0 || !nodes[id].constant) mpq_div(w, u[k].v, val[nd.b][0].v);
                    break;
                case Op::Mul:
                case Op::Sqr: {
                    const auto& v = nd.op == Op::Sqr ? u : val[nd.b];
                    mpq_set_ui(w, 0, 1);
                    for (int i = 0; i <= k; ++i) {
                        mpq_mul(t.v, u[i].v, v[k - i].v);
                        mpq_add(w, w, t.v);
                    }
                    break;
                }
                default: FAIL("unexpected operation in a polynomial test field");
            }
        }
        for (int i = 0; i < f.dimension(); ++i) {
            mpq_set_ui(t.v, static_cast<unsigned long>(k + 1), 1);
            mpq_div(val[i][k + 1].v, val[f.outputs()[i]][k].v, t.v);
        }
    }
    std::vector<std::vector<Q>> out(val.begin(), val.begin() + f.dimension());
    return out;
}

// |exact - (hi + lo)| <= r, exactly.
bool encloses(const DD& x, const Q& exact) {
    Q m(x.hi), d;
    Q lo(x.lo);
    mpq_add(m.v, m.v, lo.v);
    mpq_sub(d.v, exact.v, m.v);
    mpq_abs(d.v, d.v);
    Q r(x.r);
    return mpq_cmp(d.v, r.v) <= 0;
}

taylor::VectorField field(const char* formula) {
    auto r = taylor::parse_formula(formula);
    REQUIRE(r.ok());
    return *r.field;
}

// The field's parameters as IntervalD enclosures and one exact value inside each.
struct Params {
    std::vector<IntervalD> enclosures;
    std::vector<Q> inside;
};

}  // namespace

TEST_CASE("double-double centre coefficients enclose the exact Taylor coefficients of polynomial fields") {
    struct Case {
        const char* formula;
        std::vector<std::string> params;
    };
    const std::vector<Case> cases = {
        {"var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;", {"10", "28", "8/3"}},
        {"var:x,y; fun: -0.1*x + y^2 - 1/3, -x*y*y + sqr(x) - 2.5e-3;", {}},
        {"var:x,y; par:a; fun: y, -a*x - x^3 + 0.7;", {"1/10"}},
        {"var:x,y,z; fun: 10*(y-x), x*(28-z)-y, x*y-8/3*z + x/7;", {}},
    };
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> pick(-3.0, 3.0);
    for (const auto& c : cases) {
        const auto f = field(c.formula);
        Params p;
        for (const auto& s : c.params) {
            p.enclosures.push_back(IntervalD::from_decimal(s));
            p.inside.emplace_back(s);  // the exact parameter lies inside its enclosure
        }
        CentreDD dd(f, p.enclosures);
        INFO(c.formula);
        REQUIRE(dd.supported());
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<double> x0(f.dimension());
            std::vector<Q> x0q;
            for (auto& v : x0) {
                v = pick(rng) * std::ldexp(1.0, static_cast<int>(rng() % 7) - 3);
                x0q.emplace_back(v);
            }
            const int order = 1 + static_cast<int>(rng() % 25);
            INFO(c.formula << " trial " << trial << " order " << order);
            REQUIRE(dd.compute(x0, order));
            const auto exact = exact_coefficients(f, p.inside, x0q, order);
            for (int i = 0; i < f.dimension(); ++i)
                for (int k = 0; k <= order; ++k) {
                    INFO("variable " << i << " coefficient " << k);
                    REQUIRE(encloses(dd.coeff(i, k), exact[i][k]));
                }
            // Horner sums at a point step and at an interval step (as for the last step to a stop time)
            const double h = std::ldexp(1.0 + 0.37 * trial, -6);
            for (const IntervalD hI : {IntervalD::exact(h), IntervalD::bounds(h, rounding::next_up(h))}) {
                DD hd, y;
                REQUIRE(ode::detail::dd_from_interval(hI, hd));
                for (const double hx : {hI.lower(), hI.upper()}) {
                    const Q hq(hx);
                    for (int i = 0; i < f.dimension(); ++i) {
                        REQUIRE(dd.taylor_sum(i, hd, y));
                        Q s, t;
                        for (int k = order; k >= 0; --k) {
                            mpq_mul(t.v, s.v, hq.v);
                            mpq_add(s.v, t.v, exact[i][k].v);
                        }
                        REQUIRE(encloses(y, s));
                    }
                }
            }
        }
    }
}

TEST_CASE("double-double centre coefficients are far tighter than double rounding (radius <= 1e-26 relative)") {
    // Lorenz with integer parameters only (s = 10, r = 28, b = 3: exact), so the radius is rounding alone.
    const auto f = field("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    CentreDD dd(f, {IntervalD(10), IntervalD(28), IntervalD(3)});
    REQUIRE(dd.compute({1.0, 1.0, 1.0}, 20));
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k <= 20; ++k) {
            const DD& x = dd.coeff(i, k);
            INFO("variable " << i << " coefficient " << k << ": " << x.hi << " +- " << x.r);
            REQUIRE(x.r <= 1e-26 * std::max(std::fabs(x.hi), 1e-300) + 1e-300);
        }
}

TEST_CASE("fields outside + - * sqr and division by constants are not evaluated in double-double") {
    const auto f = field("var:x; fun: exp(x) - x;");
    CentreDD dd(f, {});
    REQUIRE_FALSE(dd.supported());
    const auto g = field("var:x; fun: 1/x;");
    REQUIRE_FALSE(CentreDD(g, {}).supported());
}

TEST_CASE("an overflowing centre is refused by the double-double kernel and never enclosed wrongly") {
    const auto f = field("var:x; fun: x^2;");
    CentreDD dd(f, {});
    REQUIRE_FALSE(dd.compute({1e200}, 10));
}

TEST_CASE("Lorenz from (1,1,1) to T = 10 (IntervalD) is within 1e-10 wide and contains a 128-bit enclosure") {
    const auto f = field("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    const auto d = ode::integrate<IntervalD>(f, {IntervalD(10), IntervalD(28), IntervalD::from_decimal("8/3")},
                                             {IntervalD(1), IntervalD(1), IntervalD(1)}, IntervalD(10), {}, {}, 53);
    REQUIRE(d.ok());
    // reference: MPFR at 128 bits, order 30, local tolerance 1e-28 (about 1.2 s)
    const Precision P(128);
    ode::Options opt;
    opt.order = 30;
    opt.tolerance = 1e-28;
    const auto m = ode::integrate<IntervalMp>(
        f, {IntervalMp::from_integer(10, P), IntervalMp::from_integer(28, P), IntervalMp::from_decimal("8/3", P)},
        {IntervalMp::from_integer(1, P), IntervalMp::from_integer(1, P), IntervalMp::from_integer(1, P)},
        IntervalMp::from_integer(10, P), {}, opt, 128);
    REQUIRE(m.ok());
    for (int i = 0; i < 3; ++i) {
        INFO("variable " << i << ": " << to_string(d.final_box[i]) << " vs " << to_string(m.final_box[i], 30));
        REQUIRE(width(d.final_box[i]) <= 1e-10);
        REQUIRE(width(m.final_box[i]) <= 1e-19);
        // the 128-bit enclosure is much narrower and lies inside the double one
        REQUIRE(subset(m.final_box[i], to_interval_mp(d.final_box[i], P)));
    }
}

TEST_CASE("double-double quotients by integers and by constants enclose the exact rational quotient") {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> pick(-1.0, 1.0);
    for (int trial = 0; trial < 2000; ++trial) {
        // exact double-double inputs (radius 0): every bit of the result's radius must come from the
        // quotient's own rounding
        DD x;
        ode::detail::two_sum(pick(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20),
                             pick(rng) * 0x1p-60, x.hi, x.lo);
        const long d = 1 + static_cast<long>(rng() % 1000);
        DD q;
        REQUIRE(ode::detail::dd_div_int(x, d, q));
        Q exact(x.hi), lo(x.lo), dq(static_cast<double>(d));
        mpq_add(exact.v, exact.v, lo.v);
        Q num = exact;
        mpq_div(exact.v, exact.v, dq.v);
        INFO("trial " << trial << " d " << d);
        REQUIRE(encloses(q, exact));
        REQUIRE(q.r <= 1e-30 * std::fabs(q.hi) + 1e-300);
        DD v;
        ode::detail::two_sum(pick(rng) + 2.0, pick(rng) * 0x1p-58, v.hi, v.lo);
        REQUIRE(ode::detail::dd_div(x, v, q));
        Q vq(v.hi), vl(v.lo);
        mpq_add(vq.v, vq.v, vl.v);
        mpq_div(num.v, num.v, vq.v);
        REQUIRE(encloses(q, num));
        REQUIRE(q.r <= 1e-29 * std::fabs(q.hi) + 1e-300);
    }
    DD one{1.0, 0.0, 0.0}, zero_ish{0.0, 0.0, 1e-300}, q;
    REQUIRE_FALSE(ode::detail::dd_div(one, zero_ish, q));  // 0 may lie in the divisor
}
