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
// (the enclosure of L - L* itself would straddle 0 as L -> L*). Per neuron, exactly (X^T r* = 0, relu(z) - z = relu(-z)):
//     <r*, q_j> = a_j sum_k r*_k relu(z_jk) = a_j sum_k r*_k relu(-z_jk),
// which vanishes on the samples where z_jk > 0; for a kink neuron (z_jk > 0 for k != k*) it is a_j r*_k* relu(-z_jk*),
// >= 0 whenever a_j <= 0 and r*_k* < 0, so L >= L* stays proven with such neurons in q. The engine encloses the sum of
// these terms (nets::LumpedGdOptions::pairing_residual = r*, GdIterationView::pairing); the tracker takes the larger of
// the two lower bounds (both bound the same number).
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
    // the enclosure of r* (to pass as nets::LumpedGdOptions::pairing_residual)
    const std::vector<IntervalD>& rstar() const { return rstar_; }
    std::size_t pairing_decisive() const { return pairing_decisive_; }  // iterations where only the per-neuron form gave >= 0

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
    std::size_t count_ = 0, argmin_ = 0, first_negative_ = npos, pairing_decisive_ = 0;
    double min_lower_ = std::numeric_limits<double>::infinity();
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// The classification of the neurons of theta, on their whole boxes: in a closed all-active cone (z_jk >= 0 for every
// k), in a closed all-inactive cone (z_jk <= 0 for every k), or near a kink face: certainly active (z_jk > 0) on every
// sample but one, k*, and |z_jk*| <= kink_sine |w_j| |x_k*|, i.e. the direction of w_j is within the angle
// asin(kink_sine) of the hyperplane {z_k* = 0}, on its all-active side (the kink ray in d = 2). Proven when every neuron
// is in one of the three, with the counts; not_proven naming the first other one. With kink_sine = 0 (the default) the
// third category is empty: every neuron in a closed cone.
struct ConeCounts {
    ProofResult result;
    std::size_t all_active = 0, all_inactive = 0, other = 0;
    std::size_t all_active_positive = 0;  // all-active with a_j certainly > 0
    std::size_t maybe_frozen = 0;         // of these, flagged maybe frozen
    // near a kink face (and in neither closed cone): the count, max |a_j|, max |theta_j|, max |z_jk*| / |w_j| (upper
    // bounds over their boxes); of the neurons that are in neither closed cone but active on every sample but one
    std::size_t kink = 0;
    double kink_max_a = 0, kink_max_theta = 0, kink_max_ratio = 0;
    double max_theta = 0;                 // max |theta_j| over all neurons (upper bound), for comparison
};
// A neuron flagged in `maybe_frozen` (nets::LumpedGdResult) is in its box or frozen in the closed all-inactive
// cone: it is counted by its box (and in `maybe_frozen`), and is in a closed cone when its box is. `kink_sample` /
// `kink_zeta` (nets::LumpedGdResult): for a kink neuron of the engine, its z_jk* is the intersection of the box's with
// zeta (both enclose it).
ConeCounts closed_cone_membership(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta,
                                  const std::vector<char>& maybe_frozen = {}, const std::vector<int>& kink_sample = {},
                                  const std::vector<IntervalD>& kink_zeta = {}, const IntervalD& kink_sine = IntervalD(0));

}  // namespace flowcert::proofs::bf

namespace flowcert::proofs::bf {
// The setting the GD statements are about (the engine's hypotheses): ReLU (gamma = 0) and the half-square
// loss; disproven otherwise. (sigma'(0) = 0 is the definition of the step, as in PyTorch; it needs no check.)
ProofResult relu_half_square(const nets::TwoLayerSpec& spec);
}  // namespace flowcert::proofs::bf
