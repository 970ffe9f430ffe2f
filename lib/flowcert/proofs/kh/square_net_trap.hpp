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

#include <string>
#include <vector>

namespace flowcert::proofs::kh {

struct RestrictedHessian {
    SaddleStatus status = SaddleStatus::not_proven;
    std::string reason = "not run";
    IntervalD lambda_min;  // enclosure of lambda_min(Q^T H Q) when proven (and gamma is not the smallest)
    IMatrixD hessian;      // H over the p* box (size d + 1)
};
RestrictedHessian restricted_hessian_positive(const SquareNetData& data, const OneNeuronSaddle& p);

struct EscapeBound {
    SaddleStatus status = SaddleStatus::not_proven;
    std::string reason = "not run";
    IntervalD kappa;        // enclosure of max |eig M(r)| over the region (upper end used)
    double beta = 0;        // upper bound on (8/5) b kappa
    IntervalD loss_lower;   // its lower end is a lower bound of L over the region (0 when none is proven)
    std::vector<long> steps;  // per small neuron: certified steps before rho_j can exceed rho_max_j (in R)
    long min_steps = 0;
};
// Region: the active neuron in `active_box` (size d + 1), small neuron j with rho_j <= rho_max[j]; rho0[j] the
// upper bound on rho_j at the start; b = 2 c h.
EscapeBound small_neuron_escape_bound(const SquareNetData& data, const IVectorD& active_box,
                                      const std::vector<double>& rho0, const std::vector<double>& rho_max,
                                      const IntervalD& b);

}  // namespace flowcert::proofs::kh
