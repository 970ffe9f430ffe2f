// flowcert/nets/square_net_flow.hpp -- the rigorous gradient flow of the square net H(x) = v^T (W x)^2 with
// per-neuron Taylor models coupled through the residuals [KH2025, eq. (2); docs/kh.md#block-flow-of-the-square-net].
//
// Loss L = c sum_i r_i^2, r_i = sum_j v_j z_ji^2 - y_i, z_ji = w_j . x_i. The flow w' = -grad L is, per neuron j,
//     w_j' = -4c v_j M(r) w_j,     v_j' = -2c w_j^T M(r) w_j,     M(r) = sum_i r_i x_i x_i^T,
// so neurons couple only through the n residuals. One step [t0, t0 + H] (order p, time s in [0, H]):
//  (a) every neuron as a time Taylor model (ode::TimeTm) from its initial box, the residuals r_i(s) as Taylor
//      models built from them; the polynomial parts by the coupled order-by-order recurrence, the remainders by
//      the Schauder inclusion in Taylor-model arithmetic (the pattern of the two-layer flow,
//      lib/flowcert/nets/flow_smooth_step.cpp): the Picard image of the set of functions within the models lies
//      in it, so the solution from every initial point of the boxes does. Cost O(m n (d + p) p) per step.
//      With remainder_mean_value the inclusion is checked on the split T(u) in x0 + int f(P) + [0, H] J(Omega) R
//      instead (the coupling through the residuals kept as matrices; docs/kh.md, "The mean-value remainder validation").
//      The small ("box") neurons are carried as boxes: their end boxes are the models at s = H.
//  (b) the large ("frame") neurons s = (w_j, v_j)_{j in F} in one joint Lohner frame s = c^ + B q: with the other
//      neurons' part of the residuals E_i(s) = sum_{j not in F} v_j z_ji^2 as an enclosed input (Taylor models of
//      (a)), s(H) = phi_e(H, c^) + V B q0 by the mean-value theorem for the flow map of the frame block with the
//      input e fixed, where phi_e(H, c^) is enclosed by the block's Taylor models from the point c^ (every e in E),
//      and V = D phi_e over the box by the Peano-Baker series of V' = J(s) V with J in the interval Jacobian Jbar
//      of the block over its Taylor models from the hull (every e in E):
//          V in sum_{l <= q} (H Jbar)^l / l! + [-tau, tau],  tau = nu^{q+1} e^nu / (q+1)!,  nu = ||H Jbar||_inf
//      (the l-fold integral over the simplex of volume H^l/l! of products in Jbar^l); with jacobian_pieces = N, V is
//      the product V_N ... V_1 of such enclosures on N sub-intervals of the step, each with the Jacobian over the
//      state's range on its piece only (chain rule; V's width, which enters the frame's growth through V B q0,
//      drops about N-fold). Jacobian blocks (z_j = X^T w_j):
//          dF_wj/dw_l = -4c v_j ([j=l] M + 2 v_l X diag(z_j z_l) X^T),   dF_wj/dv_l = -4c ([j=l] M w_j + v_j X (z_j z_l^2)),
//          dF_vj/dw_l = -4c ([j=l] M w_j + v_l X (z_j^2 z_l)),          dF_vj/dv_l = -2c sum_i z_ji^2 z_li^2.
//      New frame from QR of mid(V B) with a rigorous Q^{-1} (linalg::orthogonal_basis). Why a frame: near a saddle
//      the active block's flow map is I - (rank-one-like PSD) and a box of it grows by |I - P| (docs/kh.md, the GD
//      engine square_net_gd.hpp); a box neuron whose midpoint norm exceeds `promote_norm` joins the frame.
// Steps by ode::drive_steps. The conserved quantity C_j = |w_j|^2 - 2 v_j^2 of the flow is checked (its hull at
// every step end must meet C_j(0)), never used to tighten.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/linalg.hpp>
#include <flowcert/ode.hpp>

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace flowcert::nets {

struct SquareNetFlowOptions {
    int order = 10;                      // Taylor order in time (<= ode::kTmMaxOrder)
    double promote_norm = 0.05;          // box -> frame when sqrt(|w_j|^2 + v_j^2) (midpoint) exceeds this
    std::vector<int> frame_from_start;   // neurons in the frame from t = 0
    int jacobian_pieces = 1;             // frame: the step's flow Jacobian as a product over this many sub-intervals
    double remainder_tolerance = 1e-13;  // step-size heuristic: target width of a step's remainders
    double remainder_relative = 0;       // ... or this times the widest parameter enclosure, if larger
    ode::StepControlOptions steps{.h_initial = 0.05, .h_min = 1e-7, .h_max = 4.0, .max_steps = 200000};
    bool record_tubes = true;
    // The NCF u' = grad N(u), N(u) = sum_i ytilde_i H(x_i; u) [KH2025, eq. (5)] instead of the loss flow: the
    // residuals are frozen at r_i = -y_i (pass y = ytilde and c = 1/2: w_j' = 2 v_j sum_i ytilde_i z_ji x_i,
    // v_j' = sum_i ytilde_i z_ji^2); the neurons then do not couple.
    bool frozen_residual = false;
    // Called after every accepted step (progress only): t1, steps and rejected attempts so far, frame size, the largest
    // width among the frame neurons and among the box neurons, the largest midpoint norm of a box neuron.
    std::function<void(double, long, long, int, double, double, double)> on_step;
    std::function<void(double, double, const std::string&)> on_reject;  // (t0, t1, reason) of a failed attempt
    // The remainder validation of step (a) and of the frame's models (docs/kh.md, "The mean-value remainder
    // validation"): false = the Schauder inclusion in Taylor-model arithmetic (every remainder pushed through every
    // product; the residuals' remainders summed in absolute value, contraction only if H ||J||_abs < 1); true = the
    // Picard operator split at the polynomial part, T(u) in x0 + int f(P) + [0, H] * (J(Omega) R), with f(P) in TM
    // arithmetic once and J(Omega) R evaluated with the shared matrices M(r), X diag(z_j z_l) X^T formed before they
    // meet the remainder box (the cancellation over the n residuals kept; contraction if H ||J(Omega)||_inf < 1).
    bool remainder_mean_value = false;
    // TEST ONLY, UNSOUND ("teeth"): the mean-value bound drops the term 2 v_l z_li x_i^T e_wl of the residual
    // variation delta r_i (the weights' part of the coupling through the residuals).
    bool test_only_drop_dr_weight_term_UNSOUND = false;
    // TEST ONLY, UNSOUND ("teeth"): the frame block ignores the other neurons' part of the residuals.
    bool test_only_drop_box_input_UNSOUND = false;
    // TEST ONLY, UNSOUND ("teeth"): the frame's flow Jacobian leaves out the last of its jacobian_pieces.
    bool test_only_drop_last_piece_UNSOUND = false;
};

// What the run did beyond ode::Result.
struct SquareNetFlowStats {
    long validation_passes = 0;
    int frame_neurons = 0;              // at the end
    bool conserved_consistent = true;   // C_j over every step-end hull met C_j(0) (a check of the enclosures)
    std::string conserved_failure;      // the first neuron and time where it did not
    double max_width_end = 0;           // largest parameter width at the end
};

// The flow from the box x0 (layout of nets::HomogeneousArchitecture::feed_forward with one hidden layer: W row-major
// m x d, then v; m = x0.size() / (d + 1)) on the inputs X (d x n, exact doubles, column i = x_i), targets y, loss
// scale c. Outputs at `output_times` (increasing, in (0, t_end]; an interval time [a, b] gives the hull of the sets
// over [a, b]), tube pieces per step (with record_tubes), the final set at t_end (the hull over t_end if an
// interval). Failure is a value (status, reason, time reached).
ode::Result<IntervalD> integrate_square_net_flow(const Eigen::MatrixXd& X, const linalg::IVectorD& y, const IntervalD& c,
                                                 const std::vector<IntervalD>& x0, const IntervalD& t_end,
                                                 const std::vector<IntervalD>& output_times,
                                                 const SquareNetFlowOptions& options = {},
                                                 SquareNetFlowStats* stats = nullptr);

// The linear part of the mean-value remainder validation (SquareNetFlowOptions::remainder_mean_value), exposed for
// tests: an enclosure of J(xi) e for every state xi in the box `state` and every e in the box `e` (k neurons, block
// layout: neuron j at j * (d + 1), w_j then v_j), J the Jacobian of the block's field with the residuals
// r_i = ext_i + sum_j v_j z_ji^2 - y_i (ext_i in `ext`, n entries, or empty for 0; frozen: r_i = -y_i and no
// coupling). Neurons with big[j] get the pairwise matrices X diag(z_j z_l) X^T (both big) and M(r) as matrices; the
// others' part of delta r is summed in absolute value.
std::vector<IntervalD> square_net_jacobian_product_bound(const Eigen::MatrixXd& X, const linalg::IVectorD& y,
                                                         const IntervalD& c, const std::vector<IntervalD>& state,
                                                         const std::vector<IntervalD>& e,
                                                         const std::vector<IntervalD>& ext, const std::vector<char>& big,
                                                         bool frozen = false, bool drop_dr_weight_term_UNSOUND = false);

// One explicit RK4 step of the same flow in double (NON-RIGOROUS; the baseline of bench_square_net_flow and the
// reference shape of the tests): w (m x d rows), v updated in place.
void square_net_flow_rk4_step_double(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double c, double h,
                                     Eigen::MatrixXd& W, Eigen::VectorXd& v);

}  // namespace flowcert::nets
