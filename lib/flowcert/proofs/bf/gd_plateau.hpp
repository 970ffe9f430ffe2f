// flowcert/proofs/bf/gd_plateau.hpp -- the finite-horizon statements of [BF2025, Figure 2] for one rigorous
// gradient-descent run (nets::lumped_gd; docs/bf.md, "bf/figure2_gd"): the loss at every iteration bounded
// below by the least-squares loss L* (the spurious plateau), and every neuron at the last iteration in a
// closed all-active or all-inactive cone.
//
// The plateau bound. With r* = X beta* - y the least-squares residual (X^T r* = 0) and L = (c/2) |h - y|^2,
//     L - L* = c <r*, h> + (c/2) |h - X beta*|^2         for every output vector h,
// and when h = X m_P + q (the lumped class contributes a linear function of x), <r*, h> = <r*, q>, so
//     L - L* >= c <r*, q> + (c/2) |r - r*|^2             (r = h - y the residuals).
// Once every neuron outside the class is frozen, q = 0 exactly and L >= L* holds on the whole enclosure
// (the enclosure of L - L* itself would straddle 0 as L -> L*).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf/theorem2_data.hpp>

#include <cstddef>
#include <limits>
#include <vector>

namespace flowcert::proofs::bf {

// Observer of a GD run (pass `[&](const nets::GdIterationView& v) { tracker.add(v); }`): at every iteration
// a lower bound of L(theta_t) - L* as above, and the loss enclosure at the iterations of `record`.
class GdPlateauTracker {
public:
    GdPlateauTracker(const LeastSquares& ls, const IntervalD& risk_weight, std::vector<std::size_t> record = {});
    void add(const nets::GdIterationView& v);

    std::size_t iterations() const { return count_; }
    double min_lower() const { return min_lower_; }        // min over t of the lower bound of L - L*
    std::size_t argmin() const { return argmin_; }
    std::size_t first_negative() const { return first_negative_; }  // npos if none
    // proven: L(theta_t) >= L* for every observed t (the lower bound of L - L* is >= 0 at each)
    ProofResult loss_above_plateau() const;
    struct Point {
        std::size_t t;
        IntervalD loss, excess_lower;  // L(theta_t) and the lower bound of L - L*
    };
    const std::vector<Point>& recorded() const { return points_; }

private:
    std::vector<IntervalD> rstar_;
    IntervalD c_;
    std::vector<std::size_t> record_;
    std::vector<Point> points_;
    std::size_t count_ = 0, argmin_ = 0, first_negative_ = npos;
    double min_lower_ = std::numeric_limits<double>::infinity();
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// Every neuron of theta in a closed all-active cone (z_jk >= 0 for every k) or a closed all-inactive cone
// (z_jk <= 0 for every k), on its whole box: proven with the counts, not_proven naming the first other one.
struct ConeCounts {
    ProofResult result;
    std::size_t all_active = 0, all_inactive = 0, other = 0;
    std::size_t all_active_positive = 0;  // all-active with a_j certainly > 0
    std::size_t maybe_frozen = 0;         // of these, flagged maybe frozen
};
// A neuron flagged in `maybe_frozen` (nets::LumpedGdResult) is in its box or frozen in the closed all-inactive
// cone: it is counted by its box (and in `maybe_frozen`), and is in a closed cone when its box is.
ConeCounts closed_cone_membership(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta,
                                  const std::vector<char>& maybe_frozen = {});

}  // namespace flowcert::proofs::bf

namespace flowcert::proofs::bf {
// The setting the GD statements are about (the engine's hypotheses): ReLU (gamma = 0) and the half-square
// loss; disproven otherwise. (sigma'(0) = 0 is the definition of the step, as in PyTorch; it needs no check.)
ProofResult relu_half_square(const nets::TwoLayerSpec& spec);
}  // namespace flowcert::proofs::bf
