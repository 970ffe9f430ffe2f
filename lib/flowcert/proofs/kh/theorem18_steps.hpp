// flowcert/proofs/kh/theorem18_steps.hpp -- the proof steps of kh/theorem18_sparsity on one instance [KH2025, Sec. 4:
// Definition 15, Lemma 16, Theorem 18], beside the non-rigorous choices and the tube zero check of
// theorem18_sparsity.hpp: the exponents kappa, L kappa; zero preservation of w_z on the Taylor DAGs of the loss and
// NCF flows; the stable set S(W̄) through a Lemma 23 cap; the invariance tubes from delta W̄ and from delta W0 masked
// on w_z; one point of the delta sweep (the Theorem 18 quantities at T^1, T^2 and on the window) and the bounds
// b1 delta^kappa, b2 delta^(L kappa), C~ delta^kappa it is compared with. IntervalD (53 bits) throughout, as the
// verifier. Knows no report (docs/kh.md, "Verifier kh/theorem18_sparsity").
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/proofs/kh/lemma23_cap.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/stable_set.hpp>
#include <flowcert/proofs/kh/theorem18_sparsity.hpp>
#include <flowcert/taylor.hpp>
#include <flowcert/taylor.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flowcert::proofs::kh {

// The two flows of an instance: w' = -grad L(w) [KH2025, eq. (2)] and u' = grad N(u) (5), with their parameters
// (the data X, y; the NCF's ytilde).
// The loss flow of a one-hidden-layer square net v^T (W x)^2 by the block integrator nets::integrate_square_net_flow
// (per-neuron Taylor models coupled through the residuals) instead of the dense C^1 Taylor/Lohner integrator on the
// DAG: the same flow w' = -grad L(w), at sizes where the dense one is too slow (docs/kh.md, kh/theorem18_sparsity).
struct Theorem18BlockFlow {
    Eigen::MatrixXd X;     // d x n, exact doubles
    linalg::IVectorD y;    // targets
    IntervalD c;           // loss scale: L = c sum_i r_i^2
    linalg::IVectorD ytilde;  // the NCF weights (its flow by the same integrator with frozen residuals)
    nets::SquareNetFlowOptions options;
};

struct Theorem18Flows {
    taylor::VectorField loss, ncf;
    std::vector<IntervalD> loss_params, ncf_params;
    std::optional<Theorem18BlockFlow> blocks;  // set: the loss flow by the block integrator (above)
    // The NCF's direction flow (nets::ncf_direction_flow_field, parameters ncf_params): the dense cap entry.
    taylor::VectorField ncf_direction;
};
Theorem18Flows theorem18_flows(const nets::HomogeneousArchitecture& arch, const nets::SquareLossNormalization& norm,
                               const nets::Mat<IntervalD>& X, const nets::Vec<IntervalD>& y,
                               const nets::Vec<IntervalD>& ytilde);

// kappa = Delta / (Delta + 2 L^2 N̄) (the post-escape exponent, Thm 4/10) and the pre-escape ratio exponent
// L kappa (2 kappa for L = 2) [KH2025, Thm 18, eqs. (11)-(14)].
struct Theorem18Exponents {
    IntervalD kappa, kappa_ratio;
};
Theorem18Exponents theorem18_exponents(int L, const IntervalD& Delta, const IntervalD& Nbar);

// The hull of the Lemma 17 residuals ||W_l[j,:]||^2 - p ||W_{l+1}[:,j]||^2 at the box u [KH2025, Lemma 17].
IntervalD lemma17_residual_hull(const nets::HomogeneousArchitecture& arch, const linalg::IVectorD& u);

// Zero preservation of w_z [KH2025, Def. 15, Lemma 16]: whether w_z is a union of Lemma 16 units (and which), and the
// structural proofs (taylor::field_vanishes_on_subspace) that the w_z components of both fields vanish on
// {w_z = 0} (parameters given as exactly [0, 0] count as 0).
struct ZeroPreservation {
    bool is_union = false;
    std::vector<int> units_used;
    taylor::VanishingResult loss, ncf;
};
ZeroPreservation theorem18_zero_preservation(const nets::HomogeneousArchitecture& arch, const Theorem18Flows& flows,
                                             const std::vector<int>& z);

// 1/(L(L-2) N̄): the least admissible T of Thm 10 (L > 2), and b_delta^{L-2} = 1/(L(L-2) N̄ T) [KH2025, Thm 10;
// Lemma 25].
IntervalD theorem18_least_blowup_time(int L, const IntervalD& Nbar);
IntervalD theorem18_b_delta_power(int L, const IntervalD& Nbar, const IntervalD& T);

// W0 in S(W̄) [KH2025, Def. 2, Thm 18; Lemmas 23-25]: the Lemma 23 cap {W̄^T w >= 1 - gamma} certified on `pieces`
// pieces (from the tangent spectrum `ts` at W̄ and N̄), and the renormalized NCF tube from W0 (Taylor order `order`,
// chunks of 1/2 for L = 2, of 1/(4 L(L-2) N̄) for L > 2) entering it within `horizon` (default 20/Delta_max).
struct Theorem18StableSet {
    CapCertificate<IntervalD> cap;
    CapEntry<IntervalD> entry;
};
Theorem18StableSet theorem18_stable_set(const nets::Ncf<IntervalD>& ncf, const Theorem18Flows& flows,
                                        const std::vector<IntervalD>& W0, const linalg::IVectorD& Wbar,
                                        const IntervalD& Nbar, const TangentSpectrum<IntervalD>& ts, const IntervalD& Delta,
                                        const IntervalD& gamma, int pieces, std::optional<double> horizon, int L, int order);

// x0_j = delta w_j off w_z and exactly 0 on w_z (z sorted): the starts of the invariance tubes.
std::vector<IntervalD> masked_start(const std::vector<IntervalD>& w, const IntervalD& delta, const std::vector<int>& z);
// delta w (the start of the sweep's flows).
std::vector<IntervalD> scaled_start(const std::vector<IntervalD>& w, const IntervalD& delta);
// The escape time of p(t) from delta W̄: ln(1/delta)/(2 N̄) (L = 2), delta^{-(L-2)}/(L(L-2) N̄) (L > 2) [Thm 4/10].
IntervalD escape_time_from_kkt(int L, const IntervalD& delta, const IntervalD& Nbar);

// An invariance tube: the loss flow from x0 to t_end (32 equally spaced output sets) with the tube zero check of
// theorem18_sparsity.hpp on w_z. `completed` false: `failure` is the integrator's status and reason.
struct ZeroTube {
    bool completed = false;
    std::string failure;
    TubeZeroCheck check{.gradient_exact = false};
    IntervalD time;                                 // the time reached
    std::vector<ode::Snapshot<IntervalD>> outputs;  // the output sets (for the restricted-flow comparison)
    double seconds = 0;                             // wall time of the integration
};
ZeroTube theorem18_zero_tube(const Theorem18Flows& flows, const std::vector<IntervalD>& x0, const IntervalD& t_end,
                             const std::vector<int>& z, const nets::HomogeneousModel<IntervalD>& model,
                             const nets::Vec<IntervalD>& y, const nets::SquareLossNormalization& norm, int order);

// One delta of the sweep: the loss flow from delta W0 to T^2 + T~ with outputs at T^1 (when certainly positive),
// T^2 - T~ and T^2, and from it ||psi(T^1)||, ||psi_z(T^1)|| / ||psi(T^1)||, sup over the tube pieces meeting
// [T^2 - T~, T^2 + T~] of ||psi_z||, and L, ||grad L|| at T^2 + T~ (nets::square_loss). With `keep_states` also the
// sets at T^1, T^2, T^2 + T~ and the neuron norms ||(W_1[j,:], v[j])|| on every ~1/60 of the tube pieces (one
// hidden layer of `hidden` neurons on inputs of dimension d).
struct Theorem18Point {
    bool ok = false;
    long steps = 0;
    double seconds = 0;
    std::string status, reason;  // when !ok
    IntervalD time;              // the time reached (when !ok)
    bool t1_ok = false;          // T^1 certainly positive: psi(T^1) is read at T^1
    IntervalD n1, ratio, sup_z, loss_end, grad_end;
    std::vector<IntervalD> x1, x2, x_end;
    std::vector<std::pair<double, std::vector<IntervalD>>> neuron_norms;  // (upper end of the piece's time, norms)
};
Theorem18Point theorem18_sweep_point(const Theorem18Flows& flows, const std::vector<IntervalD>& x0,
                                     const std::pair<IntervalD, IntervalD>& times, const IntervalD& Ttilde,
                                     const std::vector<int>& z, const nets::HomogeneousModel<IntervalD>& model,
                                     const nets::Vec<IntervalD>& y, const nets::SquareLossNormalization& norm, int order,
                                     bool keep_states, const nets::HomogeneousArchitecture& arch);

// The right-hand sides of eqs. (13)-(14) at delta (b1, b2, C~ the case's constants) and the quotients by delta^kappa,
// delta^(L kappa) (the smallest constants admissible at this delta).
struct Theorem18Bounds {
    IntervalD b1_bound, b2_bound, ct_bound;  // b1 delta^kappa, b2 delta^(L kappa), C~ delta^kappa
    IntervalD q_norm, q_ratio, q_sup;        // ||psi(T^1)|| / delta^kappa, ratio / delta^(L kappa), sup / delta^kappa
};
Theorem18Bounds theorem18_bounds(const Theorem18Point& p, const IntervalD& delta, const Theorem18Exponents& e,
                                 const IntervalD& b1, const IntervalD& b2, const IntervalD& c_tilde);

}  // namespace flowcert::proofs::kh
