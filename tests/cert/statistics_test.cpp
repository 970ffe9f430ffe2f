// The statistical (non-rigorous) helpers of lib/flowcert/cert/statistics.hpp against closed forms and a table
// (moved from tests/proofs/rh/test_rh_orthogonal_model.cpp with the helper, which was verifiers/rh/sweep_stats.hpp).
#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <tuple>

using flowcert::cert::binomial_cdf_nonrigorous;
using flowcert::cert::clopper_pearson_nonrigorous;

TEST_CASE("Clopper-Pearson interval (statistical helper of the sweeps) against closed forms", "[statistics]") {
    auto [lo, hi] = clopper_pearson_nonrigorous(4, 4);
    CHECK(std::abs(lo - std::pow(0.025, 0.25)) < 1e-9);  // k = N: lower = (alpha/2)^(1/N)
    CHECK(hi == 1.0);
    std::tie(lo, hi) = clopper_pearson_nonrigorous(0, 10);
    CHECK(lo == 0.0);
    CHECK(std::abs(hi - (1 - std::pow(0.025, 0.1))) < 1e-9);  // k = 0: upper = 1 - (alpha/2)^(1/N)
    std::tie(lo, hi) = clopper_pearson_nonrigorous(5, 10);  // tabulated: [0.187086, 0.812914]
    CHECK(std::abs(lo - 0.187086) < 1e-5);
    CHECK(std::abs(hi - 0.812914) < 1e-5);
}

TEST_CASE("binomial distribution function (statistical helper) against closed forms", "[statistics]") {
    CHECK(binomial_cdf_nonrigorous(-1, 5, 0.3) == 0.0);
    CHECK(binomial_cdf_nonrigorous(5, 5, 0.3) == 1.0);
    CHECK(std::abs(binomial_cdf_nonrigorous(0, 5, 0.3) - std::pow(0.7, 5)) < 1e-12);      // P(X = 0) = (1-p)^N
    CHECK(std::abs(binomial_cdf_nonrigorous(4, 5, 0.3) - (1 - std::pow(0.3, 5))) < 1e-12);  // 1 - P(X = N)
}
