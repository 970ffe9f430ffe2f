// flowcert/proofs/rh/box_affine.hpp -- the first-order (affine in E) form of the GD map on the Gram box, and the
// subdivided box certificate (issue 17 item 1; docs/rh.md#affine-form-and-subdivision).
//
// [DERIVED] A (sub-)box B of symmetric normalized Gram matrices I + E gives every entry i <= j its own range
// [l_ij, u_ij]; write G_ij = g_ij + r_ij e_ij with the midpoint g_ij, the radius r_ij and one noise symbol
// e_ij in [-1, 1] per unordered pair (G_ji uses the same symbol: only symmetric members, which every Gram
// matrix is). A quantity q(E) of GD (a^_i(k), beta_i(k)) is carried as an affine form
//   q(e) in c_0 + sum_s c_s e_s + [-R, R]   for every e in [-1, 1]^N, N = n (n + 1) / 2,
// with interval coefficients c_0, c_s (the rounding of the double arithmetic is in them) and a remainder R >= 0
// that encloses the nonlinear part; after each GD step every remainder becomes a fresh symbol (standard affine
// arithmetic), so that the contraction of GD acts on it too. Sums are exact on the forms; a product with a Gram entry g + r e_t gives
// g q + r c_0 e_t plus |r| (sum_s |c_s| + R) + |g| R in the remainder (the term r e_t (sum_s c_s e_s + rem)).
// So the first-order dependence on the n (n - 1) / 2 off-diagonal coordinates is kept exactly (it cancels
// between steps, which the interval GD of nets::rh::gd_step cannot see) and only second-order terms wrap.
// The tail certificate, the limit and the ball around w_P are then the interval ones of tail.hpp and
// w_star_ball.hpp on the sub-box's interval hull (they enclose their results for every member).
//
// Subdivision: a sub-box that fails (a sign lost in GD, a tail margin, the ball) is bisected in the
// coordinate whose first-order coefficient in the failing quantity is largest (the affine form says which
// coordinate matters), up to a budget of sub-boxes; the box is certified when every leaf is, and the band is
// the hull of the leaves' bands.
#pragma once

#include <flowcert/proofs/rh/box.hpp>
#include <flowcert/proofs/rh/stabilization.hpp>
#include <flowcert/proofs/rh/w_star_ball.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::rh {

// A sub-box: the range of (I + E)_ij for i <= j, packed (symbol index s = pair_index(n, i, j)).
struct GramBox {
    int n = 0;
    std::vector<IntervalD> entry;
    const IntervalD& at(int i, int j) const;
    linalg::IMatrixD hull() const;  // the interval n x n matrix (symmetric), for the tail and the ball
};
int pair_index(int n, int i, int j);
GramBox whole_box(const BoxSpec& spec);  // diag in [1 - kappa, 1 + kappa], off-diagonal in [-eps, eps]

// An affine form in the noise symbols of one GramBox (see above).
struct AffineForm {
    IntervalD c0;
    std::vector<IntervalD> c;  // one coefficient per symbol
    double rem = 0;            // remainder radius (an upper bound)
    IntervalD range() const;   // c0 + sum_s c_s [-1, 1] + [-rem, rem]
};

// The affine GD iteration (m = 1, span init, u = 0) on a sub-box: a^(0) = c~ 1, beta = G a^, and with the
// pattern D of step k: r = D (beta - y), a^ <- a^ - h r, beta <- beta - h G r (docs/rh.md#box-certificate).
class AffineIteration final : public GdIteration {
public:
    AffineIteration(const Instance& box_inst, const GramBox& box);
    void enclose(std::vector<IVec>& a, std::vector<IVec>& beta) const override;
    void step(const Pattern& P) override;
    const AffineForm& beta(int i) const { return beta_[i]; }
    const AffineForm& a(int i) const { return a_[i]; }
    bool drop_remainder = false;  // tests only: forget the nonlinear part (unsound; the teeth test)

private:
    AffineForm times_gram_row(int i, const std::vector<AffineForm>& v, const Pattern& P) const;
    const Instance& inst_;
    GramBox box_;
    std::vector<double> mid_, rad_;  // per symbol: G = mid + rad e (rad an upper bound)
    std::vector<AffineForm> a_, beta_;
    std::size_t symbols_ = 0;  // box coordinates first, then one fresh symbol per remainder and step
};

// One sub-box run: the affine GD until the tail certificate, then the ball around w_P.
struct BoxLeaf {
    GramBox box;
    PatternResult pattern;
    WStarBall ball;
    bool certified = false;
    int split_symbol = -1;  // where to bisect when not certified (largest first-order coefficient)
    std::string failure;
};
BoxLeaf certify_sub_box(const BoxSpec& spec, const GramBox& box, const GdOptions& options);

struct BoxCertificate {
    std::vector<BoxLeaf> leaves;  // the certified leaves (all of them when status is proven) and the failed one
    ProofResult status = ProofResult::not_proven("not run");
    int boxes_run = 0;            // sub-boxes run (leaves and split ones)
    // Aggregates over the leaves for the report: the pattern steps (the largest K and tail step, the largest rho,
    // the smallest margin, the common final pattern) and the ball (hull of the bands, radii, distances).
    PatternResult pattern;
    WStarBall ball;
};
// Certify the box of spec, bisecting failed sub-boxes up to max_boxes sub-boxes run (1: no subdivision).
BoxCertificate certify_box(const BoxSpec& spec, const GdOptions& options, int max_boxes);

}  // namespace flowcert::proofs::rh
