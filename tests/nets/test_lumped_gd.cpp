// Tests of the lumped gradient descent (lib/flowcert/nets/lumped_gd.hpp; docs/bf.md,
// "bf/figure2_gd"): containment of the exact GD iterates, enclosed by a 256-bit MPFI run of the
// per-neuron GD map (gd_step, every sign certain: the exact map with sigma'(0) = 0), at every iteration
// (residuals) and at the end (every neuron); and a deliberately broken lumped map (K_P scaled by 1 + 1e-3)
// that the same comparison rejects.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include "../support/figure2_fixture.hpp"

#include <vector>

using namespace flowcert;
using namespace flowcert::nets;

namespace {

constexpr long kBits = 256;
constexpr std::size_t kIters = 400, kHandoff = 150;
const char* kStep = "1/16";

// The 256-bit reference: residuals at every iteration 0..kIters and the final parameters.
struct Reference {
    std::vector<std::vector<IntervalD>> residual;
    TwoLayerParams<IntervalMp> theta;
    std::size_t undecided = 0;
};

InitSpec instance() { return test_support::balanced_init(24, 5, "0.5"); }

Reference reference() {
    const TwoLayerModel<IntervalMp> model(test_support::figure2_spec(), kBits);
    auto th = initialize<IntervalMp>(instance(), model.d(), kBits).theta;
    const IntervalMp h = IntervalMp::from_decimal(kStep, Precision(kBits));
    Reference ref;
    for (std::size_t t = 0;; ++t) {
        std::vector<IntervalD> r;
        for (const auto& x : loss_derivatives(model, th)) r.push_back(to_interval_d(x));
        ref.residual.push_back(r);
        for (auto s : activation_states(model, th)) ref.undecided += s == Activation::undecided;
        if (t == kIters) break;
        th = gd_step(model, th, h);
    }
    ref.theta = th;
    return ref;
}

struct Compared {
    LumpedGdResult res;
    std::size_t residual_misses = 0;  // iterations whose residual enclosure misses the reference
    std::size_t neuron_misses = 0;    // final neurons whose box misses the reference
};

Compared compare(const Reference& ref, const std::string& k_scale, std::size_t handoff = kHandoff) {
    const TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const auto th0 = initialize<IntervalD>(instance(), model.d()).theta;
    LumpedGdOptions o;
    o.iterations = kIters;
    o.handoff = handoff;
    o.k_scale = k_scale;
    o.screen_budget = 2;  // small: the members are re-referenced during the run
    Compared c;
    c.res = lumped_gd(model, th0, IntervalD::from_decimal(kStep), o, [&](const GdIterationView& v) {
        for (std::size_t k = 0; k < v.residual.size(); ++k)
            if (!subset(ref.residual[v.t][k], v.residual[k])) {
                ++c.residual_misses;
                break;
            }
    });
    for (std::size_t j = 0; j < ref.theta.m; ++j) {
        bool in = subset(to_interval_d(ref.theta.a[j]), c.res.theta.a[j]);
        for (std::size_t i = 0; i < ref.theta.d; ++i) in = in && subset(to_interval_d(ref.theta.W(j, i)), c.res.theta.W(j, i));
        // a neuron split dead-or-alive may instead have frozen in the closed all-inactive cone
        if (!in && c.res.maybe_frozen[j]) {
            const auto z = preactivations(TwoLayerModel<IntervalMp>(test_support::figure2_spec(), kBits), ref.theta);
            bool dead = true;
            for (std::size_t k = 0; k < 3; ++k) dead = dead && certainly_nonpositive(z[j * 3 + k]);
            in = dead;
        }
        c.neuron_misses += !in;
    }
    return c;
}

}  // namespace

TEST_CASE("lumped GD encloses the exact GD iterates (256-bit MPFI reference)", "[lumped_gd][reference]") {
    const Reference ref = reference();
    REQUIRE(ref.undecided == 0);  // the reference is the exact map: every sign certain
    const Compared c = compare(ref, "1");
    INFO(c.res.reason);
    REQUIRE(c.res.status == LumpedGdStatus::completed);
    CHECK(c.res.stats.members_at_handoff >= 5);    // the lumped class carries neurons
    CHECK(c.res.stats.frozen_at_handoff >= 1);
    CHECK(c.res.stats.lumped_steps == kIters - kHandoff);
    CHECK(c.res.stats.rereferences >= 2);          // screening re-referenced the members
    CHECK(c.res.stats.left >= 1);                  // and members left the class (their outer product taken out)
    CHECK(c.residual_misses == 0);
    CHECK(c.neuron_misses == 0);
    // the lumped residuals stay tight (the Lohner set sees the contraction); per neuron, the same run
    // loses the sign of the collective feedback and its enclosure blows up
    for (const auto& r : c.res.residual) CHECK(upper(r) - lower(r) < 1e-7);
    const Compared per_neuron = compare(ref, "1", kIters + 1);
    CHECK(per_neuron.res.status == LumpedGdStatus::diverged);
    CHECK(per_neuron.residual_misses == 0);
}

TEST_CASE("a broken lumped map (K_P scaled by 1.001) is caught by the same comparison", "[lumped_gd][mutation]") {
    const Reference ref = reference();
    const Compared c = compare(ref, "1.001");
    REQUIRE(c.res.status == LumpedGdStatus::completed);
    CHECK(c.residual_misses > 0);
}

TEST_CASE("lumped GD refuses what it does not support", "[lumped_gd]") {
    auto spec = test_support::figure2_spec();
    spec.gamma = "0.1";
    const TwoLayerModel<IntervalD> leaky(spec);
    const auto th0 = initialize<IntervalD>(instance(), leaky.d()).theta;
    LumpedGdOptions o;
    o.iterations = 3;
    CHECK(lumped_gd(leaky, th0, IntervalD::from_decimal(kStep), o).status == LumpedGdStatus::invalid_input);
    const TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    CHECK(lumped_gd(model, th0, IntervalD::from_decimal("0"), o).status == LumpedGdStatus::invalid_input);
    o.snapshots = {4};
    CHECK(lumped_gd(model, th0, IntervalD::from_decimal(kStep), o).status == LumpedGdStatus::invalid_input);
}
