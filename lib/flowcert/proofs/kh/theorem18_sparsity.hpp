// flowcert/proofs/kh/theorem18_sparsity.hpp -- pieces of kh/theorem18_sparsity [KH2025, Sec. 4, Thm 18] beside
// the zero-preservation analysis of theorem18_units.hpp: the NON-RIGOROUS choice of the KKT candidate W̄ and of the
// exhibited times T1, A2, T (projected / unprojected NCF flow in double, classical RK4; nothing certified depends
// on their accuracy), and zero preservation seen on a concrete rigorous run (TubeZeroCheck). Knows no report.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/ode.hpp>

#include <Eigen/Core>

#include <string>
#include <utility>
#include <vector>

namespace flowcert::proofs::kh {

// ||x_idx||: the Euclidean norm of the entries idx of x.
IntervalD norm_of(const std::vector<IntervalD>& x, const std::vector<int>& idx);
std::vector<int> all_indices(int P);  // 0, ..., P - 1

// Direction limit of the NCF flow from u0 (projected flow until its tangential gradient is small).
// NON-RIGOROUS.
Eigen::VectorXd ncf_direction_limit_nonrigorous(const nets::Ncf<double>& ncf, Eigen::VectorXd u);

struct ExhibitedTimes {
    std::string T1, A2, T;  // exact decimals
    double cos_at_T1 = 0;
    std::string reason;
    bool ok = false;
};
// T1: first time with cos(phi(t, W0), W̄) >= 1 - gamma (unprojected NCF flow); A2 = ||phi(T1, W0)||;
// T: blow-up time of the NCF flow from phi(T1)/A2 (L > 2; from ||phi(s)||^{-(L-2)} = L(L-2) N̄ (T - s)).
// NON-RIGOROUS; the times are returned as exact decimals (6 or 4 significant digits).
ExhibitedTimes exhibited_times_nonrigorous(const nets::Ncf<double>& ncf, const Eigen::VectorXd& W0,
                                           const Eigen::VectorXd& Wbar, double Nbar, int L, double gamma);

// Zero preservation seen on a concrete run: the sets at the output times (and the final set) should be
// exactly [0, 0] on z; the per-step tube pieces are the integrator's a priori enclosures Z, which come from
// an inflated candidate Y and so carry a tiny nonzero width on z (reported, not used as proof); and on the
// face {w_z = 0} of every tube box an independent gradient evaluator (nets::square_loss, derivatives by
// the formulas of homogeneous.cpp, not the Taylor DAG) must give grad_z L = [0, 0] exactly.
struct TubeZeroCheck {
    IntervalD sup_outputs = IntervalD(0);    // enclosure of max over output sets of ||x_z|| ([max lower, max upper])
    IntervalD sup_pieces = IntervalD(0);     // same over the tube pieces
    bool outputs_exact = true;
    bool gradient_exact = true;
    std::size_t pieces = 0, outputs = 0;
    std::string first_nonzero_output;
};
TubeZeroCheck check_tube_zeros(const ode::Result<IntervalD>& res, const std::vector<int>& z, const nets::HomogeneousModel<IntervalD>& model,
                               const nets::Vec<IntervalD>& y, const nets::SquareLossNormalization& norm);

// The times (T^1, T^2) of [KH2025, Thm 18] at the scale delta from the exhibited constants T1, A2 (delta~ = A2 delta,
// A1 = 0) and T (L > 2), with kappa = Delta / (Delta + 2L^2 N̄) and b_delta: b = 1 for L = 2; for L > 2
// b^{L-2} = 1 / (L(L-2) N̄ T) (the lower end of its range in Thm 10, so the middle term of T^2 vanishes).
// Lemma 16's proof made concrete [KH2025, Lemma 16]: the restricted field `restricted` (the support only, w_z
// replaced by the constant 0; restrict_field) integrated from the support entries of `x0` to `t_end` with outputs at
// the times of `full` (the full-system sets from the same x0). Padded with exact zeros its sets enclose the full flow
// once field_vanishes_on_subspace proved f_z = 0 on {w_z = 0}; `agree`: the run completed and its sets have the
// full run's count. Two enclosures of one quantity that do not meet prove a bug: that throws std::logic_error.
struct RestrictedFlowAgreement {
    bool agree = false;
    std::string failure;            // the integrator's status and reason when it did not complete
    long steps = 0;
    double max_width_full = 0, max_width_restricted = 0;
};
RestrictedFlowAgreement restricted_flow_meets_full(const taylor::VectorField& restricted, const std::vector<IntervalD>& params,
                                                   const std::vector<int>& support, const std::vector<IntervalD>& x0,
                                                   const std::vector<ode::Snapshot<IntervalD>>& full, const IntervalD& t_end,
                                                   int order, const std::vector<std::string>& names);

std::pair<IntervalD, IntervalD> theorem18_times(int L, const IntervalD& T1, const IntervalD& A2, const IntervalD& T,
                                                const IntervalD& Delta, const IntervalD& Nbar, const IntervalD& kappa,
                                                const IntervalD& delta);

}  // namespace flowcert::proofs::kh
