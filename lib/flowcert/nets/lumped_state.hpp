// flowcert/nets/lumped_state.hpp (internal to the two-layer flow engine) -- the state of the lumped
// activation classes (docs/nonsmooth-flow.md, "Lumped activation classes"). A class is an activation
// pattern S with its second moment M_S (all classes' moments together form one Lohner set) and its
// step transition matrix Phi_S(s, t0); its members are grouped in cohorts by the time they joined,
// each cohort with its own transition matrix Phi_c(t) = Phi_S(t, t_join), so that a member's state
// is theta_j(t) = Phi_c(t) psi_j with psi_j = theta_j(t_join) (no matrix inverse is ever needed).
#pragma once

#if !defined(FLOWCERT_NETS_FLOW_INTERNAL)
#error "internal header of the two-layer flow engine"
#endif

#include <flowcert/nets/lumped_moments.hpp>
#include <flowcert/ode.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "two_layer_field.hpp"

namespace flowcert::nets::flow {

struct LumpedPattern {
    ActivationPattern pattern = 0;
    std::uint64_t key = 0;                // the engine's pattern key (codes 0 / 1 per sample)
    std::size_t at_handoff = 0;           // members that joined at the hand-off
    std::size_t joined = 0;               // members that joined later
    // the current step attempt
    std::vector<I> Phi_step_box;          // a priori box of Phi_S(s, t0), s in [0, H]
    std::vector<I> step_end, step_tube;   // validated Phi_S(t1, t0) and Phi_S(s, t0) over the step
};

struct LumpedCohort {
    std::size_t pattern = 0;             // index into LumpState::patterns
    double t_join = 0;
    std::vector<std::size_t> members;    // local neuron indices
    std::vector<I> psi;                  // S per member: theta_j(t_join)
    std::vector<double> nu;              // per member: >= |psi_j|_2
    std::vector<I> Phi;                  // S x S row-major: Phi_c(t0) (committed)
    // screening: a member is safe on a step while rho_j > delta (lump_screen_delta)
    std::vector<I> Phi_ref;              // Phi_c at the screening reference time
    double ref_time = -1;
    std::vector<double> rho;             // per member: <= min_k |z_jk(t_ref)| / nu_j
    std::vector<std::size_t> by_margin;  // member positions sorted by rho (ascending)
    // the current step attempt
    std::vector<I> Phi_tube;             // Phi_c(s), s in the step (a priori, then validated)
    std::vector<I> Phi_end;              // Phi_c(t1)
};

struct LumpState {
    bool formed = false;
    double t_formed = 0;
    std::vector<LumpedPattern> patterns;
    std::vector<LumpedCohort> cohorts;
    taylor::VectorField field{std::vector<std::string>{}};  // moment_field of the patterns
    std::vector<IntervalD> params;                          // its parameters
    std::optional<taylor::TaylorEvaluator<IntervalD>> ev;   // of field and params, kept across steps
    ode::LohnerSet set;                                     // the moments at t0 (committed)
    std::optional<ode::LohnerSet> next;                     // at t1 (the current attempt)
    std::vector<I> M_t0;                                    // box of `set`
    std::vector<I> W, NW;                                   // a priori box of the moments and its image
    std::vector<TimeTm> r_models;                           // per sample: the classes' part of r_k(s)
    double last_term = 0;                                   // relative last Taylor term of the moments
    std::size_t left = 0;                                   // members that left a class
    std::size_t joined = 0;                                 // members that joined after the hand-off
    std::size_t rereferences = 0;
    std::size_t max_cohorts = 0;
};

}  // namespace flowcert::nets::flow
