// The trap of bf/theorem2_three_point encloses each residual r_k(t), t >= T, twice (docs/bf.md steps 4 and 5):
// both enclosures hold for every trajectory from the box at T, so when they do not intersect the inputs are
// inconsistent and residual_bound must stop with std::logic_error (the verifier's ERROR), never keep one of them.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf/three_point.hpp>
#include <flowcert/proofs/bf/trap_steps.hpp>

#include "../../support/figure2_fixture.hpp"

#include <array>
#include <stdexcept>

using namespace flowcert;
using namespace flowcert::proofs::bf;

TEST_CASE("the trap's step-4 and step-5 residual enclosures that do not intersect are an error, not a choice",
          "[bf][trap]") {
    const nets::AlignmentData data = nets::alignment_data(test_support::figure2_spec());
    const LeastSquares ls = least_squares(data);
    REQUIRE(ls.ok);
    const ThreePointData d = three_point_data(data, ls, 128);
    const IntervalD G(0);
    // A consistent box: no neuron (theta(T) = 0, outputs 0) with its true excess loss E(T) = L(0) - L*. Step 4 then
    // gives r_k = -y_k and step 5 r*_k +- sqrt(2 lev_k E(T)); both contain -y_k, and so does their intersection.
    const TrapBox zero = make_trap_box(d, {}, e_at_T(d, {IntervalD(0), IntervalD(0), IntervalD(0)}));
    for (std::size_t k = 0; k < 3; ++k) {
        const IntervalD r = residual_bound(zero, k, G);
        CHECK(r.lower() <= -d.y[k].upper());
        CHECK(-d.y[k].lower() <= r.upper());
    }
    // The same outputs with E(T) = 0, the excess loss of the least-squares fit: step 5 pins r_k to r*_k, step 4
    // still says -y_k; r*_k != -y_k (beta* != 0), so the two enclosures of r_k are disjoint.
    const TrapBox inconsistent = make_trap_box(d, {}, IntervalD(0));
    for (std::size_t k = 0; k < 3; ++k) {
        IntervalD both;
        REQUIRE_FALSE(intersect(residual_step4(inconsistent, k, G), residual_step5(inconsistent, k, G), both));
        CHECK_THROWS_AS(residual_bound(inconsistent, k, G), std::logic_error);
        CHECK_THROWS_AS(residual_margin(inconsistent, k, G), std::logic_error);
    }
    CHECK_THROWS_AS(gradient_bound(inconsistent, G), std::logic_error);
}
