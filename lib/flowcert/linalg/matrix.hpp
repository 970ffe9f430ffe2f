// flowcert/linalg/matrix.hpp -- Eigen integration of the interval types, interval vectors and
// matrices, exact conversions from double, and entrywise helpers (hull, subset, widths, norms).
//
// Eigen sees IntervalD / IntervalMp through the NumTraits specializations below, so
// `IMatrix<I> C = A * B;` compiles and is rigorous (every scalar operation is an outward-rounded
// interval operation; the order Eigen chooses does not matter for containment). For IntervalD,
// `mul_midrad` (products.hpp) is the fast alternative.
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <Eigen/Core>

#include <flowcert/interval.hpp>

namespace Eigen {

// Interval scalars for Eigen. epsilon() / dummy_precision() are those of double (Eigen uses
// them only in approximate algorithms -- isApprox, pivot thresholds -- which flowcert never
// applies to interval matrices; use the verified routines of this layer instead).
template <>
struct NumTraits<flowcert::IntervalD> : GenericNumTraits<flowcert::IntervalD> {
    using Real = flowcert::IntervalD;
    using NonInteger = flowcert::IntervalD;
    using Literal = flowcert::IntervalD;
    using Nested = flowcert::IntervalD;
    enum {
        IsComplex = 0,
        IsInteger = 0,
        IsSigned = 1,
        RequireInitialization = 1,
        ReadCost = 2,
        AddCost = 8,
        MulCost = 16
    };
    static flowcert::IntervalD epsilon() { return flowcert::IntervalD::exact(0x1p-52); }
    static flowcert::IntervalD dummy_precision() { return flowcert::IntervalD::exact(1e-12); }
    static flowcert::IntervalD highest() { return flowcert::IntervalD::exact(flowcert::rounding::kMax); }
    static flowcert::IntervalD lowest() { return flowcert::IntervalD::exact(-flowcert::rounding::kMax); }
    static int digits10() { return 15; }
    static int digits() { return 53; }
};

template <>
struct NumTraits<flowcert::IntervalMp> : GenericNumTraits<flowcert::IntervalMp> {
    using Real = flowcert::IntervalMp;
    using NonInteger = flowcert::IntervalMp;
    using Literal = flowcert::IntervalMp;
    using Nested = flowcert::IntervalMp;
    enum {
        IsComplex = 0,
        IsInteger = 0,
        IsSigned = 1,
        RequireInitialization = 1,
        ReadCost = 8,
        AddCost = 64,
        MulCost = 128
    };
    static flowcert::IntervalMp epsilon() { return flowcert::IntervalMp::exact(0x1p-52, flowcert::Precision(53)); }
    static flowcert::IntervalMp dummy_precision() {
        return flowcert::IntervalMp::exact(1e-12, flowcert::Precision(53));
    }
    static flowcert::IntervalMp highest() {
        return flowcert::IntervalMp::exact(flowcert::rounding::kMax, flowcert::Precision(53));
    }
    static flowcert::IntervalMp lowest() {
        return flowcert::IntervalMp::exact(-flowcert::rounding::kMax, flowcert::Precision(53));
    }
    static int digits10() { return 15; }
    static int digits() { return 53; }
};

namespace internal {
// Eigen's gemv path evaluates `numext::imag(alpha) == RealScalar(0)` even for real scalars, and
// interval types have no bool comparisons by design. imag() of a real interval is exactly 0,
// so it is represented by a tag whose only comparison with an interval is that test.
struct IntervalZeroImag {};
template <> struct imag_retval<flowcert::IntervalD> { using type = IntervalZeroImag; };
template <> struct imag_retval<flowcert::IntervalMp> { using type = IntervalZeroImag; };
template <> struct imag_impl<flowcert::IntervalD> {
    static IntervalZeroImag run(const flowcert::IntervalD&) { return {}; }
};
template <> struct imag_impl<flowcert::IntervalMp> {
    static IntervalZeroImag run(const flowcert::IntervalMp&) { return {}; }
};
// True iff the interval is exactly [0, 0] (the imaginary part of a real interval is 0).
inline bool operator==(IntervalZeroImag, const flowcert::IntervalD& x) { return flowcert::is_point(x) && flowcert::contains(x, 0.0); }
inline bool operator==(IntervalZeroImag, const flowcert::IntervalMp& x) { return flowcert::is_point(x) && flowcert::contains(x, 0.0); }
}  // namespace internal

}  // namespace Eigen

namespace flowcert::linalg {

template <Interval I> using IVector = Eigen::Matrix<I, Eigen::Dynamic, 1>;
template <Interval I> using IMatrix = Eigen::Matrix<I, Eigen::Dynamic, Eigen::Dynamic>;
using IVectorD = IVector<IntervalD>;
using IMatrixD = IMatrix<IntervalD>;
using IVectorMp = IVector<IntervalMp>;
using IMatrixMp = IMatrix<IntervalMp>;

// ---- conversions ---------------------------------------------------------------------

// Each double taken as an exact binary number (point intervals). For IntervalMp at
// `bits` >= 53 the conversion is exact; below 53 bits it is rounded outward.
template <Interval I> IMatrix<I> to_interval(const Eigen::MatrixXd& M, long bits);
template <Interval I> IVector<I> to_interval(const Eigen::VectorXd& v, long bits);
inline IMatrixD to_interval(const Eigen::MatrixXd& M) { return to_interval<IntervalD>(M, 53); }
inline IVectorD to_interval(const Eigen::VectorXd& v) { return to_interval<IntervalD>(v, 53); }

// Approximate midpoints as doubles (NOT rigorous: for preconditioners and starting points).
// For IntervalD each entry lies inside its interval; for IntervalMp it is the nearest double
// to the midpoint.
template <Interval I> Eigen::MatrixXd mid(const IMatrix<I>& A);
template <Interval I> Eigen::VectorXd mid(const IVector<I>& v);
// Upper bounds on the entrywise radii about the midpoints `mid_point` below (for IntervalD:
// about `mid`), and on max |a| (magnitude) of each entry.
template <Interval I> Eigen::MatrixXd rad(const IMatrix<I>& A);
template <Interval I> Eigen::MatrixXd mag(const IMatrix<I>& A);
template <Interval I> Eigen::VectorXd mag(const IVector<I>& v);

// A point of each entry, as a point interval at the entry's own precision (the rounded
// midpoint; for both types the point lies inside the entry). Used as the centre x~ of
// Krawczyk operators, so it is exact, not merely approximate.
template <Interval I> I mid_point_of(const I& x);
template <Interval I> IVector<I> mid_point_of(const IVector<I>& v);
template <Interval I> IMatrix<I> mid_point_of(const IMatrix<I>& A);

// The largest precision (bits) among the entries; 53 for IntervalD and for empty matrices.
template <Interval I> long working_precision(const IMatrix<I>& A);
template <Interval I> long working_precision(const IVector<I>& v);

// n x n identity of point intervals at `bits`.
template <Interval I> IMatrix<I> identity(Eigen::Index n, long bits);

// ---- entrywise set operations ------------------------------------------------------------
template <Interval I> IMatrix<I> hull(const IMatrix<I>& A, const IMatrix<I>& B);
template <Interval I> IVector<I> hull(const IVector<I>& a, const IVector<I>& b);
// Entrywise inner ⊆ outer (false when sizes differ).
template <Interval I> bool subset(const IMatrix<I>& inner, const IMatrix<I>& outer);
template <Interval I> bool subset(const IVector<I>& inner, const IVector<I>& outer);
// Entrywise inner ⊂ interior(outer): every lower bound strictly above, every upper strictly below.
template <Interval I> bool interior_subset(const IVector<I>& inner, const IVector<I>& outer);
// Entrywise intersection; false if some pair of entries is disjoint (then `out` is unspecified).
template <Interval I> bool intersect(const IVector<I>& a, const IVector<I>& b, IVector<I>& out);
// Every entry of the double matrix M (exact binary numbers) lies in the matching entry of A.
template <Interval I> bool contains(const IMatrix<I>& A, const Eigen::MatrixXd& M);
template <Interval I> bool contains(const IVector<I>& a, const Eigen::VectorXd& v);
// Upper bound on the largest entry width.
template <Interval I> double max_width(const IMatrix<I>& A);
template <Interval I> double max_width(const IVector<I>& v);
// Upper bound on max over members M of A of ||M||_inf (maximal row sum of magnitudes),
// ||M||_1 and ||M||_F; +inf if an entry is unbounded.
template <Interval I> double norm_inf_upper(const IMatrix<I>& A);
template <Interval I> double norm_inf_upper(const IVector<I>& v);
template <Interval I> double norm_1_upper(const IMatrix<I>& A);
template <Interval I> double norm_frobenius_upper(const IMatrix<I>& A);
// Every entry bounded (no infinite endpoint).
template <Interval I> bool all_bounded(const IMatrix<I>& A);
template <Interval I> bool all_bounded(const IVector<I>& v);

// ---- rigorous interval products -------------------------------------------------------------
// Plain interval products (each entry is an outward-rounded interval dot product). Generic;
// for IntervalD see mul_midrad in products.hpp, which is much faster for large matrices.
template <Interval I> IMatrix<I> mul(const IMatrix<I>& A, const IMatrix<I>& B);
template <Interval I> IVector<I> mul(const IMatrix<I>& A, const IVector<I>& x);

// ---- explicit instantiations (lib/flowcert/linalg/matrix.cpp) ------------------------------
#define FLOWCERT_LINALG_MATRIX_DECLARE(I, EXTERN)                                                    \
    EXTERN template IMatrix<I> to_interval<I>(const Eigen::MatrixXd&, long);                         \
    EXTERN template IVector<I> to_interval<I>(const Eigen::VectorXd&, long);                         \
    EXTERN template Eigen::MatrixXd mid<I>(const IMatrix<I>&);                                       \
    EXTERN template Eigen::VectorXd mid<I>(const IVector<I>&);                                       \
    EXTERN template Eigen::MatrixXd rad<I>(const IMatrix<I>&);                                       \
    EXTERN template Eigen::MatrixXd mag<I>(const IMatrix<I>&);                                       \
    EXTERN template Eigen::VectorXd mag<I>(const IVector<I>&);                                       \
    EXTERN template I mid_point_of<I>(const I&);                                                     \
    EXTERN template IVector<I> mid_point_of<I>(const IVector<I>&);                                   \
    EXTERN template IMatrix<I> mid_point_of<I>(const IMatrix<I>&);                                   \
    EXTERN template long working_precision<I>(const IMatrix<I>&);                                    \
    EXTERN template long working_precision<I>(const IVector<I>&);                                    \
    EXTERN template IMatrix<I> identity<I>(Eigen::Index, long);                                      \
    EXTERN template IMatrix<I> hull<I>(const IMatrix<I>&, const IMatrix<I>&);                        \
    EXTERN template IVector<I> hull<I>(const IVector<I>&, const IVector<I>&);                        \
    EXTERN template bool subset<I>(const IMatrix<I>&, const IMatrix<I>&);                            \
    EXTERN template bool subset<I>(const IVector<I>&, const IVector<I>&);                            \
    EXTERN template bool interior_subset<I>(const IVector<I>&, const IVector<I>&);                   \
    EXTERN template bool intersect<I>(const IVector<I>&, const IVector<I>&, IVector<I>&);            \
    EXTERN template bool contains<I>(const IMatrix<I>&, const Eigen::MatrixXd&);                     \
    EXTERN template bool contains<I>(const IVector<I>&, const Eigen::VectorXd&);                     \
    EXTERN template double max_width<I>(const IMatrix<I>&);                                          \
    EXTERN template double max_width<I>(const IVector<I>&);                                          \
    EXTERN template double norm_inf_upper<I>(const IMatrix<I>&);                                     \
    EXTERN template double norm_inf_upper<I>(const IVector<I>&);                                     \
    EXTERN template double norm_1_upper<I>(const IMatrix<I>&);                                       \
    EXTERN template double norm_frobenius_upper<I>(const IMatrix<I>&);                               \
    EXTERN template bool all_bounded<I>(const IMatrix<I>&);                                          \
    EXTERN template bool all_bounded<I>(const IVector<I>&);                                          \
    EXTERN template IMatrix<I> mul<I>(const IMatrix<I>&, const IMatrix<I>&);                         \
    EXTERN template IVector<I> mul<I>(const IMatrix<I>&, const IVector<I>&);

FLOWCERT_LINALG_MATRIX_DECLARE(IntervalD, extern)
FLOWCERT_LINALG_MATRIX_DECLARE(IntervalMp, extern)

}  // namespace flowcert::linalg
