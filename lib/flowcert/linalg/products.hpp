// flowcert/linalg/products.hpp -- fast rigorous products for double data.
//
// The project's IntervalD never switches the hardware rounding mode, so the fast products here
// evaluate in round-to-nearest (Eigen's blocked double GEMM) and add an a priori bound on the
// rounding error of ANY evaluation order, in the spirit of
//   S. M. Rump, "Fast and parallel interval arithmetic", BIT 39 (1999) 534-554, and
//   T. Ogita, S. M. Rump, S. Oishi, "Verified solution of linear systems without directed
//   rounding", Tech. Rep. 2005-04, Waseda Univ. (a priori bounds in round-to-nearest).
// Bound used (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., Sec. 3.1,
// with the underflow term of Rump-Ogita-Oishi): for x, y in F^n and any summation order,
//   |fl(x^T y) - x^T y| <= gamma_n |x|^T |y| + n * eta,   gamma_n = n u / (1 - n u),
// u = 2^-53, eta = 2^-1074; fused multiply-adds only remove roundings, so the bound stays valid.
// The exact |x|^T|y| is itself bounded from the computed S~ = fl(|x|^T|y|) (nonnegative terms):
//   |x|^T |y| <= (S~ + n eta) / (1 - gamma_n).
// The final O(n^2) scalar bounds are evaluated with the error-free directed operations of
// flowcert::rounding, so no bound relies on a hopeful rounding margin.
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <Eigen/Core>

#include "matrix.hpp"

#include <utility>
#include <vector>

namespace flowcert::linalg {

// Rigorous upper bound on gamma_n = n u / (1 - n u) (u = 2^-53); +inf if n u >= 1/2.
double gamma_bound(long long n);

// Enclosure of the exact dot product x^T y of two double vectors, computed in double
// (one pass, any order) plus the a priori error bound above.
IntervalD dot_enclosure(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

// Enclosure of the exact product A * B of two double matrices (exact binary inputs): one
// double GEMM for fl(A B), one for fl(|A| |B|), then the bound above entrywise.
// Entries are [-inf, +inf] where a double result overflowed.
IMatrixD mul_enclosure(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

// Enclosure of the Gram matrix G = X X^T of the rows of X (n points x d features; d may be
// large, e.g. 1e5), computed as mul_enclosure but exploiting symmetry. G is symmetric
// entrywise (G(i,j) and G(j,i) are the same interval).
IMatrixD gram_enclosure(const Eigen::MatrixXd& X);

// Midpoint-radius product of interval matrices [Rump 1999, Sec. 2 / Thm 2.2 ("mid-rad
// multiplication")]: with A = <mA, rA>, B = <mB, rB>,
//   A * B ⊆ < mA mB, |mA| rB + rA (|mB| + rB) >,
// where fl(mA mB) and the radius are computed in double GEMMs and the rounding errors of both
// are bounded a priori (see above). Cost: four double GEMMs, versus O(n^3) interval operations
// for `mul`. Overestimation versus the exact interval product is at most a factor 1.5 in the
// radius [Rump 1999, Prop. 2.4] plus rounding terms.
IMatrixD mul_midrad(const IMatrixD& A, const IMatrixD& B);
IVectorD mul_midrad(const IMatrixD& A, const IVectorD& x);
// Product of an exact double matrix with an interval matrix (and the other way round), one
// GEMM cheaper than converting the double matrix first.
IMatrixD mul_midrad(const Eigen::MatrixXd& A, const IMatrixD& B);
IMatrixD mul_midrad(const IMatrixD& A, const Eigen::MatrixXd& B);

// An exact double matrix prepared for repeated mid-rad products with interval matrices: |A| is computed
// once (the fixed data matrices of an iteration, e.g. the inputs X and the exact products x_k x_l of
// nets/square_net_gd), so a product costs its GEMMs only (no O(size) abs pass and no large temporary per
// call). mul_midrad(ExactMatrix(A), B) returns the same enclosure as mul_midrad(A, B).
class ExactMatrix {
public:
    explicit ExactMatrix(Eigen::MatrixXd A);  // finite entries
    const Eigen::MatrixXd& value() const { return value_; }
    const Eigen::MatrixXd& abs() const { return abs_; }
    Eigen::Index rows() const { return value_.rows(); }
    Eigen::Index cols() const { return value_.cols(); }

private:
    Eigen::MatrixXd value_, abs_;
};
IMatrixD mul_midrad(const ExactMatrix& A, const IMatrixD& B);

// The products x_ki x_li of the columns x_i of a fixed d x n data matrix X, for k <= l only (d(d+1)/2 rows),
// as exact pairs hi + lo (TwoProduct, rounding.hpp) held as the interval matrix <hi, |lo|> with |hi| cached.
// Both uses below are mid-rad products with that fixed matrix [Rump 1999, Thm 2.2], so the per-call cost is
// the GEMMs over d(d+1)/2 rows (half of the d^2 of the full table, one product instead of one for hi and one
// for lo). Used by nets/square_net_gd for M(r) = X diag(r) X^T and x_i^T A x_i.
class OuterProductTable {
public:
    explicit OuterProductTable(const Eigen::MatrixXd& X);  // throws if a product cannot be split exactly
    Eigen::Index dim() const { return d_; }
    Eigen::Index points() const { return n_; }
    // X diag(g) X^T = sum_i g_i x_i x_i^T over the box g (size n); the result is symmetric entrywise.
    IMatrixD gram(const IVectorD& g) const;
    // The same for every column of G (n x c): c symmetric d x d matrices.
    std::vector<IMatrixD> grams(const IMatrixD& G) const;
    // (x_i^T A x_i)_i for every SYMMETRIC real A whose entries lie in the box A (d x d): the sum runs over
    // k <= l with the weight 2 off the diagonal, x^T A x = sum_k A_kk x_k^2 + 2 sum_{k<l} A_kl x_k x_l,
    // with A_kl taken from the intersection of the enclosures A(k,l) and A(l,k) (both contain the true entry).
    IVectorD quadratic_forms(const IMatrixD& A) const;
    // TEST ONLY, UNSOUND ("teeth"): drop the weight 2 of the off-diagonal terms in quadratic_forms.
    bool test_only_drop_offdiagonal_weight_UNSOUND = false;

private:
    Eigen::Index d_ = 0, n_ = 0;
    std::vector<std::pair<int, int>> pairs_;  // row r <-> (k, l), k <= l
    Eigen::MatrixXd hi_, lo_abs_, hi_abs_;     // d(d+1)/2 x n
    Eigen::MatrixXd hiT_, lo_absT_, hi_absT_;  // transposes (n x d(d+1)/2)
};

// Entrywise kernels in the same mid-rad form (centre in round-to-nearest, the a priori radius bound above,
// vectorized; no interval operation per entry), for the elementwise updates of nets/square_net_gd:
//   add_scaled_rows_midrad(W, s, G) encloses W + diag(s) G   (entries W_jk + s_j G_jk, all members),
//   rowwise_dot_midrad(A, B)        encloses (sum_k A_jk B_jk)_j.
IMatrixD add_scaled_rows_midrad(const IMatrixD& W, const IVectorD& s, const IMatrixD& G);
IVectorD rowwise_dot_midrad(const IMatrixD& A, const IMatrixD& B);

namespace detail {
// TEST ONLY ("teeth"): add_scaled_rows_midrad WITHOUT its rounding-error term (NOT rigorous).
IMatrixD add_scaled_rows_midrad_without_rounding_error_UNSOUND(const IMatrixD& W, const IVectorD& s, const IMatrixD& G);
// TEST ONLY ("teeth"): the midpoint-radius product WITHOUT the rounding-error term, which is
// NOT rigorous. tests/linalg shows that the containment check catches it.
IMatrixD mul_midrad_without_rounding_error_UNSOUND(const IMatrixD& A, const IMatrixD& B);
}  // namespace detail

}  // namespace flowcert::linalg
