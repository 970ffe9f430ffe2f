// flowcert/nets/square_net_gd.hpp -- rigorous gradient descent of the square net H(x) = v^T (W x)^2 with
// shared-matrix coupling [KH2025, Fig. 1; eq. (2) discretized as the authors' full-batch GD].
//
// Loss L = c sum_i r_i^2, r_i = H(x_i) - y_i. Every neuron couples to the others only through the d x d matrix
// M(r) = sum_i r_i x_i x_i^T, and one GD step of size h is, for every neuron j at once (old values on the right):
//     w_j <- w_j - a v_j M(r) w_j,     v_j <- v_j - b w_j^T M(r) w_j,     a = 4 c h,  b = 2 c h.
// The box neurons enter the residuals through A_box = sum_j v_j w_j w_j^T (r_i = x_i^T A x_i - y_i), so a step costs
// O(m d^2 + n d^2) (A_box, M, the updates) plus O(k n d + k^2 n d^2 + (k d)^3) for k Lohner neurons.
//
// Two representations of a neuron, chosen per neuron (any choice is sound; only the widths differ):
//  * box: (w_j, v_j) as an interval box, updated by the formulas above in interval arithmetic (the small
//    neurons, whose rates are O(|w_j|) and whose wrapping stays small);
//  * Lohner: the states s_j = (w_j, v_j) of all Lohner neurons together, s in R^{k (d+1)}, kept as s^ + B q with
//    a double centre s^, a double frame B and an interval box q [R. J. Lohner 1987, QR variant]; one step is
//    the mean-value form
//        F(s) in F(s^; E) + DF(S; E) B q,   S = s^ + B q the hull, E the box of the box neurons' residual part,
//    with the new frame from a QR factorization of mid(DF B) (linalg::orthogonal_basis, rigorous Q^{-1}).
//    The Jacobian blocks (z_j = X^T w_j, r the residuals, [j=l] the Kronecker delta):
//        dF_wj/dw_l = [j=l](I - a v_j M) - 2 a v_j v_l X diag(z_j z_l) X^T,
//        dF_wj/dv_l = -[j=l] a M w_j - a v_j X (z_j z_l^2),
//        dF_vj/dw_l = -[j=l] 2 b M w_j - 2 b v_l X (z_l z_j^2),
//        dF_vj/dv_l = [j=l] - b sum_i z_li^2 z_ji^2.
//    An active neuron near a saddle has dF_w/dw = I - (rank-one-like PSD), whose absolute value |I - P| has
//    spectral radius ~ 1 + |P| (|u|_1^2 - 1) > 1: a box would grow by tens of percent per step on the plateau;
//    and two large neurons coupled through M need the joint frame (boxes of each other's residual part wrap).
//    A box neuron whose midpoint norm exceeds `promote_norm` becomes a Lohner neuron (B = I, q = box - s^).
//
// The conserved quantity C_j = |w_j|^2 - 2 v_j^2 of the flow changes per GD step by exactly
//     C_j' - C_j = a^2 v_j^2 |M w_j|^2 - 2 b^2 (w_j^T M w_j)^2        (using a = 2b),
// which the engine encloses and accumulates as a CHECK of the enclosures (never used to tighten them).
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/linalg.hpp>

#include <Eigen/Core>

#include <string>
#include <vector>

namespace flowcert::nets {

struct SquareNetGdOptions {
    double promote_norm = 0.02;     // box -> Lohner when sqrt(|w_j|^2 + v_j^2) (midpoint) exceeds this
    std::vector<int> lohner_from_start;  // neurons tracked in a Lohner frame from step 0
    // TEST ONLY, UNSOUND ("teeth"): drop dF_w/dv and dF_v/dw from the Lohner Jacobian.
    bool test_only_drop_cross_derivatives_UNSOUND = false;
};

enum class GdStepStatus { ok, failed };

// The rigorous GD iteration from the box (W0, v0) (W0: m x d, rows w_j; v0: m).
class SquareNetGd {
public:
    SquareNetGd(Eigen::MatrixXd X, Eigen::VectorXd y, IntervalD c, IntervalD h, const linalg::IMatrixD& W0,
                const linalg::IVectorD& v0, SquareNetGdOptions options = {});

    // One GD step. `failed` (with reason()) when an enclosure became unbounded or a Q^{-1} was not proven;
    // the state is then unusable.
    GdStepStatus step();
    long iteration() const { return iteration_; }
    const std::string& reason() const { return reason_; }

    int neurons() const { return static_cast<int>(is_lohner_.size()); }
    int input_dim() const { return static_cast<int>(X_.rows()); }
    // Enclosures at the current iterate.
    IntervalD loss() const { return loss_; }
    const linalg::IVectorD& residuals() const { return r_; }
    const linalg::IMatrixD& shared_matrix() const { return M_; }  // M(r) over the current hulls
    linalg::IVectorD neuron(int j) const;                         // hull of (w_j, v_j), size d + 1
    linalg::IMatrixD weights() const;                             // hull of W (m x d)
    linalg::IVectorD output_weights() const;                      // hull of v
    bool is_lohner(int j) const { return is_lohner_[static_cast<std::size_t>(j)]; }
    int lohner_count() const;
    double max_width() const;  // largest width of any parameter hull
    // C_j over the current hull, and C_j(0) + the enclosed drifts of all steps so far; both contain the true
    // C_j of the iterate, so an empty intersection exposes a bug.
    IntervalD conserved(int j) const;
    IntervalD conserved_prediction(int j) const { return conserved_pred_[static_cast<std::size_t>(j)]; }
    bool conserved_consistent() const;

private:
    struct Frame {  // s = centre + B q
        Eigen::VectorXd centre;
        Eigen::MatrixXd B;
        linalg::IVectorD q;
    };
    void evaluate();  // r_, M_, loss_, Z_ (projections) from the current state
    void promote(int j);

    Eigen::MatrixXd X_;
    linalg::ExactMatrix Xe_;  // X_ with |X| cached for the mid-rad products X g
    Eigen::VectorXd y_;
    linalg::OuterProductTable K_;  // x_ki x_li (k <= l) exactly: M(r) and x_i^T A x_i as mid-rad products
    IntervalD c_, h_, a_, b_;
    SquareNetGdOptions options_;
    long iteration_ = 0;
    std::string reason_;

    std::vector<bool> is_lohner_;
    linalg::IMatrixD Wbox_;  // m x d (rows of Lohner neurons unused)
    linalg::IVectorD vbox_;
    Frame frame_;              // joint frame of the Lohner neurons, blocks of d + 1 in the order of lohner_
    std::vector<int> lohner_;

    // Cached at the current iterate by evaluate().
    linalg::IMatrixD Whull_;    // m x d
    linalg::IVectorD vhull_;
    linalg::IMatrixD Z_;        // k x n: z_ji = w_j^T x_i over the hulls of the Lohner neurons (order of lohner_)
    linalg::IVectorD E_;        // n: x_i^T A_box x_i - y_i, the box neurons' part of the residuals
    linalg::IVectorD r_;
    linalg::IMatrixD M_;
    IntervalD loss_;
    std::vector<IntervalD> conserved_pred_;
};

// One plain double GD step of the same shape (NON-RIGOROUS; the baseline of the benchmark and the
// plain run of the report): W, v updated in place. Returns the loss at the old iterate.
double square_net_gd_step_double(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double c, double h,
                                 Eigen::MatrixXd& W, Eigen::VectorXd& v);

}  // namespace flowcert::nets
