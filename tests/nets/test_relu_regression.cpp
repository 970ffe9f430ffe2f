// Tests of the reconstructed ReLU-regression model (lib/flowcert/nets/relu_regression.hpp): the Gram
// enclosure against exact GMP rationals, instances regenerated from their streams, determinism, bad specs.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include <flowcert/nets.hpp>

#include "../proofs/rh/rh_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets::rh;
using namespace rh_fixture;

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
            INFO("entry " << i << "," << j << " " << to_string(G(i, j)));
            CHECK(contains_rat(G(i, j), Gq[i * n + j]));
            if (i != 4 && j != 4) CHECK(is_bounded(G(i, j)));
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
    for (int t = 0; t < 36; ++t) CHECK(contains_rat(inst.G(t / 6, t % 6), Gq[t]));
    CHECK(inst.gram_max_rel_radius < 1e-10);
    CHECK(inst.n_minus == 3);
}

TEST_CASE("instances and certificates are bit-identical whatever thread builds them", "[rh]") {
    InstanceSpec s = spec_of(9, 12, 3000);
    s.labels = "teacher";
    const Instance a = make_instance(s);
    Instance b;
    std::thread t([&] { b = make_instance(s); });
    t.join();
    for (Eigen::Index k = 0; k < a.G.size(); ++k) {
        REQUIRE(lower(a.G(k)) == lower(b.G(k)));
        REQUIRE(upper(a.G(k)) == upper(b.G(k)));
    }
    for (int i = 0; i < 12; ++i) REQUIRE(lower(a.y[i]) == lower(b.y[i]));
    // teacher labels have both signs for this seed
    CHECK(a.n_minus > 0);
    CHECK(a.n_minus < 12);
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

