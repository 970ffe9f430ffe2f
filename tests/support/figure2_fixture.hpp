// tests/support/figure2_fixture.hpp -- the three-point data set of [BF2025, Figure 2, App. B.1] and the balanced
// small initializations the two-layer flow tests run on it. Shared by tests/nets/test_two_layer_flow.cpp,
// test_two_layer.cpp, test_alignment.cpp, test_flow_parking.cpp (balanced_init) and tests/cli/mpi_partition_test.cpp
// (include it by relative path: "../support/figure2_fixture.hpp"), and by bench/nets/two_layer_flow_bench.cpp and
// bench/mpi/flow_mpi_bench.cpp (their targets have tests/ on the include path: "support/figure2_fixture.hpp").
#pragma once

#include <flowcert/nets.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace flowcert::test_support {

// [BF2025, App. B.1]: x = (-0.75, -0.5, 0.125), y = (1.1, 0.1, 0.8); the inputs become (x, 1) (bias), ReLU,
// half square loss with risk weight 1/n (the TwoLayerSpec defaults).
inline nets::TwoLayerSpec figure2_spec() {
    nets::TwoLayerSpec s;
    s.x = {{"-0.75"}, {"-0.5"}, {"0.125"}};
    s.y = {"1.1", "0.1", "0.8"};
    s.bias = true;
    return s;
}

// An eight-point XOR-like data set in R^2, labels alternating by quadrant pairs (TwoLayerSpec defaults
// otherwise); used by tests/nets/test_alignment.cpp and tests/proofs/bf/test_bf_data_constants.cpp.
inline nets::TwoLayerSpec xor8_spec() {
    nets::TwoLayerSpec s;
    s.x = {{"2", "1"}, {"1", "2"}, {"-1", "2.1"}, {"-2.2", "1"}, {"-2", "-1.3"}, {"-1.2", "-2"}, {"1.1", "-2"}, {"2", "-0.9"}};
    s.y = {"-1", "-1", "1", "1", "-1", "-1", "1", "1"};
    return s;
}

// Balanced Gaussian initialization of m neurons [BF2025, eq. (3)]: (a, w) = (lambda / sqrt m)(a~, w~) with
// |a~_j| = |w~_j|, from the random streams of `seed`.
inline nets::InitSpec balanced_init(std::size_t m, std::uint64_t seed, std::string lambda) {
    nets::InitSpec is;
    is.kind = nets::InitKind::balanced_gaussian;
    is.m = m;
    is.seed = seed;
    is.lambda = std::move(lambda);
    return is;
}

}  // namespace flowcert::test_support
