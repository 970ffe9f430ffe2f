// Verified eigenvalue enclosures of symmetric interval matrices; see symmetric_eigen.hpp.
#include "detail.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <stdexcept>

namespace flowcert::linalg {

namespace {

// Weyl step: for every symmetric member M of the symmetric-closed interval matrix B,
// lambda_k(M) ∈ d_(k) + [-e, e] with d the (exactly sorted) point midpoints of diag(B) and
// e >= ||M - diag(d)||_2 bounded by min(inf-norm, Frobenius norm) of the enclosure of M - diag(d).
// [Horn & Johnson, Cor. 4.3.15]
template <Interval I> std::vector<I> weyl_enclosures(const IMatrix<I>& B, double& e_out) {
    const Eigen::Index n = B.rows();
    std::vector<I> d(static_cast<std::size_t>(n));
    IMatrix<I> E = B;
    for (Eigen::Index i = 0; i < n; ++i) {
        d[static_cast<std::size_t>(i)] = mid_point_of<I>(B(i, i));
        E(i, i) = B(i, i) - d[static_cast<std::size_t>(i)];
    }
    // Points: certainly_less is the exact order, a strict weak ordering.
    std::sort(d.begin(), d.end(), [](const I& a, const I& b) { return certainly_less(a, b); });
    const double e = std::min(norm_inf_upper<I>(E), norm_frobenius_upper<I>(E));
    e_out = e;
    std::vector<I> out;
    out.reserve(d.size());
    for (const I& dk : d) out.push_back(flowcert::inflate(dk, e));
    return out;
}

}  // namespace

template <Interval I> EigenResult<I> symmetric_eigenvalues(const IMatrix<I>& A0) {
    EigenResult<I> out;
    const Eigen::Index n = A0.rows();
    if (A0.cols() != n) { out.reason = "matrix is not square"; return out; }
    if (!all_bounded<I>(A0)) { out.reason = "unbounded entries"; return out; }
    const long p = working_precision<I>(A0);
    // 1. Symmetric members have a_ij = a_ji ∈ A_ij ∩ A_ji.
    IMatrix<I> A = A0;
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = j + 1; i < n; ++i) {
            I c;
            if (!flowcert::intersect(A0(i, j), A0(j, i), c)) {
                out.reason = "the interval matrix has no symmetric member (entries (" + std::to_string(i) + ", " +
                             std::to_string(j) + ") and its transpose are disjoint)";
                return out;
            }
            A(i, j) = c;
            A(j, i) = c;
        }
    if (n == 0) { out.status = ProofStatus::proven; out.reason = "empty matrix"; return out; }

    // 2. Approximate eigenvectors of the midpoint (NOT rigorous; need not be).
    Eigen::MatrixXd M = mid<I>(A);
    M = (0.5 * (M + M.transpose())).eval();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es;
    if (M.allFinite()) es.compute(M);
    if (M.allFinite() && es.info() == Eigen::Success && es.eigenvectors().allFinite()) {
        const Eigen::MatrixXd X = es.eigenvectors();
        // 3. B = X^T A X and G = X^T X - I, rigorous.
        const Eigen::MatrixXd Xt = X.transpose();
        IMatrix<I> B = detail::product(Xt, IMatrix<I>(detail::product(A, X, p)), p);
        const IMatrix<I> G = detail::product(Xt, to_interval<I>(X, p), p) - identity<I>(n, p);
        const double delta = std::min(norm_inf_upper<I>(G), norm_frobenius_upper<I>(G));  // >= ||X^T X - I||_2
        if (delta < 1) {
            // B is enclosed as a general interval matrix; its symmetric members are what matter.
            for (Eigen::Index j = 0; j < n; ++j)
                for (Eigen::Index i = j + 1; i < n; ++i) {
                    I c;
                    if (flowcert::intersect(B(i, j), B(j, i), c)) { B(i, j) = c; B(j, i) = c; }
                }
            // 4. Weyl on B.
            double e = 0;
            std::vector<I> beta = weyl_enclosures<I>(B, e);
            // 5. Ostrowski: lambda_k(A) = lambda_k(B) / theta_k, theta_k ∈ [1 - delta, 1 + delta].
            //    [Horn & Johnson, Thm 4.5.9]
            const I theta = IntervalTraits<I>::bounds(detail::add_down(1.0, -delta), detail::add_up(1.0, delta), p);
            out.eigenvalues.clear();
            for (const I& b : beta) out.eigenvalues.push_back(b / theta);
            out.orthogonality_defect = delta;
            out.residual_bound = e;
            out.used_fallback = false;
            out.status = ProofStatus::proven;
            out.reason = "Weyl + Ostrowski on X^T A X: ||E||_2 <= " + format_g(e, 3) + ", ||X^T X - I||_2 <= " +
                         format_g(delta, 3);
            return out;
        }
    }
    // Fallback: Weyl on A itself (coarser, always valid).
    double e = 0;
    out.eigenvalues = weyl_enclosures<I>(A, e);
    out.residual_bound = e;
    out.used_fallback = true;
    out.status = ProofStatus::proven;
    out.reason = "fallback (eigenvector step failed): Weyl on A with ||A - diag(A)||_2 <= " + format_g(e, 3);
    return out;
}

template <Interval I> DefinitenessResult<I> certainly_positive_definite(const IMatrix<I>& A) {
    DefinitenessResult<I> out;
    const EigenResult<I> er = symmetric_eigenvalues<I>(A);
    if (er.status != ProofStatus::proven) { out.reason = "eigenvalue enclosure failed: " + er.reason; return out; }
    if (er.eigenvalues.empty()) { out.reason = "empty matrix"; return out; }
    out.lambda_min = er.eigenvalues.front();
    if (certainly_positive(out.lambda_min)) {
        out.status = ProofStatus::proven;
        out.reason = "lambda_min >= " + lower_string(out.lambda_min, 6) + " > 0";
    } else {
        out.reason = "lambda_min enclosure " + to_string(out.lambda_min, 6) + " is not certainly positive";
    }
    return out;
}

template <Interval I> I lambda_max_enclosure(const IMatrix<I>& A) {
    if (A.rows() != A.cols() || A.rows() == 0) throw std::invalid_argument("lambda_max_enclosure: need a nonempty square matrix");
    if (!all_bounded<I>(A)) throw std::invalid_argument("lambda_max_enclosure: unbounded entries");
    const EigenResult<I> er = symmetric_eigenvalues<I>(A);
    if (er.status == ProofStatus::proven) return er.eigenvalues.back();
    throw std::invalid_argument("lambda_max_enclosure: " + er.reason);
}

template EigenResult<IntervalD> symmetric_eigenvalues(const IMatrixD&);
template EigenResult<IntervalMp> symmetric_eigenvalues(const IMatrixMp&);
template DefinitenessResult<IntervalD> certainly_positive_definite(const IMatrixD&);
template DefinitenessResult<IntervalMp> certainly_positive_definite(const IMatrixMp&);
template IntervalD lambda_max_enclosure(const IMatrixD&);
template IntervalMp lambda_max_enclosure(const IMatrixMp&);

}  // namespace flowcert::linalg
