// flowcert/linalg/qr.hpp -- QR as Lohner's method needs it.
//
// Lohner's method propagates a parallelepiped x + B r with B = Q from a QR factorization of the
// propagated matrix (columns sorted by length, i.e. column pivoting) and needs a rigorous
// enclosure of B^{-1}. Q from Householder QR in double is orthogonal only approximately, so
// Q^{-1} is enclosed by a Neumann series: with E = I - Q^T Q (interval, rigorous) and
// delta >= ||E||_inf < 1,
//   Q^{-1} = (Q^T Q)^{-1} Q^T = (I - E)^{-1} Q^T = (I + E) Q^T + E^2 (I - E)^{-1} Q^T,
//   |(E^2 (I - E)^{-1} Q^T)_ij| <= delta^2 / (1 - delta) * ||Q^T||_inf
// [R. J. Lohner, "Enclosing the solutions of ordinary initial and boundary value problems",
//  in Computer Arithmetic (Kaucher, Kulisch, Ullrich, eds.), Teubner 1987; the Neumann bound is
//  standard, e.g. Neumaier, "Interval Methods for Systems of Equations", CUP 1990, Sec. 4.1].
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <string>

#include "matrix.hpp"

namespace flowcert::linalg {


template <Interval I>
struct QrResult {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    Eigen::MatrixXd Q_double;  // the (approximately orthogonal) Q, exact doubles
    IMatrix<I> Q;              // the same matrix as exact point intervals
    IMatrix<I> Q_inverse;      // when proven: the exact inverse of Q lies in Q_inverse
    Eigen::VectorXi permutation;  // column pivoting: column j of M*P is column permutation(j) of M
    double orthogonality_defect = 0;  // delta >= ||I - Q^T Q||_inf
};

// Q from Householder QR of M (square, double) with column pivoting (Eigen::ColPivHouseholderQR);
// Q is orthogonal up to rounding whatever the rank of M. `bits` is the precision of the
// interval results (53 for IntervalD).
template <Interval I> QrResult<I> orthogonal_basis(const Eigen::MatrixXd& M, long bits = 53);

// The Neumann-series enclosure of Q^{-1} above for a given nearly orthogonal Q (exact doubles):
// Q, Q_inverse, orthogonality_defect and status are set (permutation is empty). orthogonal_basis
// uses it, so re-enclosing the inverse of its Q gives the same Q_inverse (a certificate checker
// reads Q as a hint and encloses its inverse anew).
template <Interval I> QrResult<I> enclose_orthogonal_inverse(const Eigen::MatrixXd& Q, long bits = 53);

extern template QrResult<IntervalD> orthogonal_basis(const Eigen::MatrixXd&, long);
extern template QrResult<IntervalMp> orthogonal_basis(const Eigen::MatrixXd&, long);
extern template QrResult<IntervalD> enclose_orthogonal_inverse(const Eigen::MatrixXd&, long);
extern template QrResult<IntervalMp> enclose_orthogonal_inverse(const Eigen::MatrixXd&, long);

}  // namespace flowcert::linalg
