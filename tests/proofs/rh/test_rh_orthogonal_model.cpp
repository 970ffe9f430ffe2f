// Tests of the orthogonal-model gap (lib/flowcert/proofs/rh/orthogonal_model.hpp): closed forms, the limit
// d -> infinity of certified instances, and the statistical Clopper-Pearson helper of the rh sweeps.
#include <catch2/catch.hpp>

#include <flowcert/proofs/rh.hpp>


#include <cmath>

using namespace flowcert;
using namespace flowcert::proofs::rh;

TEST_CASE("orthogonal model: closed forms of the frozen negative samples", "[rh]") {
    const IntervalD h = IntervalD::from_decimal("1/2"), c = IntervalD::from_decimal("1/10");
    // b_1 = c~ - h (c~ - y) = 0.05 + y/2: y = -1 -> -0.45, y = -2 -> -0.95 (one step each)
    const auto one = orthogonal_model_gap(h, c, {IntervalD(1), IntervalD(-1), IntervalD(1), IntervalD(-1)});
    REQUIRE(one.status.is_proven());
    CHECK(contains(one.ratio_n_minus, 0.45));
    CHECK(upper(one.ratio_n_minus) - lower(one.ratio_n_minus) < 1e-14);
    CHECK(contains(one.ratio_n, 0.45 * std::sqrt(0.5)));
    const auto two = orthogonal_model_gap(h, c, {IntervalD(1), IntervalD(-1), IntervalD(-2)});
    REQUIRE(two.status.is_proven());
    CHECK(contains(two.ratio_n_minus, std::sqrt((0.45 * 0.45 + 0.95 * 0.95) / 2)));
    // a small step: several steps to freeze, b_k = y + (c~ - y)(1 - h)^k until b_k <= 0
    const IntervalD hs = IntervalD::from_decimal("1/10");
    const auto slow = orthogonal_model_gap(hs, c, {IntervalD(1), IntervalD(-1)});
    REQUIRE(slow.status.is_proven());
    double b = 0.1;
    while (b > 0) b = b - 0.1 * (b + 1);
    CHECK(std::abs(mid(slow.ratio_n_minus) - std::abs(b)) < 1e-12);
    // no negative sample, or a step that does not contract: not proven
    CHECK_FALSE(orthogonal_model_gap(h, c, {IntervalD(1)}).status.is_proven());
    CHECK_FALSE(orthogonal_model_gap(IntervalD::from_decimal("5/2"), c, {IntervalD(1), IntervalD(-1)}).status.is_proven());
}

TEST_CASE("orthogonal model: certified gap ratios approach it as d grows (fixed c d, eta d)", "[rh]") {
    double prev = INFINITY;
    for (long d : {1000L, 100000L}) {
        nets::rh::InstanceSpec s;
        s.seed = 7;
        s.n = 8;
        s.d = d;
        s.init_per_trace = true;
        s.init_scale = "1/10";
        const auto inst = nets::rh::make_instance(s);
        const auto pr = certify_pattern_and_limit(inst);
        const auto ws = certify_w_star(inst);
        const auto gap = enclose_gap(inst, pr, ws);
        REQUIRE(gap.status.is_proven());
        const auto pred = orthogonal_model_gap(IntervalD::from_decimal("1/2"), IntervalD::from_decimal("1/10"), inst.y);
        REQUIRE(pred.status.is_proven());
        const double diff = upper(abs(gap.ratio_n_minus - pred.ratio_n_minus));
        CHECK(diff < 3.0 / std::sqrt(static_cast<double>(d)) * 8);  // eps ~ 1/sqrt(d): O(eps sqrt(n)) deviation
        CHECK(diff < prev);
        prev = diff;
    }
}
