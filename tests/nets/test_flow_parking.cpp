// Tests of parked neurons in the rigorous gradient flow (FlowOptions::park_neurons;
// docs/nonsmooth-flow.md, section 4c): a ReLU neuron on the kink <w, x_k> = 0 of one sample,
// certainly inactive on the others, with a r_k > 0, keeps the time-independent anchored box
//     w in w_A + [-z_A^+ / |x_k|^2, 0] x_k,   |a| in |a_A| - [0, Delta].
//
// Data: the three points of cases/bf/theorem2_three_point_assumption3.toml (d = 2, no bias).
// References are non-rigorous long-double RK4 integrations (step 1e-4) with the activation
// pattern fixed per step and event location at every sign change of <w_j, x_k> (bisection to
// 1e-17 in time); past the kink of an inactive-elsewhere neuron the field is exactly 0, so the
// reference stops on the kink as the exact solution does (it slides with eta_k = 0). Named
// tolerance kRefTol = 1e-9 relative (as in test_two_layer_flow.cpp: RK4 error O(h^4) ~ 1e-16,
// rounding ~1e-15, event location 1e-17 times rates <= 10), far below the distances a wrong
// parking formula produces (dropping the a-bound misses the reference by ~2e-2 below).
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>

#include "../support/figure2_fixture.hpp"  // balanced_init
#include "../support/three_point_fixture.hpp"
#include "../support/thread_reducer.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::assumption3_spec;
using flowcert::test_support::balanced_init;
using flowcert::test_support::run_split_flow;

namespace {

constexpr long double kRefTol = 1e-9L;

IntervalD dec(const char* s) { return IntervalD::from_decimal(s); }
IntervalD bnd(double lo, double hi) { return IntervalD::bounds(lo, hi); }

// The constructed instance (m = 6), all boxes with double endpoints except neuron 1:
//  0: parked at t = 0 on x_1 with a wide box: z_1 in [-0.095, 0.21], a in [-0.5, -0.499];
//  1: exactly on the kink of x_1 (w = -(1.05, 0.95) / 2, <w, x_1> = 0 exactly), a = -0.4: the exact
//     solution stays still;
//  2: parked at t = 0 on x_3: z_3 in [-0.134, 0.061], a in [-0.3, -0.2999];
//  3: small positive neuron active on all samples (smooth, grows; makes the residuals move); on
//     long horizons it fits the data and the wide boxes of 0 and 2 make the residual enclosures
//     wide, so Variant::no_positive replaces it by a frozen neuron (then h <= 0 and
//     r_k <= -y_k < 0 for all t: the parked neurons stay parked forever);
//  4: frozen (certainly inactive everywhere);
//  5: negative, active on x_1 only, reaches the kink near t = 1.3, then parks;
//  6 (Variant::pusher only): on the kink of x_1 (z_1 in [-0.002, 0.002]), inactive elsewhere, but
//     a > 0 while r_1 < 0: the field pushes z_1 up, so it must NOT be parked (parking condition
//     (iii) fails); the references from its corners with z_1 > 0 leave the kink. Its growing
//     hull box then widens r_1 until its sign is no longer certain: neurons 0, 1 and 5 are
//     unparked and continue from their anchored boxes.
enum class Variant { base, no_positive, pusher };
TwoLayerParams<IntervalD> constructed_theta0(Variant v = Variant::base) {
    const bool with_positive = v != Variant::no_positive;
    TwoLayerParams<IntervalD> p(v == Variant::pusher ? 7 : 6, 2, IntervalD(0));
    p.W(0, 0) = bnd(-1.05, -0.95), p.W(0, 1) = bnd(-0.95, -0.75), p.a[0] = bnd(-0.5, -0.499);
    p.W(1, 0) = dec("-0.525"), p.W(1, 1) = dec("-0.475"), p.a[1] = dec("-0.4");
    p.W(2, 0) = bnd(0.75, 0.85), p.W(2, 1) = bnd(-0.8, -0.7), p.a[2] = bnd(-0.3, -0.2999);
    p.W(3, 0) = IntervalD::exact(0.05), p.W(3, 1) = IntervalD::exact(0.1), p.a[3] = IntervalD::exact(0.1);
    if (!with_positive) p.W(3, 0) = IntervalD::exact(0.2), p.W(3, 1) = IntervalD::exact(-0.6), p.a[3] = IntervalD::exact(0.05);
    p.W(4, 0) = IntervalD::exact(0.1), p.W(4, 1) = IntervalD::exact(-0.5), p.a[4] = IntervalD::exact(0.2);
    p.W(5, 0) = IntervalD::exact(-0.4), p.W(5, 1) = IntervalD::exact(-0.1), p.a[5] = IntervalD::exact(-0.3);
    if (v == Variant::pusher)
        p.W(6, 0) = bnd(-0.526, -0.524), p.W(6, 1) = bnd(-0.476, -0.474), p.a[6] = bnd(0.4, 0.4001);
    return p;
}

// Non-rigorous reference (see the header comment). th: m * 3 (w_0, w_1, a).
struct Ref {
    std::size_t m;
    std::vector<long double> x, y, th;
    std::vector<int> pat;  // m * 3 signs used
    std::size_t crossings = 0;
    Ref(const TwoLayerSpec& s, std::vector<long double> theta) : m(theta.size() / 3), th(std::move(theta)) {
        for (std::size_t k = 0; k < 3; ++k) {
            for (const auto& v : s.x[k]) x.push_back(std::stold(v));
            y.push_back(std::stold(s.y[k]));
        }
        pat.resize(m * 3);
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < 3; ++k) pat[j * 3 + k] = z(th, j, k) > 0 ? 1 : -1;
    }
    long double z(const std::vector<long double>& t, std::size_t j, std::size_t k) const {
        return t[j * 3] * x[k * 2] + t[j * 3 + 1] * x[k * 2 + 1];
    }
    void field(const std::vector<long double>& t, std::vector<long double>& f) const {
        long double g[3];
        for (std::size_t k = 0; k < 3; ++k) {
            long double h = 0;
            for (std::size_t j = 0; j < m; ++j)
                if (pat[j * 3 + k] > 0) h += t[j * 3 + 2] * z(t, j, k);
            g[k] = h - y[k];
        }
        f.assign(t.size(), 0.0L);
        for (std::size_t j = 0; j < m; ++j) {
            long double D[2] = {0, 0};
            for (std::size_t k = 0; k < 3; ++k)
                if (pat[j * 3 + k] > 0)
                    for (std::size_t i = 0; i < 2; ++i) D[i] -= g[k] * x[k * 2 + i] / 3;  // c = 1/n
            f[j * 3] = t[j * 3 + 2] * D[0];
            f[j * 3 + 1] = t[j * 3 + 2] * D[1];
            f[j * 3 + 2] = t[j * 3] * D[0] + t[j * 3 + 1] * D[1];
        }
    }
    std::vector<long double> rk4(const std::vector<long double>& t, long double h) const {
        std::vector<long double> k1, k2, k3, k4, tmp(t.size()), out(t.size());
        field(t, k1);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + 0.5L * h * k1[i];
        field(tmp, k2);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + 0.5L * h * k2[i];
        field(tmp, k3);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + h * k3[i];
        field(tmp, k4);
        for (std::size_t i = 0; i < t.size(); ++i) out[i] = t[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        return out;
    }
    bool flipped(const std::vector<long double>& t) const {
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < 3; ++k)
                if ((z(t, j, k) > 0 ? 1 : -1) != pat[j * 3 + k]) return true;
        return false;
    }
    void advance_one(long double h) {
        long double left = h;
        while (left > 0) {
            auto next = rk4(th, left);
            if (!flipped(next)) {
                th = next;
                return;
            }
            long double lo = 0, hi = left;  // first sign change by bisection
            for (int it = 0; it < 80 && hi - lo > 1e-17L; ++it) {
                const long double md = 0.5L * (lo + hi);
                if (flipped(rk4(th, md))) hi = md;
                else lo = md;
            }
            th = rk4(th, hi);
            left -= hi;
            for (std::size_t j = 0; j < m; ++j)
                for (std::size_t k = 0; k < 3; ++k)
                    if ((z(th, j, k) > 0 ? 1 : -1) != pat[j * 3 + k]) {
                        pat[j * 3 + k] = -pat[j * 3 + k];
                        ++crossings;
                    }
        }
    }
    void advance(long double h) {
        while (h > 1e-4L) {
            advance_one(1e-4L);
            h -= 1e-4L;
        }
        if (h > 0) advance_one(h);
    }
};

bool contains(const IntervalD& b, long double v) {
    const long double tol = kRefTol * std::max<long double>(std::fabs(v), 1e-12L);
    return v >= static_cast<long double>(b.lower()) - tol && v <= static_cast<long double>(b.upper()) + tol;
}

// Runs the reference from one point of the initial box through the snapshot times of `res`
// and checks every neuron at every snapshot. Returns the number of failed containments.
std::size_t check_reference(const FlowResult& res, const TwoLayerSpec& spec, const std::vector<long double>& start,
                            Ref* out = nullptr) {
    Ref ref(spec, start);
    long double t = 0;
    std::size_t fails = 0;
    for (const auto& snap : res.snapshots) {
        ref.advance(static_cast<long double>(snap.t) - t);
        t = snap.t;
        for (std::size_t j = 0; j < ref.m; ++j) {
            const bool ok = contains(snap.state.W(j, 0), ref.th[j * 3]) && contains(snap.state.W(j, 1), ref.th[j * 3 + 1]) &&
                            contains(snap.state.a[j], ref.th[j * 3 + 2]);
            if (!ok) {
                ++fails;
                UNSCOPED_INFO("t = " << snap.t << ", neuron " << j << ": reference (" << static_cast<double>(ref.th[j * 3])
                                     << ", " << static_cast<double>(ref.th[j * 3 + 1]) << ", "
                                     << static_cast<double>(ref.th[j * 3 + 2]) << ") outside a = "
                                     << to_string(snap.state.a[j], 8));
            }
        }
    }
    if (out) *out = ref;
    return fails;
}

// Corner `c` (bits: w_0, w_1, a) of neurons 0, 2 and 6, other neurons at their point / midpoint.
std::vector<long double> corner(const TwoLayerParams<IntervalD>& p, unsigned c) {
    std::vector<long double> th(p.m * 3);
    for (std::size_t j = 0; j < p.m; ++j) {
        const IntervalD* comp[3] = {&p.W(j, 0), &p.W(j, 1), &p.a[j]};
        for (std::size_t i = 0; i < 3; ++i) {
            const bool hi = (c >> i) & 1u;
            th[j * 3 + i] = (j == 0 || j == 2 || j == 6) ? (hi ? comp[i]->upper() : comp[i]->lower()) : mid(*comp[i]);
        }
    }
    th[1 * 3 + 0] = -0.525L;  // neuron 1: the exact decimals (on the kink)
    th[1 * 3 + 1] = -0.475L;
    th[1 * 3 + 2] = -0.4L;
    return th;
}

double box_width(const TwoLayerParams<IntervalD>& p, std::size_t j) {
    return std::max({width(p.W(j, 0)), width(p.W(j, 1)), width(p.a[j])});
}

bool same_box(const TwoLayerParams<IntervalD>& p, const TwoLayerParams<IntervalD>& q, std::size_t j) {
    auto same = [](const IntervalD& a, const IntervalD& b) { return a.lower() == b.lower() && a.upper() == b.upper(); };
    return same(p.W(j, 0), q.W(j, 0)) && same(p.W(j, 1), q.W(j, 1)) && same(p.a[j], q.a[j]);
}

FlowOptions constructed_options(double T) {
    FlowOptions o;
    o.t_end = T;
    for (int i = 1; i <= 20; ++i) o.output_times.push_back(T * i / 20);
    return o;
}

}  // namespace

TEST_CASE("parked neurons' anchored boxes contain reference trajectories from the corners of the initial box at every "
          "output time",
          "[flow][parking]") {
    const TwoLayerSpec spec = assumption3_spec();
    const TwoLayerModel<IntervalD> model(spec);
    const auto theta0 = constructed_theta0();
    const FlowResult res = integrate_gradient_flow(model, theta0, constructed_options(2.0));
    REQUIRE(res.status == FlowStatus::completed);
    REQUIRE(res.snapshots.size() == 20);
    // the instance exercises parking: neurons 0, 1, 2 from the first step, 5 after its crossing
    REQUIRE(!res.tube.empty());
    CHECK(res.tube.front().parked == 3);
    CHECK(res.parked[0] == 1);
    CHECK(res.parked[1] == 1);
    CHECK(res.parked[2] == 1);
    CHECK(res.parked[5] == 1);
    CHECK(res.parked[3] == 0);
    CHECK(res.frozen[4] == 1);
    CHECK(res.stats.parked_neurons == 4);
    CHECK(res.stats.parked_neuron_steps > 3 * res.stats.steps);
    std::size_t fails = 0;
    Ref hi_z(spec, {});
    for (unsigned c = 0; c < 8; ++c) {
        Ref r(spec, {});
        fails += check_reference(res, spec, corner(theta0, c), &r);
        if (c == 0b010) hi_z = r;  // w_0 low, w_1 high, a low: z_1 = 0.21, the largest, a = -0.5
    }
    CHECK(fails == 0);
    // The reference from the corner with the largest z_1 really moves: w along -x_1 until the kink,
    // a by about (z_A^+)^2 / (2 |x_1|^2 |a|) ~ 0.023, far more than the anchor's width 1e-3 in a,
    // so the a-bound of the parked box is needed for containment.
    CHECK(std::fabs(hi_z.z(hi_z.th, 0, 0)) < 1e-12L);
    CHECK(hi_z.th[2] - (-0.5L) > 0.02L);
    CHECK(hi_z.th[2] <= static_cast<long double>(res.state.a[0].upper()));
    // neuron 5 crossed the kink (smooth, then hull, then parked) and the reference stops on it
    CHECK(hi_z.crossings >= 2);
}

TEST_CASE("a neuron exactly on the kink with a r_k > 0 is parked and its box never moves", "[flow][parking]") {
    const TwoLayerSpec spec = assumption3_spec();
    const TwoLayerModel<IntervalD> model(spec);
    const auto theta0 = constructed_theta0();
    const FlowResult res = integrate_gradient_flow(model, theta0, constructed_options(2.0));
    REQUIRE(res.status == FlowStatus::completed);
    // the exact solution stays at the initial decimals: every step box contains them, and the box
    // is the anchor widened along -x_1 by the rounding of z_A^+ only
    for (const auto& st : res.tube) {
        CHECK(subset(dec("-0.525"), st.tube.W(1, 0)));
        CHECK(subset(dec("-0.475"), st.tube.W(1, 1)));
        CHECK(subset(dec("-0.4"), st.tube.a[1]));
        CHECK(same_box(st.tube, res.tube.front().tube, 1));
    }
    CHECK(box_width(res.state, 1) < 1e-15);
}

TEST_CASE("the parked tube is not wider than the Clarke-hull tube and its width does not grow with the horizon",
          "[flow][parking]") {
    const TwoLayerSpec spec = assumption3_spec();
    const TwoLayerModel<IntervalD> model(spec);
    const auto theta0 = constructed_theta0(Variant::no_positive);
    FlowOptions o;
    o.t_end = 20.0;
    o.output_times = {2.0, 4.0, 12.0, 20.0};
    o.store_tube = false;
    const FlowResult park = integrate_gradient_flow(model, theta0, o);
    // Clarke-hull sub-steps only: the wide boxes of neurons 0 and 2 grow step after step (this
    // run fails the a priori enclosure of neuron 0 near t = 4.4), so compare on [0, 4].
    o.park_neurons = false;
    o.t_end = 4.0;
    o.output_times = {2.0, 4.0};
    const FlowResult hull = integrate_gradient_flow(model, theta0, o);
    INFO("parked run: " << park.reason << "; hull run: " << hull.reason);
    REQUIRE(park.status == FlowStatus::completed);
    REQUIRE(hull.status == FlowStatus::completed);
    REQUIRE(park.snapshots.size() == 4);
    REQUIRE(hull.snapshots.size() == 2);
    CHECK(hull.stats.parked_neuron_steps == 0);
    CHECK(hull.stats.parked_neurons == 0);
    for (std::size_t j : {0u, 1u, 2u, 5u}) {
        INFO("neuron " << j);
        REQUIRE(park.parked[j] == 1);
        // time independent: the same box at T = 4, 12 and 20, bit for bit
        CHECK(same_box(park.snapshots[1].state, park.snapshots[2].state, j));
        CHECK(same_box(park.snapshots[2].state, park.snapshots[3].state, j));
        for (std::size_t s = 0; s < 2; ++s) {
            INFO("t = " << park.snapshots[s].t << ": parked width " << box_width(park.snapshots[s].state, j)
                        << ", hull width " << box_width(hull.snapshots[s].state, j));
            CHECK(box_width(park.snapshots[s].state, j) <= box_width(hull.snapshots[s].state, j));
        }
    }
    // the hull tube of the neuron on the exact kink widens with time (first-order sub-steps)
    CHECK(box_width(hull.snapshots[1].state, 1) > box_width(hull.snapshots[0].state, 1));
    CHECK(box_width(park.snapshots[3].state, 1) < 1e-15);
}

TEST_CASE("a neuron on a kink pushed away from it is not parked, parked neurons are unparked when the sign of r_k is "
          "lost, and the references stay inside",
          "[flow][parking]") {
    const TwoLayerSpec spec = assumption3_spec();
    const TwoLayerModel<IntervalD> model(spec);
    const auto theta0 = constructed_theta0(Variant::pusher);
    // neuron 6 grows and its hull box widens r_1 until (iii) fails near t = 2.2
    const FlowResult res = integrate_gradient_flow(model, theta0, constructed_options(2.3));
    REQUIRE(res.status == FlowStatus::completed);
    REQUIRE(!res.tube.empty());
    CHECK(res.tube.front().parked == 3);  // 0, 1, 2 (not 6: a r_1 < 0)
    CHECK(res.parked[6] == 0);
    CHECK(res.parked[2] == 1);  // on x_3: r_3 keeps its sign
    // r_1 lost its certain sign: neurons 0 and 1 were unparked (and could not be parked again)
    CHECK(res.parked[0] == 0);
    CHECK(res.parked[1] == 0);
    IntervalD h1(0);
    for (std::size_t j = 0; j < res.state.m; ++j)
        h1 += res.state.a[j] * relu(res.state.W(j, 0) * model.x(0, 0) + res.state.W(j, 1) * model.x(0, 1));
    CHECK(!certainly_negative(h1 - model.y(0)));
    std::size_t fails = 0;
    Ref hi_z(spec, {});
    for (unsigned c = 0; c < 8; ++c) {
        Ref r(spec, {});
        fails += check_reference(res, spec, corner(theta0, c), &r);
        if (c == 0b010) hi_z = r;
    }
    CHECK(fails == 0);
    // the corner of neuron 6 with z_1 = 0.002 > 0 leaves the kink (z_1 grows)
    CHECK(hi_z.z(hi_z.th, 6, 0) > 0.004L);
}

TEST_CASE("parking is identical for one, two and three threads and under a 2- and 3-process partition",
          "[flow][parking][threads][partition]") {
    const TwoLayerModel<IntervalD> model(assumption3_spec());
    const InitSpec is = balanced_init(48, 2, "1e-3");
    const auto init = initialize<IntervalD>(is, model.d());
    FlowOptions o;
    o.t_end = 10.0;
    o.output_times = {5.0, 10.0};
    const FlowResult single = integrate_gradient_flow(model, init.theta, o);
    REQUIRE(single.status == FlowStatus::completed);
    REQUIRE(single.stats.parked_neuron_steps > 0);  // the instance parks neurons
    REQUIRE(single.stats.parked_neurons > 0);
    for (int threads : {2, 3}) {
        FlowOptions ot = o;
        ot.threads = threads;
        const FlowResult r = integrate_gradient_flow(model, init.theta, ot);
        REQUIRE(r.status == FlowStatus::completed);
        CHECK(r.stats.steps == single.stats.steps);
        CHECK(r.stats.parked_neuron_steps == single.stats.parked_neuron_steps);
        CHECK(r.parked == single.parked);
        for (std::size_t j = 0; j < is.m; ++j) CHECK(same_box(r.state, single.state, j));
    }
    for (int P : {2, 3}) {
        const std::vector<FlowResult> out = run_split_flow(model, init.theta, o, P, is.m).gathered;
        for (int r = 0; r < P; ++r) {
            INFO("P = " << P << ", rank " << r);
            REQUIRE(out[r].status == FlowStatus::completed);
            CHECK(out[r].stats.steps == single.stats.steps);
            CHECK(out[r].stats.parked_neuron_steps == single.stats.parked_neuron_steps);
            CHECK(out[r].stats.parked_neurons == single.stats.parked_neurons);
            CHECK(out[r].parked == single.parked);
            REQUIRE(out[r].tube.size() == single.tube.size());
            for (std::size_t s = 0; s < single.tube.size(); ++s) {
                CHECK(out[r].tube[s].parked == single.tube[s].parked);
                CHECK(out[r].tube[s].hull == single.tube[s].hull);
                CHECK(out[r].tube[s].smooth == single.tube[s].smooth);
            }
            for (std::size_t j = 0; j < is.m; ++j) {
                CHECK(same_box(out[r].state, out[0].state, j));  // gathered: the same on every process
                IntervalD tmp;  // enclosures of the same solution set (they differ by the rounding of sums)
                CHECK(intersect(out[r].state.a[j], single.state.a[j], tmp));
                CHECK(intersect(out[r].state.W(j, 0), single.state.W(j, 0), tmp));
                CHECK(intersect(out[r].state.W(j, 1), single.state.W(j, 1), tmp));
            }
        }
    }
}

namespace {

// Snapshots whose residual enclosure h(x_k) - y_k misses the reference residual of the trajectory from
// `start` (every neuron's reference output, parked ones included).
std::size_t residual_misses(const FlowResult& res, const TwoLayerSpec& spec, const std::vector<long double>& start) {
    Ref ref(spec, start);
    long double t = 0;
    std::size_t misses = 0;
    for (const auto& snap : res.snapshots) {
        ref.advance(static_cast<long double>(snap.t) - t);
        t = snap.t;
        for (std::size_t k = 0; k < 3; ++k) {
            long double h = 0;
            for (std::size_t j = 0; j < ref.m; ++j) h += ref.th[j * 3 + 2] * std::max<long double>(ref.z(ref.th, j, k), 0);
            if (!contains(snap.residual[k], h - ref.y[k])) ++misses;
        }
    }
    return misses;
}

}  // namespace

TEST_CASE("the residual enclosures with the cached parked part contain the reference residuals through parks and "
          "unparks, and a stale cache (test-only switch) misses them",
          "[flow][parking][cache]") {
    const TwoLayerSpec spec = assumption3_spec();
    const TwoLayerModel<IntervalD> model(spec);
    for (Variant v : {Variant::base, Variant::pusher}) {
        const auto theta0 = constructed_theta0(v);
        const double T = v == Variant::pusher ? 2.3 : 2.0;  // pusher: neurons 0 and 1 unparked near t = 2.2
        const FlowResult res = integrate_gradient_flow(model, theta0, constructed_options(T));
        REQUIRE(res.status == FlowStatus::completed);
        std::size_t misses = 0;
        for (unsigned c = 0; c < 8; ++c) misses += residual_misses(res, spec, corner(theta0, c));
        CHECK(misses == 0);
        // must fail: newly parked neurons' terms never enter the cached sum
        FlowOptions bad = constructed_options(T);
        bad.test_only_stale_parked_sum_UNSOUND = true;
        const FlowResult stale = integrate_gradient_flow(model, theta0, bad);
        std::size_t stale_misses = 0;
        for (unsigned c = 0; c < 8; ++c) stale_misses += residual_misses(stale, spec, corner(theta0, c));
        CHECK(stale_misses > 0);
    }
}
