// Tests of the KKT certificate of w* (lib/flowcert/proofs/rh/w_star.hpp): against brute-force enumeration of
// every face, and wrong guesses / a singular face that must not be certified.
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

TEST_CASE("the KKT-certified w* is the minimum-norm feasible point found by enumerating all faces", "[rh]") {
    for (std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
        InstanceSpec s;
        s.seed = seed;
        s.n = 8;
        s.d = 200;
        const Instance inst = make_instance(s);
        const WStarResult ws = certify_w_star(inst);
        REQUIRE(ws.kkt.is_proven());
        // Independent (double, non-rigorous) enumeration of T subset of N: on each face the min-norm point
        // solves G_AA alpha_A = (y_P; 0_T); w* is the feasible one of least norm.
        const int n = 8;
        Eigen::MatrixXd Gm(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) Gm(i, j) = mid(inst.G(i, j));
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

TEST_CASE("a wrong tight set is not certified: the KKT multiplier or the feasibility step fails", "[rh]") {
    InstanceSpec s = spec_of(1, 8, 200);
    const Instance inst = make_instance(s);
    const WStarResult good = certify_w_star(inst);
    REQUIRE(good.kkt.is_proven());
    REQUIRE(good.has_tight);  // this instance has tight negatives ...
    const std::vector<int> none;
    const WStarResult no_tight = certify_w_star(inst, &none);  // ... so T = {} is infeasible
    CHECK(no_tight.solve.is_proven());
    CHECK_FALSE(no_tight.kkt.is_proven());
    REQUIRE(no_tight.has_slack);
    CHECK(certainly_positive(no_tight.max_slack));  // primal feasibility fails (the witness <w*, x_j> > 0)
    std::vector<int> all;
    for (int i = 0; i < 8; ++i)
        if (inst.negative[i]) all.push_back(i);
    REQUIRE(all.size() > good.tight.size());
    const WStarResult all_tight = certify_w_star(inst, &all);  // a slack negative forced tight
    CHECK(all_tight.solve.is_proven());
    CHECK_FALSE(all_tight.kkt.is_proven());
    REQUIRE(all_tight.has_tight);
    CHECK(certainly_positive(all_tight.max_multiplier));  // dual feasibility fails
}

TEST_CASE("the w* solve is not proven on a singular Gram matrix", "[rh]") {
    InstanceSpec s = spec_of(1, 4, 50);
    Instance inst = make_instance(s);
    // rows 0 and 2 (both positive) made identical: G_AA singular
    for (int j = 0; j < 4; ++j) {
        inst.G(2, j) = inst.G(0, j);
        inst.G(j, 2) = inst.G(j, 0);
    }
    inst.G(2, 2) = inst.G(0, 0);
    const WStarResult ws = certify_w_star(inst);
    CHECK_FALSE(ws.solve.is_proven());
    CHECK_FALSE(ws.kkt.is_proven());
}

