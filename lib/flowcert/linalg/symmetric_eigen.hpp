// flowcert/linalg/symmetric_eigen.hpp -- verified enclosures of all eigenvalues of the symmetric
// members of an interval matrix, positive-definiteness, lambda_max.
//
// Algorithm (all steps rigorous except the first, which only has to be good):
//  1. Symmetric members satisfy a_ij = a_ji, so A is first replaced by A ∩ A^T (entrywise).
//  2. X: approximate orthonormal eigenvectors of mid(A) (Eigen::SelfAdjointEigenSolver, double;
//     NOT rigorous, needs no rigour).
//  3. B = X^T A X (interval, X exact); delta >= ||X^T X - I||_2 (interval residual, bounded by
//     min of the inf-norm and Frobenius norm of the enclosure); need delta < 1.
//  4. For every symmetric A in A, B = X^T A X is symmetric and B = D + E with D = diag(d),
//     d_i = midpoint of B_ii (double); by Weyl's inequality
//     |lambda_k(B) - d_(k)| <= ||E||_2 <= e := min(|| |E| ||_inf, || |E| ||_F) (d sorted)
//     [Horn & Johnson, Matrix Analysis, 2nd ed., Cor. 4.3.15 (Weyl)].
//  5. Ostrowski's theorem: lambda_k(X^T A X) = theta_k lambda_k(A) with
//     theta_k in [lambda_min(X^T X), lambda_max(X^T X)] ⊆ [1 - delta, 1 + delta]
//     [Horn & Johnson, Thm 4.5.9], so lambda_k(A) ∈ [d_(k) - e, d_(k) + e] / [1 - delta, 1 + delta].
//  If delta >= 1 (or the eigen-solver failed), the fallback is Weyl on A itself with D = diag of
//  mid(A) (always valid, coarser). Clusters and multiple eigenvalues need no special care: Weyl's
//  bound does not depend on gaps. The enclosure widths are about ||E||_2: roughly
//  n * 2^-53 * ||A|| + (radius of A) for IntervalD, and also about 2^-53 ||A|| for IntervalMp
//  because X is a double matrix (a higher-precision eigenvector refinement is future work).
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <string>
#include <vector>

#include "matrix.hpp"

namespace flowcert::linalg {


template <Interval I>
struct EigenResult {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    // When proven: for every symmetric A in A, its k-th smallest eigenvalue (counted with
    // multiplicity) lies in eigenvalues[k], k = 0..n-1. The intervals are sorted by their
    // midpoints and may overlap (clusters).
    std::vector<I> eigenvalues;
    double orthogonality_defect = 0;  // delta >= ||X^T X - I||_2 (0 when the fallback was used)
    double residual_bound = 0;        // e >= ||E||_2
    bool used_fallback = false;       // true when Weyl on A itself was used (delta >= 1)
};

// Not proven when A is not square, has an unbounded entry, or has no symmetric member
// (some A_ij ∩ A_ji is empty).
template <Interval I> EigenResult<I> symmetric_eigenvalues(const IMatrix<I>& A);

template <Interval I>
struct DefinitenessResult {
    ProofStatus status = ProofStatus::not_proven;  // proven = every symmetric member is positive definite
    std::string reason = "not run";
    I lambda_min;  // enclosure of the smallest eigenvalue over the symmetric members (when computed)
};
// Proves lambda_min(A) > 0 for every symmetric A in A, via the enclosure above.
template <Interval I> DefinitenessResult<I> certainly_positive_definite(const IMatrix<I>& A);

// Enclosure of lambda_max(A) for every symmetric A in A (the last entry of
// symmetric_eigenvalues, which itself falls back to Weyl on A when the eigenvector step fails).
// Throws std::invalid_argument if A is empty, not square, unbounded, or has no symmetric member.
template <Interval I> I lambda_max_enclosure(const IMatrix<I>& A);

extern template EigenResult<IntervalD> symmetric_eigenvalues(const IMatrixD&);
extern template EigenResult<IntervalMp> symmetric_eigenvalues(const IMatrixMp&);
extern template DefinitenessResult<IntervalD> certainly_positive_definite(const IMatrixD&);
extern template DefinitenessResult<IntervalMp> certainly_positive_definite(const IMatrixMp&);
extern template IntervalD lambda_max_enclosure(const IMatrixD&);
extern template IntervalMp lambda_max_enclosure(const IMatrixMp&);

}  // namespace flowcert::linalg
