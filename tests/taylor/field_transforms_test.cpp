// Tests of flowcert/taylor/field_transforms.hpp: the difference system, the restriction to {x_z = 0}, DAG copies and
// the structural vanishing analysis, against closed forms of small fields evaluated at dyadic points (where double
// arithmetic is exact, so the enclosures are points that must equal the closed form).
#include <catch2/catch.hpp>
#include <flowcert/taylor.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace flowcert;
using namespace flowcert::taylor;

namespace {

VectorField parsed(const std::string& formula) {
    auto r = parse_formula(formula);
    REQUIRE(r.ok());
    return *r.field;
}
// f(x; p) at a point (order-0 evaluation).
std::vector<IntervalD> eval(const VectorField& f, const std::vector<double>& x, const std::vector<double>& p = {}) {
    std::vector<IntervalD> xi, pi, out(static_cast<std::size_t>(f.dimension()), IntervalD(0));
    for (double v : x) xi.push_back(IntervalD::exact(v));
    for (double v : p) pi.push_back(IntervalD::exact(v));
    TaylorEvaluator<IntervalD> ev(f, pi, 53);
    REQUIRE(ev.evaluate(xi, out).ok());
    return out;
}
bool is_exactly(const IntervalD& x, double v) { return lower(x) == v && upper(x) == v; }
double dyadic(std::mt19937_64& g) { return static_cast<double>(static_cast<int>(g() % 65) - 32) / 16.0; }

}  // namespace

TEST_CASE("the difference field of x' = a x y, y' = x^2 - y is (f(p), f(p + e) - f(p)) in closed form", "[taylor]") {
    const VectorField f = parsed("var:x,y; par:a; fun:a*x*y, x^2 - y;");
    const VectorField g = difference_field(f);
    REQUIRE(g.dimension() == 4);
    CHECK(g.variables() == std::vector<std::string>{"p_x", "p_y", "e_x", "e_y"});
    CHECK(g.parameters() == f.parameters());
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 20; ++trial) {
        const double px = dyadic(rng), py = dyadic(rng), ex = dyadic(rng), ey = dyadic(rng), a = dyadic(rng);
        const auto v = eval(g, {px, py, ex, ey}, {a});
        CHECK(is_exactly(v[0], a * px * py));
        CHECK(is_exactly(v[1], px * px - py));
        // f(p + e) - f(p) = (a (px ey + ex py + ex ey), 2 px ex + ex^2 - ey)
        CHECK(is_exactly(v[2], a * (px * ey + ex * py + ex * ey)));
        CHECK(is_exactly(v[3], 2 * px * ex + ex * ex - ey));
    }
}

TEST_CASE("copy_dag substitutes variables and parameters: f(x + 1 -- 2 q) composed in closed form", "[taylor]") {
    const VectorField f = parsed("var:x; par:a; fun:a*x^2 + 3;");
    VectorField g({"u"}, {"q"});
    const auto img = copy_dag(f, g, {g.var(0) + 1}, {2 * g.par(0)});
    g.set_rhs({img[static_cast<std::size_t>(f.outputs()[0])]});
    for (double u : {-1.5, 0.0, 0.25, 3.0})
        for (double q : {-2.0, 0.5})
            CHECK(is_exactly(eval(g, {u}, {q})[0], 2 * q * (u + 1) * (u + 1) + 3));
}

TEST_CASE("the restricted field is the full field with x_z = 0 substituted, on the remaining variables", "[taylor]") {
    const VectorField f = parsed("var:x,y,z; par:c; fun:y*z + c, x - z^2, x*y*z;");
    const VectorField r = restrict_field(f, {1});
    CHECK(r.variables() == std::vector<std::string>{"x", "z"});
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 20; ++trial) {
        const double x = dyadic(rng), z = dyadic(rng), c = dyadic(rng);
        const auto v = eval(r, {x, z}, {c});
        REQUIRE(v.size() == 2);
        CHECK(is_exactly(v[0], c));      // y z + c at y = 0
        CHECK(is_exactly(v[1], 0.0));    // x y z at y = 0
    }
}

TEST_CASE("the structural rules prove vanishing only where the closed form vanishes, and refuse exp, log, cos", "[taylor]") {
    // x' = x y, y' = y + x^2, z' = sin(x) + atan(x) z: {x = 0} is invariant for x and z, not for the others.
    const VectorField f = parsed("var:x,y,z; fun:x*y, y + x^2, sin(x) + atan(x)*z;");
    const auto r = field_vanishes_on_subspace(f, {0}, {0, 1, 2});
    CHECK_FALSE(r.proven);
    CHECK(r.not_proven == std::vector<int>{1});
    CHECK(is_exactly(eval(f, {0, 0.5, 2})[1], 0.5));  // y' = y != 0 on {x = 0}: really not invariant
    CHECK(field_vanishes_on_subspace(f, {0}, {0, 2}).proven);
    CHECK(field_vanishes_on_subspace(f, {0, 1}, {0, 1, 2}).proven);
    // exp(x) - 1 and cos(x) y + ... vanish or not; the rules do not know exp 0 = 1 (sufficient, not necessary)
    const VectorField g = parsed("var:a,b; par:c; fun:exp(a) - 1 + a*b, log(1 + a)*b;");
    CHECK_FALSE(field_vanishes_on_subspace(g, {0}, {0}).proven);
    CHECK(field_vanishes_on_subspace(g, {1}, {1}).proven);
    // a parameter counts as 0 only when given as exactly 0
    const VectorField h = parsed("var:a,b; par:c; fun:a + c, a^2*b;");
    CHECK_FALSE(field_vanishes_on_subspace(h, {0}, {0}).proven);
    CHECK(field_vanishes_on_subspace(h, {0}, {0}, {true}).proven);
    CHECK(field_vanishes_on_subspace(h, {0}, {1}).proven);
    // a constant counts as 0 only when its exact value is 0
    CHECK(field_vanishes_on_subspace(parsed("var:a; fun:a + 0.0;"), {0}, {0}).proven);
    CHECK_FALSE(field_vanishes_on_subspace(parsed("var:a; fun:a + 1e-300;"), {0}, {0}).proven);
    CHECK(field_vanishes_on_subspace(h, {7}, {0}).reason == "zero variable index out of range");
    CHECK_FALSE(field_vanishes_on_subspace(h, {0}, {}).proven);
}

TEST_CASE("whenever vanishing is proven, the components are exactly zero at random points of the subspace", "[taylor]") {
    const VectorField f = parsed("var:u,v,w; par:p,q; fun:u*v*p - u^3/(1 + w^2), (v - q)*w + sqrt(1 + u^2) - 1 + u, w*u*relu(v + 3);");
    std::mt19937_64 rng(9);
    for (const std::vector<int>& z : {std::vector<int>{0}, {2}, {0, 2}, {1, 2}}) {
        const auto r = field_vanishes_on_subspace(f, z, {0, 1, 2});
        for (int trial = 0; trial < 10; ++trial) {
            std::vector<double> x = {dyadic(rng), dyadic(rng), dyadic(rng)};
            for (int j : z) x[static_cast<std::size_t>(j)] = 0;
            const auto v = eval(f, x, {dyadic(rng), dyadic(rng)});
            for (int j = 0; j < 3; ++j)
                if (std::find(r.not_proven.begin(), r.not_proven.end(), j) == r.not_proven.end()) CHECK(is_exactly(v[static_cast<std::size_t>(j)], 0.0));
        }
    }
    CHECK(field_vanishes_on_subspace(f, {0}, {0}).proven);
    CHECK(field_vanishes_on_subspace(f, {0}, {2}).proven);
    CHECK_FALSE(field_vanishes_on_subspace(f, {0}, {1}).proven);  // sqrt(1 + u^2) - 1: the rules cannot see it
}
