// Verified linear solve / inverse (Krawczyk operator with epsilon-inflation); see solve.hpp.
#include "detail.hpp"

#include <algorithm>
#include <stdexcept>

namespace flowcert::linalg {

namespace {

// Y = X widened entrywise by rel * width + abs [Rump 1994, Sec. 3 (epsilon-inflation)].
template <Interval I> IMatrix<I> inflate_matrix(const IMatrix<I>& X, double rel, double abs) {
    IMatrix<I> Y(X.rows(), X.cols());
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            Y(i, j) = flowcert::inflate(X(i, j), detail::add_up(detail::mul_up(rel, width(X(i, j))), abs));
    return Y;
}

template <Interval I> bool intersect_matrix(const IMatrix<I>& A, const IMatrix<I>& B, IMatrix<I>& out) {
    IMatrix<I> r(A.rows(), A.cols());
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i)
            if (!flowcert::intersect(A(i, j), B(i, j), r(i, j))) return false;
    out = std::move(r);
    return true;
}

// Points x~ (exact, at precision p) approximating A^{-1} B: R mid(B) refined by residual
// iteration x~ <- x~ + R mid(B - A x~), the residual evaluated in interval arithmetic at the
// working precision (NOT rigorous and need not be: only a good centre).
template <Interval I>
IMatrix<I> approximate_solution(const IMatrix<I>& A, const IMatrix<I>& B, const Eigen::MatrixXd& R, long p,
                                int refinements) {
    IMatrix<I> xt = to_interval<I>(Eigen::MatrixXd(R * mid<I>(B)), p);
    const IMatrix<I> Amid = mid_point_of<I>(A), Bmid = mid_point_of<I>(B);
    for (int it = 0; it < refinements; ++it) {
        const IMatrix<I> res = Bmid - detail::product(Amid, xt);
        const Eigen::MatrixXd d = R * mid<I>(res);
        if (!d.allFinite()) break;
        xt = mid_point_of<I>(IMatrix<I>(xt + to_interval<I>(d, p)));
    }
    return xt;
}

template <Interval I>
SolveMatrixResult<I> solve_impl(const IMatrix<I>& A, const IMatrix<I>& B, const SolveOptions& opt) {
    SolveMatrixResult<I> out;
    const Eigen::Index n = A.rows();
    if (A.cols() != n) { out.reason = "matrix is not square"; return out; }
    if (B.rows() != n) { out.reason = "right-hand side has the wrong number of rows"; return out; }
    if (!all_bounded(A) || !all_bounded(B)) { out.reason = "unbounded entries in the matrix or right-hand side"; return out; }
    const long p = std::max(working_precision<I>(A), working_precision<I>(B));

    std::string why;
    const auto R = detail::approximate_inverse(mid<I>(A), why);  // not rigorous (need not be)
    if (!R) { out.reason = why; return out; }

    const IMatrix<I> xt = approximate_solution<I>(A, B, *R, p, opt.refinements);
    // z = R (b - A x~) and C = I - R A, rigorous.                        [Rump 1994, Thm 2.1]
    const IMatrix<I> z = detail::product(*R, IMatrix<I>(B - detail::product(A, xt)), p);
    const IMatrix<I> C = identity<I>(n, p) - detail::product(*R, A, p);
    out.contraction_bound = norm_inf_upper<I>(C);

    IMatrix<I> X = z;
    for (int k = 0; k <= opt.max_inflations; ++k) {
        const IMatrix<I> Y = inflate_matrix<I>(X, opt.inflation_rel, opt.inflation_abs);
        IMatrix<I> Xn = z + detail::product(C, Y);
        out.inflations = k;
        if (!all_bounded<I>(Xn)) break;
        if (detail::interior_subset_matrix<I>(Xn, Y)) {
            // Proven: every A in A is nonsingular and A^{-1} b - x~ ∈ Xn. Tighten: every solution
            // offset stays in (z + C X) ∩ X.
            for (int s = 0; s < opt.tighten_steps; ++s) {
                IMatrix<I> T;
                if (!intersect_matrix<I>(IMatrix<I>(z + detail::product(C, Xn)), Xn, T)) break;  // cannot happen
                Xn = std::move(T);
            }
            out.X = xt + Xn;
            out.status = ProofStatus::proven;
            out.reason = "Krawczyk inclusion z + C Y ⊂ int(Y) holds (||I - R A||_inf <= " +
                         format_g(out.contraction_bound, 3) + ", " + std::to_string(k) + " inflation steps)";
            return out;
        }
        X = std::move(Xn);
    }
    out.reason = "Krawczyk contraction failed: z + C Y not inside int(Y) after " +
                 std::to_string(opt.max_inflations) + " inflation steps (||I - R A||_inf <= " +
                 format_g(out.contraction_bound, 3) +
                 (out.contraction_bound >= 1 ? ", >= 1: A is too wide or too ill-conditioned)" : ")");
    return out;
}

}  // namespace

template <Interval I>
SolveResult<I> verified_solve(const IMatrix<I>& A, const IVector<I>& b, const SolveOptions& options) {
    const IMatrix<I> B = b;
    SolveMatrixResult<I> m = solve_impl<I>(A, B, options);
    SolveResult<I> out;
    out.status = m.status;
    out.reason = std::move(m.reason);
    out.contraction_bound = m.contraction_bound;
    out.inflations = m.inflations;
    if (m.status == ProofStatus::proven) out.x = m.X.col(0);
    return out;
}

template <Interval I>
SolveMatrixResult<I> verified_solve(const IMatrix<I>& A, const IMatrix<I>& B, const SolveOptions& options) {
    return solve_impl<I>(A, B, options);
}

template <Interval I> SolveMatrixResult<I> verified_inverse(const IMatrix<I>& A, const SolveOptions& options) {
    if (A.rows() != A.cols()) {
        SolveMatrixResult<I> out;
        out.reason = "matrix is not square";
        return out;
    }
    return solve_impl<I>(A, identity<I>(A.rows(), working_precision<I>(A)), options);
}

template SolveResult<IntervalD> verified_solve(const IMatrixD&, const IVectorD&, const SolveOptions&);
template SolveResult<IntervalMp> verified_solve(const IMatrixMp&, const IVectorMp&, const SolveOptions&);
template SolveMatrixResult<IntervalD> verified_solve(const IMatrixD&, const IMatrixD&, const SolveOptions&);
template SolveMatrixResult<IntervalMp> verified_solve(const IMatrixMp&, const IMatrixMp&, const SolveOptions&);
template SolveMatrixResult<IntervalD> verified_inverse(const IMatrixD&, const SolveOptions&);
template SolveMatrixResult<IntervalMp> verified_inverse(const IMatrixMp&, const SolveOptions&);

}  // namespace flowcert::linalg
