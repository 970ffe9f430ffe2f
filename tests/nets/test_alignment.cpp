// Tests of the alignment function and activation cones of [BF2025] (lib/flowcert/nets/alignment.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "flowcert/nets/alignment.hpp"

#include "../support/figure2_fixture.hpp"
#include "../support/three_point_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::assumption3_spec;
using flowcert::test_support::figure2_spec;

namespace {

TwoLayerSpec xor8() {
    TwoLayerSpec s;
    s.x = {{"2", "1"}, {"1", "2"}, {"-1", "2.1"}, {"-2.2", "1"}, {"-2", "-1.3"}, {"-1.2", "-2"}, {"1.1", "-2"}, {"2", "-0.9"}};
    s.y = {"-1", "-1", "1", "1", "-1", "-1", "1", "1"};
    return s;
}
TwoLayerSpec orthogonal() {
    TwoLayerSpec s;
    s.x = {{"1", "0"}, {"0", "1"}};
    s.y = {"1", "1"};
    return s;
}
Rational q(const char* s) { return Rational(s); }  // "p/q" syntax only
QVec random_w(std::mt19937_64& gen) {
    std::uniform_int_distribution<int> U(-1000, 1000);
    return {Rational(U(gen), 97), Rational(U(gen), 89)};
}
QVec add(QVec a, const QVec& b, const Rational& t) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += t * b[i];
    return a;
}

}  // namespace

TEST_CASE("on the Figure-2 data the only extremal vector is D* = (1/n) sum y_k x_k = (-31/120, 2/3)", "[alignment]") {
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
    const Constants K = theorem1_constants(a, c);
    REQUIRE(K.status == Constants::Status::certified);
    CHECK(K.D_max_sq == q("-31/120") * q("-31/120") + q("4/9"));
    CHECK((lower(K.D_max) > 0.7149689 && upper(K.D_max) < 0.71496892));
    CHECK(K.no_saddle);
    CHECK(K.n_local_max == 1);
    CHECK(K.n_local_min == 0);
}

TEST_CASE("G_exact equals <w, D(w,0)> and the interval G encloses it at random rational directions", "[alignment]") {
    std::mt19937_64 gen(3);
    for (const std::string gamma : {"0", "0.3"}) {
        TwoLayerSpec s = xor8();
        s.gamma = gamma;
        const AlignmentData a = alignment_data(s);
        const TwoLayerModel<IntervalMp> model(s, 128);
        for (int t = 0; t < 200; ++t) {
            const QVec w = random_w(gen);
            const MinNorm D = D_at(a, w);
            REQUIRE(D.status == MinNorm::Status::exact);
            CHECK(G_exact(a, w) == dot(w, D.D));  // [BF2025, eq. (7)] and its closed form
            std::vector<IntervalMp> wi = {IntervalMp::from_decimal(w[0].str(), Precision(128)),
                                          IntervalMp::from_decimal(w[1].str(), Precision(128))};
            const IntervalMp G = G_enclosure(model, wi);
            const IntervalMp ref = IntervalMp::from_decimal(G_exact(a, w).str(), Precision(200));
            CHECK(subset(ref, inflate(G, 0.0)));
        }
    }
}

TEST_CASE("D_u is the min-norm element of its set: no element on a fine eta grid is shorter, and it lies in the set",
          "[alignment]") {
    for (const std::string gamma : {"0", "1/5"}) {
        TwoLayerSpec s = figure2_spec();
        s.gamma = gamma;
        const AlignmentData a = alignment_data(s);
        const Cones2 c = activation_cones_2d(a);
        REQUIRE(c.status == Cones2::Status::exact);
        for (const auto& k : c.cones) {
            if (!k.is_ray) continue;
            std::size_t z = 0;
            while (k.u[z] != 0) ++z;
            REQUIRE(k.D.eta[z].has_value());
            CHECK(*k.D.eta[z] >= a.gamma);
            CHECK(*k.D.eta[z] <= 1);
            for (int t = 0; t <= 64; ++t) {
                const Rational eta = a.gamma + (1 - a.gamma) * Rational(t, 64);
                QVec D(2, Rational(0));
                for (std::size_t kk = 0; kk < a.n; ++kk) {
                    const Rational e = kk == z ? eta : (k.u[kk] > 0 ? Rational(1) : a.gamma);
                    D = add(D, a.g[kk], e);
                }
                CHECK(dot(D, D) >= dot(k.D.D, k.D.D));
            }
        }
    }
}

TEST_CASE("every activation pattern of a random direction is one of the enumerated cones", "[alignment]") {
    std::mt19937_64 gen(11);
    const AlignmentData a = alignment_data(xor8());
    const Cones2 c = activation_cones_2d(a);
    REQUIRE(c.status == Cones2::Status::exact);
    std::set<std::vector<int>> U;
    for (const auto& k : c.cones) U.insert(k.u);
    CHECK(U.size() == c.cones.size());  // the cones are distinct
    CHECK(c.cones.size() == 32);        // 16 distinct rays for 8 pairwise independent inputs
    for (int t = 0; t < 500; ++t) CHECK(U.count(activation_pattern(a, random_w(gen))) == 1);
}

TEST_CASE("the XOR-like data have four extremal vectors: two strict local maxima and two strict local minima of G",
          "[alignment]") {
    const AlignmentData a = alignment_data(xor8());
    const Cones2 c = activation_cones_2d(a);
    const Constants K = theorem1_constants(a, c);
    REQUIRE(K.status == Constants::Status::certified);
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
          "[alignment]") {
    const AlignmentData a = alignment_data(orthogonal());
    const Cones2 c = activation_cones_2d(a);
    const Constants K = theorem1_constants(a, c);
    REQUIRE(K.status == Constants::Status::certified);
    CHECK_FALSE(K.no_saddle);
    CHECK_FALSE(K.lemma2_boundary);
    const LambdaStar L = lambda_star(a, K, "1/2", "1/10");
    CHECK(L.status != LambdaStar::Status::certified);
}

TEST_CASE("lambda* of eq. (21) is certified positive on the Figure-2 data and does not grow as alpha_0 shrinks",
          "[alignment]") {
    const AlignmentData a = alignment_data(figure2_spec());
    const Constants K = theorem1_constants(a, activation_cones_2d(a));
    const LambdaStar L1 = lambda_star(a, K, "0.5", "0.1");
    const LambdaStar L2 = lambda_star(a, K, "0.1", "0.1");
    REQUIRE(L1.status == LambdaStar::Status::certified);
    REQUIRE(L2.status == LambdaStar::Status::certified);
    CHECK(certainly_positive(L1.lambda_star));
    CHECK(certainly_less_equal(L2.lambda_star, L1.lambda_star));
    CHECK(lambda_star(a, K, "0.5", "0.4").status == LambdaStar::Status::not_applicable);  // eps >= 1/3
    TwoLayerSpec code = figure2_spec();
    code.risk_weight = "2/3";
    const AlignmentData ac = alignment_data(code);
    CHECK(lambda_star(ac, theorem1_constants(ac, activation_cones_2d(ac)), "0.5", "0.1").status ==
          LambdaStar::Status::not_applicable);
}

TEST_CASE("Assumption 3 is decided exactly: eta_min = 1/10 for a constructed set, and the Figure-2 data fail it",
          "[alignment][theorem2]") {
    const AlignmentData a = alignment_data(assumption3_spec());
    const Assumption3 A3 = check_assumption3(a);
    CHECK(A3.shape_ok);
    CHECK(A3.eta_min == Rational(1, 10));
    CHECK(A3.eta_below_one_sixth);
    const LeastSquares ls = least_squares(a);
    const Assumptions456 A = check_assumptions_456(a, ls);
    CHECK(A.a4);
    CHECK(A.a5);
    CHECK(A.a6_sign);  // Lemma 8: Assumption 3 with eta < 1/6 implies these
    CHECK(A.K == std::vector<std::size_t>{0, 2});
    CHECK(ls.residuals[1] > 0);

    const AlignmentData f = alignment_data(figure2_spec());
    CHECK_FALSE(check_assumption3(f).shape_ok);  // y_3 = 0.8 < 1
    const Assumptions456 F = check_assumptions_456(f, least_squares(f));
    CHECK(F.a4);
    CHECK_FALSE(F.a5);
    REQUIRE(F.a5_lhs.size() == 2);
    CHECK(F.a5_lhs[0].p == q("55/32"));  // 1.71875
    CHECK(F.a5_lhs[1].p == q("13/16"));  // 0.8125
    CHECK(F.a6_sign);
    CHECK(F.alpha1 == q("5/7"));
}

TEST_CASE("dense sampling of the circle never exceeds the certified D_max, max G, min G and the cosine bound of "
          "alpha_{min,+}",
          "[alignment]") {
    TwoLayerSpec os;
    os.x = {{"1", "0.1"}, {"1", "-0.2"}, {"-0.15", "1"}, {"-0.3", "1"}};
    os.y = {"1", "1", "-1", "-1"};
    TwoLayerSpec leaky = figure2_spec();
    leaky.gamma = "0.2";
    for (const TwoLayerSpec& s : {figure2_spec(), xor8(), os, leaky}) {
        const AlignmentData a = alignment_data(s);
        const Cones2 c = activation_cones_2d(a);
        const Constants K = theorem1_constants(a, c);
        REQUIRE(K.status == Constants::Status::certified);
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
