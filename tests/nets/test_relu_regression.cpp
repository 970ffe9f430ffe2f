// Tests of the high-dimensional ReLU regression core (lib/flowcert/nets/relu_regression.hpp):
// containment against exact (GMP rational) Gram matrices and high-precision (MPFR, 500 bits)
// gradient descent, an independent brute-force w*, negative cases, determinism.
#include <catch2/catch.hpp>

#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <thread>
#include <vector>

#include "flowcert/nets/random.hpp"
#include "flowcert/nets/relu_regression.hpp"

using namespace flowcert;
using namespace flowcert::nets::rh;
using Rat = boost::multiprecision::mpq_rational;
using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<150>>;  // ~500 bits

namespace {

std::vector<double> data_rows(std::uint64_t seed, int n, long d) {
    std::vector<double> X(static_cast<size_t>(n) * d);
    for (int i = 0; i < n; ++i) {
        nets::RandomStream rs(seed, "X", static_cast<std::uint64_t>(i));
        rs.fill_gaussian(std::span<double>(X.data() + static_cast<size_t>(i) * d, d));
    }
    return X;
}

std::vector<Rat> exact_gram(const std::vector<double>& X, int n, long d) {
    std::vector<Rat> G(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            Rat s = 0;
            for (long k = 0; k < d; ++k) s += Rat(X[i * d + k]) * Rat(X[j * d + k]);
            G[static_cast<size_t>(i) * n + j] = s;
        }
    return G;
}

bool contains_rat(const IntervalD& x, const Rat& q) {
    return (lower(x) == -INFINITY || Rat(lower(x)) <= q) && (upper(x) == INFINITY || q <= Rat(upper(x)));
}
bool contains_mp(const IntervalD& x, const Mp& v, double tol) {
    return Mp(lower(x)) - tol <= v && v <= Mp(upper(x)) + tol;
}

// Reference GD at ~500 bits with the exact Gram matrix (spec 4.1 coordinates), span initialization.
struct MpGd {
    std::vector<std::vector<Mp>> a, beta;
    std::vector<std::vector<std::vector<int>>> patterns;  // [k][p][i]
};
MpGd mp_gd(const Instance& inst, const std::vector<Rat>& Gq, int steps) {
    const int n = inst.n, m = inst.m;
    std::vector<Mp> G(Gq.size());
    for (size_t t = 0; t < Gq.size(); ++t) G[t] = Mp(Gq[t]);
    std::vector<Mp> y(n);
    for (int i = 0; i < n; ++i) y[i] = Mp(Rat(mid(inst.y[i])));  // labels in these tests are exact doubles
    MpGd out;
    out.a.assign(m, std::vector<Mp>(n));
    out.beta.assign(m, std::vector<Mp>(n));
    const Mp eta = Mp(inst.eta);
    for (int p = 0; p < m; ++p) {
        for (int i = 0; i < n; ++i) out.a[p][i] = Mp(mid(inst.a0[p][i]));
        for (int i = 0; i < n; ++i) {
            Mp s = 0;
            for (int j = 0; j < n; ++j) s += G[i * n + j] * out.a[p][j];
            out.beta[p][i] = s;
        }
    }
    for (int k = 0; k <= steps; ++k) {
        std::vector<std::vector<int>> P(m, std::vector<int>(n));
        for (int p = 0; p < m; ++p)
            for (int i = 0; i < n; ++i) P[p][i] = out.beta[p][i] > 0;
        out.patterns.push_back(P);
        if (k == steps) break;
        std::vector<Mp> r(n);
        for (int i = 0; i < n; ++i) {
            Mp f = 0;
            for (int p = 0; p < m; ++p)
                if (P[p][i]) f += inst.s[p] * out.beta[p][i];
            r[i] = f - y[i];
        }
        for (int p = 0; p < m; ++p) {
            std::vector<Mp> v(n);
            for (int i = 0; i < n; ++i) v[i] = P[p][i] ? r[i] : Mp(0);
            for (int i = 0; i < n; ++i) {
                out.a[p][i] -= eta * inst.s[p] * v[i];
                Mp gv = 0;
                for (int j = 0; j < n; ++j) gv += G[i * n + j] * v[j];
                out.beta[p][i] -= eta * inst.s[p] * gv;
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("the Gram enclosure contains the exact rational Gram matrix, also for badly scaled rows", "[rh]") {
    const int n = 5;
    const long d = 300;
    std::vector<double> X = data_rows(11, n, d);
    // Scale rows and single entries over many binades to stress the a priori bound.
    for (long k = 0; k < d; ++k) {
        X[1 * d + k] = std::ldexp(X[1 * d + k], 200);
        X[2 * d + k] = std::ldexp(X[2 * d + k], -300);
        if (k % 7 == 0) X[3 * d + k] = std::ldexp(X[3 * d + k], 40);
    }
    X[4 * d + 5] = 1e300;
    const auto G = gram_enclosure_rowmajor(X, n, d);
    const auto Gq = exact_gram(X, n, d);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            INFO("entry " << i << "," << j << " " << to_string(G[i * n + j]));
            CHECK(contains_rat(G[i * n + j], Gq[i * n + j]));
            if (i != 4 && j != 4) CHECK(is_bounded(G[i * n + j]));
        }
}

TEST_CASE("an instance's Gram enclosure contains X X^T of the rows regenerated from the streams", "[rh]") {
    InstanceSpec s;
    s.seed = 3;
    s.n = 6;
    s.d = 5000;  // more than two generation chunks
    const Instance inst = make_instance(s);
    const auto X = data_rows(3, 6, 5000);
    const auto Gq = exact_gram(X, 6, 5000);
    for (int t = 0; t < 36; ++t) CHECK(contains_rat(inst.G[t], Gq[t]));
    CHECK(inst.gram_max_rel_radius < 1e-10);
    CHECK(inst.n_minus == 3);
}

TEST_CASE("instances and certificates are bit-identical whatever thread builds them", "[rh]") {
    InstanceSpec s;
    s.seed = 9;
    s.n = 12;
    s.d = 3000;
    s.labels = "teacher";
    const Instance a = make_instance(s);
    Instance b;
    std::thread t([&] { b = make_instance(s); });
    t.join();
    for (size_t k = 0; k < a.G.size(); ++k) {
        REQUIRE(lower(a.G[k]) == lower(b.G[k]));
        REQUIRE(upper(a.G[k]) == upper(b.G[k]));
    }
    for (int i = 0; i < 12; ++i) REQUIRE(lower(a.y[i]) == lower(b.y[i]));
    // teacher labels have both signs for this seed
    CHECK(a.n_minus > 0);
    CHECK(a.n_minus < 12);
}

TEST_CASE("certified pattern, K and the limit w(inf) agree with 500-bit GD on the exact data (m = 1)", "[rh]") {
    InstanceSpec s;
    s.seed = 21;
    s.n = 6;
    s.d = 400;
    s.eta_d = "1/4";  // several pattern changes
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.init_active == Status::proven);
    REQUIRE(pr.tail == Status::proven);
    CHECK(pr.global_min == Status::proven);
    CHECK(pr.ls_crosscheck == Status::proven);
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
    CHECK(lower(pr.lambda_min) <= ev.minCoeff() + tol);
    CHECK(upper(pr.lambda_max) >= ev.maxCoeff() - tol);
    CHECK(lower(pr.lambda_min) >= ev.minCoeff() - 1e-6 * ev.maxCoeff());
    CHECK(upper(pr.lambda_max) <= ev.maxCoeff() + 1e-6 * ev.maxCoeff());
    // rho = max |1 - eta lambda| over the spectrum
    const double rho = std::max(std::fabs(1 - inst.eta * ev.minCoeff()), std::fabs(1 - inst.eta * ev.maxCoeff()));
    CHECK(upper(pr.rho) >= rho - 1e-9);
    CHECK(upper(pr.rho) < 1);
}

TEST_CASE("certified pattern and limit agree with 500-bit GD on the exact data (m = 2)", "[rh]") {
    InstanceSpec s;
    s.seed = 5;
    s.n = 6;
    s.d = 300;
    s.m = 2;
    s.eta_d = "1/2";
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.tail == Status::proven);
    CHECK(pr.global_min == Status::proven);
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

TEST_CASE("the KKT-certified w* is the minimum-norm feasible point found by enumerating all faces", "[rh]") {
    for (std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
        InstanceSpec s;
        s.seed = seed;
        s.n = 8;
        s.d = 200;
        const Instance inst = make_instance(s);
        const WStarResult ws = certify_w_star(inst);
        REQUIRE(ws.status == Status::proven);
        // Independent (double, non-rigorous) enumeration of T subset of N: on each face the min-norm point
        // solves G_AA alpha_A = (y_P; 0_T); w* is the feasible one of least norm.
        const int n = 8;
        Eigen::MatrixXd Gm(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) Gm(i, j) = mid(inst.G[i * n + j]);
        std::vector<int> N;
        for (int i = 0; i < n; ++i)
            if (inst.negative[i]) N.push_back(i);
        double best = INFINITY;
        Eigen::VectorXd best_alpha;
        for (unsigned mask = 0; mask < (1u << N.size()); ++mask) {
            std::vector<int> A;
            for (int i = 0; i < n; ++i) {
                bool in = !inst.negative[i];
                for (size_t t = 0; t < N.size(); ++t)
                    if (N[t] == i && (mask >> t & 1u)) in = true;
                if (in) A.push_back(i);
            }
            Eigen::MatrixXd GA(A.size(), A.size());
            Eigen::VectorXd rhs(A.size());
            for (size_t a = 0; a < A.size(); ++a) {
                rhs(a) = inst.negative[A[a]] ? 0.0 : mid(inst.y[A[a]]);
                for (size_t b = 0; b < A.size(); ++b) GA(a, b) = Gm(A[a], A[b]);
            }
            Eigen::VectorXd xa = GA.ldlt().solve(rhs), alpha = Eigen::VectorXd::Zero(n);
            for (size_t a = 0; a < A.size(); ++a) alpha(A[a]) = xa(a);
            const Eigen::VectorXd beta = Gm * alpha;
            bool feasible = true;
            for (int j : N) feasible = feasible && beta(j) <= 1e-12;
            const double norm2 = alpha.dot(Gm * alpha);
            if (feasible && norm2 < best) {
                best = norm2;
                best_alpha = alpha;
            }
        }
        for (int i = 0; i < n; ++i) {
            INFO("seed " << seed << " i " << i << " " << to_string(ws.alpha[i]) << " vs " << best_alpha(i));
            CHECK(std::fabs(mid(ws.alpha[i]) - best_alpha(i)) < 1e-9 * (1 + std::fabs(best_alpha(i))));
        }
    }
}

TEST_CASE("the certified gap encloses ||w(inf) - w*|| computed in 500 bits from explicit vectors", "[rh]") {
    InstanceSpec s;
    s.seed = 4;
    s.n = 6;
    s.d = 300;
    s.init = "gaussian";  // also exercises the non-span part u of the initialization
    s.init_scale = "1/100";
    s.labels = "1,-1,1/2,-1/2,2,-3/2";
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.tail == Status::proven);
    const WStarResult ws = certify_w_star(inst);
    REQUIRE(ws.status == Status::proven);
    const GapResult g = enclose_gap(inst, pr, ws);
    REQUIRE(g.status == Status::proven);
    // Explicit w(inf) - w* = u + X^T (a_inf - alpha*) with u = c g (g from stream (seed, "w0", 0)).
    const auto X = data_rows(4, 6, 300);
    std::vector<double> gvec(300);
    nets::RandomStream(4, "w0", 0).fill_gaussian(gvec);
    Mp sq = 0;
    for (long k = 0; k < 300; ++k) {
        Mp w = Mp(Rat(1, 100)) * Mp(gvec[k]);
        for (int i = 0; i < 6; ++i) w += Mp(X[i * 300 + k]) * (Mp(mid(pr.a_inf[0][i])) - Mp(mid(ws.alpha[i])));
        sq += w * w;
    }
    const Mp gap = sqrt(sq);
    INFO("gap " << to_string(g.gap) << " explicit " << gap);
    // mid-point coefficients differ from the exact ones by at most the enclosure radii (~1e-12)
    CHECK(contains_mp(g.gap, gap, 1e-9));
    CHECK(width(g.gap) < 1e-8);
    // In the gaussian-init case some samples start inactive: the init check is refuted with a witness.
    if (pr.init_active == Status::refuted) CHECK(certainly_nonpositive(pr.init_witness_beta));
    CHECK(certainly_nonpositive(pr.init_min_beta) == (pr.init_active == Status::refuted));
}

TEST_CASE("a Gaussian initialization that misses samples refutes 'every sample active at init' with a witness",
          "[rh]") {
    InstanceSpec s;
    s.seed = 8;
    s.n = 16;
    s.d = 1000;
    s.init = "gaussian";
    s.init_scale = "1/100";
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.init_active == Status::refuted);
    CHECK(certainly_nonpositive(pr.init_witness_beta));
    // independent check of the witness: <w(0), x_i> = c <g, x_i> computed in double
    const auto X = data_rows(8, 16, 1000);
    std::vector<double> g(1000);
    nets::RandomStream(8, "w0", 0).fill_gaussian(g);
    double dot = 0;
    for (int k = 0; k < 1000; ++k) dot += X[pr.init_witness_sample * 1000 + k] * g[k];
    CHECK(dot < 0);
    // A positive sample that is never activated makes w(inf) not a global minimizer when the tail holds.
    if (pr.tail == Status::proven) CHECK(pr.global_min != Status::proven);
}

TEST_CASE("with d close to n near-orthogonality fails and the stabilization certificate does not pass", "[rh]") {
    InstanceSpec s;
    s.seed = 9;
    s.n = 32;
    s.d = 40;
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    const bool all_passed = pr.init_active == Status::proven && pr.tail == Status::proven &&
                            pr.global_min == Status::proven;
    CHECK_FALSE(all_passed);
    CHECK(lower(near_orthogonality(inst).eps) > 0.5);
}

TEST_CASE("bad instance specifications are rejected with a reason", "[rh]") {
    InstanceSpec s;
    s.n = 3;
    s.d = 10;
    s.labels = "1,2";
    CHECK_THROWS_AS(make_instance(s), std::invalid_argument);
    s.labels = "1,0,x";
    CHECK_THROWS_AS(make_instance(s), std::invalid_argument);
    s.labels = "alternating";
    s.m = 3;
    CHECK_THROWS_AS(make_instance(s), std::invalid_argument);
    s.m = 1;
    s.eta_d = "-1";
    CHECK_THROWS_AS(make_instance(s), std::invalid_argument);
}

// ---- issue 14: checks that can fail, the regime hypothesis -------------------------------------

TEST_CASE("a failed tail attempt still reports rho and the signed margin (the tail steps can fail)", "[rh]") {
    InstanceSpec s;
    s.seed = 1;
    s.n = 16;
    s.d = 2000;
    GdOptions opt;
    opt.max_steps = 2;  // before the residual is small enough for the tail ball
    const Instance inst = make_instance(s);
    const PatternResult short_run = certify_pattern_and_limit(inst, opt);
    REQUIRE(short_run.tail != Status::proven);
    REQUIRE(short_run.tail_attempted);
    REQUIRE(short_run.rho_known);
    CHECK(certainly_less(short_run.rho, IntervalD(1)));
    REQUIRE(short_run.margin_known);
    CHECK_FALSE(certainly_positive(short_run.margin));  // the tail margin step is not proven here
    const PatternResult full = certify_pattern_and_limit(inst);
    REQUIRE(full.tail == Status::proven);
    CHECK(certainly_positive(full.margin));
    CHECK(lower(full.margin) == full.tail_margin);
}

TEST_CASE("with eta lambda_max > 2 the tail contraction rho < 1 fails on its whole enclosure", "[rh]") {
    InstanceSpec s;
    s.seed = 1;
    s.n = 16;
    s.d = 2000;
    s.labels = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
    s.eta_d = "19/10";
    const Instance inst = make_instance(s);
    CHECK(certainly_less(IntervalD(2), step_size_ratio(inst)));
    const PatternResult pr = certify_pattern_and_limit(inst);
    CHECK(pr.tail != Status::proven);
    REQUIRE(pr.rho_known);
    CHECK(certainly_less(IntervalD(1), pr.rho));
}

TEST_CASE("eta lambda_max(G) encloses the value from a long-double eigen-solver on the exact Gram matrix", "[rh]") {
    InstanceSpec s;
    s.seed = 13;
    s.n = 10;
    s.d = 700;
    s.eta_d = "3/4";
    const Instance inst = make_instance(s);
    const auto Gq = exact_gram(data_rows(13, 10, 700), 10, 700);
    Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> G(10, 10);
    for (int t = 0; t < 100; ++t) G(t / 10, t % 10) = Gq[t].convert_to<long double>();
    const long double lmax =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>>(G).eigenvalues().maxCoeff();
    const IntervalD r = step_size_ratio(inst);
    const long double ref = static_cast<long double>(inst.eta) * lmax;
    CHECK(static_cast<long double>(lower(r)) <= ref * (1 + 1e-15L));
    CHECK(ref * (1 - 1e-15L) <= static_cast<long double>(upper(r)));
    CHECK(width(r) < 1e-10);
}

TEST_CASE("near-orthogonality eps encloses max |G_ij| / min G_ii of the exact Gram matrix", "[rh]") {
    InstanceSpec s;
    s.seed = 4;
    s.n = 7;
    s.d = 90;
    const Instance inst = make_instance(s);
    const auto Gq = exact_gram(data_rows(4, 7, 90), 7, 90);
    Rat off = 0, dmin = Gq[0];
    for (int i = 0; i < 7; ++i) {
        if (Gq[i * 7 + i] < dmin) dmin = Gq[i * 7 + i];
        for (int j = 0; j < 7; ++j)
            if (i != j) off = std::max(off, Rat(abs(Gq[i * 7 + j])));
    }
    CHECK(contains_rat(near_orthogonality(inst).eps, off / dmin));
}

TEST_CASE("a wrong tight set is not certified: the KKT multiplier or the feasibility step fails", "[rh]") {
    InstanceSpec s;
    s.seed = 1;
    s.n = 8;
    s.d = 200;
    const Instance inst = make_instance(s);
    const WStarResult good = certify_w_star(inst);
    REQUIRE(good.status == Status::proven);
    REQUIRE(good.has_tight);  // this instance has tight negatives ...
    const std::vector<int> none;
    const WStarResult no_tight = certify_w_star(inst, &none);  // ... so T = {} is infeasible
    CHECK(no_tight.solved);
    CHECK(no_tight.status != Status::proven);
    REQUIRE(no_tight.has_slack);
    CHECK(certainly_positive(no_tight.max_slack));  // primal feasibility fails (the witness <w*, x_j> > 0)
    std::vector<int> all;
    for (int i = 0; i < 8; ++i)
        if (inst.negative[i]) all.push_back(i);
    REQUIRE(all.size() > good.tight.size());
    const WStarResult all_tight = certify_w_star(inst, &all);  // a slack negative forced tight
    CHECK(all_tight.solved);
    CHECK(all_tight.status != Status::proven);
    REQUIRE(all_tight.has_tight);
    CHECK(certainly_positive(all_tight.max_multiplier));  // dual feasibility fails
}

TEST_CASE("the w* solve is not proven on a singular Gram matrix", "[rh]") {
    InstanceSpec s;
    s.seed = 1;
    s.n = 4;
    s.d = 50;
    Instance inst = make_instance(s);
    // rows 0 and 2 (both positive) made identical: G_AA singular
    for (int j = 0; j < 4; ++j) {
        inst.G[2 * 4 + j] = inst.G[0 * 4 + j];
        inst.G[j * 4 + 2] = inst.G[j * 4 + 0];
    }
    inst.G[2 * 4 + 2] = inst.G[0];
    const WStarResult ws = certify_w_star(inst);
    CHECK_FALSE(ws.solved);
    CHECK(ws.status != Status::proven);
}

TEST_CASE("a permuted point order gives the same pattern, limit and gap", "[rh]") {
    InstanceSpec s;
    s.seed = 5;
    s.n = 16;
    s.d = 4000;
    InstanceSpec t = s;
    t.row_order = {1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    t.labels = "-1,1,-1,1,1,-1,1,-1,1,-1,1,-1,1,-1,1,-1";
    const Instance a = make_instance(s), b = make_instance(t);
    const PatternResult pa = certify_pattern_and_limit(a), pb = certify_pattern_and_limit(b);
    REQUIRE(pa.tail == Status::proven);
    REQUIRE(pb.tail == Status::proven);
    CHECK(pa.K == pb.K);
    const GapResult ga = enclose_gap(a, pa, certify_w_star(a)), gb = enclose_gap(b, pb, certify_w_star(b));
    REQUIRE(ga.status == Status::proven);
    REQUIRE(gb.status == Status::proven);
    IntervalD both;
    CHECK(intersect(ga.gap, gb.gap, both));
    for (int i = 0; i < 16; ++i) {
        const int r = t.row_order[i];
        CHECK(intersect(pa.a_inf[0][r], pb.a_inf[0][i], both));
    }
}
