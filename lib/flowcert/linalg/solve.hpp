// flowcert/linalg/solve.hpp -- verified solution of interval linear systems and verified inverse.
//
// Algorithm (Krawczyk operator with epsilon-inflation):
//   R ~ inv(mid A) computed in double (not rigorous, not needed to be), x~ ~ R mid(b) refined by
//   a few residual iterations (at the working precision for IntervalMp); then with
//   z = R (b - A x~) and C = I - R A (both interval, rigorous), look for an interval vector Y with
//   z + C Y ⊂ interior(Y). Then R and every A in A are nonsingular and, for every A in A and
//   b in b, the unique solution of A x = b lies in x~ + z + C Y
//   [S. M. Rump, "Verification methods for dense and sparse systems of equations", in
//    Topics in Validated Computations (J. Herzberger, ed.), Elsevier 1994, Thm 2.1;
//    R. Krawczyk, Computing 4 (1969) 187-201]. Y is grown by epsilon-inflation
//   Y_{k+1} = hull-inflate(z + C Y_k) [Rump 1994, Sec. 3]. After success the enclosure is
//   tightened by the intersection iteration X <- (z + C X) ∩ X, which keeps every solution.
//
// For IntervalMp the preconditioner R is still double (so ||I - R A|| is about cond(A) 2^-53 and
// systems with cond(A) up to roughly 1e15 are proven), but x~ is refined at the working
// precision, so the enclosure width is about ||I - R A|| * |residual| and reaches the working
// precision after a few refinements.
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <string>

#include "matrix.hpp"

namespace flowcert::linalg {


struct SolveOptions {
    int max_inflations = 12;    // epsilon-inflation steps before giving up
    int refinements = 3;        // residual iterations for x~ (more for IntervalMp help: 1 per 50 bits)
    int tighten_steps = 3;      // intersection steps after success
    double inflation_rel = 0.1; // Y <- X + [-1, 1] (inflation_rel |X - mid X| + inflation_abs)
    double inflation_abs = 1e-300;
};

template <Interval I>
struct SolveResult {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    // When proven: for every A in A and b in b the unique solution of A x = b lies in x
    // (matrix version: every column). Otherwise empty.
    IVector<I> x;
    double contraction_bound = 0;  // upper bound on ||I - R A||_inf (inf if not computed)
    int inflations = 0;            // epsilon-inflation steps used
};
template <Interval I>
struct SolveMatrixResult {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    IMatrix<I> X;  // when proven: A^{-1} B ⊆ X for every A in A, B in B
    double contraction_bound = 0;
    int inflations = 0;
};

// Proves that every A in A is nonsingular and encloses { A^{-1} b : A in A, b in b }.
// Returns not_proven with a reason when A is not square / sizes mismatch, has unbounded
// entries, mid(A) is numerically singular ("midpoint matrix numerically singular"), or the
// Krawczyk test fails ("Krawczyk contraction failed: ||I - R A||_inf <= ... after k
// inflations"), e.g. because A contains (or nearly contains) a singular matrix.
template <Interval I>
SolveResult<I> verified_solve(const IMatrix<I>& A, const IVector<I>& b, const SolveOptions& options = {});
// Several right-hand sides at once (columns of B).
template <Interval I>
SolveMatrixResult<I> verified_solve(const IMatrix<I>& A, const IMatrix<I>& B, const SolveOptions& options = {});
// Verified inverse: encloses A^{-1} for every A in A (solve with B = I).
template <Interval I>
SolveMatrixResult<I> verified_inverse(const IMatrix<I>& A, const SolveOptions& options = {});

extern template SolveResult<IntervalD> verified_solve(const IMatrixD&, const IVectorD&, const SolveOptions&);
extern template SolveResult<IntervalMp> verified_solve(const IMatrixMp&, const IVectorMp&, const SolveOptions&);
extern template SolveMatrixResult<IntervalD> verified_solve(const IMatrixD&, const IMatrixD&, const SolveOptions&);
extern template SolveMatrixResult<IntervalMp> verified_solve(const IMatrixMp&, const IMatrixMp&,
                                                             const SolveOptions&);
extern template SolveMatrixResult<IntervalD> verified_inverse(const IMatrixD&, const SolveOptions&);
extern template SolveMatrixResult<IntervalMp> verified_inverse(const IMatrixMp&, const SolveOptions&);

}  // namespace flowcert::linalg
