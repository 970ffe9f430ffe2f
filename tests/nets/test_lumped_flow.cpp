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
