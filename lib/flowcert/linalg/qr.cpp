// QR with a rigorous enclosure of Q^{-1} (Lohner's method); see qr.hpp.
#include "detail.hpp"

#include <Eigen/QR>

#include <cmath>
#include <type_traits>

namespace flowcert::linalg {

template <Interval I> QrResult<I> enclose_orthogonal_inverse(const Eigen::MatrixXd& Q, long bits) {
    QrResult<I> out;
    const Eigen::Index n = Q.rows();
    if (n == 0 || Q.cols() != n) { out.reason = "not a non-empty square matrix"; return out; }
    if (!Q.allFinite()) { out.reason = "non-finite entries in Q"; return out; }
    const long p = std::max(bits, 53L);
    out.Q_double = Q;
    out.Q = to_interval<I>(out.Q_double, p);
    const Eigen::MatrixXd Qt = out.Q_double.transpose();
    double qt_norm = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        double s = 0;
        for (Eigen::Index j = 0; j < n; ++j) s = detail::add_up(s, std::abs(Qt(i, j)));
        qt_norm = std::max(qt_norm, s);
    }
    // E = I - Q^T Q (rigorous), delta >= ||E||_inf; Q^{-1} = (I + E) Q^T + F, |F_ij| <= delta^2 / (1 - delta) ||Q^T||_inf
    // (Neumann series).
    IMatrix<I> Qinv;
    double delta = 0;
    if constexpr (std::is_same_v<I, IntervalD>) {
        // IntervalD: E = [I, Q^T] [I; -Q] exactly as a product of double matrices, kept as centre +- radius
        // (mE, rE); then (I + E) Q^T = [I, E] [Q^T; Q^T] as one mid-rad product, and F added to its radius:
        // no interval operation per entry until the final conversion.
        Eigen::MatrixXd L(n, 2 * n), R(2 * n, n), mE, rE;
        L << Eigen::MatrixXd::Identity(n, n), Qt;
        R << Eigen::MatrixXd::Identity(n, n), -out.Q_double;
        detail::midrad_product_arrays(L, Eigen::MatrixXd(), R, Eigen::MatrixXd(), mE, rE);
        for (Eigen::Index i = 0; i < n; ++i) {
            double s = 0;
            for (Eigen::Index j = 0; j < n; ++j) s = detail::add_up(s, detail::add_up(std::abs(mE(i, j)), rE(i, j)));
            delta = std::max(delta, s);
        }
        if (!(delta < 1)) {
            out.reason = "||I - Q^T Q||_inf <= " + format_g(delta, 3) + " is not < 1";
            out.orthogonality_defect = delta;
            return out;
        }
        const double rho =
            detail::mul_up(detail::div_up(detail::mul_up(delta, delta), detail::add_down(1.0, -delta)), qt_norm);
        Eigen::MatrixXd mA(n, 2 * n), rA(n, 2 * n), B(2 * n, n), mQ, rQ;
        mA << Eigen::MatrixXd::Identity(n, n), mE;
        rA << Eigen::MatrixXd::Zero(n, n), rE;
        B << Qt, Qt;
        detail::midrad_product_arrays(mA, rA, B, Eigen::MatrixXd(), mQ, rQ);
        Qinv.resize(n, n);
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i) {
                const double r = detail::add_up(rQ(i, j), rho);
                Qinv(i, j) = std::isfinite(mQ(i, j)) && r < rounding::kInf
                                 ? IntervalD::bounds(rounding::add(mQ(i, j), -r, -1), rounding::add(mQ(i, j), r, +1))
                                 : IntervalD::entire();
            }
    } else {
        const IMatrix<I> E = identity<I>(n, p) - detail::product(Qt, out.Q, p);
        delta = norm_inf_upper<I>(E);
        if (!(delta < 1)) {
            out.reason = "||I - Q^T Q||_inf <= " + format_g(delta, 3) + " is not < 1";
            out.orthogonality_defect = delta;
            return out;
        }
        const IMatrix<I> QtI = to_interval<I>(Qt, p);
        Qinv = QtI + detail::product(E, Qt, p);
        const double rho =
            detail::mul_up(detail::div_up(detail::mul_up(delta, delta), detail::add_down(1.0, -delta)), qt_norm);
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i) Qinv(i, j) = flowcert::inflate(Qinv(i, j), rho);
    }
    out.orthogonality_defect = delta;
    out.Q_inverse = std::move(Qinv);
    out.status = ProofStatus::proven;
    out.reason = "Neumann series with ||I - Q^T Q||_inf <= " + format_g(delta, 3);
    return out;
}

template <Interval I> QrResult<I> orthogonal_basis(const Eigen::MatrixXd& M, long bits) {
    if (!M.allFinite()) { QrResult<I> out; out.reason = "non-finite entries in M"; return out; }
    if (M.rows() == 0) { QrResult<I> out; out.reason = "empty matrix"; return out; }
    // Householder QR with column pivoting (NOT rigorous; Q need only be nearly orthogonal).
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(M);
    QrResult<I> out = enclose_orthogonal_inverse<I>(Eigen::MatrixXd(qr.householderQ()), bits);
    out.permutation = qr.colsPermutation().indices().template cast<int>();
    return out;
}

template QrResult<IntervalD> orthogonal_basis(const Eigen::MatrixXd&, long);
template QrResult<IntervalMp> orthogonal_basis(const Eigen::MatrixXd&, long);
template QrResult<IntervalD> enclose_orthogonal_inverse(const Eigen::MatrixXd&, long);
template QrResult<IntervalMp> enclose_orthogonal_inverse(const Eigen::MatrixXd&, long);

}  // namespace flowcert::linalg
