// flowcert/linalg/detail.hpp -- private helpers shared by the linalg .cpp files (not installed,
// not included by linalg.hpp).
#pragma once

#include <flowcert/linalg.hpp>

#include <Eigen/LU>

#include <optional>
#include <string>

namespace flowcert::linalg::detail {

// Directed scalar operations (error-free, rounding-mode-free; see interval/rounding.hpp).
inline double add_up(double a, double b) { return rounding::add(a, b, +1); }
inline double add_down(double a, double b) { return rounding::add(a, b, -1); }
inline double mul_up(double a, double b) { return rounding::mul(a, b, +1); }
inline double div_up(double a, double b) { return rounding::div(a, b, +1); }

// inner strictly inside outer (both bounds).
bool strictly_inside(const IntervalD& inner, const IntervalD& outer);
bool strictly_inside(const IntervalMp& inner, const IntervalMp& outer);
template <Interval I> bool interior_subset_matrix(const IMatrix<I>& inner, const IMatrix<I>& outer) {
    if (inner.rows() != outer.rows() || inner.cols() != outer.cols()) return false;
    for (Eigen::Index j = 0; j < inner.cols(); ++j)
        for (Eigen::Index i = 0; i < inner.rows(); ++i)
            if (!strictly_inside(inner(i, j), outer(i, j))) return false;
    return true;
}

// Rigorous product dispatch: midpoint-radius for IntervalD, plain interval products otherwise.
inline IMatrixD product(const IMatrixD& A, const IMatrixD& B) { return mul_midrad(A, B); }
inline IMatrixMp product(const IMatrixMp& A, const IMatrixMp& B) { return mul(A, B); }
// Exact double matrix times interval matrix.
inline IMatrixD product(const Eigen::MatrixXd& A, const IMatrixD& B, long /*bits*/) { return mul_midrad(A, B); }
inline IMatrixMp product(const Eigen::MatrixXd& A, const IMatrixMp& B, long bits) {
    return mul(to_interval<IntervalMp>(A, bits), B);
}
inline IMatrixD product(const IMatrixD& A, const Eigen::MatrixXd& B, long /*bits*/) { return mul_midrad(A, B); }
inline IMatrixMp product(const IMatrixMp& A, const Eigen::MatrixXd& B, long bits) {
    return mul(A, to_interval<IntervalMp>(B, bits));
}

// The mid-rad product of <mA, rA> and <mB, rB> (rA, rB empty = 0) as double matrices: the exact product of any
// members lies in C +- R entrywise (products.cpp, the bound of mul_midrad before the conversion to intervals).
void midrad_product_arrays(const Eigen::MatrixXd& mA, const Eigen::MatrixXd& rA, const Eigen::MatrixXd& mB,
                           const Eigen::MatrixXd& rB, Eigen::MatrixXd& C, Eigen::MatrixXd& R);

// NOT rigorous: an approximate inverse of a double matrix (partial-pivoting LU), or nullopt
// with a reason when the matrix is numerically singular (reciprocal condition estimate below
// n * 2^-53, or non-finite entries in the result).
std::optional<Eigen::MatrixXd> approximate_inverse(const Eigen::MatrixXd& M, std::string& why);

// "%.3g" formatting for reason strings.

}  // namespace flowcert::linalg::detail
