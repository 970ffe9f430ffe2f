// Exact references for the linalg tests: GMP rationals (gmpxx), rational Gaussian
// elimination, Sylvester inertia counts, and exact containment checks of interval bounds.
#pragma once

#include <flowcert/linalg.hpp>
#include <gmpxx.h>
#include <mpfr.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace flowcert::linalg::test {

using Q = mpq_class;
using QMat = std::vector<std::vector<Q>>;

// Working precision of the tests per back end (IntervalD is always 53).
template <class I> inline constexpr long kBits = 53;
template <> inline constexpr long kBits<IntervalMp> = 128;

inline Q exact_q(double x) { return Q(x); }  // mpq_set_d is exact

inline Q lower_q(const IntervalD& x) { return Q(x.lower()); }
inline Q upper_q(const IntervalD& x) { return Q(x.upper()); }
inline Q bound_q(const IntervalMp& x, bool upper) {
    mpfr_t b;
    mpfr_init2(b, x.precision());
    if (upper) mpfi_get_right(b, x.get()); else mpfi_get_left(b, x.get());  // exact
    Q q;
    mpfr_get_q(q.get_mpq_t(), b);
    mpfr_clear(b);
    return q;
}
inline Q lower_q(const IntervalMp& x) { return bound_q(x, false); }
inline Q upper_q(const IntervalMp& x) { return bound_q(x, true); }

template <class I> bool encloses(const I& x, const Q& q) {
    if (!is_bounded(x)) return true;  // only bounded intervals are produced by the tested code paths
    return lower_q(x) <= q && q <= upper_q(x);
}

// Tight enclosure of an exact rational at `bits`.
template <Interval I> I from_q(const Q& q, long bits) {
    return IntervalTraits<I>::from_decimal(q.get_str(), bits);
}
template <Interval I> IMatrix<I> from_q(const QMat& M, long bits) {
    IMatrix<I> A(static_cast<Eigen::Index>(M.size()), static_cast<Eigen::Index>(M[0].size()));
    for (std::size_t i = 0; i < M.size(); ++i)
        for (std::size_t j = 0; j < M[0].size(); ++j) A(i, j) = from_q<I>(M[i][j], bits);
    return A;
}
inline QMat to_q(const Eigen::MatrixXd& M) {
    QMat R(M.rows(), std::vector<Q>(M.cols()));
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) R[i][j] = Q(M(i, j));
    return R;
}
inline QMat q_mul(const QMat& A, const QMat& B) {
    QMat C(A.size(), std::vector<Q>(B[0].size(), Q(0)));
    for (std::size_t i = 0; i < A.size(); ++i)
        for (std::size_t k = 0; k < B.size(); ++k) {
            if (A[i][k] == 0) continue;
            for (std::size_t j = 0; j < B[0].size(); ++j) C[i][j] += A[i][k] * B[k][j];
        }
    return C;
}
inline QMat q_transpose(const QMat& A) {
    QMat T(A[0].size(), std::vector<Q>(A.size()));
    for (std::size_t i = 0; i < A.size(); ++i)
        for (std::size_t j = 0; j < A[0].size(); ++j) T[j][i] = A[i][j];
    return T;
}
inline QMat q_identity(std::size_t n) {
    QMat E(n, std::vector<Q>(n, Q(0)));
    for (std::size_t i = 0; i < n; ++i) E[i][i] = 1;
    return E;
}

// Exact A^{-1} B by Gaussian elimination over Q; nullopt if A is singular.
inline std::optional<QMat> q_solve(QMat A, QMat B) {
    const std::size_t n = A.size(), m = B[0].size();
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t piv = c;
        while (piv < n && A[piv][c] == 0) ++piv;
        if (piv == n) return std::nullopt;
        std::swap(A[piv], A[c]);
        std::swap(B[piv], B[c]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == c || A[r][c] == 0) continue;
            const Q f = A[r][c] / A[c][c];
            for (std::size_t k = c; k < n; ++k) A[r][k] -= f * A[c][k];
            for (std::size_t k = 0; k < m; ++k) B[r][k] -= f * B[c][k];
        }
    }
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t k = 0; k < m; ++k) B[r][k] /= A[r][r];
    return B;
}

// Number of eigenvalues of the symmetric rational M strictly below sigma: the number of
// negative pivots of the LDL^T factorization of M - sigma I (Sylvester's law of inertia).
// nullopt if a zero pivot occurs (then the count would need pivoting).
inline std::optional<int> eigenvalues_below(QMat M, const Q& sigma) {
    const std::size_t n = M.size();
    for (std::size_t i = 0; i < n; ++i) M[i][i] -= sigma;
    int neg = 0;
    for (std::size_t c = 0; c < n; ++c) {
        if (M[c][c] == 0) return std::nullopt;
        if (M[c][c] < 0) ++neg;
        for (std::size_t r = c + 1; r < n; ++r) {
            if (M[r][c] == 0) continue;
            const Q f = M[r][c] / M[c][c];
            for (std::size_t k = c; k < n; ++k) M[r][k] -= f * M[c][k];
        }
    }
    return neg;
}

// A random rational member of the interval matrix A: each entry lower + t (upper - lower) with
// t = k / 1024, k uniform in 0..1024 (endpoints included). Symmetric when `symmetric`.
template <Interval I> QMat random_member(const IMatrix<I>& A, std::mt19937_64& rng, bool symmetric = false) {
    std::uniform_int_distribution<int> k(0, 1024);
    QMat M(A.rows(), std::vector<Q>(A.cols()));
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j) {
            if (symmetric && j < i) { M[i][j] = M[j][i]; continue; }
            const Q lo = lower_q(A(i, j)), hi = upper_q(A(i, j));
            M[i][j] = lo + (hi - lo) * Q(k(rng), 1024);
        }
    return M;
}

inline Eigen::MatrixXd random_matrix(Eigen::Index r, Eigen::Index c, std::mt19937_64& rng, double scale = 1.0) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index i = 0; i < r; ++i)
        for (Eigen::Index j = 0; j < c; ++j) M(i, j) = scale * u(rng);
    return M;
}

// Interval matrix with random midpoints in [-1, 1] and radii rel * |mid| + abs (outward).
template <Interval I>
IMatrix<I> random_interval_matrix(Eigen::Index r, Eigen::Index c, std::mt19937_64& rng, double rel, double abs = 0) {
    const Eigen::MatrixXd M = random_matrix(r, c, rng);
    IMatrix<I> A = to_interval<I>(M, kBits<I>);
    for (Eigen::Index i = 0; i < r; ++i)
        for (Eigen::Index j = 0; j < c; ++j) A(i, j) = inflate(A(i, j), rel * std::abs(M(i, j)) + abs);
    return A;
}

}  // namespace flowcert::linalg::test
