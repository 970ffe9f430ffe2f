// flowcert/proofs/rh/w_star_ball.hpp -- a face-free enclosure of w* (m = 1, span coordinates, u = 0) for an
// interval Gram matrix, where the KKT face of w* is not the same for every member (the box of box.hpp: at
// G = I every negative constraint of w* is tight with multiplier 0, so no one face is certified on a box).
//
// [DERIVED] Let w_P = X_P^T G_PP^{-1} y_P, the projection of 0 onto A = {X_P w = y_P} ⊇ C = {w in A, X_N w <= 0}.
// For every z in C, ||w* - w_P||^2 = ||w*||^2 - ||w_P||^2 <= ||z||^2 - ||w_P||^2 = ||z - w_P||^2 (Pythagoras in
// A, since w* minimizes the norm over C). The witness z = X^T beta, beta_N = -t 1, G_PP beta_P = y_P + t G_PN 1,
// is in C when (G_NP beta_P - t G_NN 1)_j <= 0 for every j in N (checked on the enclosure). Then
// ||w(inf) - w*|| lies in [D - R, D + R], D = ||w(inf) - w_P||, R = ||z - w_P||. With the global-minimum
// pattern (a_P(inf) = G_PP^{-1}(y_P - G_PN a_N(K))), w(inf) - w_P = (I - Pi_P) X_N^T a_N(K) and
// z - w_P = -t (I - Pi_P) X_N^T 1 (Pi_P the projection onto the span of the positive samples), so
// D^2 = a_N^T S a_N and R^2 = t^2 1^T S 1 with the Schur complement S = G_NN - G_NP G_PP^{-1} G_PN;
// otherwise both are v^T G v of the coefficient vectors. With the Schur form, also w* - w_P = (I - Pi_P) X_N^T alpha_N
// (alpha_N <= 0 the KKT multipliers), so gap^2 = (a_N - alpha_N)^T S (a_N - alpha_N) with a componentwise bound on
// alpha_N from complementarity (w_star_ball.cpp, multiplier_form); the gap is the intersection of both enclosures.
#pragma once

#include <flowcert/proofs/rh/stabilization.hpp>

namespace flowcert::proofs::rh {

struct WStarBall {
    ProofResult status = ProofResult::not_proven("not run");  // proven: w* in the ball B(w_P, R), C nonempty
    IntervalD t;              // the witness' offset on N
    IntervalD radius;         // R = ||z - w_P||
    IntervalD dist;           // D = ||w(inf) - w_P|| (when the tail is proven)
    IntervalD gap;            // an enclosure of ||w(inf) - w*||: [max(0, D - R), D + R]
    IntervalD ratio_n_minus;  // gap / sqrt(n_- / d) (d = 1 in the rescaled box: gap / sqrt(n_-))
    bool by_multipliers = false;  // the gap was intersected with the multiplier-bound form (w_star_ball.cpp)
    // The bounds of the multiplier form, per negative sample b (in the order of the negatives), when by_multipliers:
    // A >= max_j |alpha_j|, off_sup_b >= sum_{e != b} |S_be|, s_diag_inf_b <= S_bb, lambda_min_inf <= lambda_min(S) (> 0).
    double A = 0, lambda_min_inf = 0;
    std::vector<double> off_sup, s_diag_inf;
};

// Needs m = 1, span initialization (u = 0) and a proven tail; otherwise not proven with the reason.
WStarBall enclose_gap_by_ball(const Instance& inst, const PatternResult& pattern);

}  // namespace flowcert::proofs::rh
