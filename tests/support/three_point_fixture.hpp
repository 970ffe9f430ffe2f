// tests/support/three_point_fixture.hpp -- the three-point Assumption-3 data set of
// cases/bf/theorem2_three_point_assumption3.toml ([BF2025, Assumption 3, Theorem 2]; d = 2, no bias).
// Shared by tests/nets/test_flow_parking.cpp and tests/nets/test_alignment.cpp (include it by
// relative path: "../support/three_point_fixture.hpp").
#pragma once

#include <flowcert/nets.hpp>

namespace flowcert::test_support {

// [BF2025, Assumption 3]: x_1 = (-0.95, 1.05), x_2 = (0.05, 0.98), x_3 = (0.92, 1.03),
// y = (1.05, 0.08, 1.1); ReLU, half square loss with risk weight 1/n (the TwoLayerSpec defaults).
// Exactly: eta_min = 1/10 < 1/6 and the least-squares residual of x_2 is positive
// (tests/nets/test_alignment.cpp).
inline nets::TwoLayerSpec assumption3_spec() {
    nets::TwoLayerSpec s;
    s.x = {{"-0.95", "1.05"}, {"0.05", "0.98"}, {"0.92", "1.03"}};
    s.y = {"1.05", "0.08", "1.1"};
    return s;
}

}  // namespace flowcert::test_support
