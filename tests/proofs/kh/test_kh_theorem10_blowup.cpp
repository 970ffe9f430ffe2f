// Tests of the block blow-up brackets and the one-block support of kh/theorem10_escape
// (lib/flowcert/proofs/kh/theorem10_escape.hpp). Reference: the closed form of the NCF flow of a balanced block of a
// depth-D diagonal net, a' = b a^{D-1}, which blows up at T = a0^{-(D-2)} / ((D-2) b) (b a0 > 0); the bracket of
// docs/kh.md is tight there (N_k(z_k) equals its sup on the sphere at the balanced direction).
#include <catch2/catch.hpp>

#include <flowcert/proofs/kh/theorem10_escape.hpp>

#include <limits>
#include <vector>

using flowcert::IntervalD;
namespace pk = flowcert::proofs::kh;

namespace {
IntervalD pt(double v) { return IntervalD::bounds(v, v); }
// d = 2 blocks of depth D = 3; parameter u^(f)_k at index f d + k.
std::vector<IntervalD> balanced_state(double a0, double a1) { return {pt(a0), pt(a1), pt(a0), pt(a1), pt(a0), pt(a1)}; }
}  // namespace

TEST_CASE("the blow-up bracket of a balanced block contains the closed-form blow-up time and orders the blocks",
          "[kh][theorem10]") {
    flowcert::nets::Vec<IntervalD> b(2);
    b << pt(2), pt(0.5);
    // T_0 = 1 / (1 * 2 * 0.5) = 1, T_1 = 1 / (1 * 0.5 * 0.1) = 20 (from t1 = 0)
    const auto blocks = pk::block_blowup_brackets(balanced_state(0.5, 0.1), pt(0), b, 2, 3, 3);
    REQUIRE(blocks.size() == 2);
    for (const auto& bk : blocks) {
        REQUIRE(bk.r_positive);
        REQUIRE(bk.has_hi);
    }
    CHECK(contains(blocks[0].bracket(), 1.0));
    CHECK(contains(blocks[1].bracket(), 20.0));
    CHECK(width(blocks[0].bracket()) < 1e-12);  // tight at the balanced direction
    CHECK(certainly_less(blocks[0].bracket(), blocks[1].bracket()));
    // the same state a time t1 later shifts the bracket by t1
    const auto later = pk::block_blowup_brackets(balanced_state(0.5, 0.1), pt(3), b, 2, 3, 3);
    CHECK(contains(later[0].bracket(), 4.0));
}

TEST_CASE("a block that is exactly 0 never blows up, and one moving towards 0 has no upper end", "[kh][theorem10]") {
    flowcert::nets::Vec<IntervalD> b(2);
    b << pt(2), pt(0.5);
    std::vector<IntervalD> s = balanced_state(0.5, 0.0);
    const auto blocks = pk::block_blowup_brackets(s, pt(0), b, 2, 3, 3);
    CHECK(!blocks[1].r_positive);
    CHECK(!blocks[1].has_hi);
    CHECK(lower(blocks[1].bracket()) == std::numeric_limits<double>::max());
    CHECK(upper(blocks[1].bracket()) == std::numeric_limits<double>::infinity());
    // b_1 prod u_1 < 0: N_1(z_1) < 0, the block shrinks; only the lower end is known
    s[1] = pt(-0.1);
    s[3] = pt(0.1);
    s[5] = pt(0.1);
    const auto neg = pk::block_blowup_brackets(s, pt(0), b, 2, 3, 3);
    CHECK(neg[1].r_positive);
    CHECK(!neg[1].has_hi);
    CHECK(upper(neg[1].bracket()) == std::numeric_limits<double>::infinity());
}

TEST_CASE("blows_up_in_orthant needs the block of w* blowing up with the signs of w*'s factors", "[kh][theorem10]") {
    flowcert::nets::Vec<IntervalD> b(2);
    b << pt(2), pt(0.5);
    const std::vector<IntervalD> s = balanced_state(0.5, 0.1);
    const auto blocks = pk::block_blowup_brackets(s, pt(0), b, 2, 3, 3);
    flowcert::linalg::IVector<IntervalD> wstar(6);
    for (int j = 0; j < 6; ++j) wstar(j) = pt(j % 2 == 0 ? 0.577 : 0.0);
    CHECK(pk::blows_up_in_orthant(blocks, s, wstar, 0, 2, 3));
    wstar(2) = pt(-0.577);  // another orthant
    CHECK(!pk::blows_up_in_orthant(blocks, s, wstar, 0, 2, 3));
}

TEST_CASE("one_block_support: exactly P - D certified zeros off one block whose factors are certainly nonzero",
          "[kh][theorem10]") {
    pk::ZeroPattern<IntervalD> zp;
    zp.status = flowcert::ProofStatus::proven;
    zp.inside_uniqueness_box = true;
    zp.zero_indices = {1, 3, 5};
    zp.u.resize(6);
    for (int j = 0; j < 6; ++j) zp.u(j) = j % 2 == 0 ? pt(0.577) : pt(0);
    const auto s = pk::one_block_support(zp, 2, 3);
    CHECK(s.proven);
    CHECK(s.kstar == 0);
    pk::ZeroPattern<IntervalD> two = zp;  // two blocks in the support
    two.zero_indices = {};
    for (int j = 0; j < 6; ++j) two.u(j) = pt(0.4);
    CHECK(!pk::one_block_support(two, 2, 3).proven);
    pk::ZeroPattern<IntervalD> outside = zp;  // not the certified KKT point
    outside.inside_uniqueness_box = false;
    CHECK(!pk::one_block_support(outside, 2, 3).proven);
    pk::ZeroPattern<IntervalD> straddle = zp;  // a factor of the block may be 0
    straddle.u(2) = IntervalD::bounds(-1e-9, 1e-9);
    CHECK(!pk::one_block_support(straddle, 2, 3).proven);
}

// ---- the pieces moved from the kh/theorem10_escape verifier body (issue 15), against exact values.
TEST_CASE("Theorem 10 exponent, Lemma 25 window, escape scaling and the exhibited constant", "[kh][theorem10]") {
    // kappa = Delta/(Delta + 2 L^2 N*): Delta = 1, N* = 1, L = 2 -> 1/9; Delta = 6, N* = 2, L = 3 -> 6/(6 + 36) = 1/7.
    CHECK(contains(pk::distance_exponent(pt(1), pt(1), 2) * pt(9), 1.0));
    CHECK(contains(pk::distance_exponent(pt(6), pt(2), 3) * pt(7), 1.0));
    const pk::Lemma25Window w = pk::lemma25_window(pt(2), pt(1), 3);  // 1/(3 * 2), 1/(3 * 1)
    CHECK(contains(w.lower * pt(6), 1.0));
    CHECK(contains(w.upper * pt(3), 1.0));
    const pk::EscapeScaling s = pk::escape_scaling(pt(0.5), 8, 8, 3, pt(3), pt(2));  // 0.5 * 8 = 4, 4 - 3 = 1, 2 * 0.5
    CHECK(contains(s.scaled, 4.0));
    CHECK(contains(s.diff, 1.0));
    CHECK(contains(s.distance, 1.0));
    CHECK(contains(s.bound, 1.0));
    const pk::EscapeScaling s2 = pk::escape_scaling(pt(0.1), 10, 20, 4, pt(0.15), pt(1));  // 0.01 * [10, 20] = [0.1, 0.2]
    CHECK(contains(s2.scaled, 0.1));
    CHECK(contains(s2.scaled, 0.2));
    CHECK(contains(s2.diff, -0.05));
    CHECK(contains(s2.diff, 0.05));
    CHECK(s2.distance.lower() == 0);  // |[-0.05, 0.05]| = [0, 0.05]
    CHECK(contains(s2.distance, 0.05));
    // C~ = 0.25 / 0.25^(1/2) = 0.5, rounded up; C~ 0.0625^(1/2) = 0.125.
    const double C = pk::exhibited_constant(pt(0.25), pt(0.25), pt(0.5));
    CHECK(C >= 0.5);
    CHECK(C < 0.5 + 1e-14);
    CHECK(contains(pk::power_law_bound(0.5, pt(0.0625), pt(0.5)), 0.125));
    pk::BlockBlowup b;
    b.lo = IntervalD::bounds(1, 1.1);
    b.hi = IntervalD::bounds(2, 2.1);
    const IntervalD T = pk::blowup_time(b);
    CHECK(T.lower() == 1);
    CHECK(T.upper() == 2.1);
}

TEST_CASE("ncf_value_at: N(w0) = ytilde^T H(X -- w0) on a depth-3 diagonal net", "[kh][theorem10]") {
    // d = 2, H(x; u) = sum_k u^(0)_k u^(1)_k u^(2)_k x_k, X = I, ytilde = (3, 1): N(u) = 3 prod_f u^(f)_0 + prod_f u^(f)_1.
    const auto arch = flowcert::nets::HomogeneousArchitecture::diagonal(2, 3);
    flowcert::nets::Mat<IntervalD> X(2, 2);
    X << pt(1), pt(0), pt(0), pt(1);
    flowcert::nets::Vec<IntervalD> yt(2);
    yt << pt(3), pt(1);
    const flowcert::nets::Ncf<IntervalD> ncf(flowcert::nets::HomogeneousModel<IntervalD>(arch, X), yt);
    const IntervalD N = pk::ncf_value_at(ncf, balanced_state(0.5, 2));  // 3 * 0.125 + 8
    CHECK(contains(N, 8.375));
    CHECK(width(N) < 1e-14);
}
