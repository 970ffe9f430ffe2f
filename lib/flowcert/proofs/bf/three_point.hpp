// flowcert/proofs/bf/three_point.hpp -- the geometry of three-point data in d = 2 used by
// [BF2025, Sec. 4, Lemma 8 proof] and by the trapping argument of docs/bf.md#step-0: which point is the
// middle one (inside the open cone of the other two), and the constants of the data at theta = 0 that the
// trap needs (X, |x_k|, <x_k, x_l>, y, the least-squares residuals r*, H = X^T X / n, lambda_min(H), the
// leverages x_k^T H^{-1} x_k, |beta*|, the middle point's coefficients alpha_1, alpha_3), computed exactly
// and then enclosed.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf/theorem2_data.hpp>

#include <array>
#include <cstddef>
#include <string>

namespace flowcert::proofs::bf {

// The canonical order of three points (step 0): order[1] is the middle point, x_m = alpha_1 x_a + alpha_3 x_b
// with alpha_1, alpha_3 > 0 (exact Cramer's rule), order[0] = a is the extreme point counter-clockwise of the
// middle one (det(x_m, x_a) > 0; the paper's x_1, "left") and order[2] = b the other one. Needs n = 3, d = 2,
// pairwise <x_k, x_l> > 0 (then one point always lies strictly inside the cone of the two others unless two
// are parallel).
struct ThreePointOrder {
    ProofResult geometry;                 // proven: pairwise positive correlation and a strict middle point
    std::array<std::size_t, 3> order{0, 1, 2};
    Rational alpha1, alpha3;        // x_middle = alpha1 x_order[0] + alpha3 x_order[2]
    bool identity() const { return order[0] == 0 && order[1] == 1 && order[2] == 2; }
};
ThreePointOrder three_point_order(const nets::AlignmentData& data);

// The data relabelled in the canonical order (x and y permuted; everything else unchanged).
nets::TwoLayerSpec reorder(const nets::TwoLayerSpec& spec, const std::array<std::size_t, 3>& order);

// H = X^T X / n as exact rationals and lambda_min(H) = det(H) / lambda_max(H) (no cancellation).
struct Gram2 {
    Rational p, q, r;  // H = [[p, q], [q, r]]
    Rational det() const { return p * r - q * q; }
};
Gram2 gram_over_n(const nets::AlignmentData& data);
IntervalMp lambda_min(const Gram2& H, long bits);

// The constants of three-point data (canonical order) that the trapping argument uses, enclosed.
struct ThreePointData {
    std::array<std::array<IntervalD, 2>, 3> X;
    std::array<IntervalD, 3> xnorm, y, rstar, prediction, lev;  // |x_k|, y_k, r*_k, x_k^T beta*, x_k^T H^{-1} x_k
    std::array<std::array<IntervalD, 3>, 3> gram;               // <x_k, x_l>
    IntervalD inv_n = IntervalD(1) / IntervalD(3);
    IntervalD lambda_min;                                       // of H = X^T X / n
    IntervalD beta_star_norm;                                   // |beta*|
    // x_2 = alpha1 x_1 + alpha3 x_3 (exact Cramer's rule, as in three_point_order, then enclosed) and
    // cross_middle[k] = det(x_k, x_2) (exact, enclosed; cross_middle[1] = 0)
    IntervalD alpha1, alpha3;
    std::array<IntervalD, 3> cross_middle;
};
// Needs n = 3, d = 2, the half-square loss and X of full rank (ls.ok); std::invalid_argument otherwise.
ThreePointData three_point_data(const nets::AlignmentData& data, const LeastSquares& ls, long bits);

}  // namespace flowcert::proofs::bf
