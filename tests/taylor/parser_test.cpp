#include <catch2/catch.hpp>
#include <flowcert/taylor.hpp>

using namespace flowcert;
using namespace flowcert::taylor;

TEST_CASE("the Lorenz formula parses into three variables, three parameters and three components") {
    auto r = parse_formula("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    REQUIRE(r.ok());
    REQUIRE(r.field->dimension() == 3);
    REQUIRE(r.field->parameter_count() == 3);
    REQUIRE(r.field->parameters()[2] == "b");
    REQUIRE(r.field->outputs().size() == 3);
}

TEST_CASE("malformed formulas are rejected with the position of the error") {
    struct Case { const char* text; std::size_t pos; const char* words; };
    const Case cases[] = {
        {"var:x,y; fun:x*(y-, x;", 18, "operand"},
        {"var:x,y; fun:x+q, y;", 15, "undefined name 'q'"},
        {"var:x,y; fun:x, y, x;", 13, "3 components"},
        {"var:x; fun:sum(i=2..1, x);", 15, "empty range"},
        {"var:x; fun:foo(x);", 11, "unknown function"},
        {"var:w[2]; fun:[i=0..1] w[i+1];", 25, "out of range"},
        {"var:x fun:x;", 6, "expected ';'"},
        {"fun:x;", 0, "var:"},
        {"var:x; fun:x $ 2;", 13, "expected"},
        {"var:x; fun:(x+1;", 15, "expected ')'"},
    };
    for (const auto& c : cases) {
        auto r = parse_formula(c.text);
        INFO(c.text << " -> " << r.message(c.text));
        REQUIRE_FALSE(r.ok());
        CHECK(r.position == c.pos);
        CHECK(r.error.find(c.words) != std::string::npos);
        CHECK(r.message(c.text).find("position " + std::to_string(c.pos)) != std::string::npos);
    }
}

TEST_CASE("max(expr, 0) and max(0, expr) parse as one shared relu and powers expand exactly") {
    auto r = parse_formula("var:x; fun: max(x,0) + max(0, x) + x^3 + x^(-2) + relu(x);");
    REQUIRE(r.ok());
    int relus = 0, divs = 0;
    for (const auto& n : r.field->nodes()) {
        relus += n.op == Op::Relu;
        divs += n.op == Op::Div;
        CHECK(n.op != Op::Log);  // integer powers are products, not exp(n log x)
    }
    REQUIRE(relus == 1);  // hash-consing: the three relu(x) are one node
    REQUIRE(divs == 1);
}

namespace {
// f(x) of a parsed one- or two-variable field at a point, in IntervalD (rigorous).
std::vector<IntervalD> eval_at(const char* formula, std::vector<double> x, std::vector<IntervalD> params = {}) {
    auto r = parse_formula(formula);
    INFO(formula << " -> " << r.message(formula));
    REQUIRE(r.ok());
    TaylorEvaluator<IntervalD> ev(*r.field, params);
    std::vector<IntervalD> x0, out(r.field->dimension());
    for (double v : x) x0.push_back(IntervalD::exact(v));
    REQUIRE(ev.evaluate(x0, out).ok());
    return out;
}
bool encloses(const IntervalD& y, double v, double tol = 1e-14) { return y.lower() - tol <= v && v <= y.upper() + tol; }
}  // namespace

TEST_CASE("the input language: functions, pi, real exponents, max/min/abs, time, arrays, loops and sums") {
    const double x = 0.7, y = -1.3;
    CHECK(encloses(eval_at("var:x,y; fun:tanh(x), sigmoid(y);", {x, y})[0], std::tanh(x)));
    CHECK(encloses(eval_at("var:x,y; fun:tanh(x), logistic(y);", {x, y})[1], 1 / (1 + std::exp(-y))));
    CHECK(encloses(eval_at("var:x,y; fun:atan(x), abs(y);", {x, y})[0], std::atan(x)));
    CHECK(encloses(eval_at("var:x,y; fun:atan(x), abs(y);", {x, y})[1], 1.3));
    CHECK(encloses(eval_at("var:x,y; fun:max(x,y), min(x,y);", {x, y})[0], x));
    CHECK(encloses(eval_at("var:x,y; fun:max(x,y), min(x,y);", {x, y})[1], y));
    CHECK(encloses(eval_at("var:x,y; fun:x^2.5, pi*y;", {x, y})[0], std::pow(x, 2.5)));
    CHECK(encloses(eval_at("var:x,y; fun:x^2.5, pi*y;", {x, y})[1], M_PI * y));
    CHECK(encloses(eval_at("var:x,y; fun:x^(-2), y^-3;", {x, y})[1], std::pow(y, -3)));
    // time: an extra state variable with t' = 1
    auto t = parse_formula("var:x; time:t; fun:-x*t;");
    REQUIRE(t.ok());
    REQUIRE(t.field->dimension() == 2);
    REQUIRE(t.field->time_variable() == 1);
    auto tv = eval_at("var:x; time:t; fun:-x*t;", {2, 3});
    CHECK(encloses(tv[0], -6));
    CHECK(encloses(tv[1], 1));
    // arrays, a component loop and a sum: w_i' = -c_i w_i + (w_0 + w_1 + w_2) / 3
    const char* net = "var:w[3]; par:c[3]; fun:[i=0..2] -c[i]*w[i] + sum(j=0..2, w[j])/3;";
    auto v = eval_at(net, {1, 2, 4}, {IntervalD(1), IntervalD(2), IntervalD(3)});
    REQUIRE(v.size() == 3);
    CHECK(encloses(v[0], -1 + 7.0 / 3));
    CHECK(encloses(v[2], -12 + 7.0 / 3));
    auto nf = parse_formula(net);
    CHECK(nf.field->variables()[1] == "w[1]");
    CHECK(nf.field->parameters()[2] == "c[2]");
    // loop index arithmetic and loop variables as numbers: x_i' = (i+1) x_{(i+1) mod 2}
    auto ring = eval_at("var:x[2]; fun:[i=0..1] (i+1)*x[1-i];", {5, 7});
    CHECK(encloses(ring[0], 7));
    CHECK(encloses(ring[1], 10));
}

TEST_CASE("common subexpressions are shared: the two-neuron flow has far fewer nodes than its text") {
    const char* f = "var:a,b,w,v; fun:-(a*w+b*v-1)*w, -(a*w+b*v-1)*v, -(a*w+b*v-1)*a, -(a*w+b*v-1)*b;";
    auto r = parse_formula(f);
    REQUIRE(r.ok());
    int muls = 0;
    for (const auto& n : r.field->nodes()) muls += n.op == Op::Mul;
    CHECK(muls == 6);  // a*w, b*v once each, then the four products with the shared residual
}

TEST_CASE("deep nesting is refused with a message, long sign chains parse") {
    const std::string deep = "var:x; fun:" + std::string(300, '(') + "x" + std::string(300, ')') + ";";
    auto r = parse_formula(deep);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.find("nested deeper") != std::string::npos);
    const std::string signs = "var:x; fun:" + std::string(100001, '-') + "x;";
    auto s = parse_formula(signs);
    REQUIRE(s.ok());
    CHECK(s.field->nodes()[s.field->outputs()[0]].op == Op::Neg);
}

TEST_CASE("atan's Taylor recurrence and its derivative match the closed form") {
    // y' = atan(t), t' = 1: y_k = atan^{(k-1)}(t0) / k!, and d y_k / d t0 = atan^{(k)}(t0) / k!
    auto r = parse_formula("var:t,y; fun:1, atan(t);");
    REQUIRE(r.ok());
    TaylorEvaluator<IntervalD> ev(*r.field, {});
    const double t0 = 0.5, d = 1 + t0 * t0;
    std::vector<IntervalD> x0 = {IntervalD::exact(t0), IntervalD::exact(0)};
    REQUIRE(ev.compute_c1(x0, 4).ok());
    const double a1 = 1 / d, a2 = -2 * t0 / (d * d), a3 = (6 * t0 * t0 - 2) / (d * d * d);
    CHECK(encloses(ev.coeff(1, 1), std::atan(t0)));
    CHECK(encloses(ev.coeff(1, 2), a1 / 2));
    CHECK(encloses(ev.coeff(1, 3), a2 / 6));
    CHECK(encloses(ev.coeff(1, 4), a3 / 24));
    CHECK(encloses(ev.dcoeff(1, 1, 0), a1));
    CHECK(encloses(ev.dcoeff(1, 2, 0), a2 / 2));
    CHECK(encloses(ev.dcoeff(1, 3, 0), a3 / 6));
}

TEST_CASE("a 100-neuron gradient flow in a few lines: arrays, loops, a shared residual, nodes linear in m") {
    // f = sum_j a_j tanh(w_j x), loss (f - y)^2 / 2: a_i' = -(f - y) tanh(w_i x),
    // w_i' = -(f - y) a_i (1 - tanh(w_i x)^2) x
    const char* flow =
        "var:a[100], w[100]; par:x, y;"
        "fun:[i=0..99] -(sum(j=0..99, a[j]*tanh(w[j]*x)) - y)*tanh(w[i]*x),"
        "    [i=0..99] -(sum(j=0..99, a[j]*tanh(w[j]*x)) - y)*a[i]*(1 - tanh(w[i]*x)^2)*x;";
    auto r = parse_formula(flow);
    INFO(r.message(flow));
    REQUIRE(r.ok());
    REQUIRE(r.field->dimension() == 200);
    CHECK(r.field->nodes().size() < 20 * 100);  // the residual and each tanh(w_i x) built once
    std::vector<IntervalD> x0(200), out(200);
    for (int i = 0; i < 100; ++i) {
        x0[i] = IntervalD::exact(0.01 * (i % 7 - 3));
        x0[100 + i] = IntervalD::exact(0.02 * (i % 5 - 2));
    }
    TaylorEvaluator<IntervalD> ev(*r.field, {IntervalD(1), IntervalD::from_decimal("0.5")});
    REQUIRE(ev.evaluate(x0, out).ok());
    double f = 0;
    for (int j = 0; j < 100; ++j) f += x0[j].lower() * std::tanh(x0[100 + j].lower());
    const double res = f - 0.5;
    CHECK(encloses(out[3], -res * std::tanh(x0[103].lower()), 1e-12));
    const double t = std::tanh(x0[117].lower());
    CHECK(encloses(out[117], -res * x0[17].lower() * (1 - t * t), 1e-12));
}
