// flowcert/proofs/rh/w_star.hpp -- the KKT certificate of the reconstructed minimum-norm global minimizer
// [docs/rh.md#w-star] (m = 1): w* = argmin ||w||_2 s.t. X_{P+} w = y_{P+}, X_N w <= 0. With a guessed tight set
// T subset of N and A = P+ u T: w* = X^T alpha*, alpha* supported on A, G_AA alpha_A = (y_{P+}; 0_T) (a verified
// solve), and the KKT conditions alpha*_T <= 0 (dual feasibility) and <w*, x_j> <= 0 on N \ T (primal
// feasibility) prove the guess: KKT is sufficient for this convex QP and strong convexity gives uniqueness.
#pragma once

#include <flowcert/nets.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::rh {

using nets::rh::Instance;
using nets::rh::IVec;

struct WStarResult {
    ProofResult kkt = ProofResult::not_proven("not run");  // proven = all three parts below hold
    std::vector<int> tight;              // T (indices into N)
    int active_set_iterations = 0;       // of the non-rigorous active-set guess
    ProofResult solve = ProofResult::not_proven("not run");  // the verified solve on the face A
    IVec alpha;                          // n, zero outside A (when solved)
    IVec beta;                           // G alpha (predictions of w*)
    bool has_tight = false, has_slack = false;
    IntervalD max_multiplier;            // max_{j in T} alpha*_j (<= 0), when has_tight
    IntervalD max_slack;                 // max_{j in N \ T} <w*, x_j> (<= 0), when has_slack
};

// tight_guess: use this T instead of the active-set guess (tests: a wrong T is not certified).
WStarResult certify_w_star(const Instance& inst, const std::vector<int>* tight_guess = nullptr);

// The same certificate for the QP min ||w||_2 s.t. <w, x_i> = target_i where constrained_i = 0 and
// <w, x_i> <= 0 where constrained_i = 1, on the Gram matrix G of the x_i: the m = 1 w* is (G, y, y <= 0);
// the neurons of the m = 2 w* (w_star_m2.hpp) are (G, y, y <= 0) and (G, -y, y > 0).
struct MinNormQp {
    const linalg::IMatrixD& G;
    const IVec& target;
    const std::vector<int>& constrained;
};
WStarResult certify_min_norm_qp(const MinNormQp& qp, const std::vector<int>* tight_guess = nullptr);

}  // namespace flowcert::proofs::rh
