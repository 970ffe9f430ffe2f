// flowcert/nets/lumped_gd.hpp -- rigorous gradient descent of a two-layer ReLU network (no leak,
// half-square loss) with the all-active activation class lumped into its second moment
// (docs/bf.md, "bf/figure2_gd").
//
// The GD step is the one PyTorch runs: sigma'(0) = 0, so a neuron j whose pattern at iteration t
// is S (the samples with z_jk = <w_j, x_k> > 0) moves by exactly
//     theta_j <- (I + h K_S(r_t)) theta_j,   K_S(r) = [[0, D_S], [D_S^T, 0]],   D_S = -c sum_{k in S} r_k x_k
// [BF2025, eq. (6)] (theta = (w, a)); no truncation error and no sliding. A neuron with z_jk <= 0 on every
// sample never moves again (frozen). Where the sign of z_jk is undecided on a box the step takes
// sigma'(z_jk) in [0, 1] (a superset).
//
// From the hand-off iteration on, the neurons certainly active on every sample (class P) are carried by
// M_P = sum_{j in P} theta_j theta_j^T, which moves by the exact polynomial map
//     M_P <- (I + h K_P(r)) M_P (I + h K_P(r))^T,   r_k = <x_k, m_P> + q_k - y_k
// (m_P the a-w block of M_P, q_k the outputs of the other neurons), kept as a Lohner set
// c + B rho (mean-value form, B from a QR factorization each step) so that the contraction of the
// fitting phase is seen. The class's transition matrix Phi = prod (I + h K_P(r_t)) gives every
// member back, theta_j(t) = Phi(t, t_ref) theta_j(t_ref); members are screened each step (a
// scale-invariant bound on how far Phi^T x_k turned from x_k) and one whose sign may change is
// checked, and leaves the class (stepped individually) when its pattern is not certainly P. An individual
// neuron undecided on one sample and certainly inactive on all others is split: either it is active there (and
// moves by the exact map of that pattern) or it froze for good in the closed all-inactive cone (outputs 0).
// An individual neuron certainly active on every sample but one (k) and undecided on k is a kink neuron: it is
// kept in adapted coordinates (zeta = <w, x_k>, y = the part of w orthogonal to x_k, a), split at zeta = 0 each
// step, each part moved by its pattern's exact map, the images hulled (no sigma' in [0, 1] hull, no wrapping by
// the hyperbolic map of pattern S minus k); it stays there while every other sign is certainly positive, whatever
// its sign on k, and leaves when another sign becomes undecided (docs/bf.md, "Kink neurons").
// Everything is IntervalD; no estimate enters an enclosure.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/nets/two_layer.hpp>
#include <flowcert/nets/two_layer_gd.hpp>  // GdStatus

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace flowcert::nets {


// Where a neuron is when the run ends.
enum class GdNeuronRole { lumped, frozen, individual };

struct LumpedGdOptions {
    std::size_t iterations = 0;          // N: the states theta_0, ..., theta_N
    std::size_t handoff = 0;             // iteration at which class P is lumped; > N: never (all per neuron)
    std::vector<std::size_t> snapshots;  // iterations (<= N) whose full state is returned
    std::size_t screen_budget = 64;      // members checked one by one per step before a re-reference
    // Multiplies K_P in the lumped moment map only: "1" is gradient descent; any other value is a
    // deliberately broken map (mutation tests).
    std::string k_scale = "1";
    // If not empty (n entries): an enclosure of a vector rho; every iteration the engine then encloses
    // P(rho) = sum_j a_j sum_k rho_k relu(-z_jk) over the neurons not lumped (GdIterationView::pairing). When
    // X^T rho = 0 (rho the least-squares residual r*), P(rho) = <rho, q> exactly, since sum_k rho_k z_jk = 0 and
    // relu(z) - z = relu(-z) (proofs/bf/gd_plateau.hpp).
    std::vector<IntervalD> pairing_residual;
    bool kink_neurons = true;  // the kink representation (false: such neurons are stepped with sigma' in [0, 1])
    // Mutation tests only: "" is the GD map; "kink_branch_A_without_kick" drops the c r_k x_k term of branch A
    // in the kink step (a deliberately wrong map).
    std::string kink_mutation;
};

// What the observer sees at every iteration t = 0, ..., N (before the step from t): the residual
// enclosures r_k = h(x_k) - y_k and the outputs q_k of the neurons not in the lumped class, so that
// h(x_k) = <x_k, m_P> + q_k exactly (q = h before the hand-off).
struct GdIterationView {
    std::size_t t = 0;
    const std::vector<IntervalD>& residual;
    const std::vector<IntervalD>& unlumped_output;
    bool lumped = false;
    IntervalD pairing = IntervalD::entire();  // P(rho) of LumpedGdOptions::pairing_residual (entire if none given)
};
using GdObserver = std::function<void(const GdIterationView&)>;

struct LumpedGdSnapshot {
    std::size_t t = 0;
    TwoLayerParams<IntervalD> theta;  // as LumpedGdResult::theta (the alive branch of a maybe-frozen neuron)
    std::vector<char> maybe_frozen;
    std::vector<IntervalD> residual;
    std::vector<int> kink_sample;     // as LumpedGdResult::kink_sample
    std::vector<IntervalD> kink_zeta;
};

struct LumpedGdStats {
    std::size_t members_at_handoff = 0;     // class P at the hand-off
    std::size_t individual_at_handoff = 0;  // neither in P nor frozen at the hand-off
    std::size_t frozen_at_handoff = 0;
    std::size_t left = 0;                   // members that left P
    std::size_t rereferences = 0;
    std::size_t screened_checks = 0;        // member checks one by one
    std::size_t neuron_steps = 0;           // per-neuron steps (phase before the hand-off and individuals)
    std::size_t undecided_steps = 0;        // per-neuron steps that used sigma' in [0, 1]
    std::size_t lumped_steps = 0;
    std::size_t kink_entries = 0;           // neurons entering the kink representation (counted each time)
    std::size_t kink_exits = 0;             // and leaving it (another sign undecided, or frozen)
    std::size_t kink_steps = 0;             // kink steps (two-branch, adapted coordinates)
    std::size_t kink_max = 0;               // most kink neurons at one iteration
    double max_rho_width = 0;               // largest radius of the Lohner coordinates seen
};

struct LumpedGdResult {
    GdStatus status = GdStatus::not_run;
    std::string reason;
    std::size_t iterations_done = 0;
    // theta_N, every neuron's box; for a neuron with maybe_frozen set, the true theta_N is in its box or the
    // neuron froze earlier in the closed all-inactive cone (a dead-or-alive split: the box follows the alive branch)
    TwoLayerParams<IntervalD> theta;
    std::vector<char> maybe_frozen;
    std::vector<IntervalD> residual;   // r(theta_N) (from the moment when lumped)
    std::vector<GdNeuronRole> role;    // per neuron at N
    // per neuron at N: the sample k of a kink neuron (certainly active on every other sample), -1 otherwise, and
    // then the enclosure of zeta = <w_j, x_k> (tighter than <box of w_j, x_k>)
    std::vector<int> kink_sample;
    std::vector<IntervalD> kink_zeta;
    std::vector<IntervalD> moment;     // box of M_P(theta_N) (moment_index order; empty if never lumped)
    std::vector<LumpedGdSnapshot> snapshots;
    LumpedGdStats stats;
};

// Runs N iterations of GD with step `step` (an enclosure of h > 0; the loss c sum_k (h - y)^2 / 2 of
// the model). Needs gamma = 0, the half-square loss and d <= 4 (the lumped map's Jacobian is forward
// mode over at most 15 moment entries); invalid_input otherwise.
LumpedGdResult lumped_gd(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& theta0,
                         const IntervalD& step, const LumpedGdOptions& options, const GdObserver& observe = {});

}  // namespace flowcert::nets
