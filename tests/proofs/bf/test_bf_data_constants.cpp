// Tests of the data constants of [BF2025] in lib/flowcert/proofs/bf: Theorem 1's constants and lambda*
// (theorem1_constants.hpp), the least-squares fit, Assumptions 3-6 and the three-point order
// (theorem2_data.hpp, three_point.hpp). References: exact rationals computed independently, dense
// sampling of the circle, and hand-checked values of the Figure-2 and Assumption-3 data.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../../support/figure2_fixture.hpp"
#include "../../support/three_point_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::bf;
using flowcert::test_support::assumption3_spec;
using flowcert::test_support::figure2_spec;
using flowcert::test_support::xor8_spec;

namespace {

TwoLayerSpec orthogonal() {
    TwoLayerSpec s;
    s.x = {{"1", "0"}, {"0", "1"}};
    s.y = {"1", "1"};
    return s;
}
Rational q(const char* s) { return Rational(s); }  // "p/q" syntax only
QVec add(QVec a, const QVec& b, const Rational& t) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += t * b[i];
    return a;
}

}  // namespace

TEST_CASE("on the Figure-2 data the only extremal vector is D* = (1/n) sum y_k x_k = (-31/120, 2/3)", "[bf][theorem1]") {
    const AlignmentData a = alignment_data(figure2_spec());
    const Cones2 c = activation_cones_2d(a);
    REQUIRE(c.status == Cones2::Status::exact);
    CHECK(c.cones.size() == 12);  // 6 rays, 6 sectors
    int n_ext = 0;
    for (const auto& k : c.cones)
        if (k.extremal_pos || k.extremal_neg) {
            ++n_ext;
            CHECK(k.u == std::vector<int>{1, 1, 1});
            CHECK(k.D.D == QVec{q("-31/120"), q("2/3")});
            CHECK(k.critical == Critical::strict_local_max);
        }
    CHECK(n_ext == 1);
    const LeastSquares ls = least_squares(a);
    REQUIRE(ls.ok);
    CHECK(ls.D_star == QVec{q("-31/120"), q("2/3")});
    // beta*, independently: slope = cov(x, y) / var(x), intercept = mean y - slope mean x
    const Rational mx = (q("-3/4") + q("-1/2") + q("1/8")) / 3, my = (q("11/10") + q("1/10") + q("4/5")) / 3;
    const QVec xs = {q("-3/4"), q("-1/2"), q("1/8")}, ys = {q("11/10"), q("1/10"), q("4/5")};
    Rational sxy = 0, sxx = 0;
    for (int k = 0; k < 3; ++k) { sxy += (xs[k] - mx) * (ys[k] - my); sxx += (xs[k] - mx) * (xs[k] - mx); }
    const Rational slope = sxy / sxx;
    CHECK(ls.beta == QVec{slope, my - slope * mx});
    CHECK(ls.beta[0] == q("-4/65"));
    CHECK(ls.loss_code == 2 * ls.loss_paper);
    const Theorem1Constants K = theorem1_constants(a, c, 128);
    REQUIRE(K.result.is_proven());
    CHECK(K.D_max_sq == q("-31/120") * q("-31/120") + q("4/9"));
    CHECK((lower(K.D_max) > 0.7149689 && upper(K.D_max) < 0.71496892));
    CHECK(K.no_saddle);
    CHECK(K.n_local_max == 1);
    CHECK(K.n_local_min == 0);
}

TEST_CASE("the XOR-like data have four extremal vectors: two strict local maxima and two strict local minima of G",
          "[bf][theorem1]") {
    const AlignmentData a = alignment_data(xor8_spec());
    const Cones2 c = activation_cones_2d(a);
    const Theorem1Constants K = theorem1_constants(a, c, 128);
    REQUIRE(K.result.is_proven());
    CHECK(K.n_extremal == 4);
    CHECK(K.n_local_max == 2);
    CHECK(K.n_local_min == 2);
    CHECK(K.no_saddle);
    CHECK(K.lemma2_independence);
    // each claimed strict extremum beats two nearby directions on the sphere
    for (const auto& k : c.cones) {
        if (k.critical != Critical::strict_local_max && k.critical != Critical::strict_local_min) continue;
        const QVec J = {-k.critical_dir[1], k.critical_dir[0]};
        for (const Rational& t : {Rational(1, 1000), Rational(-1, 1000)}) {
            const QVec w = add(k.critical_dir, J, t);
            const SqrtRatio Gw{G_exact(a, w), dot(w, w)};
            const int cmp = compare(Gw, k.G_critical);
            CHECK(cmp == (k.critical == Critical::strict_local_max ? -1 : 1));
        }
    }
}

TEST_CASE("orthogonal inputs violate Lemma 2: the no-saddle check is not certified and lambda* is not positive",
          "[bf][theorem1]") {
    const AlignmentData a = alignment_data(orthogonal());
    const Cones2 c = activation_cones_2d(a);
    const Theorem1Constants K = theorem1_constants(a, c, 128);
    REQUIRE(K.result.is_proven());
    CHECK_FALSE(K.no_saddle);
    CHECK_FALSE(K.lemma2_boundary);
    const LambdaStar L = lambda_star(a, K, "1/2", "1/10", 128);
    CHECK_FALSE(L.result.is_proven());
}

TEST_CASE("lambda* of eq. (21) is certified positive on the Figure-2 data and does not grow as alpha_0 shrinks",
          "[bf][theorem1]") {
    const AlignmentData a = alignment_data(figure2_spec());
    const Theorem1Constants K = theorem1_constants(a, activation_cones_2d(a), 128);
    const LambdaStar L1 = lambda_star(a, K, "0.5", "0.1", 128);
    const LambdaStar L2 = lambda_star(a, K, "0.1", "0.1", 128);
    REQUIRE(L1.result.is_proven());
    REQUIRE(L2.result.is_proven());
    CHECK(certainly_positive(L1.lambda_star));
    CHECK(certainly_less_equal(L2.lambda_star, L1.lambda_star));
    CHECK_FALSE(lambda_star(a, K, "0.5", "0.4", 128).result.is_proven());  // eps >= 1/3
    TwoLayerSpec code = figure2_spec();
    code.risk_weight = "2/3";
    const AlignmentData ac = alignment_data(code);
    CHECK_FALSE(lambda_star(ac, theorem1_constants(ac, activation_cones_2d(ac), 128), "0.5", "0.1", 128).result.is_proven());
}

TEST_CASE("Assumption 3 is decided exactly: eta_min = 1/10 for a constructed set, and the Figure-2 data fail it",
          "[bf][theorem2]") {
    const AlignmentData a = alignment_data(assumption3_spec());
    const Assumption3 A3 = check_assumption3(a);
    CHECK(A3.shape_ok);
    CHECK(A3.eta_min == Rational(1, 10));
    CHECK(assumption3_shape(A3).is_proven());
    const LeastSquares ls = least_squares(a);
    const Assumptions456 A = check_assumptions_456(a);
    CHECK(assumption4(A, a.d).is_proven());
    CHECK(A.K == std::vector<std::size_t>{0, 2});
    for (std::size_t i = 0; i < A.K.size(); ++i) CHECK(compare(A.a5_lhs[i], A.a5_rhs[i]) > 0);  // Lemma 8: Assumption 5
    for (std::size_t k : A.K) CHECK(ls.residuals[k] < 0);                                       // Assumption 6 sign
    CHECK(ls.residuals[1] > 0);

    const AlignmentData f = alignment_data(figure2_spec());
    const Assumption3 F3 = check_assumption3(f, three_point_order(f).order);
    CHECK_FALSE(F3.shape_ok);  // y_3 = 0.8 < 1
    CHECK(assumption3_shape(F3).status == ProofStatus::disproven);
    const Assumptions456 F = check_assumptions_456(f);
    CHECK(assumption4(F, f.d).is_proven());
    REQUIRE(F.a5_lhs.size() == 2);
    CHECK(F.a5_lhs[0].p == q("55/32"));  // 1.71875
    CHECK(F.a5_lhs[1].p == q("13/16"));  // 0.8125
    for (std::size_t i = 0; i < F.K.size(); ++i) CHECK(compare(F.a5_lhs[i], F.a5_rhs[i]) < 0);  // Assumption 5 fails
    CHECK(three_point_order(f).alpha1 == q("5/7"));
}

TEST_CASE("the middle point is found from the cone geometry: every order of the Assumption-3 points gives the same "
          "canonical labelling and the same eta_min (was: x_2 assumed to be the middle point, issue 14)",
          "[bf][theorem2]") {
    const TwoLayerSpec base = assumption3_spec();
    std::array<std::size_t, 3> p{0, 1, 2};
    int orders = 0;
    do {
        TwoLayerSpec s = base;
        for (std::size_t k = 0; k < 3; ++k) {
            s.x[k] = base.x[p[k]];
            s.y[k] = base.y[p[k]];
        }
        const AlignmentData a = alignment_data(s);
        const ThreePointOrder o = three_point_order(a);
        REQUIRE(o.geometry.is_proven());
        for (std::size_t k = 0; k < 3; ++k) CHECK(p[o.order[k]] == k);  // back to the original labels
        const Assumption3 A3 = check_assumption3(a, o.order);
        CHECK(A3.shape_ok);
        CHECK(A3.eta_min == Rational(1, 10));
        CHECK(least_squares(a).residuals[o.order[1]] > 0);  // the middle residual, wherever the middle point is listed
        ++orders;
    } while (std::next_permutation(p.begin(), p.end()));
    CHECK(orders == 6);
}

TEST_CASE("eq. (21) is refused for leaky ReLU: D_min would leave out the cone u = 0 (issue 14)", "[bf][theorem1]") {
    TwoLayerSpec leaky = figure2_spec();
    leaky.gamma = "0.2";
    const AlignmentData a = alignment_data(leaky);
    const Theorem1Constants K = theorem1_constants(a, activation_cones_2d(a), 128);
    REQUIRE(K.result.is_proven());
    CHECK_FALSE(K.D_min_complete);
    const LambdaStar L = lambda_star(a, K, "0.5", "0.1", 128);
    CHECK_FALSE(L.result.is_proven());
    const AlignmentData r = alignment_data(figure2_spec());
    CHECK(theorem1_constants(r, activation_cones_2d(r), 128).D_min_complete);
}

TEST_CASE("dense sampling of the circle never exceeds the certified D_max, max G, min G and the cosine bound of "
          "alpha_{min,+}",
          "[bf][theorem1]") {
    TwoLayerSpec os;
    os.x = {{"1", "0.1"}, {"1", "-0.2"}, {"-0.15", "1"}, {"-0.3", "1"}};
    os.y = {"1", "1", "-1", "-1"};
    TwoLayerSpec leaky = figure2_spec();
    leaky.gamma = "0.2";
    for (const TwoLayerSpec& s : {figure2_spec(), xor8_spec(), os, leaky}) {
        const AlignmentData a = alignment_data(s);
        const Cones2 c = activation_cones_2d(a);
        const Theorem1Constants K = theorem1_constants(a, c, 128);
        REQUIRE(K.result.is_proven());
        const double Mplus = std::sqrt(std::max(0.0, 1.0 - mid(IntervalMp::from_decimal(K.alpha_plus_sq.str(), Precision(64)))));
        for (int t = 0; t < 3600; ++t) {
            const double th = 2 * M_PI * t / 3600 + 1e-4;
            const QVec w = {Rational(std::cos(th)), Rational(std::sin(th))};
            const MinNorm D = D_at(a, w);
            CHECK(dot(D.D, D.D) <= K.D_max_sq);
            const double G = static_cast<double>(G_exact(a, w)) / std::sqrt(static_cast<double>(dot(w, w)));
            CHECK(G <= upper(K.max_G) + 1e-12);
            CHECK(G >= lower(K.min_G) - 1e-12);
            const std::vector<int> u = activation_pattern(a, w);
            for (const auto& k : c.cones)
                if (k.u == u && !k.extremal_pos && !D.zero_in_set && !K.alpha_plus_empty) {
                    const double cosv = static_cast<double>(dot(w, D.D)) /
                                        std::sqrt(static_cast<double>(dot(w, w)) * static_cast<double>(dot(D.D, D.D)));
                    CHECK(cosv <= Mplus + 1e-12);
                }
        }
    }
}
