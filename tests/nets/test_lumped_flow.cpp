// Tests of the lumped moment engine (docs/nonsmooth-flow.md, "Lumped activation classes").
//
// [lumped][reference]: the moment ODE itself, NON-RIGOROUSLY: long-double RK4 of the per-neuron flow
// (patterns held fixed, and checked to stay so) against long-double RK4 of the moment ODE with the
// class transition matrices (tests/support/lumped_reference.hpp). Both integrate the same exact
// flow; RK4 with h = 2e-4 over t <= 2 has global errors ~ h^4 = 2e-15 times modest constants and
// long-double rounding over 1e4 steps ~ 1e-15, so the two agree to kAgree = 1e-12 (relative to
// max(1, |value|)); a dropped factor in K_S moves them apart by far more.
#include <catch2/catch.hpp>

#include "../support/figure2_fixture.hpp"
#include "../support/lumped_reference.hpp"

#include <cmath>
#include <vector>

using namespace flowcert;
using namespace flowcert::test_support;

namespace {

constexpr long double kAgree = 1e-12L;

// Figure-2 data (x = (x_k, 1)): five all-active neurons (a of both signs), one active on x_1, x_2
// only and two active on x_3 only; every pattern stays the same on [0, 2] (checked below).
std::vector<long double> mixed_classes() {
    return {
        0.10L,  0.50L,   0.52L,  -0.20L, 0.40L, 0.43L, 0.05L, 0.30L, 0.31L, 0.30L, 0.60L, 0.66L,  // {1, 2, 3}
        -0.05L, 0.20L,   -0.21L,                                                            // {1, 2, 3}
        -1.03L, -0.235L, 0.579L,                                                            // {1, 2}
        1.404L, 0.217L,  0.511L,  1.43L,  -0.013L, 0.586L,                                  // {3}
    };
}

long double max_rel_gap(const std::vector<long double>& a, const std::vector<long double>& b) {
    long double g = 0;
    for (std::size_t i = 0; i < a.size(); ++i) g = std::max(g, std::fabs(a[i] - b[i]) / std::max(1.0L, std::fabs(a[i])));
    return g;
}

}  // namespace

TEST_CASE("the moment ODE of the activation classes reproduces the per-neuron flow (long double, non-rigorous)",
          "[lumped][reference]") {
    const LumpedData D(figure2_spec());
    const auto th0 = mixed_classes();
    PerNeuronReference per(D, th0);
    REQUIRE(per.moments().size() == 3);  // three classes
    MomentReference mom(D, per.moments());
    const std::size_t S = D.d + 1;
    long double t_prev = 0;
    for (long double t : {0.5L, 1.0L, 2.0L}) {
        const long double dt = t - t_prev;
        t_prev = t;
        per.advance(dt, 2e-4L);
        mom.advance(dt, 2e-4L);
        REQUIRE(per.patterns_kept());
        // second moments and residuals
        std::vector<long double> Mp;
        for (const auto& [key, Mk] : per.moments()) Mp.insert(Mp.end(), Mk.begin(), Mk.end());
        CHECK(max_rel_gap(Mp, mom.M) < kAgree);
        CHECK(max_rel_gap(per.residuals(per.th), mom.residuals(mom.M)) < kAgree);
        // per-neuron recovery theta_j(t) = Phi_S(t) theta_j(0)
        long double gap = 0;
        for (std::size_t j = 0; j < per.m; ++j) {
            std::size_t q = 0;
            while (mom.keys[q] != per.key[j]) ++q;
            const auto th = mom.recover(q, &th0[j * S]);
            for (std::size_t i = 0; i < S; ++i)
                gap = std::max(gap, std::fabs(th[i] - per.th[j * S + i]) / std::max(1.0L, std::fabs(th[i])));
        }
        CHECK(gap < kAgree);
        // Lemma 1 for the classes: sum_S (M_S,aa - tr M_S,ww) is constant
        long double b = 0, b0 = 0;
        for (std::size_t q = 0; q < mom.keys.size(); ++q)
            for (std::size_t i = 0; i < S; ++i) b += (i == D.d ? 1 : -1) * mom.M[q * S * S + i * S + i];
        for (std::size_t j = 0; j < per.m; ++j)
            for (std::size_t i = 0; i < S; ++i) b0 += (i == D.d ? 1 : -1) * th0[j * S + i] * th0[j * S + i];
        CHECK(std::fabs(b - b0) < kAgree);
    }
}

TEST_CASE("a dropped factor in K_S makes the moment ODE disagree with the per-neuron flow", "[lumped][reference]") {
    const LumpedData D(figure2_spec());
    PerNeuronReference per(D, mixed_classes());
    MomentReference mom(D, per.moments());
    mom.k_scale = 0.5L;  // the broken field: K_S / 2
    per.advance(1.0L, 2e-4L);
    mom.advance(1.0L, 2e-4L);
    REQUIRE(per.patterns_kept());
    CHECK(max_rel_gap(per.residuals(per.th), mom.residuals(mom.M)) > 1e-4L);
}

// ---- the rigorous engine (nets::integrate_gradient_flow with FlowOptions::lumping) ----------------
//
// References: long-double RK4 (h = 2e-4) of the per-neuron flow from the decimal initial values;
// as measured above its error is ~1e-17, so a reference value counts as inside an enclosure when it
// is within kRefSlack = 1e-13 (relative to max(1, |value|)) of it, far below the distances a wrong
// field produces (the mutation test: ~1e-2).

#include <flowcert/nets.hpp>

namespace {

constexpr long double kRefSlack = 1e-13L;

bool inside(const IntervalD& x, long double v) {
    const long double tol = kRefSlack * std::max(1.0L, std::fabs(v));
    return static_cast<long double>(x.lower()) - tol <= v && v <= static_cast<long double>(x.upper()) + tol;
}

// The instance of mixed_classes() as decimal strings (w_0, w_1, a per neuron), plus optional extras.
std::vector<std::string> instance_strings(bool with_crossing) {
    std::vector<std::string> s = {"0.10", "0.50",  "0.52",  "-0.20", "0.40",  "0.43",  "0.05", "0.30",
                                  "0.31", "0.30",  "0.60",  "0.66",  "-0.05", "0.20",  "-0.21", "-1.03",
                                  "-0.235", "0.579", "1.404", "0.217", "0.511", "1.43",  "-0.013", "0.586"};
    if (with_crossing) s.insert(s.end(), {"1.00", "0.60", "0.70"});  // {2, 3}, crosses z_2 = 0 near t = 0.5
    return s;
}

nets::TwoLayerParams<IntervalD> params_of(const std::vector<std::string>& s) {
    const std::size_t m = s.size() / 3;
    nets::TwoLayerParams<IntervalD> p(m, 2, IntervalD(0));
    for (std::size_t j = 0; j < m; ++j) {
        p.W(j, 0) = IntervalD::from_decimal(s[3 * j]);
        p.W(j, 1) = IntervalD::from_decimal(s[3 * j + 1]);
        p.a[j] = IntervalD::from_decimal(s[3 * j + 2]);
    }
    return p;
}
std::vector<long double> values_of(const std::vector<std::string>& s) {
    std::vector<long double> v;
    for (const auto& x : s) v.push_back(std::stold(x));
    return v;
}

struct Containment {
    std::size_t checked = 0, outside = 0;
    void check(const IntervalD& x, long double v) {
        ++checked;
        if (!inside(x, v)) ++outside;
    }
};

// Runs the lumped engine from t = 0 to 2 (snapshots at 0.5, 1, 1.5) and the reference; counts the
// reference values (every neuron at every snapshot, the residuals at t = 2) outside the enclosures.
Containment lumped_vs_reference(const std::vector<std::string>& inst, const std::string& k_scale, nets::FlowResult& res,
                                PerNeuronReference& ref) {
    const nets::TwoLayerModel<IntervalD> model(figure2_spec());
    nets::FlowOptions o;
    o.t_end = 2.0;
    o.output_times = {0.5, 1.0, 1.5};
    o.store_tube = false;
    o.lumping.from = 0;
    o.lumping.k_scale = k_scale;
    res = nets::integrate_gradient_flow(model, params_of(inst), o);
    Containment c;
    if (!res.completed()) return c;
    long double t_prev = 0;
    for (const auto& sn : res.snapshots) {
        ref.advance(static_cast<long double>(sn.t) - t_prev, 2e-4L);
        t_prev = sn.t;
        for (std::size_t j = 0; j < ref.m; ++j) {
            c.check(sn.state.W(j, 0), ref.th[j * 3]);
            c.check(sn.state.W(j, 1), ref.th[j * 3 + 1]);
            c.check(sn.state.a[j], ref.th[j * 3 + 2]);
        }
    }
    ref.advance(2.0L - t_prev, 2e-4L);
    const auto r = ref.residuals(ref.th);
    for (std::size_t k = 0; k < 3; ++k) c.check(res.residual[k], r[k]);
    return c;
}

}  // namespace

TEST_CASE("the lumped tube contains the long-double flow: every neuron at every snapshot, the residuals, the class "
          "moments, and Lemma 1 for the classes",
          "[lumped]") {
    const LumpedData D(figure2_spec());
    const auto inst = instance_strings(false);
    PerNeuronReference ref(D, values_of(inst));
    nets::FlowResult res;
    const Containment c = lumped_vs_reference(inst, "1", res, ref);
    REQUIRE(res.completed());
    REQUIRE(ref.patterns_kept());
    CHECK(res.stats.lumped_at_handoff == 8);
    CHECK(res.stats.lumped_left == 0);
    CHECK(res.classes.size() == 3);
    CHECK(c.checked == 8 * 3 * 3 + 3);
    CHECK(c.outside == 0);
    // the class moments at t = 2 and Lemma 1: sum_S (M_aa - tr M_ww) constant
    const auto Mref = ref.moments();
    IntervalD lemma1(0);
    std::size_t moment_outside = 0;
    for (const auto& cl : res.classes) {
        REQUIRE(Mref.count(cl.pattern) == 1);
        const auto& Mk = Mref.at(cl.pattern);
        for (std::size_t e = 0; e < 9; ++e)
            if (!inside(cl.moment[e], Mk[e])) ++moment_outside;
        lemma1 += cl.moment[8] - cl.moment[0] - cl.moment[4];
    }
    CHECK(moment_outside == 0);
    const auto th0 = values_of(inst);
    long double b0 = 0;
    for (std::size_t j = 0; j < 8; ++j) b0 += th0[j * 3 + 2] * th0[j * 3 + 2] - th0[j * 3] * th0[j * 3] - th0[j * 3 + 1] * th0[j * 3 + 1];
    CHECK(inside(lemma1, b0));
    // tight: the residual enclosures at t = 2 are narrow (a wrapping tube would not be)
    for (const auto& r : res.residual) CHECK(width(r) < 1e-11);
}

TEST_CASE("a lumped neuron that crosses a kink leaves its class and the tube still contains the long-double flow",
          "[lumped][crossing]") {
    const LumpedData D(figure2_spec());
    const auto inst = instance_strings(true);
    PerNeuronReference ref(D, values_of(inst));
    ref.follow_crossings = true;
    nets::FlowResult res;
    const Containment c = lumped_vs_reference(inst, "1", res, ref);
    REQUIRE(res.completed());
    REQUIRE(ref.crossed == std::vector<std::size_t>{8});  // only the added neuron changes pattern
    CHECK(res.stats.lumped_at_handoff == 9);
    CHECK(res.stats.lumped_left >= 1);
    CHECK(res.stats.lumped_joined >= 1);  // it joins the class {3} after the crossing
    CHECK(res.lumped[8] == 1);
    CHECK(c.checked == 9 * 3 * 3 + 3);
    CHECK(c.outside == 0);
}

TEST_CASE("a deliberately broken moment field (K_S / 2) gives enclosures that miss the long-double flow",
          "[lumped][mutation]") {
    const LumpedData D(figure2_spec());
    const auto inst = instance_strings(false);
    PerNeuronReference ref(D, values_of(inst));
    nets::FlowResult res;
    const Containment c = lumped_vs_reference(inst, "1/2", res, ref);
    REQUIRE(res.completed());
    CHECK(c.outside > 0);
}
