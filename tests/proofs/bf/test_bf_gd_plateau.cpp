// Tests of lib/flowcert/proofs/bf/gd_plateau (the Figure-2 GD statements): the plateau bound
// L - L* >= c <r*, q> + (c/2) |r - r*|^2 against the exact excess computed in rationals on random outputs (a lower
// bound, never above the truth), proven at the least-squares outputs, not proven at an interpolating one (L = 0 < L*);
// the closed-cone classification.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include "../../support/figure2_fixture.hpp"

#include <vector>

using namespace flowcert;
namespace bfp = flowcert::proofs::bf;

namespace {
const auto kData = nets::alignment_data(test_support::figure2_spec());
const auto kLs = bfp::least_squares(kData);
const IntervalD kC = IntervalD(1) / IntervalD(3);

std::vector<IntervalD> enclose_all(const nets::QVec& v) {
    std::vector<IntervalD> out;
    for (const auto& q : v) out.push_back(to_interval_d(flowcert::enclose(q, 128)));
    return out;
}
// one observation: outputs h (exact rationals), all of them unlumped (q = h), or all from the lumped class (q = 0)
void observe(bfp::GdPlateauTracker& tr, std::size_t t, const nets::QVec& h, bool lumped = false) {
    nets::QVec r;
    for (std::size_t k = 0; k < h.size(); ++k) r.push_back(h[k] - kData.y[k]);
    const auto R = enclose_all(r), H = enclose_all(h);
    const std::vector<IntervalD> zero(h.size(), IntervalD(0));
    tr.add(nets::GdIterationView{t, R, lumped ? zero : H, lumped});
}
flowcert::Rational excess(const nets::QVec& h) {  // L(h) - L*, exactly
    flowcert::Rational L = 0;
    for (std::size_t k = 0; k < h.size(); ++k) L += (h[k] - kData.y[k]) * (h[k] - kData.y[k]);
    return L / 6 - kLs.loss_paper;
}
}  // namespace

TEST_CASE("the plateau bound is a lower bound of L - L* (exact rationals)", "[bf][gd_plateau]") {
    REQUIRE(kLs.ok);
    nets::RandomStream rs(7, "test.gd_plateau", 0);
    for (int i = 0; i < 200; ++i) {
        nets::QVec h;
        for (int k = 0; k < 3; ++k) h.push_back(kLs.predictions[k] + flowcert::Rational(static_cast<long>(rs.gaussian() * 1e6), 10000000));
        bfp::GdPlateauTracker tr(kLs, kC);
        observe(tr, 0, h);
        CHECK(flowcert::Rational(tr.min_lower()) <= excess(h));
    }
}

TEST_CASE("the plateau statement: proven at the least-squares fit, not at an interpolant", "[bf][gd_plateau]") {
    bfp::GdPlateauTracker tr(kLs, kC, {0, 1});
    observe(tr, 0, kLs.predictions, true);           // L = L*, h = X m_P: <r*, q> = 0 exactly
    nets::QVec above = kLs.predictions;
    above[0] -= flowcert::Rational(1, 10);               // away from y_1: <r*, h> > 0
    observe(tr, 1, above);                           // L > L*
    CHECK(tr.loss_above_plateau().is_proven());
    CHECK(tr.recorded().size() == 2);
    observe(tr, 2, kData.y);                         // h = y: L = 0 < L*
    const auto res = tr.loss_above_plateau();
    CHECK_FALSE(res.is_proven());
    CHECK(tr.first_negative() == 2);
    // the same least-squares outputs as unlumped outputs: <r*, h> = 0 is enclosed, not exact, and the bound
    // straddles 0 (why the lumped class matters near the plateau)
    bfp::GdPlateauTracker tr2(kLs, kC);
    observe(tr2, 0, kLs.predictions);
    CHECK_FALSE(tr2.loss_above_plateau().is_proven());
}

TEST_CASE("closed cones: all-active, dead, and a box across a kink", "[bf][gd_plateau]") {
    const nets::TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    nets::TwoLayerParams<IntervalD> th(3, 2, IntervalD(0));
    th.a = {IntervalD(1), IntervalD(-1), IntervalD(1)};
    th.W(0, 0) = IntervalD(-1), th.W(0, 1) = IntervalD(1);                    // z > 0 on every x_k: all-active
    th.W(1, 0) = IntervalD(1), th.W(1, 1) = IntervalD(-1);                    // z < 0 on every x_k: dead
    th.W(2, 0) = IntervalD(0), th.W(2, 1) = IntervalD::bounds(0, 0);          // z = 0 exactly: in both closed cones
    auto c = bfp::closed_cone_membership(model, th);
    CHECK(c.result.is_proven());
    CHECK(c.all_active == 2);  // the z = 0 neuron counts as closed all-active
    th.W(2, 1) = IntervalD::bounds(-1e-9, 1e-9);                               // its box straddles the kink
    c = bfp::closed_cone_membership(model, th);
    CHECK_FALSE(c.result.is_proven());
    CHECK(c.other == 1);
}

// The sign argument (gd_plateau.hpp): with kink neurons in q (a_j < 0, z_jk > 0 for k != 3, r*_3 < 0),
// <r*, q_j> = a_j r*_3 relu(-z_j3) >= 0, so L >= L* stays proven although q != 0; the enclosure of <r*, q> itself
// straddles 0. The instance of tests/nets/test_lumped_gd.cpp (Figure-2 data, m = 40, seed 6, lambda = 0.1, step 1/16).
TEST_CASE("the plateau with kink neurons: the per-neuron form of <r*, q> proves L >= L*", "[bf][gd_plateau][kink]") {
    const nets::TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const auto th0 = nets::initialize<IntervalD>(test_support::balanced_init(40, 6, "0.1"), model.d()).theta;
    bfp::GdPlateauTracker tr(kLs, model.risk_weight());
    nets::LumpedGdOptions o;
    o.iterations = 1500;
    o.handoff = 300;
    o.pairing_residual = tr.rstar();
    std::size_t with_kinks = 0, first_observed = 0;
    const auto res = nets::lumped_gd(model, th0, IntervalD::from_decimal("1/16"), o, [&](const nets::GdIterationView& v) {
        if (v.t >= 800) tr.add(v);  // from the plateau on (the loss is far above L* before; first observed below)
        if (v.t == 800) first_observed = tr.iterations();
    });
    REQUIRE(res.status == nets::GdStatus::completed);
    for (int k : res.kink_sample) with_kinks += k == 2;
    REQUIRE(with_kinks >= 1);
    for (std::size_t j = 0; j < res.theta.m; ++j)
        if (res.kink_sample[j] == 2) CHECK(certainly_negative(res.theta.a[j]));  // the premise of the sign argument
    CHECK(first_observed == 1);
    CHECK(certainly_negative(tr.rstar()[2]));
    const auto proof = tr.loss_above_plateau();
    INFO(proof.reason);
    CHECK(proof.is_proven());
    CHECK(tr.pairing_decisive() > 0);  // without the per-neuron form the bound is not proven there
    // the final classification: every neuron in a closed cone or near the kink face of x_3
    const auto cones = bfp::closed_cone_membership(model, res.theta, res.maybe_frozen, res.kink_sample, res.kink_zeta, IntervalD::from_decimal("1e-2"));
    INFO(cones.result.reason);
    CHECK(cones.result.is_proven());
    CHECK(cones.kink == with_kinks);
    CHECK(cones.kink_max_ratio > 1e-3);  // measured 3.4e-3 (lambda = 0.1: large neurons, a wide zeta)
    CHECK(cones.kink_max_a < 1e-2);
    CHECK_FALSE(bfp::closed_cone_membership(model, res.theta, res.maybe_frozen, res.kink_sample, res.kink_zeta, IntervalD::from_decimal("1e-3"))
                    .result.is_proven());  // a smaller claimed angle fails
    const auto strict = bfp::closed_cone_membership(model, res.theta, res.maybe_frozen, res.kink_sample, res.kink_zeta);
    CHECK_FALSE(strict.result.is_proven());  // without the third category: not every neuron is in a closed cone
}

// The sign argument on one hand-made kink neuron, exactly: h = X beta* + q, q_k = a relu(z_k) with a = -1/10000,
// w = (-1, 1/10) active on x_1, x_2 and inactive on x_3 (z_3 = -1/40): <r*, q> = a r*_3 relu(-z_3) > 0 is linear in
// |a| while (c/2) |r - r*|^2 = (c/2) |q|^2 is quadratic; with q known to 1e-6 (a box) L > L* is proven only through
// the per-neuron form (its sign: a < 0, r*_3 < 0).
TEST_CASE("the sign argument: L - L* >= c a r*_3 relu(-z_3) + (c/2) |q|^2 for a kink neuron (exact rationals)", "[bf][gd_plateau][kink]") {
    const flowcert::Rational a(-1, 10000), w1(-1), w2(1, 10);
    nets::QVec h, q;
    const std::vector<flowcert::Rational> xs = {flowcert::Rational(-3, 4), flowcert::Rational(-1, 2), flowcert::Rational(1, 8)};
    flowcert::Rational zk3 = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        const flowcert::Rational z = w1 * xs[k] + w2;
        if (k < 2) REQUIRE(z > 0);
        if (k == 2) zk3 = z;
        q.push_back(z > 0 ? a * z : flowcert::Rational(0));
        h.push_back(kLs.predictions[k] + q.back());
    }
    REQUIRE(zk3 < 0);
    nets::QVec r;
    for (std::size_t k = 0; k < 3; ++k) r.push_back(h[k] - kData.y[k]);
    // the outputs as an engine's boxes give them: q_k widened by 1e-6 (1 % of |a|); the pairing by 1 % of itself
    auto R = enclose_all(r), Q = enclose_all(q);
    for (auto& x : Q) x += IntervalD::bounds(-1e-6, 1e-6);
    IntervalD pairing = to_interval_d(flowcert::enclose(a * kLs.residuals[2] * (-zk3), 128));  // a r*_3 relu(-z_3)
    pairing *= IntervalD::bounds(0.99, 1.01);
    REQUIRE(certainly_positive(pairing));
    bfp::GdPlateauTracker tr(kLs, kC);
    tr.add(nets::GdIterationView{0, R, Q, true, pairing});
    CHECK(flowcert::Rational(tr.min_lower()) <= excess(h));  // a lower bound of the exact excess
    CHECK(tr.loss_above_plateau().is_proven());
    CHECK(tr.pairing_decisive() == 1);                   // <r*, q> as an enclosure straddles: only the sign argument proves it
    bfp::GdPlateauTracker without(kLs, kC);
    without.add(nets::GdIterationView{0, R, Q, true});
    CHECK_FALSE(without.loss_above_plateau().is_proven());
}
