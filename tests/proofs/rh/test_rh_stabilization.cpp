// Tests of pattern stabilization, the tail certificate and the limit (lib/flowcert/proofs/rh/stabilization.hpp,
// tail.hpp): containment against ~500-bit GD on the exact rational Gram matrix, the tail steps failing where
// they must, permutation invariance.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <vector>

#include <flowcert/proofs/rh.hpp>

#include "rh_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets::rh;
using namespace flowcert::proofs::rh;
using namespace rh_fixture;

TEST_CASE("certified pattern, K and the limit w(inf) agree with 500-bit GD on the exact data (m = 1)", "[rh]") {
    InstanceSpec s = spec_of(21, 6, 400);
    s.eta_d = "1/4";  // several pattern changes
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(certainly_positive(initial_activity(inst)));
    REQUIRE(pr.tail.is_proven());
    CHECK(global_minimality(inst, pr).is_proven());
    const auto Gq = exact_gram(data_rows(21, 6, 400), 6, 400);
    const int steps = 600;
    const MpGd ref = mp_gd(inst, Gq, steps);
    // The reference pattern changes exactly at the certified steps and never after K.
    int last_change = 0;
    for (int k = 1; k <= steps; ++k)
        if (ref.patterns[k] != ref.patterns[k - 1]) last_change = k;
    CHECK(last_change == pr.K);
    CHECK(ref.patterns[steps] == pr.pattern);
    // a(600) is within rho^(600-K) (tiny) of a(inf).
    for (int i = 0; i < 6; ++i) {
        INFO("i = " << i << " a_inf " << to_string(pr.a_inf[0][i]) << " ref " << ref.a[0][i]);
        CHECK(contains_mp(pr.a_inf[0][i], ref.a[0][i], 1e-60));
        CHECK(contains_mp(pr.beta_inf[0][i], ref.beta[0][i], 1e-60));
    }
    CHECK(pr.K >= 1);
    // The certified eigenvalue range of H = G_SS (used for rho) contains the spectrum of G_SS and is tight.
    std::vector<int> S;
    for (int i = 0; i < 6; ++i)
        if (pr.pattern[0][i]) S.push_back(i);
    Eigen::MatrixXd GS(S.size(), S.size());
    for (size_t a = 0; a < S.size(); ++a)
        for (size_t b = 0; b < S.size(); ++b) GS(a, b) = Gq[S[a] * 6 + S[b]].convert_to<double>();
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(GS).eigenvalues();
    const double tol = 1e-9 * ev.maxCoeff();  // double eigen-solver error on a 400-scale matrix
    CHECK(lower(pr.lambda) <= ev.minCoeff() + tol);
    CHECK(upper(pr.lambda) >= ev.maxCoeff() - tol);
    CHECK(lower(pr.lambda) >= ev.minCoeff() - 1e-6 * ev.maxCoeff());
    CHECK(upper(pr.lambda) <= ev.maxCoeff() + 1e-6 * ev.maxCoeff());
    // rho = max |1 - eta lambda| over the spectrum
    const double eta = mid(inst.eta);
    const double rho = std::max(std::fabs(1 - eta * ev.minCoeff()), std::fabs(1 - eta * ev.maxCoeff()));
    CHECK(upper(pr.rho) >= rho - 1e-9);
    CHECK(upper(pr.rho) < 1);
}

TEST_CASE("certified pattern and limit agree with 500-bit GD on the exact data (m = 2)", "[rh]") {
    InstanceSpec s = spec_of(5, 6, 300);
    s.m = 2;
    s.eta_d = "1/2";
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.tail.is_proven());
    CHECK(global_minimality(inst, pr).is_proven());
    const auto Gq = exact_gram(data_rows(5, 6, 300), 6, 300);
    const MpGd ref = mp_gd(inst, Gq, 800);
    int last_change = 0;
    for (int k = 1; k <= 800; ++k)
        if (ref.patterns[k] != ref.patterns[k - 1]) last_change = k;
    CHECK(last_change == pr.K);
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < 6; ++i) {
            CHECK(contains_mp(pr.a_inf[p][i], ref.a[p][i], 1e-60));
            CHECK(contains_mp(pr.beta_inf[p][i], ref.beta[p][i], 1e-60));
        }
}

TEST_CASE("a failed tail attempt still reports rho and the signed margin (the tail steps can fail)", "[rh]") {
    InstanceSpec s = spec_of(1, 16, 2000);
    GdOptions opt;
    opt.max_steps = 2;  // before the residual is small enough for the tail ball
    const Instance inst = make_instance(s);
    const PatternResult short_run = certify_pattern_and_limit(inst, opt);
    REQUIRE_FALSE(short_run.tail.is_proven());
    REQUIRE(short_run.tail_attempted);
    REQUIRE(short_run.rho_known);
    CHECK(certainly_less(short_run.rho, IntervalD(1)));
    REQUIRE(short_run.margin_known);
    CHECK_FALSE(certainly_positive(short_run.margin));  // the tail margin step is not proven here
    const PatternResult full = certify_pattern_and_limit(inst);
    REQUIRE(full.tail.is_proven());
    CHECK(certainly_positive(full.margin));
    
}

TEST_CASE("with eta lambda_max > 2 the tail contraction rho < 1 fails on its whole enclosure", "[rh]") {
    InstanceSpec s = spec_of(1, 16, 2000);
    s.labels = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
    s.eta_d = "19/10";
    const Instance inst = make_instance(s);
    CHECK(certainly_less(IntervalD(2), step_size_ratio(inst)));
    const PatternResult pr = certify_pattern_and_limit(inst);
    CHECK_FALSE(pr.tail.is_proven());
    REQUIRE(pr.rho_known);
    CHECK(certainly_less(IntervalD(1), pr.rho));
}

TEST_CASE("a permuted point order gives the same pattern, limit and gap", "[rh]") {
    InstanceSpec s = spec_of(5, 16, 4000);
    InstanceSpec t = s;
    t.row_order = {1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    t.labels = "-1,1,-1,1,1,-1,1,-1,1,-1,1,-1,1,-1,1,-1";
    const Instance a = make_instance(s), b = make_instance(t);
    const PatternResult pa = certify_pattern_and_limit(a), pb = certify_pattern_and_limit(b);
    REQUIRE(pa.tail.is_proven());
    REQUIRE(pb.tail.is_proven());
    CHECK(pa.K == pb.K);
    const GapResult ga = enclose_gap(a, pa, certify_w_star(a)), gb = enclose_gap(b, pb, certify_w_star(b));
    REQUIRE(ga.status.is_proven());
    REQUIRE(gb.status.is_proven());
    IntervalD both;
    CHECK(intersect(ga.gap, gb.gap, both));
    for (int i = 0; i < 16; ++i) {
        const int r = t.row_order[i];
        CHECK(intersect(pa.a_inf[0][r], pb.a_inf[0][i], both));
    }
}

TEST_CASE("the limit is least squares on the active subset with the inactive coefficients frozen (m = 1)", "[rh]") {
    // a_S(inf) = G_SS^{-1} (y_S - (Xu)_S - G_{S,S^c} a_{S^c}(K)) (docs/rh.md#limit): an identity of the tail
    // formula, checked here (not in reports) against an independent verified solve, Gaussian init included.
    for (const char* init : {"span", "gaussian"}) {
        InstanceSpec s;
        s.seed = 17;
        s.n = 10;
        s.d = 900;
        s.init = init;
        s.init_scale = "1/1000";
        const Instance inst = make_instance(s);
        const PatternResult pr = certify_pattern_and_limit(inst);
        REQUIRE(pr.tail.is_proven());
        std::vector<int> S, Sc;
        for (int i = 0; i < 10; ++i) (pr.pattern[0][i] ? S : Sc).push_back(i);
        REQUIRE(!S.empty());
        linalg::IMatrixD GS(S.size(), S.size());
        linalg::IVectorD rhs(S.size());
        for (size_t a = 0; a < S.size(); ++a) {
            IntervalD v = inst.y[S[a]] - inst.Xu[0][S[a]];
            for (int j : Sc) v -= inst.G(S[a], j) * pr.a_inf[0][j];  // inactive coefficients: frozen at a(K)
            rhs(a) = v;
            for (size_t b = 0; b < S.size(); ++b) GS(a, b) = inst.G(S[a], S[b]);
        }
        const auto sol = linalg::verified_solve<IntervalD>(GS, rhs);
        REQUIRE(sol.status == ProofStatus::proven);
        for (size_t a = 0; a < S.size(); ++a) {
            IntervalD both;
            INFO(init << " sample " << S[a] << " " << to_string(sol.x(a)) << " vs " << to_string(pr.a_inf[0][S[a]]));
            CHECK(intersect(sol.x(a), pr.a_inf[0][S[a]], both));
        }
    }
}
