// flowcert/proofs/kh/square_net_trap.hpp -- the plateau at the first saddle p* of v^T (W x)^2, without a long tube:
// two ingredients of a trapping certificate [KH2025, Cor. 11 context; issue 16 item 3].
//
//  * restricted_hessian_positive: the one-neuron loss L1(w, v) = c sum_i (v (w^T x_i)^2 - y_i)^2 is constant
//    along the scaling orbit (a w, v / a^2), so its Hessian at p* is singular; on the tangent space of the
//    balanced slice {|w|^2 - 2 v^2 = C} (normal n = (2w, -4v), transversal to the orbit tangent (w, -2v)) it is
//    certified positive definite: with P = I - n n^T / |n|^2 and gamma > 0, the matrix
//        B* = P H* P + gamma n n^T / |n|^2
//    has eig(B*) = {gamma} U eig(Q^T H* Q) (Q an orthonormal basis of n^perp), and B* lies in the interval
//    matrix B evaluated over the p* box, so lambda_min(B) > 0 proves Q^T H* Q > 0: p* is a strict local
//    minimum of L1 on the slice (the quadratic Lyapunov function of the active block).
//    Hessian: d2/dw2 = 4c v X diag(r + 2 v z^2) X^T, d2/dwdv = 4c X (r z + v z^3), d2/dv2 = 2c sum z^4.
//  * small_neuron_escape_bound: for a neuron with rho^2 = |w|^2 + 2 v^2 and M = M(r) with ||M||_2 <= kappa
//    over a region R (the active neuron in a box U, every small neuron j with rho_j <= rho_max_j; kappa =
//    max |eig M(r_active over U)| + max_i |x_i|^2 lambda_max(X X^T) sum_j rho_max_j^3 / 3), one GD step
//    (a = 4ch = 2b) gives
//        rho'^2 = rho^2 - 8 b v q + a^2 v^2 |M w|^2 + 2 b^2 q^2,   q = w^T M w,
//        |v| |w|^2 <= (2 / (3 sqrt 6)) rho^3 <= rho^3 / 3,  v^2 |w|^2 <= rho^4 / 8,  |w|^2 <= rho^2,
//        so rho'^2 <= rho^2 (1 + (8/3) b kappa rho + (5/2) b^2 kappa^2 rho^2) <= (rho + beta rho^2)^2,
//    with beta = (8/5) b kappa (8/5 >= sqrt(5/2), 8/5 >= 4/3). The comparison sequence y' = y + beta y^2
//    gives 1/rho_k >= 1/rho_0 - beta k: rho_k <= rho_max for k <= (1/rho_0 - 1/rho_max) / beta steps, as long
//    as the iterates stay in R. R is a hypothesis here: that the active neuron stays in U is NOT proven by
//    this bound (the Lyapunov step above is its local ingredient, not a proof of it).
#pragma once

#include <flowcert/proofs/kh/square_net_saddle.hpp>

#include <limits>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

struct RestrictedHessian {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    IntervalD lambda_min;  // enclosure of lambda_min(Q^T H Q) when proven (and gamma is not the smallest)
    IMatrixD hessian;      // H over the p* box (size d + 1)
};
RestrictedHessian restricted_hessian_positive(const SquareNetData& data, const OneNeuronSaddle& p);

struct EscapeBound {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    IntervalD kappa;        // enclosure of max |eig M(r)| over the region (upper end used)
    double kappa_active = 0;  // upper bound of max |eig M(r_a)| over U (the active neuron's residuals alone)
    double beta = 0;        // upper bound on (8/5) b kappa
    IntervalD loss_lower;   // its lower end is a lower bound of L over the region (0 when none is proven)
    std::vector<long> steps;  // per small neuron: certified steps before rho_j can exceed rho_max_j (in R)
    long min_steps = 0;
};
// Region: the active neuron in `active_box` (size d + 1), small neuron j with rho_j <= rho_max[j]; rho0[j] the
// upper bound on rho_j at the start; b = 2 c h. kappa_active_upper: a bound the caller has proven on ||M(r_a)||_2 over
// the active part of the region (active_matrix_norm_bound); the smaller of it and the eigenvalues of the interval
// matrix M(r_a over U) is used.
EscapeBound small_neuron_escape_bound(const SquareNetData& data, const IVectorD& active_box,
                                      const std::vector<double>& rho0, const std::vector<double>& rho_max,
                                      const IntervalD& b,
                                      double kappa_active_upper = std::numeric_limits<double>::infinity());

// An upper bound of ||M(r_a(xi))||_2 over the active neurons xi in the box U with |xi - p*| <= R (centred form):
// ||M(r_a(xi))|| <= max |eig M(r*)| + ||M(r_a(xi) - r*)|| and ||X diag(delta) X^T||_2 <= |delta|_inf lambda_max(X X^T),
// |r_i(xi) - r_i(p*)| <= R sup_U |grad r_i|, |grad r_i|^2 = 4 v^2 z_i^2 |x_i|^2 + z_i^4 (the segment lies in the ball,
// the ball in U). +inf when eig M(r*) is not enclosed.
double active_matrix_norm_bound(const SquareNetData& data, const OneNeuronSaddle& p, const IVectorD& U, double R);

// The plateau trap [docs/kh.md#plateau-trap]: from a certified hand-off iterate theta_0 (hulls of all neurons, one
// active neuron near the one-neuron saddle p* with balance C* = |w*|^2 - 2 v*^2), the GD iterates stay for K more
// steps in the region R = {|a - p*| <= R_b, rho_j <= rho_max_j for every other neuron j} (a the active neuron,
// rho_j^2 = |w_j|^2 + 2 v_j^2, rho_max_j = growth * rho_j(theta_0)), with L_k in `loss_band`. The induction over
// k uses, over R (active part in the box U = p* box + [-R_b, R_b]):
//  (a) escape: rho_j,k <= rho_j,0 / (1 - beta rho_j,0 k) <= rho_max_j for k <= K (small_neuron_escape_bound);
//  (b) descent: L(theta_{k+1}) <= L(theta_k) when h Lambda <= 2, Lambda >= ||Hess L|| over R (convex), with
//      Hess L = 2c (J^T J + sum_i r_i Hess H_i), ||J^T J|| <= ||J||_F^2 and the per-neuron blocks of the second
//      term [[2 v_j M, 2 M w_j], [., 0]] of norm <= 2 kappa (|v_j| + |w_j|);
//  (c) balance: C(a) = |w|^2 - 2 v^2 changes per step by a^2 v^2 |M w|^2 - 2 b^2 (w^T M w)^2 (a = 2b), so
//      |C(a_k) - C*| <= Delta_C = sup |C(a_0) - C*| + K max(a^2 V^2 |M w|^2, 2 b^2 (w^T M w)^2) with
//      M w = M(r_a) w + M(dr) w, 4c v M(r_a) w = grad_w L1, 2c w^T M(r_a) w = dL1/dv (|grad L1| <= Lambda_1 R_b, (f))
//      and ||M(dr)|| <= max_i |x_i|^2 lambda_X sum_j (2/(3 sqrt 6)) rho_max_j^3; or, telescoped with (b), since
//      |C_{k+1} - C_k| <= 2 h^2 |grad L|^2 <= 2 h (L_k - L_{k+1}) / (1 - h Lambda / 2): the total drift is at most
//      2 h (L(theta_0) - inf_R L) / (1 - h Lambda / 2) (the smaller of the two is used);
//  (d) level: L = L1(a) + 2c sum_j v_j w_j^T M(r_a) w_j + c |dr|^2, so L1(a_k) <= l = L(theta_0) + 2c kappa_a
//      sum_j (2/(3 sqrt 6)) rho_max_j^3 (|v| |w|^2 <= (2/(3 sqrt 6)) rho^3);
//  (e) shell: for R_s <= |Delta| <= R_b (Delta = a - p*) with |C - C*| <= Delta_C, L1(p* + Delta) > l. By Taylor at
//      the critical point p* (H* n* = 0 for the slice normal n* = (2w*, -4v*), the orbit tangent doubled):
//      L1 - L1* >= f(r) = lambda/2 (r^2 - alpha^2) - T3 r^3 / 6, r = |Delta|, alpha = min(r, (Delta_C + 2 r^2)/|n*|)
//      (n*.Delta = C - C* - (|Dw|^2 - 2 Dv^2)), lambda the restricted-Hessian bound and T3 >= |D^3 L1[u,u,u]|
//      over U, |u| = 1: D^3 L1[u^3] = c sum_i (6 r_i' r_i'' + 2 r_i r_i'''), bounded by
//      T3 = c (6 sqrt(||J_a^T J_a||) sqrt(lambda_X max(8 V^2 x2, 32 Z^2)) + 4.62 R_a lambda_X);
//  (f) step: for a_k in the inner ball, |a_{k+1} - a_k| = h |grad_a L| <= sigma = h (Lambda_1 R_s + 2c ||J_a|| |dr|_2),
//      with grad L1(p*) = 0, Lambda_1 = 2c (||J_a^T J_a|| + 2 kappa_a (V + sqrt W2)) >= ||Hess L1|| over U and
//      |dr|_2 <= lambda_X sum_j (2/(3 sqrt 6)) rho_max_j^3; R_s = (R_b - h e) / (1 + h Lambda_1) > 0 (R_s + sigma = R_b).
//  kappa_a (||M(r_a)||_2 over the ball) is the smaller of max |r_a,i| lambda_X, the eigenvalues of the interval M(r_a(U))
//  and the centred form of active_matrix_norm_bound; T3 the smaller of the bound above and the expanded one of
//  square_net_trap.cpp (third_derivative_bound). With beta, K from rho_max_j = growth rho_j, every rho_max_j is then
//  lowered to 1 / (1/rho_j - beta K), the radius its comparison sequence reaches in K steps (the bound proven again
//  on that smaller region).
// Then a_k in R (by (e) with (c), (d)) lies in the inner ball, a_{k+1} in the outer one (f), theta_{k+1} in R (a),
// L does not increase (b): the plateau lasts at least K steps past theta_0, L_k in
// [L1*_lo + min_{r <= R_s} f(r) - pert, L(theta_0)_hi].
struct PlateauTrapInput {
    int active = 0;       // index of the active neuron
    IMatrixD W;           // hulls of the hand-off iterate (m x d)
    IVectorD v;           // (m)
    IntervalD loss;       // enclosure of L at the hand-off iterate
    IntervalD h;          // GD step
    double radius = 0;    // R_b; <= 0: 2 lambda / T3 (the maximum of lambda r^2 / 2 - T3 r^3 / 6)
    double growth = 2;    // rho_max_j <= growth * rho_j(theta_0) (the largest other neuron gets it)
};
struct PlateauTrap {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    ProofResult handoff, descent, shell, step_inside, escape;  // the premises (a)-(f) and the hand-off in R
    long steps = 0;            // K
    IntervalD loss_band;       // L_k for the K steps past the hand-off
    double kappa = 0, kappa_active = 0, lambda = 0, T3 = 0, Lambda = 0, sigma = 0, balance_band = 0;
    double outer_radius = 0, inner_radius = 0, handoff_distance = 0, level_gap = 0, shell_min = 0, perturbation = 0;
};
PlateauTrap prove_plateau_trap(const SquareNetData& data, const OneNeuronSaddle& p, const RestrictedHessian& rh,
                               const PlateauTrapInput& in);

}  // namespace flowcert::proofs::kh
