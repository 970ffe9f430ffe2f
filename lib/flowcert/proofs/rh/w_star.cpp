// The KKT certificate of w* (docs/rh.md#w-star).
#include "flowcert/proofs/rh/w_star.hpp"

#include <Eigen/Dense>

namespace flowcert::proofs::rh {

namespace {

std::vector<int> face(const MinNormQp& qp, const std::vector<int>& inT) {
    std::vector<int> A;
    for (int i = 0; i < qp.G.rows(); ++i)
        if (!qp.constrained[i] || inT[i]) A.push_back(i);
    return A;
}

// Non-rigorous primal-dual active-set iteration on mid(G) (a heuristic: any T is verified afterwards).
std::vector<int> guess_tight_set(const MinNormQp& qp, int& iterations) {
    const int n = static_cast<int>(qp.G.rows());
    const Eigen::MatrixXd Gm = linalg::mid(qp.G);
    std::vector<int> inT(n, 0);
    for (int it = 0; it < 4 * n + 10; ++it) {
        iterations = it + 1;
        const auto A = face(qp, inT);
        const int k = static_cast<int>(A.size());
        Eigen::MatrixXd GA(k, k);
        Eigen::VectorXd rhs(k);
        for (int a = 0; a < k; ++a) {
            rhs(a) = qp.constrained[A[a]] ? 0.0 : mid(qp.target[A[a]]);
            for (int b = 0; b < k; ++b) GA(a, b) = Gm(A[a], A[b]);
        }
        const Eigen::VectorXd xa = GA.ldlt().solve(rhs);
        Eigen::VectorXd alpha = Eigen::VectorXd::Zero(n);
        for (int a = 0; a < k; ++a) alpha(A[a]) = xa(a);
        const Eigen::VectorXd beta = Gm * alpha;
        bool changed = false;
        for (int j = 0; j < n; ++j) {
            if (!qp.constrained[j]) continue;
            if (inT[j] && alpha(j) > 0) {
                inT[j] = 0;
                changed = true;
            } else if (!inT[j] && beta(j) > 0) {
                inT[j] = 1;
                changed = true;
            }
        }
        if (!changed) break;
    }
    return inT;
}

}  // namespace

WStarResult certify_w_star(const Instance& inst, const std::vector<int>* tight_guess) {
    return certify_min_norm_qp({inst.G, inst.y, inst.negative}, tight_guess);
}

WStarResult certify_min_norm_qp(const MinNormQp& qp, const std::vector<int>* tight_guess) {
    WStarResult res;
    const int n = static_cast<int>(qp.G.rows());
    std::vector<int> inT(n, 0);
    if (tight_guess) {
        for (int j : *tight_guess)
            if (j >= 0 && j < n && qp.constrained[j]) inT[j] = 1;
    } else {
        inT = guess_tight_set(qp, res.active_set_iterations);
    }
    const auto A = face(qp, inT);
    const int k = static_cast<int>(A.size());
    for (int i = 0; i < n; ++i)
        if (inT[i]) res.tight.push_back(i);
    linalg::IMatrixD GA(k, k);
    linalg::IVectorD rhs(k);
    for (int a = 0; a < k; ++a) {
        rhs(a) = qp.constrained[A[a]] ? IntervalD(0) : qp.target[A[a]];
        for (int b = 0; b < k; ++b) GA(a, b) = qp.G(A[a], A[b]);
    }
    const auto sol = linalg::verified_solve<IntervalD>(GA, rhs);
    if (sol.status != ProofStatus::proven) {
        res.solve = ProofResult::not_proven("verified solve of G_AA alpha_A = (y_P+; 0_T) failed: " + sol.reason);
        res.kkt = res.solve;
        return res;
    }
    res.solve = ProofResult::proven("G_AA alpha_A = (y_P+; 0_T) solved (verified solve, |A| = " + std::to_string(k) + ")");
    res.alpha.assign(n, IntervalD(0));
    for (int a = 0; a < k; ++a) res.alpha[A[a]] = sol.x(a);
    res.beta.assign(n, IntervalD(0));
    for (int i = 0; i < n; ++i) {
        IntervalD s(0);
        for (int a = 0; a < k; ++a) s += qp.G(i, A[a]) * sol.x(a);
        res.beta[i] = s;
    }
    std::string failure;
    for (int j = 0; j < n; ++j) {
        if (!qp.constrained[j]) continue;
        if (inT[j]) {
            res.max_multiplier = res.has_tight ? max(res.max_multiplier, res.alpha[j]) : res.alpha[j];
            res.has_tight = true;
            if (!certainly_nonpositive(res.alpha[j]) && failure.empty())
                failure = "multiplier sign: alpha*_" + std::to_string(j) + " in " + to_string(res.alpha[j], 6) +
                          " not certainly <= 0";
        } else {
            res.max_slack = res.has_slack ? max(res.max_slack, res.beta[j]) : res.beta[j];
            res.has_slack = true;
            if (!certainly_nonpositive(res.beta[j]) && failure.empty())
                failure = "primal feasibility: <w*, x_" + std::to_string(j) + "> in " + to_string(res.beta[j], 6) +
                          " not certainly <= 0";
        }
    }
    res.kkt = failure.empty() ? ProofResult::proven("KKT: w* = X^T alpha*, G_AA alpha_A = (y_P+; 0_T) (verified solve), "
                                                    "alpha*_T <= 0, <w*, x_j> <= 0 on N \\ T; convex QP + strong "
                                                    "convexity => unique minimizer")
                              : ProofResult::not_proven(failure);
    return res;
}

}  // namespace flowcert::proofs::rh
