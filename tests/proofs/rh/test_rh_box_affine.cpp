// Tests of the affine-in-E GD on the Gram box and the subdivided box certificate (lib/flowcert/proofs/rh/box_affine.hpp;
// docs/rh.md#affine-form-and-subdivision): members of the box (near-corners and random symmetric members) run
// through an exact-Gram ~500-bit GD must lie inside the affine forms evaluated at the member's own coordinates e
// (not only inside their ranges), their KKT-certified ratios inside the box band; dropping the remainder or one
// coefficient on purpose must break the containment (teeth).
#include <catch2/catch.hpp>

#include <random>

#include "flowcert/proofs/rh.hpp"

#include "rh_fixture.hpp"

using namespace flowcert;
using namespace flowcert::proofs::rh;
using rh_fixture::Mp;
using rh_fixture::Rat;

namespace {
BoxSpec power_law_box(const std::string& w) {  // the setting of box_power_law_n16 / box_too_wide
    BoxSpec s;
    s.n = 16;
    s.kappa = w;
    s.eps = w;
    s.h = "1/2";
    s.c = "4";
    return s;
}
// A symmetric member with entries 0.999 w u (u in [-1, 1]; t < 4: the near-corners u = +-1 with signs by t).
struct Member {
    linalg::IMatrixD G;
    std::vector<Rat> Gq;
};
Member make_member(int n, double w, int t, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Member m{linalg::IMatrixD(n, n), std::vector<Rat>(n * n)};
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            const double s = t < 4 ? ((i == j ? (t & 1) : (t & 2)) ? 1.0 : -1.0) : u(rng);
            const double v = i == j ? 1.0 + 0.999 * w * s : 0.999 * w * s;
            m.G(i, j) = m.G(j, i) = IntervalD::exact(v);
            m.Gq[i * n + j] = m.Gq[j * n + i] = Rat(v);
        }
    return m;
}
// The member's coordinates e_s = (G_ij - mid_s) / rad_s of the symbols of the box (as AffineIteration sets them).
std::vector<IntervalD> coordinates(const GramBox& box, const Member& m) {
    std::vector<IntervalD> e(box.entry.size());
    for (int i = 0; i < box.n; ++i)
        for (int j = i; j < box.n; ++j) {
            const int s = pair_index(box.n, i, j);
            const IntervalD v = (m.G(i, j) - IntervalD::exact(mid(box.entry[s]))) / IntervalD::exact(rad(box.entry[s]));
            REQUIRE(intersect(v, IntervalD::bounds(-1, 1), e[s]));
        }
    return e;
}
// The form at the member: c_0 + sum_{box symbols} c_s e_s + sum_{remainder symbols} c_s [-1, 1] + [-rem, rem].
IntervalD at(const AffineForm& f, const std::vector<IntervalD>& e, int drop = -1) {
    IntervalD v = f.c0 + IntervalD::bounds(-f.rem, f.rem);
    for (std::size_t s = 0; s < f.c.size(); ++s) {
        if (static_cast<int>(s) == drop) continue;
        v += s < e.size() ? f.c[s] * e[s] : f.c[s] * IntervalD::bounds(-1, 1);
    }
    return v;
}
int largest_box_symbol(const AffineForm& f, std::size_t N) {
    int best = 0;
    for (std::size_t s = 1; s < N; ++s)
        if (mag(f.c[s]) > mag(f.c[best])) best = static_cast<int>(s);
    return best;
}

// Runs the affine GD of the box for `steps` steps beside the exact GD of each member; counts the members' values
// outside the form at their coordinates (beta and a^), and outside with the largest coefficient of beta dropped.
struct Containment {
    int checked = 0, outside = 0, outside_dropped = 0, pattern_mismatch = 0;
};
Containment run(const BoxSpec& spec, const std::vector<Member>& members, int steps, bool drop_remainder) {
    const GramBox box = whole_box(spec);
    const Instance inst = box_member(spec, box.hull());
    AffineIteration it(inst, box);
    it.drop_remainder = drop_remainder;
    std::vector<std::vector<IntervalD>> e;
    std::vector<std::vector<rh_fixture::MpGd>> ref;  // ref[q][k]: the member's exact GD after k steps (mp_gd keeps the last state)
    for (const Member& m : members) {
        e.push_back(coordinates(box, m));
        ref.emplace_back();
        for (int k = 0; k <= steps; ++k) ref.back().push_back(rh_fixture::mp_gd(box_member(spec, m.G), m.Gq, k));
    }
    Containment c;
    for (int k = 0; k <= steps; ++k) {
        Pattern P(1, std::vector<int>(spec.n));
        for (int i = 0; i < spec.n; ++i) {
            const IntervalD r = it.beta(i).range();
            REQUIRE((certainly_positive(r) || certainly_nonpositive(r)));
            P[0][i] = certainly_positive(r);
        }
        for (std::size_t q = 0; q < members.size(); ++q) {
            const rh_fixture::MpGd& rk = ref[q][k];
            if (rk.patterns[k][0] != P[0]) ++c.pattern_mismatch;
            for (int i = 0; i < spec.n; ++i) {
                ++c.checked;
                const IntervalD b = at(it.beta(i), e[q]);
                if (!rh_fixture::contains_mp(b, rk.beta[0][i], 0) || !rh_fixture::contains_mp(at(it.a(i), e[q]), rk.a[0][i], 0) ||
                    !subset(b, it.beta(i).range())) {
                    if (c.outside < 3)
                        UNSCOPED_INFO("step " << k << " member " << q << " sample " << i << ": beta form at e " << to_string(b, 17) << " ref "
                                              << rk.beta[0][i].str(20) << "; a form " << to_string(at(it.a(i), e[q]), 17) << " ref "
                                              << rk.a[0][i].str(20));
                    ++c.outside;
                }
                if (!rh_fixture::contains_mp(at(it.beta(i), e[q], largest_box_symbol(it.beta(i), e[q].size())), rk.beta[0][i], 0))
                    ++c.outside_dropped;
            }
        }
        if (k < steps) it.step(P);
    }
    return c;
}
std::vector<Member> members(int n, double w, int count) {
    std::mt19937_64 rng(1717);
    std::vector<Member> out;
    for (int t = 0; t < count; ++t) out.push_back(make_member(n, w, t, rng));
    return out;
}
// The sub-box of every entry of the member's G widened by +-r.
GramBox box_around(const linalg::IMatrixD& G, double r) {
    const int n = static_cast<int>(G.rows());
    GramBox box;
    box.n = n;
    box.entry.resize(n * (n + 1) / 2);
    for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j) box.entry[pair_index(n, i, j)] = G(i, j) + IntervalD::bounds(-r, r);
    return box;
}
// The member's own ratio gap / sqrt(n_-/tau), by the per-instance pipeline (pattern, tail, KKT-certified w*).
IntervalD member_ratio(const BoxSpec& spec, const linalg::IMatrixD& G) {
    const Instance mi = box_member(spec, G);
    const PatternResult pr = certify_pattern_and_limit(mi);
    REQUIRE(pr.tail.is_proven());
    const GapResult g = enclose_gap(mi, pr, certify_w_star(mi));
    REQUIRE(g.status.is_proven());
    return g.ratio_n_minus;
}
}  // namespace

TEST_CASE("pair_index numbers the unordered pairs 0..n(n+1)/2 - 1 once each", "[rh][box]") {
    for (int n : {1, 2, 5, 16}) {
        std::vector<int> seen(n * (n + 1) / 2, 0);
        for (int i = 0; i < n; ++i)
            for (int j = i; j < n; ++j) {
                const int s = pair_index(n, i, j);
                REQUIRE(s >= 0);
                REQUIRE(s < static_cast<int>(seen.size()));
                CHECK(pair_index(n, j, i) == s);
                ++seen[s];
            }
        for (int v : seen) CHECK(v == 1);
    }
}

TEST_CASE("the affine forms contain the exact GD of every sampled member at its own coordinates (n = 16, kappa = eps = 1/200)",
          "[rh][box]") {
    const BoxSpec spec = power_law_box("1/200");
    const auto ms = members(16, 1.0 / 200, 16);
    const Containment c = run(spec, ms, 6, false);
    WARN("affine box GD, 16 members x 7 steps x 16 samples: " << c.outside << " outside of " << c.checked
                                                              << "; with the largest coefficient dropped: " << c.outside_dropped);
    CHECK(c.checked == 16 * 7 * 16);
    CHECK(c.outside == 0);
    CHECK(c.pattern_mismatch == 0);  // every member has the box's (certified) pattern at every step
    // teeth: one coefficient dropped (the largest of each form), the members leave the form
    CHECK(c.outside_dropped > 0);
}

TEST_CASE("teeth: the affine GD without its remainder does not contain the members (kappa = eps = 1/100)", "[rh][box]") {
    const BoxSpec spec = power_law_box("1/100");
    const auto ms = members(16, 1.0 / 100, 8);
    const Containment sound = run(spec, ms, 1, false);
    CHECK(sound.outside == 0);
    const Containment dropped = run(spec, ms, 1, true);
    WARN("remainder dropped: " << dropped.outside << " of " << dropped.checked << " member values outside the forms");
    CHECK(dropped.outside > 0);
}

TEST_CASE("the affine box certificate: members' KKT-certified ratios lie inside the band (power law 1/200, isotropic 1/100)",
          "[rh][box]") {
    for (const auto& [spec, w] : {std::pair{power_law_box("1/200"), 1.0 / 200}, std::pair{[] {
                                                                                           BoxSpec s;
                                                                                           s.n = 16;
                                                                                           s.kappa = s.eps = "1/100";
                                                                                           s.h = s.c = "1/2";
                                                                                           return s;
                                                                                       }(),
                                                                                       1.0 / 100}}) {
        const BoxCertificate bc = certify_box(spec, {}, 1);
        INFO(bc.status.reason);
        REQUIRE(bc.status.is_proven());
        REQUIRE(bc.ball.status.is_proven());
        WARN("kappa = eps = " << spec.eps << ", c~ = " << spec.c << ": K = " << bc.pattern.K << ", band "
                              << to_string(bc.ball.ratio_n_minus, 8));
        // the interval GD of box.hpp alone loses a sign on the power-law box (box_too_wide before the affine form)
        const Instance box = box_instance(spec);
        const PatternResult interval_pr = certify_pattern_and_limit(box);
        if (spec.c == "4") CHECK(!interval_pr.signs.is_proven());
        if (interval_pr.tail.is_proven())
            WARN("interval GD band width " << width(enclose_gap_by_ball(box, interval_pr).ratio_n_minus) << ", affine "
                                           << width(bc.ball.ratio_n_minus));
        for (const Member& m : members(16, w, 12)) {
            const Instance mi = box_member(spec, m.G);
            const PatternResult pr = certify_pattern_and_limit(mi);
            REQUIRE(pr.tail.is_proven());
            const WStarResult ws = certify_w_star(mi);
            const GapResult g = enclose_gap(mi, pr, ws);
            REQUIRE(g.status.is_proven());  // the member's own KKT face: an independent w*
            INFO("member ratio " << to_string(g.ratio_n_minus, 10));
            CHECK(subset(g.ratio_n_minus, bc.ball.ratio_n_minus));
            CHECK(pr.pattern == bc.pattern.pattern);
        }
    }
}

TEST_CASE("subdivision: a box whose first-order range crosses zero is not certified -- the sub-boxes it certifies hold their members",
          "[rh][box]") {
    const BoxSpec spec = power_law_box("1/72");
    CHECK(!certify_box(spec, {}, 1).status.is_proven());
    const BoxCertificate bc = certify_box(spec, {}, 24);
    CHECK(!bc.status.is_proven());
    CHECK(bc.boxes_run <= 24);
    REQUIRE(bc.leaves.size() >= 2);
    CHECK(!bc.leaves.back().certified);  // the leaf that decided the result
    const GramBox whole = whole_box(spec);
    std::mt19937_64 rng(5);
    for (std::size_t l = 0; l + 1 < bc.leaves.size(); ++l) {
        const BoxLeaf& leaf = bc.leaves[l];
        REQUIRE(leaf.certified);
        for (std::size_t s = 0; s < whole.entry.size(); ++s) CHECK(subset(leaf.box.entry[s], whole.entry[s]));
        // a member of the leaf (a random point of each entry's range) has its own certified ratio in the leaf's band
        std::uniform_real_distribution<double> u(0.0, 1.0);
        linalg::IMatrixD G(16, 16);
        for (int i = 0; i < 16; ++i)
            for (int j = i; j < 16; ++j) {
                const IntervalD& r = leaf.box.at(i, j);
                const double v = std::min(upper(r), std::max(lower(r), lower(r) + u(rng) * (upper(r) - lower(r))));
                G(i, j) = G(j, i) = IntervalD::exact(v);
            }
        const Instance mi = box_member(spec, G);
        const PatternResult pr = certify_pattern_and_limit(mi);
        REQUIRE(pr.tail.is_proven());
        const GapResult g = enclose_gap(mi, pr, certify_w_star(mi));
        if (g.status.is_proven()) CHECK(subset(g.ratio_n_minus, leaf.ball.ratio_n_minus));
    }
    WARN("kappa = eps = 1/72: " << bc.leaves.size() - 1 << " sub-boxes certified of " << bc.boxes_run << " run; " << bc.status.reason);
}

TEST_CASE("tight sub-boxes around members: the leaf's band is narrow and holds the member's own KKT-certified ratio",
          "[rh][box]") {
    // A sub-box of radius 1e-9 around a member with entries up to 1/100: the affine forms, the tail, the ball and the
    // multiplier form with its Gershgorin bound (w_star_ball.cpp) must give a band of width < 1e-3 around the exact
    // ratio, so an enclosure that is off by more than that fails here (the wide boxes' bands above would not notice).
    BoxSpec spec;
    spec.n = 16;
    spec.kappa = spec.eps = "1/100";
    spec.h = spec.c = "1/2";
    double widest = 0;
    for (const Member& m : members(16, 1.0 / 100, 12)) {
        const BoxLeaf leaf = certify_sub_box(spec, box_around(m.G, 1e-9), {});
        INFO(leaf.failure);
        REQUIRE(leaf.certified);
        const IntervalD ratio = member_ratio(spec, m.G);
        INFO("member ratio " << to_string(ratio, 12) << ", leaf band " << to_string(leaf.ball.ratio_n_minus, 12));
        CHECK(subset(ratio, leaf.ball.ratio_n_minus));
        widest = std::max(widest, width(leaf.ball.ratio_n_minus));
    }
    WARN("tight sub-boxes: widest leaf band " << widest);
}

TEST_CASE("sub-boxes of radius 1/250 around members: the correlated lower bound of the gap is active and holds the member's ratio",
          "[rh][box]") {
    // box_affine.cpp (correlated_gap_lower): the affine forms of a_j(inf) and b_j = <w_P, x_j> raise the lower end of the
    // band above the multiplier form's; each member's own KKT-certified ratio must stay inside.
    BoxSpec spec;
    spec.n = 16;
    spec.kappa = spec.eps = "1/100";
    spec.h = spec.c = "1/2";
    int active = 0, count = 0;
    double closest = 1;
    for (const Member& m : members(16, 1.0 / 100, 16)) {
        const GramBox box = box_around(m.G, 4e-3);
        const BoxLeaf leaf = certify_sub_box(spec, box, {});
        INFO(leaf.failure);
        REQUIRE(leaf.certified);
        const WStarBall plain = enclose_gap_by_ball(box_member(spec, box.hull()), leaf.pattern);
        if (lower(leaf.ball.ratio_n_minus) > lower(plain.ratio_n_minus)) ++active;
        const IntervalD ratio = member_ratio(spec, m.G);
        INFO("member ratio " << to_string(ratio, 12) << ", leaf band " << to_string(leaf.ball.ratio_n_minus, 12)
                             << ", without the correlated bound " << to_string(plain.ratio_n_minus, 12));
        CHECK(subset(ratio, leaf.ball.ratio_n_minus));
        closest = std::min(closest, lower(ratio) - lower(leaf.ball.ratio_n_minus));
        ++count;
    }
    WARN("radius 1/250: correlated bound active in " << active << " of " << count << " sub-boxes; closest member ratio "
                                                      << closest << " above the lower end");
    CHECK(active > 0);
}

TEST_CASE("subdivision certifies a box that the whole-box affine GD does not (power law setting, kappa = eps = 1/82)", "[rh][box]") {
    const BoxSpec spec = power_law_box("1/82");
    const BoxCertificate whole = certify_box(spec, {}, 1);
    CHECK(!whole.status.is_proven());
    CHECK(!whole.pattern.signs.is_proven());  // a sign is lost on the whole box
    const BoxCertificate bc = certify_box(spec, {}, 16);
    INFO(bc.status.reason);
    REQUIRE(bc.status.is_proven());
    REQUIRE(bc.leaves.size() >= 2);
    const GramBox all = whole_box(spec);
    for (const BoxLeaf& leaf : bc.leaves) {
        CHECK(leaf.certified);
        CHECK(subset(leaf.ball.ratio_n_minus, bc.ball.ratio_n_minus));  // the band is the hull of the leaves' bands
        for (std::size_t s = 0; s < all.entry.size(); ++s) CHECK(subset(leaf.box.entry[s], all.entry[s]));
    }
    // the leaves cover the box: every member lies in some leaf, and its own KKT-certified ratio is in that leaf's band
    for (const Member& m : members(16, 1.0 / 82, 16)) {
        const BoxLeaf* home = nullptr;
        for (const BoxLeaf& leaf : bc.leaves) {
            bool inside = true;
            for (int i = 0; i < 16 && inside; ++i)
                for (int j = i; j < 16 && inside; ++j) inside = subset(m.G(i, j), leaf.box.at(i, j));
            if (inside) home = &leaf;
        }
        REQUIRE(home != nullptr);
        const Instance mi = box_member(spec, m.G);
        const PatternResult pr = certify_pattern_and_limit(mi);
        REQUIRE(pr.tail.is_proven());
        CHECK(pr.pattern == bc.pattern.pattern);
        const GapResult g = enclose_gap(mi, pr, certify_w_star(mi));
        REQUIRE(g.status.is_proven());
        INFO("member ratio " << to_string(g.ratio_n_minus, 10) << ", leaf band " << to_string(home->ball.ratio_n_minus, 10));
        CHECK(subset(g.ratio_n_minus, home->ball.ratio_n_minus));
    }
    WARN("kappa = eps = 1/82: " << bc.leaves.size() << " leaves of " << bc.boxes_run << " sub-boxes run, band "
                                << to_string(bc.ball.ratio_n_minus, 8));
}
