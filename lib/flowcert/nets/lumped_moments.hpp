// flowcert/nets/lumped_moments.hpp -- exact lumping of the activation classes of a two-layer ReLU
// network under gradient flow (docs/nonsmooth-flow.md, "Lumped activation classes").
//
// Every neuron whose activation pattern is S on a time interval (S = the samples it is active on;
// ReLU, every sign certain) satisfies theta_j' = K_S(r(t)) theta_j with theta = (w, a) and
//     K_S(r) = [[0, D_S], [D_S^T, 0]],   D_S(r) = -c sum_{k in S} r_k x_k        [BF2025, eq. (6)],
// so theta_j(t) = Phi_S(t, t0) theta_j(t0), Phi_S' = K_S Phi_S. The outputs depend on the class
// only through its second moment M_S = sum_{j in S} theta_j theta_j^T:
//     M_S' = K_S M_S + M_S K_S^T,   r_k = sum_{S contains k} <x_k, m_S> - y_k + p_k(t),
// m_S = (M_S)_{w, a} the a-w block, p_k the outputs of the neurons not lumped. An exact,
// width-independent quadratic ODE ((d+1)(d+2)/2 unknowns per class). Lemma 1 for the classes:
// sum_S ((M_S)_{aa} - tr (M_S)_{ww}) is constant [BF2025, Lemma 1] (a check, never used).
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/nets/two_layer.hpp>
#include <flowcert/taylor.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets {

// A pattern: bit k set iff the class is active on sample k.
using ActivationPattern = std::uint32_t;

// The unique entries (a <= b) of a symmetric (d+1) x (d+1) moment, row by row; a = d is the
// output weight. moment_size(d) = (d+1)(d+2)/2.
std::size_t moment_size(std::size_t d);
std::size_t moment_index(std::size_t a, std::size_t b, std::size_t d);

// The moment ODE of the classes `patterns` as a vector field: variables M^q_{ab} (class q, moment
// entry moment_index(a, b)), then the inputs u_k = p_k - y_k (k < n, right-hand side 0);
// parameters x_{k,i} (row-major) then c. `k_scale` (an exact decimal or rational) multiplies every
// K_S: "1" is the gradient flow; any other value is a deliberately broken field (mutation tests).
taylor::VectorField moment_field(const std::vector<ActivationPattern>& patterns, std::size_t d, std::size_t n,
                                 const std::string& k_scale = "1");
// The parameter values of moment_field for a model (x_{k,i}, then the risk weight c).
std::vector<IntervalD> moment_field_params(const TwoLayerModel<IntervalD>& model);

// theta theta^T as unique entries (outward; the diagonal by sqr).
std::vector<IntervalD> outer_moment(const IntervalD* theta, std::size_t d);

}  // namespace flowcert::nets
