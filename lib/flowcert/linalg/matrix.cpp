// Eigen glue and entrywise helpers; see matrix.hpp.
#include "detail.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace flowcert::linalg {

namespace detail {

// Strict-interior test of one entry.
bool strictly_inside(const IntervalD& inner, const IntervalD& outer) {
    return outer.lower() < inner.lower() && inner.upper() < outer.upper();
}
bool strictly_inside(const IntervalMp& inner, const IntervalMp& outer) {
    mpfr_t a, b;
    mpfr_init2(a, inner.precision());
    mpfr_init2(b, outer.precision());
    mpfi_get_left(a, inner.get());  // exact: same precision as the bound
    mpfi_get_left(b, outer.get());
    bool ok = mpfr_less_p(b, a) != 0;
    if (ok) {
        mpfi_get_right(a, inner.get());
        mpfi_get_right(b, outer.get());
        ok = mpfr_less_p(a, b) != 0;
    }
    mpfr_clear(a);
    mpfr_clear(b);
    return ok;
}

std::optional<Eigen::MatrixXd> approximate_inverse(const Eigen::MatrixXd& M, std::string& why) {
    const Eigen::Index n = M.rows();
    if (n != M.cols()) { why = "matrix is not square"; return std::nullopt; }
    if (!M.allFinite()) { why = "midpoint matrix has non-finite entries"; return std::nullopt; }
    if (n == 0) return Eigen::MatrixXd(0, 0);
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(M);
    const double rc = lu.rcond();
    if (!(rc > static_cast<double>(n) * 0x1p-53)) {
        why = "midpoint matrix numerically singular (reciprocal condition estimate " + format_g(rc, 3) + ")";
        return std::nullopt;
    }
    Eigen::MatrixXd R = lu.inverse();
    if (!R.allFinite()) { why = "midpoint matrix numerically singular (inverse overflowed)"; return std::nullopt; }
    return R;
}

}  // namespace detail

namespace {
using detail::add_up;
using detail::mul_up;
using detail::strictly_inside;

IntervalD point_inside(const IntervalD& x) { return IntervalD::exact(flowcert::mid(x)); }  // mid(x) ∈ x
IntervalMp point_inside(const IntervalMp& x) {
    const long p = x.precision();
    mpfr_t m;
    mpfr_init2(m, p);
    mpfi_mid(m, x.get());  // rounded midpoint at the entry's precision
    // Rounding is monotone and both bounds are representable at p bits, so m ∈ x; checked anyway.
    if (!mpfi_is_inside_fr(m, x.get())) mpfi_get_left(m, x.get());
    if (!mpfr_number_p(m)) mpfr_set_zero(m, 1);  // unbounded entry: any finite point (0 if inside)
    if (!mpfi_is_inside_fr(m, x.get())) {
        // x is [-inf, -a] or [a, +inf]: take the finite bound.
        mpfi_get_left(m, x.get());
        if (!mpfr_number_p(m)) mpfi_get_right(m, x.get());
    }
    IntervalMp r = IntervalMp::from_mpfr(m, m, Precision(p));
    mpfr_clear(m);
    return r;
}

}  // namespace

template <Interval I> IMatrix<I> to_interval(const Eigen::MatrixXd& M, long bits) {
    IMatrix<I> A(M.rows(), M.cols());
    for (Eigen::Index j = 0; j < M.cols(); ++j)
        for (Eigen::Index i = 0; i < M.rows(); ++i) A(i, j) = IntervalTraits<I>::exact(M(i, j), bits);
    return A;
}
template <Interval I> IVector<I> to_interval(const Eigen::VectorXd& v, long bits) {
    IVector<I> a(v.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) a(i) = IntervalTraits<I>::exact(v(i), bits);
    return a;
}

template <Interval I> Eigen::MatrixXd mid(const IMatrix<I>& A) {
    Eigen::MatrixXd M(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) M(i, j) = flowcert::mid(A(i, j));
    return M;
}
template <Interval I> Eigen::VectorXd mid(const IVector<I>& v) {
    Eigen::VectorXd m(v.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) m(i) = flowcert::mid(v(i));
    return m;
}
template <Interval I> Eigen::MatrixXd rad(const IMatrix<I>& A) {
    Eigen::MatrixXd M(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) M(i, j) = flowcert::rad(A(i, j));
    return M;
}
template <Interval I> Eigen::MatrixXd mag(const IMatrix<I>& A) {
    Eigen::MatrixXd M(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) M(i, j) = flowcert::mag(A(i, j));
    return M;
}
template <Interval I> Eigen::VectorXd mag(const IVector<I>& v) {
    Eigen::VectorXd m(v.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) m(i) = flowcert::mag(v(i));
    return m;
}

template <Interval I> I mid_point_of(const I& x) { return point_inside(x); }
template <Interval I> IVector<I> mid_point_of(const IVector<I>& v) {
    IVector<I> r(v.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) r(i) = point_inside(v(i));
    return r;
}
template <Interval I> IMatrix<I> mid_point_of(const IMatrix<I>& A) {
    IMatrix<I> r(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) r(i, j) = point_inside(A(i, j));
    return r;
}

template <Interval I> long working_precision(const IMatrix<I>& A) {
    long p = 53;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) p = std::max(p, precision(A(i, j)));
    return p;
}
template <Interval I> long working_precision(const IVector<I>& v) {
    long p = 53;
    for (Eigen::Index i = 0; i < v.size(); ++i) p = std::max(p, precision(v(i)));
    return p;
}

template <Interval I> IMatrix<I> identity(Eigen::Index n, long bits) {
    IMatrix<I> E(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) E(i, j) = IntervalTraits<I>::from_integer(i == j ? 1 : 0, bits);
    return E;
}

template <Interval I> IMatrix<I> hull(const IMatrix<I>& A, const IMatrix<I>& B) {
    if (A.rows() != B.rows() || A.cols() != B.cols()) throw std::invalid_argument("linalg::hull: size mismatch");
    IMatrix<I> H(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) H(i, j) = flowcert::hull(A(i, j), B(i, j));
    return H;
}
template <Interval I> IVector<I> hull(const IVector<I>& a, const IVector<I>& b) {
    if (a.size() != b.size()) throw std::invalid_argument("linalg::hull: size mismatch");
    IVector<I> h(a.size());
    for (Eigen::Index i = 0; i < a.size(); ++i) h(i) = flowcert::hull(a(i), b(i));
    return h;
}

template <Interval I> bool subset(const IMatrix<I>& inner, const IMatrix<I>& outer) {
    if (inner.rows() != outer.rows() || inner.cols() != outer.cols()) return false;
    for (Eigen::Index j = 0; j < inner.cols(); ++j)
        for (Eigen::Index i = 0; i < inner.rows(); ++i)
            if (!flowcert::subset(inner(i, j), outer(i, j))) return false;
    return true;
}
template <Interval I> bool subset(const IVector<I>& inner, const IVector<I>& outer) {
    if (inner.size() != outer.size()) return false;
    for (Eigen::Index i = 0; i < inner.size(); ++i)
        if (!flowcert::subset(inner(i), outer(i))) return false;
    return true;
}
template <Interval I> bool interior_subset(const IVector<I>& inner, const IVector<I>& outer) {
    if (inner.size() != outer.size()) return false;
    for (Eigen::Index i = 0; i < inner.size(); ++i)
        if (!strictly_inside(inner(i), outer(i))) return false;
    return true;
}
template <Interval I> bool intersect(const IVector<I>& a, const IVector<I>& b, IVector<I>& out) {
    if (a.size() != b.size()) return false;
    IVector<I> r(a.size());
    for (Eigen::Index i = 0; i < a.size(); ++i)
        if (!flowcert::intersect(a(i), b(i), r(i))) return false;
    out = std::move(r);
    return true;
}
template <Interval I> bool contains(const IMatrix<I>& A, const Eigen::MatrixXd& M) {
    if (A.rows() != M.rows() || A.cols() != M.cols()) return false;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i)
            if (!flowcert::contains(A(i, j), M(i, j))) return false;
    return true;
}
template <Interval I> bool contains(const IVector<I>& a, const Eigen::VectorXd& v) {
    if (a.size() != v.size()) return false;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        if (!flowcert::contains(a(i), v(i))) return false;
    return true;
}

template <Interval I> double max_width(const IMatrix<I>& A) {
    double w = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) w = std::max(w, flowcert::width(A(i, j)));
    return w;
}
template <Interval I> double max_width(const IVector<I>& v) {
    double w = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i) w = std::max(w, flowcert::width(v(i)));
    return w;
}

template <Interval I> double norm_inf_upper(const IMatrix<I>& A) {
    double n = 0;
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        double s = 0;
        for (Eigen::Index j = 0; j < A.cols(); ++j) s = add_up(s, flowcert::mag(A(i, j)));
        n = std::max(n, s);
    }
    return n;
}
template <Interval I> double norm_inf_upper(const IVector<I>& v) {
    double n = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i) n = std::max(n, flowcert::mag(v(i)));
    return n;
}
template <Interval I> double norm_1_upper(const IMatrix<I>& A) {
    double n = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
        double s = 0;
        for (Eigen::Index i = 0; i < A.rows(); ++i) s = add_up(s, flowcert::mag(A(i, j)));
        n = std::max(n, s);
    }
    return n;
}
template <Interval I> double norm_frobenius_upper(const IMatrix<I>& A) {
    double s = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) {
            const double m = flowcert::mag(A(i, j));
            s = add_up(s, mul_up(m, m));
        }
    return rounding::sqrt(s, +1);
}
template <Interval I> bool all_bounded(const IMatrix<I>& A) {
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i)
            if (!flowcert::is_bounded(A(i, j))) return false;
    return true;
}
template <Interval I> bool all_bounded(const IVector<I>& v) {
    for (Eigen::Index i = 0; i < v.size(); ++i)
        if (!flowcert::is_bounded(v(i))) return false;
    return true;
}

template <Interval I> IMatrix<I> mul(const IMatrix<I>& A, const IMatrix<I>& B) {
    if (A.cols() != B.rows()) throw std::invalid_argument("linalg::mul: inner dimensions differ");
    IMatrix<I> C(A.rows(), B.cols());
    for (Eigen::Index j = 0; j < B.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) {
            I s = A.cols() > 0 ? A(i, 0) * B(0, j) : I(0);
            for (Eigen::Index k = 1; k < A.cols(); ++k) s += A(i, k) * B(k, j);
            C(i, j) = std::move(s);
        }
    return C;
}
template <Interval I> IVector<I> mul(const IMatrix<I>& A, const IVector<I>& x) {
    if (A.cols() != x.size()) throw std::invalid_argument("linalg::mul: inner dimensions differ");
    IVector<I> y(A.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        I s = A.cols() > 0 ? A(i, 0) * x(0) : I(0);
        for (Eigen::Index k = 1; k < A.cols(); ++k) s += A(i, k) * x(k);
        y(i) = std::move(s);
    }
    return y;
}

FLOWCERT_LINALG_MATRIX_DECLARE(IntervalD, )
FLOWCERT_LINALG_MATRIX_DECLARE(IntervalMp, )

}  // namespace flowcert::linalg
