// flowcert/proofs/bf/plain_runs.hpp -- NON-RIGOROUS plain-double comparison runs of the two-layer ReLU
// network [BF2025, eqs. (1), (6)] for the reports of bf/theorem2_three_point and bf/figure2_gd (issue 20, M3:
// "the classification counts reported beside a plain double run of the same seed"). They enclose nothing and
// decide no check: a table shows their counts next to the certified ones (docs/bf.md, "Plain-double runs").
//
// Both start from the midpoints of the initialization boxes, use ReLU with sigma'(0) = 0 and the risk
// L = c sum_k (h(x_k) - y_k)^2 / 2 with c = model.risk_weight(). A neuron with <w_j, x_k> <= 0 on every sample
// has zero field (and zero GD step) in floating point too, so it never moves again: such neurons are dropped
// from the loops (exactly the same run, cheaper).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <cstddef>
#include <vector>

namespace flowcert::proofs::bf {

struct PlainRun {
    std::size_t m = 0, d = 0;
    std::vector<double> a, w;      // the final state, w row-major (m x d)
    std::vector<double> residual;  // h(x_k) - y_k at the end
    double loss = 0;               // c sum_k r_k^2 / 2 at the end
    std::size_t steps = 0;         // RK4 steps or GD iterations
    std::size_t dropped = 0;       // neurons dropped from the loops as frozen (at the start or during the run)
    double seconds = 0;            // CPU time of the run (diagnostics)
};

// The gradient flow on [0, T]: classical RK4 with a step <= h (T / ceil(T / h)), patterns at every stage.
PlainRun plain_flow_nonrigorous(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta0,
                                double T, double h);
// `iterations` GD steps of size `step`: w_j += step a_j D_j, a_j += step <w_j, D_j>, D_j = -c sum_k r_k 1[z_jk > 0] x_k.
PlainRun plain_gd_nonrigorous(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta0,
                              double step, std::size_t iterations);

// The classes of docs/bf.md step 1 by the exact signs of a plain state on three-point data (x_2 the middle point):
// frozen (z_1, z_3 <= 0), P (a > 0, active on all three), N_k (a < 0, active on x_k only, k = 1, 3),
// S_i (a < 0, active on x_2 and x_i'; i = the extreme sample with the smaller z when active on all three),
// and the rest (a > 0 not all-active; a < 0 active on x_2 only; a = 0).
struct PlainTrapCounts {
    std::size_t frozen = 0, P = 0, N1 = 0, N3 = 0, S1 = 0, S3 = 0, other = 0;
};
PlainTrapCounts plain_trap_counts(const nets::TwoLayerModel<IntervalD>& model, const PlainRun& run);

// The cones of the Figure-2 statement: closed all-active (z_jk >= 0 for all k; with a > 0 counted apart),
// else closed all-inactive (z_jk <= 0 for all k), else neither: the order of proofs::bf::closed_cone_membership.
struct PlainConeCounts {
    std::size_t all_active = 0, all_active_positive = 0, all_inactive = 0, neither = 0;
};
PlainConeCounts plain_cone_counts(const nets::TwoLayerModel<IntervalD>& model, const PlainRun& run);

}  // namespace flowcert::proofs::bf
