// flowcert/nets/homogeneous_flow.hpp -- the gradient flows of Kumar-Haupt [KH2025] as Taylor-mode
// vector fields (taylor::VectorField), ready for the rigorous integrator flowcert::ode::integrate:
//
//   loss flow   w' = -grad L(w) = -2c sum_i (H(x_i; w) - y_i) grad_w H(x_i; w)   [KH2025, eq. (2)]
//   NCF flow    u' =  grad N(u) =      sum_i ytilde_i        grad_u H(x_i; u)   [KH2025, eq. (5)]
//
// with L(w) = c sum_i (H(x_i; w) - y_i)^2 and c from SquareLossNormalization (homogeneous.hpp).
// The gradients are written out symbolically per model family (derivations next to each builder in
// homogeneous_flow.cpp), so the field is a polynomial DAG and the integrator's Taylor recurrences are
// exact up to outward rounding.
//
// The data enter as parameters, never as rounded constants: the parameter vector is
//   x(k,i) for k = 0..d-1, i = 0..n-1 (sample-major: index i*d + k), then y_i (or ytilde_i), i = 0..n-1;
// `homogeneous_flow_parameters` / `ncf_flow_parameters` build it from enclosures of the data.
//
// Supported: weighted_squares (Example 1), diagonal (any depth), feed_forward with one hidden layer
// and s(z) = z^2, z, or max(z,0)^p with p >= 2 (the integrator refuses steps whose set straddles the
// kink of max(z,0)). ReLU (not C^1) and deeper feed-forward nets throw std::invalid_argument.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/nets/homogeneous.hpp>
#include <flowcert/taylor.hpp>

#include <vector>

namespace flowcert::nets {

// w' = -grad L(w) for n samples (variables named after HomogeneousArchitecture::parameter_name).
taylor::VectorField homogeneous_loss_flow_field(const HomogeneousArchitecture& arch, int n,
                                                const SquareLossNormalization& norm);
// w' = -grad L(w) for the logistic loss sum_i ln(1 + exp(-y_i H(x_i; w))), weighted squares and diagonal nets
// (same variables and parameters as homogeneous_loss_flow_field).
taylor::VectorField logistic_loss_flow_field(const HomogeneousArchitecture& arch, int n);
// u' = grad N(u) = J(X; u)^T ytilde for n samples.
taylor::VectorField ncf_flow_field(const HomogeneousArchitecture& arch, int n);
// The direction flow of the NCF (docs/kh.md, "The NCF cap entry without blow-up"): theta' = grad N(theta) -
// (theta . grad N(theta)) theta. It differs from the NCF by a radial term only, so its directions are the NCF's
// directions under a time change, and |theta| = 1 is invariant (d|theta|^2/ds = 2 L N (1 - |theta|^2)): no blow-up.
// Same variables and parameters as ncf_flow_field.
taylor::VectorField ncf_direction_flow_field(const HomogeneousArchitecture& arch, int n);

// The parameter vector of either field: X (d x n, column i = x_i) then the n labels / NCF weights.
template <Interval I>
std::vector<I> homogeneous_flow_parameters(const Mat<I>& X, const Vec<I>& y);
template <Interval I>
std::vector<I> ncf_flow_parameters(const Mat<I>& X, const Vec<I>& ytilde) {
    return homogeneous_flow_parameters<I>(X, ytilde);
}

extern template std::vector<IntervalD> homogeneous_flow_parameters<IntervalD>(const Mat<IntervalD>&,
                                                                              const Vec<IntervalD>&);
extern template std::vector<IntervalMp> homogeneous_flow_parameters<IntervalMp>(const Mat<IntervalMp>&,
                                                                                const Vec<IntervalMp>&);

}  // namespace flowcert::nets
