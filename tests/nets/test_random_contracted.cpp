// Witness for the FMA-contraction guard of lib/flowcert/nets/random.cpp: this executable compiles
// random.cpp itself with contraction forced on (-ffp-contract=fast -mfma, tests/nets/CMakeLists.txt) and
// checks that the stored reference digest of test_random then FAILS, i.e. that the reference test would
// catch a build of the library that contracts a*b+c into fused multiply-adds.
#include <catch2/catch.hpp>

#include "random_reference.hpp"

TEST_CASE("random.cpp compiled with FMA contraction forced on changes the stored Gaussian digest", "[random]") {
    if (!__builtin_cpu_supports("fma")) {
        WARN("this CPU has no FMA: the contracted build cannot run here, nothing is shown");
        return;
    }
    const auto d = flowcert_test::gaussian_digest();
    CHECK(d.samples == flowcert_test::kGaussianDigestSamples);
    CHECK(d.fnv != flowcert_test::kGaussianDigestReference);
}
