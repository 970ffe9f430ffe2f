// Tests of the gap and of the hypothesis quantities (lib/flowcert/proofs/rh/gap.hpp, regime.hpp): the gap
// against 500-bit explicit vectors, eps and eta lambda_max against exact / long-double references, negative
// instances.
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

TEST_CASE("the certified gap encloses ||w(inf) - w*|| computed in 500 bits from explicit vectors", "[rh]") {
    InstanceSpec s = spec_of(4, 6, 300);
    s.init = "gaussian";  // also exercises the non-span part u of the initialization
    s.init_scale = "1/100";
    s.labels = "1,-1,1/2,-1/2,2,-3/2";
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.tail.is_proven());
    const WStarResult ws = certify_w_star(inst);
    REQUIRE(ws.kkt.is_proven());
    const GapResult g = enclose_gap(inst, pr, ws);
    REQUIRE(g.status.is_proven());
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
}

TEST_CASE("a Gaussian initialization that misses samples: the init hypothesis fails and w(inf) is no global minimizer",
          "[rh]") {
    InstanceSpec s = spec_of(8, 16, 1000);
    s.init = "gaussian";
    s.init_scale = "1/100";
    const Instance inst = make_instance(s);
    const IntervalD init = initial_activity(inst);
    REQUIRE(certainly_negative(init));
    // independent check: min_i <w(0), x_i> = c min_i <g, x_i>, computed in double, is negative and inside
    const auto X = data_rows(8, 16, 1000);
    std::vector<double> g(1000);
    nets::RandomStream(8, "w0", 0).fill_gaussian(g);
    double mn = INFINITY;
    for (int i = 0; i < 16; ++i) {
        double dot = 0;
        for (int k = 0; k < 1000; ++k) dot += X[i * 1000 + k] * g[k];
        mn = std::min(mn, dot / 100);
    }
    CHECK(mn < 0);
    CHECK(std::fabs(mn - mid(init)) < 1e-12);
    // A positive sample that is never activated makes w(inf) not a global minimizer (a witness).
    const PatternResult pr = certify_pattern_and_limit(inst);
    REQUIRE(pr.tail.is_proven());
    CHECK(global_minimality(inst, pr).status == ProofStatus::disproven);
}

TEST_CASE("with d close to n near-orthogonality fails and the stabilization certificate does not pass", "[rh]") {
    InstanceSpec s = spec_of(9, 32, 40);
    const Instance inst = make_instance(s);
    const PatternResult pr = certify_pattern_and_limit(inst);
    const bool all_passed = certainly_positive(initial_activity(inst)) && global_minimality(inst, pr).is_proven();
    CHECK_FALSE(all_passed);
    CHECK(lower(near_orthogonality(inst)) > 0.5);
}

TEST_CASE("eta lambda_max(G) encloses the value from a long-double eigen-solver on the exact Gram matrix", "[rh]") {
    InstanceSpec s = spec_of(13, 10, 700);
    s.eta_d = "3/4";
    const Instance inst = make_instance(s);
    const auto Gq = exact_gram(data_rows(13, 10, 700), 10, 700);
    Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> G(10, 10);
    for (int t = 0; t < 100; ++t) G(t / 10, t % 10) = Gq[t].convert_to<long double>();
    const long double lmax =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>>(G).eigenvalues().maxCoeff();
    const IntervalD r = step_size_ratio(inst);
    const long double ref = static_cast<long double>(mid(inst.eta)) * lmax;
    CHECK(static_cast<long double>(lower(r)) <= ref * (1 + 1e-15L));
    CHECK(ref * (1 - 1e-15L) <= static_cast<long double>(upper(r)));
    CHECK(width(r) < 1e-10);
}

TEST_CASE("near-orthogonality eps encloses max |G_ij| / min G_ii of the exact Gram matrix", "[rh]") {
    InstanceSpec s = spec_of(4, 7, 90);
    const Instance inst = make_instance(s);
    const auto Gq = exact_gram(data_rows(4, 7, 90), 7, 90);
    Rat off = 0, dmin = Gq[0];
    for (int i = 0; i < 7; ++i) {
        if (Gq[i * 7 + i] < dmin) dmin = Gq[i * 7 + i];
        for (int j = 0; j < 7; ++j)
            if (i != j) off = std::max(off, Rat(abs(Gq[i * 7 + j])));
    }
    CHECK(contains_rat(near_orthogonality(inst), off / dmin));
}

