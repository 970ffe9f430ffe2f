// Integration through relu kinks (ode/integrator.hpp: hull steps, switching events) against
// closed forms: x' = relu(x) - 1 (one transversal crossing), an oscillator with a different
// stiffness on each side of x = 0 (many crossings), and a set that stays on a kink.
// References in MPFR at 200 bits.
#include <catch2/catch.hpp>
#include <flowcert/ode.hpp>

#include <cmath>

using namespace flowcert;
using namespace flowcert::ode;

namespace {
const Precision ref_bits(200);
IntervalMp mp(const std::string& s) { return IntervalMp::from_decimal(s, ref_bits); }
bool inside(const IntervalMp& ref, const IntervalD& box) {
    return certainly_less(IntervalMp::exact(box.lower(), ref_bits), ref) &&
           certainly_less(ref, IntervalMp::exact(box.upper(), ref_bits));
}
taylor::VectorField parse(const char* f) {
    auto r = taylor::parse_formula(f);
    INFO(r.message(f));
    REQUIRE(r.ok());
    return *r.field;
}
}  // namespace

TEST_CASE("x' = relu(x) - 1 through its kink: certified crossing at ln 2 and the closed form at T = 2") {
    // x > 0: x = 1 - e^t / 2 reaches 0 at t* = ln 2 with x' = -1; then x = -(t - ln 2).
    const auto f = parse("var:x; fun:relu(x) - 1;");
    Options o;
    o.record_tubes = true;
    const auto res = integrate<IntervalD>(f, {}, {IntervalD::from_decimal("0.5")}, IntervalD(2), {}, o, 53);
    INFO(res.reason);
    REQUIRE(res.ok());
    const IntervalMp ln2 = log(mp("2"));
    CHECK(inside(-(mp("2") - ln2), res.final_box[0]));
    CHECK(width(res.final_box[0]) < 1e-12);
    REQUIRE(res.events.size() == 1);
    const auto& e = res.events[0];
    CHECK(e.kind == EventKind::crossing);
    CHECK(e.direction == -1);
    CHECK(certainly_less(IntervalMp::exact(e.t0.lower(), ref_bits), ln2));
    CHECK(certainly_less(ln2, IntervalMp::exact(e.t1.upper(), ref_bits)));
    CHECK(e.t1.upper() - e.t0.lower() < 1e-6);
    CHECK(res.hull_steps > 0);
    // teeth: without the kink (x' = x - 1 everywhere) the enclosure misses the closed form
    const auto smooth = integrate<IntervalD>(parse("var:x; fun:x - 1;"), {}, {IntervalD::from_decimal("0.5")},
                                             IntervalD(2), {}, o, 53);
    REQUIRE(smooth.ok());
    CHECK_FALSE(inside(-(mp("2") - ln2), smooth.final_box[0]));
}

TEST_CASE("an oscillator stiffer on one side crosses x = 0 17 times by T = 40, each crossing certified and enclosed") {
    // x' = v, v' = -4 relu(x) + relu(-x): omega 2 for x > 0, omega 1 for x < 0. From (1/2, 0):
    // x = cos(2t)/2 until t1 = pi/4 (v = -1), then lobes of length pi (x < 0) and pi/2 (x > 0)
    // alternate, |v| = 1 at every crossing.
    const auto f = parse("var:x,v; fun:v, -4*relu(x) + relu(-x);");
    Options o;
    const int T = 40;
    const auto res = integrate<IntervalD>(f, {}, {IntervalD::from_decimal("0.5"), IntervalD(0)}, IntervalD(T), {}, o, 53);
    INFO(res.reason);
    REQUIRE(res.ok());
    const IntervalMp pi = IntervalMp::pi(ref_bits);
    // crossing times and the state at T
    std::vector<IntervalMp> crossings;
    IntervalMp t = pi / IntervalMp::from_integer(4, ref_bits);
    bool negative_lobe = true;
    while (upper(t) < T) {
        crossings.push_back(t);
        t = t + (negative_lobe ? pi : pi / IntervalMp::from_integer(2, ref_bits));
        negative_lobe = !negative_lobe;
    }
    const IntervalMp last = crossings.back(), s = IntervalMp::from_integer(static_cast<long>(T), ref_bits) - last;
    // after the last crossing: negative lobe x = -sin(s), v = -cos(s) when it was entered downward
    const bool in_negative = crossings.size() % 2 == 1;
    const IntervalMp x_ref = in_negative ? -sin(s) : sin(IntervalMp::from_integer(2, ref_bits) * s) / IntervalMp::from_integer(2, ref_bits);
    const IntervalMp v_ref = in_negative ? -cos(s) : cos(IntervalMp::from_integer(2, ref_bits) * s);
    CHECK(inside(x_ref, res.final_box[0]));
    CHECK(inside(v_ref, res.final_box[1]));
    CHECK(width(res.final_box[0]) < 1e-6);
    // the events: one certified crossing per exact crossing, in order, each enclosing it
    REQUIRE(res.events.size() == 2 * crossings.size());  // relu(x) and relu(-x) are two kinks of x = 0
    for (std::size_t k = 0; k < crossings.size(); ++k)
        for (int which = 0; which < 2; ++which) {
            const auto& e = res.events[2 * k + which];
            INFO("crossing " << k);
            CHECK(e.kind == EventKind::crossing);
            CHECK(certainly_less(IntervalMp::exact(e.t0.lower(), ref_bits), crossings[k]));
            CHECK(certainly_less(crossings[k], IntervalMp::exact(e.t1.upper(), ref_bits)));
        }
}

TEST_CASE("a set that stays on a kink moves by hull steps and encloses both sides' closed forms") {
    // x' = -x, y' = relu(x) - 2 relu(-x) + 1, x0 in [-d, d]: every solution keeps the sign of x0,
    // y(T) = y0 + T + x0 (1 - e^-T) for x0 >= 0 and y0 + T + 2 x0 (1 - e^-T) for x0 < 0.
    const auto f = parse("var:x,y; fun:-x, relu(x) - 2*relu(-x) + 1;");
    Options o;
    const std::string d = "1e-6";
    const IntervalD X0 = hull(-IntervalD::from_decimal(d), IntervalD::from_decimal(d));
    const auto res = integrate<IntervalD>(f, {}, {X0, IntervalD(0)}, IntervalD(1), {}, o, 53);
    INFO(res.reason);
    REQUIRE(res.ok());
    const IntervalMp g = mp("1") - exp(-mp("1"));
    for (const IntervalMp x0 : {mp(d), -mp(d), mp("0"), mp(d) / mp("3")}) {
        const IntervalMp y = mp("1") + (certainly_negative(x0) ? mp("2") * x0 : x0) * g;
        CHECK(inside(y, res.final_box[1]));
        CHECK(inside(x0 * exp(-mp("1")), res.final_box[0]));
    }
    CHECK(width(res.final_box[1]) < 20e-6);  // the exact range has width 3 d (1 - 1/e) ~ 1.9e-6
    REQUIRE_FALSE(res.events.empty());
    for (const auto& e : res.events) CHECK(e.kind == EventKind::contact);
}

namespace {
// NOT rigorous: a high-precision reference for a piecewise-smooth field. Fixed Taylor steps of
// order 30 at 256 bits from point values (midpoints kept); when the kink argument g changes sign
// within a step, the root of its Taylor polynomial is found by bisection, the state is moved to
// just past it with that polynomial (g is continuous and only its derivative jumps, so the
// overshoot of 1e-45 costs ~1e-90) and the next step uses the other branch.
std::vector<IntervalMp> reference(const taylor::VectorField& f, int g_node, std::vector<IntervalMp> x, double T,
                                  int& crossings) {
    const long bits = 256;
    const Precision P(bits);
    const int order = 30;
    taylor::TaylorEvaluator<IntervalMp> ev(f, {}, bits);
    const int n = f.dimension();
    auto poly = [&](int node, const IntervalMp& h) {  // sum_k c_k h^k of a node (state: coeff)
        IntervalMp acc = node < n ? ev.coeff(node, order) : ev.node_coeff(node, order - 1);
        for (int k = (node < n ? order : order - 1) - 1; k >= 0; --k)
            acc = acc * h + (node < n ? ev.coeff(node, k) : ev.node_coeff(node, k));
        return mid_point(acc);
    };
    IntervalMp t = IntervalMp::from_integer(0, P);
    const IntervalMp TT = IntervalMp::exact(T, P), H = IntervalMp::from_decimal("0.05", P);
    crossings = 0;
    while (certainly_less(t, TT)) {
        REQUIRE(ev.compute(x, order).ok());
        IntervalMp h = certainly_less(t + H, TT) ? H : mid_point(TT - t);
        const int s0 = certainly_positive(poly(g_node, IntervalMp::from_integer(0, P))) ? 1 : -1;
        const IntervalMp g1 = poly(g_node, h);
        if ((s0 > 0 && certainly_negative(g1)) || (s0 < 0 && certainly_positive(g1))) {
            IntervalMp lo = IntervalMp::from_integer(0, P), hi = h;
            for (int it = 0; it < 200; ++it) {
                const IntervalMp m = mid_point((lo + hi) / IntervalMp::from_integer(2, P));
                const IntervalMp gm = poly(g_node, m);
                ((s0 > 0) == certainly_positive(gm) ? lo : hi) = m;
            }
            h = hi + IntervalMp::from_decimal("1e-45", P);
            ++crossings;
        }
        for (int i = 0; i < n; ++i) x[i] = poly(i, h);
        t = t + h;
    }
    return x;
}
}  // namespace

TEST_CASE("a damped pendulum with |v| v drag crosses v = 0 19 times -- the enclosure contains a 256-bit reference") {
    // x' = v, v' = -sin(x) - 0.2 |v| v, from (2, 0.1): no closed form; the relu kinks are at v = 0.
    const auto f = parse("var:x,v; fun:v, -sin(x) - 0.2*abs(v)*v;");
    int g = -1;
    for (int id = 0; id < static_cast<int>(f.nodes().size()); ++id)
        if (f.nodes()[id].op == taylor::Op::Relu && f.nodes()[id].a == 1) g = 1;  // relu(v): argument v
    REQUIRE(g == 1);
    const int T = 60;
    int crossings = 0;
    const Precision P(256);
    const auto ref = reference(f, g, {IntervalMp::from_integer(2, P), IntervalMp::from_decimal("0.1", P)}, T, crossings);
    CHECK(crossings == 19);
    Options o;
    const auto res = integrate<IntervalD>(f, {}, {IntervalD(2), IntervalD::from_decimal("0.1")}, IntervalD(T), {}, o, 53);
    INFO(res.reason);
    REQUIRE(res.ok());
    for (int i = 0; i < 2; ++i) {
        INFO("component " << i << ": " << to_string(res.final_box[i]) << " vs " << to_string(ref[i], 30));
        CHECK(certainly_less(IntervalMp::exact(res.final_box[i].lower(), P), ref[i]));
        CHECK(certainly_less(ref[i], IntervalMp::exact(res.final_box[i].upper(), P)));
    }
    CHECK(width(res.final_box[0]) < 1e-9);
    int certified = 0;
    for (const auto& e : res.events) certified += e.kind == EventKind::crossing;
    CHECK(certified == 2 * crossings);  // relu(v) and relu(-v)
}
