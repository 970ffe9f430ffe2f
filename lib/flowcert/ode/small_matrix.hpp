// flowcert/ode/small_matrix.hpp -- the few dense interval vector/matrix operations the Lohner
// step needs (private to the ODE layer; small n, row-major std::vector storage).
//
// Written before lib/flowcert/linalg.hpp landed; the QR here follows the same method
// (Householder QR in double, rigorous enclosure of Q^{-1} by a Neumann series):
// [R. J. Lohner, "Enclosing the solutions of ordinary initial and boundary value problems",
//  Computer Arithmetic, Teubner 1987; Neumaier, "Interval Methods for Systems of Equations", 1990].
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <flowcert/interval.hpp>

namespace flowcert::ode::detail {

template <class I> using Vec = std::vector<I>;

template <class I>
struct Mat {
    int rows = 0, cols = 0;
    std::vector<I> a;
    Mat() = default;
    Mat(int r, int c, const I& zero) : rows(r), cols(c), a(static_cast<std::size_t>(r) * c, zero) {}
    I& operator()(int i, int j) { return a[static_cast<std::size_t>(i) * cols + j]; }
    const I& operator()(int i, int j) const { return a[static_cast<std::size_t>(i) * cols + j]; }
};

inline IntervalD point_mid(const IntervalD& x) { return IntervalD::exact(mid(x)); }
inline IntervalMp point_mid(const IntervalMp& x) { return mid_point(x); }

template <Interval I> I make_bounds(double lo, double hi, long bits) { return IntervalTraits<I>::bounds(lo, hi, bits); }

template <Interval I>
Mat<I> identity(int n, long bits) {
    const I zero = IntervalTraits<I>::from_integer(0, bits);
    Mat<I> m(n, n, zero);
    for (int i = 0; i < n; ++i) m(i, i) = IntervalTraits<I>::from_integer(1, bits);
    return m;
}

template <Interval I>
Mat<I> mul(const Mat<I>& A, const Mat<I>& B) {
    Mat<I> C(A.rows, B.cols, A.a.empty() ? I() : A.a[0] - A.a[0]);
    for (int i = 0; i < A.rows; ++i)
        for (int j = 0; j < B.cols; ++j) {
            I s = A(i, 0) * B(0, j);
            for (int k = 1; k < A.cols; ++k) s += A(i, k) * B(k, j);
            C(i, j) = s;
        }
    return C;
}

template <Interval I>
Vec<I> mul(const Mat<I>& A, const Vec<I>& x) {
    Vec<I> y(A.rows);
    for (int i = 0; i < A.rows; ++i) {
        I s = A(i, 0) * x[0];
        for (int k = 1; k < A.cols; ++k) s += A(i, k) * x[k];
        y[i] = s;
    }
    return y;
}

template <Interval I>
Vec<I> add(const Vec<I>& x, const Vec<I>& y) {
    Vec<I> z(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) z[i] = x[i] + y[i];
    return z;
}

// Householder QR (double, non-rigorous) of the square matrix A with its columns ordered by
// decreasing `weight`; returns Q (row-major), orthogonal up to rounding.
inline std::vector<double> householder_q(std::vector<double> A, int n, const std::vector<double>& weight) {
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) { return weight[x] > weight[y]; });
    std::vector<double> M(static_cast<std::size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) M[i * n + j] = A[i * n + perm[j]];
    std::vector<double> Q(static_cast<std::size_t>(n) * n, 0.0);
    for (int i = 0; i < n; ++i) Q[i * n + i] = 1.0;
    std::vector<double> v(n);
    for (int k = 0; k < n - 1; ++k) {
        double norm = 0;
        for (int i = k; i < n; ++i) norm += M[i * n + k] * M[i * n + k];
        norm = std::sqrt(norm);
        if (norm == 0) continue;
        const double alpha = M[k * n + k] > 0 ? -norm : norm;
        for (int i = 0; i < n; ++i) v[i] = i < k ? 0.0 : M[i * n + k];
        v[k] -= alpha;
        double vv = 0;
        for (int i = k; i < n; ++i) vv += v[i] * v[i];
        if (vv == 0) continue;
        // M <- (I - 2 v v^T / vv) M ;  Q <- Q (I - 2 v v^T / vv)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int i = k; i < n; ++i) s += v[i] * M[i * n + j];
            s = 2 * s / vv;
            for (int i = k; i < n; ++i) M[i * n + j] -= s * v[i];
        }
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int j = k; j < n; ++j) s += Q[i * n + j] * v[j];
            s = 2 * s / vv;
            for (int j = k; j < n; ++j) Q[i * n + j] -= s * v[j];
        }
    }
    return Q;
}

// A rigorous enclosure of Q^{-1} for a nearly orthogonal point matrix Q: with E = I - Q^T Q
// and delta >= ||E||_inf < 1, Q^{-1} = (I - E)^{-1} Q^T = Q^T + (sum_{k>=1} E^k) Q^T and every
// entry of sum_{k>=1} E^k is bounded by delta / (1 - delta). Returns false if delta >= 1/2.
template <Interval I>
bool orthogonal_inverse(const Mat<I>& Q, long bits, Mat<I>& Qinv) {
    const int n = Q.rows;
    Mat<I> QT(n, n, Q(0, 0));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) QT(i, j) = Q(j, i);
    Mat<I> G = mul(QT, Q);
    double delta = 0;
    for (int i = 0; i < n; ++i) {
        I row = IntervalTraits<I>::from_integer(0, bits);
        for (int j = 0; j < n; ++j) {
            const I e = (i == j ? IntervalTraits<I>::from_integer(1, bits) : IntervalTraits<I>::from_integer(0, bits)) - G(i, j);
            row += IntervalTraits<I>::exact(mag(e), bits);
        }
        delta = std::max(delta, upper(row));
    }
    if (!(delta < 0.5)) return false;
    const I d = IntervalTraits<I>::exact(delta, bits);
    const double eta = upper(d / (IntervalTraits<I>::from_integer(1, bits) - d));
    Qinv = QT;
    for (int j = 0; j < n; ++j) {
        // column j of (sum E^k) Q^T has entries bounded by eta * sum_k |Q^T_kj| = eta * ||row j of Q||_1
        I s = IntervalTraits<I>::from_integer(0, bits);
        for (int k = 0; k < n; ++k) s += IntervalTraits<I>::exact(mag(Q(j, k)), bits);
        const double rho = upper(s * IntervalTraits<I>::exact(eta, bits));
        const I err = make_bounds<I>(-rho, rho, bits);
        for (int i = 0; i < n; ++i) Qinv(i, j) += err;
    }
    return true;
}

}  // namespace flowcert::ode::detail
