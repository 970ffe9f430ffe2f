// flowcert/proofs/bf/alignment_phase.hpp -- the quantities of [BF2025, Theorem 1] measured on a certified
// tube of the early-alignment phase: the state at the interval time tau = eps ln(1/lambda) / D_max, and the
// alignment gaps |D| - <D, w_j^tau / a_j^tau> of the neurons whose activation pattern at tau is certain.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <cstddef>
#include <vector>

namespace flowcert::proofs::bf {

// theta(tau) for some tau in [t_lo, t_hi] from the state at t_hi: theta(tau) = theta(t_hi) - int_tau^{t_hi} theta'
// lies in theta(t_hi) - [0, t_hi - t_lo] F, F the Clarke-hull field over `boxes` (a box containing theta(t) for
// every t in [t_lo, t_hi], e.g. the hull of the tube boxes of the steps meeting it; convex, so the mean of
// theta' lies in F too).
nets::TwoLayerParams<IntervalD> state_before(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& at_t_hi,
                                             const nets::TwoLayerParams<IntervalD>& boxes, double t_lo, double t_hi);

// The alignment gaps at tau [BF2025, Thm 1 (ii)] of the positive, not frozen neurons whose pattern u at tau is
// certain (Condition 1 is replaced by that): D = D_u = D(w_j^tau, 0) and gap = |D| - <D, w_j^tau / a_j^tau>.
struct AlignmentGaps {
    std::size_t counted = 0;
    IntervalD max_gap;  // max over counted neurons
    IntervalD min_D;    // min |D| over counted neurons (the slowest rate eps |D| / D_max)
};
AlignmentGaps alignment_gaps(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& at_tau,
                             const nets::TwoLayerParams<IntervalD>& init, const std::vector<char>& frozen);

}  // namespace flowcert::proofs::bf
