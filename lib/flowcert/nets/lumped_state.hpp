// flowcert/nets/lumped_state.hpp (internal to the two-layer flow engine) -- the state of the lumped
// activation classes (docs/nonsmooth-flow.md, "Lumped activation classes"): per class its pattern,
// its members theta_j(t) = Phi_S(t) psi_j, its transition matrix Phi_S, the screening reference, and
// for all classes together the Lohner set of the moments M_S.
#pragma once

#if !defined(FLOWCERT_NETS_FLOW_INTERNAL)
#error "internal header of the two-layer flow engine"
#endif

#include <flowcert/nets/lumped_moments.hpp>
#include <flowcert/ode.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "two_layer_field.hpp"

namespace flowcert::nets::flow {

struct LumpedClass {
    ActivationPattern pattern = 0;
    std::uint64_t key = 0;               // the engine's pattern key (codes 0 / 1 per sample)
    std::vector<std::size_t> members;    // local neuron indices
    std::vector<I> psi;                  // S per member: theta_j(t) = Phi(t) psi_j
    std::vector<double> nu;              // per member: >= |psi_j|_2
    std::vector<I> Phi;                  // S x S row-major: Phi(t0) (committed)
    // screening (docs: a neuron is safe on a step while rho_j > delta, delta from the class tube)
    std::vector<I> Phi_ref;              // Phi at the screening reference time
    double ref_time = -1;
    std::vector<double> rho;             // per member: <= min_k |z_jk(t_ref)| / nu_j
    std::vector<std::size_t> by_margin;  // member positions sorted by rho (ascending)
    // the current step attempt
    std::vector<I> Phi_step_box;         // a priori box of Phi(s, t0), s in [0, H]
    std::vector<I> Phi_tube;             // Phi(s) for s in the step (a priori tube, then validated)
    std::vector<I> Phi_end;              // Phi(t1)
    std::size_t at_handoff = 0;          // members when the class was formed
};

struct LumpState {
    bool formed = false;
    double t_formed = 0;
    std::vector<LumpedClass> classes;
    taylor::VectorField field{std::vector<std::string>{}};  // moment_field of the classes
    std::vector<IntervalD> params;                          // its parameters
    ode::LohnerSet set;                                     // the moments at t0 (committed)
    std::optional<ode::LohnerSet> next;                     // at t1 (the current attempt)
    std::vector<I> M_t0;                                    // box of `set`
    std::vector<I> W, NW;                                   // a priori box of the moments and its image
    std::vector<TimeTm> r_models;                           // per sample: the classes' part of r_k(s)
    double last_term = 0;                                   // relative last Taylor term of the moments
    std::size_t left = 0;                                   // neurons that left a class (individual since)
    std::size_t rereferences = 0;
};

}  // namespace flowcert::nets::flow
