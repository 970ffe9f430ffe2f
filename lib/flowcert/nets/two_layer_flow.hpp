// flowcert/nets/two_layer_flow.hpp -- rigorous gradient flow and gradient descent of the
// two-layer (leaky) ReLU network of [BF2025, eq. (1)] with the half-square loss.
//
// Gradient flow [BF2025, eq. (2), (6)]: the Clarke-subdifferential inclusion
//     dw_j/dt = a_j D_j,   da_j/dt = <w_j, D_j>,   D_j = -c sum_k eta_kj l'_k x_k,
// eta_kj = 1 / gamma / [gamma, 1] by the sign of <w_j, x_k>. `integrate_gradient_flow` encloses
// EVERY solution of the inclusion (any selection of sigma'(0) in [gamma, 1], sliding included)
// starting in the given box. Per step [t, t + h]:
//   1. a priori enclosure: per-neuron boxes B_j (Picard with epsilon-inflation, residual
//      enclosure R fixed) iterated until R contains the residuals of all boxes (coupling);
//   2. activation classification on the step tube: frozen (ReLU, certainly inactive on every
//      sample: zero field, exact), smooth (every sign decided: polynomial field), hull (some
//      sign undecided: Clarke hull eta in [gamma, 1]);
//   3. Taylor-model step of order p for the smooth neurons, coupled through Taylor models of
//      the n residuals (validated by a Schauder/Picard inclusion), cost O(m p^2) per step;
//   4. hull neurons: per-neuron adaptive sub-steps driven by the validated residual Taylor
//      model (bisection towards the switching time, first-order hull steps only where a sign is
//      undecided).
//   5. parked neurons (park_neurons, ReLU only): a neuron sitting on the kink <w_j, x_k> = 0 of
//      one sample k, certainly inactive on every other sample, with a_j r_k > 0 (the field pushes
//      <w_j, x_k> down to 0), has the time-independent enclosure
//          w in w_A + [-z_A^+ / |x_k|^2, 0] x_k,  |a| in |a_A| - [0, Delta]
//      computed once from its box at the anchor time t_A; it needs neither Taylor model nor
//      hull sub-steps while the sign of r_k stays certain (docs/nonsmooth-flow.md, section 4c).
// The balancedness invariant a_j^2 - |w_j|^2 [BF2025, Lemma 1] is never used.
// The argument is written out in docs/nonsmooth-flow.md. Engine files: flow_engine.hpp (the step
// and its phases), flow_apriori.cpp, flow_smooth_step.cpp, flow_switching.cpp, flow_parking.cpp;
// generic parts in lib/flowcert/ode (blocks.hpp, block_apriori.hpp, time_taylor_model.hpp,
// block_step_control.hpp). Gradient descent: two_layer_gd.hpp.
//
// Only IntervalD (double bounds) is provided for the flow. Library code never prints: failures
// are values (status, reason, time reached).
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/nets/two_layer.hpp>
#include <flowcert/nets/two_layer_gd.hpp>
#include <flowcert/ode.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace flowcert::nets {

enum class FlowStatus {
    not_run,             // default: nothing proven
    completed,           // the tube reaches t_end
    invalid_input,       // unsupported model/options (reason says which)
    step_size_underflow, // no step >= h_min could be validated (reason names the failing check)
    kink_requires_hull,  // smooth-only mode: a neuron's tube straddles a switching hyperplane
    max_steps,           // step budget exhausted before t_end
    arithmetic_failure   // an arithmetic exception during a step (reason has its message)
};
std::string to_string(FlowStatus s);

// Splitting a wide flow across processes (MPI ranks, or threads in one process): the neurons are
// the blocks of an ode::BlockPartition (lib/flowcert/ode/blocks.hpp has the contract of the three
// reducers). Process r integrates only the neurons [begin, end); per step the processes exchange
// sums over neurons of n-vectors (residual enclosures, residual Taylor-model coefficients) and make
// every data-dependent decision collectively, so every process takes exactly the same steps.
using FlowPartition = ode::BlockPartition;

// Lumped activation classes (docs/nonsmooth-flow.md, "Lumped activation classes"; ReLU only, one
// process): from the first step starting at t >= `from`, every neuron whose signs are all certain
// (and which is active on some sample) is carried by the class of its pattern S: the class's second
// moment M_S (a Lohner tube of the exact moment ODE, nets/lumped_moments.hpp) and its transition
// matrix Phi_S, theta_j(t) = Phi_S(t, T0) theta_j(T0). The other neurons (frozen, parked, hull, and
// members that leave a class when the pattern screening cannot exclude a sign change on a step)
// are integrated individually and enter the moment ODE as a bounded input.
struct LumpingOptions {
    double from = std::numeric_limits<double>::infinity();  // hand-off time T0 (default: never)
    bool all_active_only = false;  // lump only the class active on every sample
    // After the hand-off an individual neuron joins the class of its pattern once it has been smooth
    // with that pattern on this many consecutive accepted steps (0: no joins after the hand-off).
    std::size_t join_after = 2;
    // At most this many joins per neuron, the hand-off included (0: no limit). A neuron that keeps
    // leaving and re-joining (one drifting towards a kink) adds the box of its theta theta^T to the
    // moment set at every join and leave; the cap stops that churn (a choice of cost, never of soundness).
    std::size_t max_joins = 0;
    // Per-step tubes of the lumped neurons (Phi_S tube times theta_j(T0), O(m) per step). false:
    // FlowStep::tube entries of lumped neurons are NOT enclosures (FlowStep::residual still is);
    // the state and snapshots are always enclosures.
    bool neuron_tubes = true;
    // Exact decimal multiplying K_S in the moment ODE: "1" is the gradient flow. Any other value is a
    // deliberately broken field, only for the mutation test of tests/nets/test_lumped_flow.cpp.
    std::string k_scale = "1";
};

struct FlowOptions {
    double t_end = 1.0;
    std::vector<double> output_times;  // snapshot times in (0, t_end]; steps land on them exactly
    int order = 8;                     // Taylor order p (1 .. 16)
    double h_initial = 0.01;
    double h_min = 1e-9;
    double h_max = 0.25;
    // Heuristic (non-rigorous) step-size target: relative size of the last Taylor term.
    double tolerance = 1e-15;
    bool allow_hull = true;            // false: smooth-only mode, refuses steps across kinks
    int threads = 1;                   // results are identical for every thread count
    bool store_tube = true;            // keep every step's tube in FlowResult::tube
    // With store_tube = false: false passes the observer FlowSteps without `tube` (m = 0; saves an
    // O(m) copy per step for observers that read only the counts and the residual).
    bool observer_tube = true;
    std::size_t max_steps = 1000000;
    // Hull neurons: bisection of the step towards the switching time, at most this many
    // sub-steps per neuron per step, down to step / 2^hull_max_depth.
    int hull_max_substeps = 200;
    int hull_max_depth = 30;
    // Hull sub-steps: a sign undecided on the sub-step box is certified constant when z_k moves
    // away from 0 (zdot_k of the sign of z_k), and a transversal crossing of one hyperplane
    // (zdot_k of certain sign towards it) is stepped through exactly: enclosed crossing time,
    // old-pattern model, new-pattern model, jump of the field times the crossing-time width
    // (issue 8, item 2(b); docs/nonsmooth-flow.md). false: bisection + Clarke-hull steps only.
    bool transversal_crossings = true;
    // ReLU (gamma = 0) only: neurons parked on the kink of one sample (see step 5 above and
    // docs/nonsmooth-flow.md, section 4c) keep the anchored time-independent box instead of
    // first-order hull sub-steps. false: every such neuron is a hull neuron.
    bool park_neurons = true;
    // Smooth neurons by the transition matrix of their pattern (docs/nonsmooth-flow.md, section 3c):
    // on a step a neuron whose signs are all certain satisfies theta_j' = K_u(r(s)) theta_j exactly,
    // so theta_j(s) = Phi_u(s) theta_j(t0); one Taylor model of Phi_u per pattern and step (validated
    // with residual models built from the pattern's moment box sum_j theta_j theta_j^T) replaces the
    // neurons' own Taylor models. false: one coupled Taylor model per smooth neuron (section 3).
    bool class_transitions = false;
    // Exact decimal multiplying those moment boxes: "1" is the flow. Any other value is a deliberately
    // broken residual, only for the mutation test of tests/nets/test_two_layer_flow.cpp ([class]).
    std::string class_moment_scale = "1";
    // TEST ONLY, UNSOUND ("teeth"): a newly parked neuron's term a [0, z^+] is not added to the
    // parked neurons' cached part of the residual enclosure (flow_parked.hpp), so the residuals miss
    // it until the next recomputation. Only for the must-fail test of tests/nets/test_flow_parking.cpp.
    bool test_only_stale_parked_sum_UNSOUND = false;
    // Multi-process split (see FlowPartition); default: this process integrates every neuron.
    FlowPartition partition;
    LumpingOptions lumping;
};

// One accepted step: for every t in [t0, t1] and every solution, theta(t) lies in `tube`.
struct FlowStep {
    double t0 = 0, t1 = 0;
    TwoLayerParams<IntervalD> tube;
    std::size_t smooth = 0, hull = 0, frozen = 0;  // neuron classification on this step
    std::size_t parked = 0;                         // parked neurons (tube = anchored box)
    std::size_t hull_substeps = 0;
    std::size_t crossings = 0;  // transversal crossings stepped through (hull neurons' sub-steps)
    std::size_t lumped = 0;     // neurons carried by lumped classes on this step
    std::vector<IntervalD> residual;  // h(x_k) - y_k for every t in [t0, t1] (the tight-tube enclosure)
};

struct FlowSnapshot {
    double t = 0;
    TwoLayerParams<IntervalD> state;  // every solution at time t
    std::vector<IntervalD> residual;  // h(x_k) - y_k at t (lumped classes by their moments)
};

struct FlowStats {
    std::size_t steps = 0, rejected_steps = 0;
    std::size_t smooth_neuron_steps = 0, hull_neuron_steps = 0, hull_substeps = 0;
    std::size_t frozen_neurons = 0;   // at the end
    std::size_t parked_neuron_steps = 0;  // (neuron, step) pairs with the neuron parked
    std::size_t parked_neurons = 0;       // parked at the end
    std::size_t transversal_crossings = 0;
    std::size_t lumped_neuron_steps = 0;   // (neuron, step) pairs carried by a lumped class
    std::size_t lumped_at_handoff = 0;     // neurons lumped at the hand-off
    std::size_t lumped_left = 0;           // members that left their class (individual since)
    std::size_t lumped_joined = 0;         // neurons that joined a class after the hand-off
    std::size_t lumped_max_cohorts = 0;    // largest number of cohorts (members grouped by joining time)
    std::size_t lumped_rereferences = 0;   // screening references (one per class at the hand-off)
    double h_smallest = 0, h_largest = 0;
    // Wall-clock seconds (diagnostics only, never used in a decision): whole run, and the
    // hull-neuron sub-step phase (the part that runs one neuron per task on the threads).
    double wall_total = 0, wall_hull_phase = 0;
    std::size_t validation_iterations = 0;  // Taylor-model remainder passes, summed over accepted steps
    std::string last_rejection;             // reason of the last rejected step attempt
};

// With a partition (options.partition.distributed()), a process's FlowResult holds valid
// enclosures ONLY for its owned neurons [owned_begin, owned_end): in `state`, `snapshots`, `tube`
// and `frozen`; the other neurons keep their initial boxes theta0 (state, snapshots, tube) and
// frozen = 0, which are NOT enclosures of the solution at later times. The neuron counts in
// `stats` (smooth/hull/parked neuron-steps, hull sub-steps, frozen, parked) and in every FlowStep are
// those of the owned neurons (`parked` flags likewise); status, t_reached, step times, steps, rejected_steps and validation_iterations are
// global (identical on every process). `gather_flow_result` makes everything global.
struct FlowResult {
    FlowStatus status = FlowStatus::not_run;
    std::string reason;                // why not completed (empty when completed)
    double t_reached = 0;              // the tube is valid on [0, t_reached]
    TwoLayerParams<IntervalD> state;   // enclosure at t_reached
    std::vector<char> frozen;          // neuron frozen (exactly constant) from some time on
    std::vector<char> parked;          // neuron parked on a kink at t_reached (state = anchored box)
    std::vector<FlowStep> tube;        // when options.store_tube
    std::vector<FlowSnapshot> snapshots;
    // h(x_k) - y_k at t_reached: from the state boxes, the lumped classes by their moments (the
    // tight enclosure when lumping; an enclosure in every mode).
    std::vector<IntervalD> residual;
    std::vector<char> lumped;          // neuron carried by a lumped class at t_reached
    struct LumpedClass {
        std::uint32_t pattern = 0;     // bit k: active on sample k
        std::size_t members_at_handoff = 0, joined = 0, members = 0;  // joined: after the hand-off
        std::vector<IntervalD> moment; // M_S at t_reached, (d+1) x (d+1) row-major
    };
    std::vector<LumpedClass> classes;  // when lumping was on
    double handoff_time = -1;          // start of the lumped phase (-1: none)
    FlowStats stats;
    std::size_t owned_begin = 0, owned_end = 0;  // the neurons this process integrated
    bool completed() const noexcept { return status == FlowStatus::completed; }
};

// Called after every accepted step, before the next one (also when store_tube is false).
using FlowObserver = std::function<void(const FlowStep&)>;

// Encloses every solution of the gradient-flow inclusion of `model` (half_square loss only)
// from any theta(0) in `theta0` on [0, options.t_end].
FlowResult integrate_gradient_flow(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& theta0,
                                   const FlowOptions& options, const FlowObserver& observer = {});

// Collective (every process calls it with its own partition, the same number of times): replaces
// the neurons outside [begin, end) of `params` by their owners' values. Exact: each entry is its
// owner's enclosure plus exact zeros from the other processes. No-op without a partition.
void gather_owned(TwoLayerParams<IntervalD>& params, const FlowPartition& partition);
// Collective: gathers state, snapshots, every stored tube step, frozen and parked flags and the neuron counts
// of stats and steps, so that every process holds the single-process form of the result (the
// per-neuron enclosures are the owners'; they equal the single-process ones up to the rounding of
// the residual sums, which are summed per process and then across processes).
void gather_flow_result(FlowResult& result, const FlowPartition& partition);

}  // namespace flowcert::nets
