// Rigorous GD of v^T (W x)^2 with shared-matrix coupling; see square_net_gd.hpp.
#include "flowcert/nets/square_net_gd.hpp"

#include <cmath>
#include <stdexcept>

namespace flowcert::nets {

namespace {

using linalg::IMatrixD;
using linalg::IVectorD;

}  // namespace

namespace {

// X g (d) over the box g.
IVectorD apply_inputs(const linalg::ExactMatrix& X, const IVectorD& g) {
    const IMatrixD G = g;
    return linalg::mul_midrad(X, G).col(0);
}

double hull_width(const IVectorD& x) {
    double w = 0;
    for (Eigen::Index i = 0; i < x.size(); ++i) w = std::max(w, width(x(i)));
    return w;
}

bool all_finite(const IVectorD& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i)
        if (!is_bounded(x(i))) return false;
    return true;
}

// centre + B q as an interval vector.
IVectorD frame_hull(const Eigen::VectorXd& centre, const Eigen::MatrixXd& B, const IVectorD& q) {
    const IMatrixD Q = q;
    IVectorD s = linalg::mul_midrad(B, Q).col(0);
    for (Eigen::Index k = 0; k < s.size(); ++k) s(k) = s(k) + IntervalD::exact(centre(k));
    return s;
}

}  // namespace

SquareNetGd::SquareNetGd(Eigen::MatrixXd X, Eigen::VectorXd y, IntervalD c, IntervalD h, const IMatrixD& W0,
                         const IVectorD& v0, SquareNetGdOptions options)
    : X_(std::move(X)), Xe_(X_), y_(std::move(y)), K_(X_), c_(c), h_(h), options_(std::move(options)) {
    const Eigen::Index m = W0.rows();
    if (W0.cols() != X_.rows() || v0.size() != m || y_.size() != X_.cols())
        throw std::invalid_argument("SquareNetGd: W0 must be m x d, v0 of size m, y of size n (X is d x n)");
    a_ = IntervalD(4) * c_ * h_;
    b_ = IntervalD(2) * c_ * h_;
    Wbox_ = W0;
    vbox_ = v0;
    is_lohner_.assign(static_cast<std::size_t>(m), false);
    frame_.B.resize(0, 0);
    for (int j : options_.lohner_from_start) {
        if (j < 0 || j >= m) throw std::invalid_argument("SquareNetGd: lohner_from_start index out of range");
        promote(j);
    }
    evaluate();
    conserved_pred_.resize(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) conserved_pred_[static_cast<std::size_t>(j)] = conserved(j);
}

void SquareNetGd::promote(int j) {
    const int d = input_dim(), K = static_cast<int>(frame_.centre.size());
    IVectorD s(d + 1);
    s.head(d) = Wbox_.row(j).transpose();
    s(d) = vbox_(j);
    // The frame grows by one identity block: s = centre_j + q_j with q_j = s - centre_j.
    Frame f;
    f.centre.resize(K + d + 1);
    f.centre.head(K) = frame_.centre;
    f.centre.tail(d + 1) = linalg::mid<IntervalD>(s);
    f.B = Eigen::MatrixXd::Zero(K + d + 1, K + d + 1);
    f.B.topLeftCorner(K, K) = frame_.B;
    f.B.bottomRightCorner(d + 1, d + 1) = Eigen::MatrixXd::Identity(d + 1, d + 1);
    f.q.resize(K + d + 1);
    f.q.head(K) = frame_.q;
    for (int k = 0; k <= d; ++k) f.q(K + k) = s(k) - IntervalD::exact(f.centre(K + k));
    frame_ = std::move(f);
    lohner_.push_back(j);
    is_lohner_[static_cast<std::size_t>(j)] = true;
}

IVectorD SquareNetGd::neuron(int j) const {
    const int d = input_dim();
    IVectorD s(d + 1);
    s.head(d) = Whull_.row(j).transpose();
    s(d) = vhull_(j);
    return s;
}
IMatrixD SquareNetGd::weights() const { return Whull_; }
IVectorD SquareNetGd::output_weights() const { return vhull_; }

int SquareNetGd::lohner_count() const {
    int k = 0;
    for (bool b : is_lohner_) k += b ? 1 : 0;
    return k;
}

double SquareNetGd::max_width() const {
    double w = hull_width(vhull_);
    for (Eigen::Index j = 0; j < Whull_.rows(); ++j) w = std::max(w, hull_width(Whull_.row(j).transpose()));
    return w;
}

IntervalD SquareNetGd::conserved(int j) const {
    IntervalD acc(0);
    for (Eigen::Index k = 0; k < Whull_.cols(); ++k) acc = acc + sqr(Whull_(j, k));
    return acc - IntervalD(2) * sqr(vhull_(j));
}

bool SquareNetGd::conserved_consistent() const {
    for (int j = 0; j < neurons(); ++j) {
        IntervalD out;
        if (!intersect(conserved(j), conserved_pred_[static_cast<std::size_t>(j)], out)) return false;
    }
    return true;
}

void SquareNetGd::evaluate() {
    const int m = neurons(), d = input_dim(), n = static_cast<int>(X_.cols());
    Whull_ = Wbox_;
    vhull_ = vbox_;
    if (!lohner_.empty()) {
        const IVectorD s = frame_hull(frame_.centre, frame_.B, frame_.q);
        for (std::size_t t = 0; t < lohner_.size(); ++t) {
            const int o = static_cast<int>(t) * (d + 1);
            Whull_.row(lohner_[t]) = s.segment(o, d).transpose();
            vhull_(lohner_[t]) = s(o + d);
        }
    }
    // Box neurons through A_box = sum_j v_j w_j w_j^T (d x d): E_i = x_i^T A_box x_i - y_i, O(m d^2 + n d^2).
    // VW = diag(v) W over the box rows (Lohner rows zero), one vectorized mid-rad kernel.
    IMatrixD Wb = Whull_;
    IVectorD vb = vhull_;
    for (int j = 0; j < m; ++j)
        if (is_lohner_[static_cast<std::size_t>(j)]) {
            Wb.row(j).setConstant(IntervalD(0));
            vb(j) = IntervalD(0);
        }
    const IMatrixD VW = linalg::add_scaled_rows_midrad(IMatrixD::Constant(m, d, IntervalD(0)), vb, Wb);
    const IMatrixD Abox = linalg::mul_midrad(IMatrixD(Wb.transpose()), VW);
    E_ = K_.quadratic_forms(Abox);
    for (int i = 0; i < n; ++i) E_(i) = E_(i) - IntervalD::exact(y_(i));
    // Lohner neurons: their projections z_ji (rows of Z_, in the order of lohner_) and contributions.
    const int ka = static_cast<int>(lohner_.size());
    IMatrixD Wl(ka, d);
    for (int t = 0; t < ka; ++t) Wl.row(t) = Whull_.row(lohner_[static_cast<std::size_t>(t)]);
    Z_ = ka ? linalg::mul_midrad(Wl, X_) : IMatrixD(0, n);
    r_ = E_;
    for (int t = 0; t < ka; ++t) {
        const IntervalD vt = vhull_(lohner_[static_cast<std::size_t>(t)]);
        for (int i = 0; i < n; ++i) r_(i) = r_(i) + vt * sqr(Z_(t, i));
    }
    IntervalD acc(0);
    for (int i = 0; i < n; ++i) acc = acc + sqr(r_(i));
    loss_ = c_ * acc;
    M_ = K_.gram(r_);
}

GdStepStatus SquareNetGd::step() {
    const int m = neurons(), d = input_dim(), n = static_cast<int>(X_.cols());
    const IntervalD one(1), two(2);

    // ---- box neurons: G = W M (rows M w_j), q_j = w_j^T M w_j -----------------------------------------------
    const IMatrixD G = linalg::mul_midrad(Whull_, M_);
    // q_j = w_j^T M w_j and |M w_j|^2 as row-wise mid-rad dot products; the box update w_j - a v_j (M w_j) as one
    // vectorized mid-rad kernel (linalg::add_scaled_rows_midrad).
    const IVectorD q = linalg::rowwise_dot_midrad(Whull_, G);
    const IVectorD g2 = linalg::rowwise_dot_midrad(G, G);
    // Conserved-quantity drift a^2 v^2 |M w|^2 - 2 b^2 q^2 (a check only).
    for (int j = 0; j < m; ++j)
        conserved_pred_[static_cast<std::size_t>(j)] =
            conserved_pred_[static_cast<std::size_t>(j)] + sqr(a_) * sqr(vhull_(j)) * g2(j) - two * sqr(b_) * sqr(q(j));
    IVectorD minus_av(m);
    for (int j = 0; j < m; ++j) minus_av(j) = -(a_ * vhull_(j));
    const IMatrixD Wstep = linalg::add_scaled_rows_midrad(Whull_, minus_av, G);
    IMatrixD Wnew = Wbox_;
    IVectorD vnew = vbox_;
    for (int j = 0; j < m; ++j) {
        if (is_lohner_[static_cast<std::size_t>(j)]) continue;
        Wnew.row(j) = Wstep.row(j);
        vnew(j) = vhull_(j) - b_ * q(j);
    }

    // ---- Lohner neurons: one joint frame, mean-value form ----------------------------------------------------
    if (!lohner_.empty()) {
        const int ka = static_cast<int>(lohner_.size()), K = ka * (d + 1);
        const IVectorD& E = E_;  // the residual part of the box neurons (and -y)
        // F at the centre: w^_j - a v^_j X (rc o zc_j), v^_j - b sum_i rc_i zc_ji^2, rc = sum_j v^_j zc_j^2 + E.
        Eigen::MatrixXd Wc(ka, d);
        for (int t = 0; t < ka; ++t) Wc.row(t) = frame_.centre.segment(t * (d + 1), d).transpose();
        const IMatrixD zc = linalg::mul_enclosure(Wc, X_);  // ka x n
        IVectorD rc = E;
        for (int t = 0; t < ka; ++t) {
            const IntervalD vt = IntervalD::exact(frame_.centre(t * (d + 1) + d));
            for (int i = 0; i < n; ++i) rc(i) = rc(i) + vt * sqr(zc(t, i));
        }
        IVectorD Fc(K);
        for (int t = 0; t < ka; ++t) {
            const int o = t * (d + 1);
            const IntervalD vt = IntervalD::exact(frame_.centre(o + d));
            IVectorD rz(n);
            IntervalD qc(0);
            for (int i = 0; i < n; ++i) {
                rz(i) = rc(i) * zc(t, i);
                qc = qc + rz(i) * zc(t, i);
            }
            const IVectorD Xrz = apply_inputs(Xe_, rz);
            for (int k = 0; k < d; ++k) Fc(o + k) = IntervalD::exact(frame_.centre(o + k)) - a_ * vt * Xrz(k);
            Fc(o + d) = vt - b_ * qc;
        }
        // DF over the hulls (z_j = row j of Z, M = M(r) over all hulls):
        //   dF_wj/dw_l = [j=l](I - a v_j M) - 2 a v_j v_l X diag(z_j z_l) X^T
        //   dF_wj/dv_l = -[j=l] a M w_j - a v_j X (z_j z_l^2)
        //   dF_vj/dw_l = -[j=l] 2 b M w_j - 2 b v_l X (z_l z_j^2)
        //   dF_vj/dv_l = [j=l] - b sum_i z_li^2 z_ji^2
        // Batched (the same enclosures as block by block, fewer and larger mid-rad products): for every t the
        // vector r o z_t (M w_j = X (r o z_t)); for every unordered pair t <= u the products zz = z_t z_u,
        // z_t z_u^2 and z_u z_t^2 (P_tu = X diag(zz) X^T = P_ut, and the v-columns of both (t,u) and (u,t)).
        const int pairs = ka * (ka + 1) / 2;
        std::vector<int> pair_index(static_cast<std::size_t>(ka * ka));
        IMatrixD ZZ(n, pairs), ZC(n, ka + 2 * pairs);  // ZC: r o z_t, then z_t z_u^2, z_u z_t^2 per pair
        std::vector<IntervalD> s4(static_cast<std::size_t>(pairs));
        for (int t = 0; t < ka; ++t)
            for (int i = 0; i < n; ++i) ZC(i, t) = r_(i) * Z_(t, i);
        for (int t = 0, p = 0; t < ka; ++t)
            for (int u = t; u < ka; ++u, ++p) {
                pair_index[static_cast<std::size_t>(t * ka + u)] = pair_index[static_cast<std::size_t>(u * ka + t)] = p;
                IntervalD acc(0);
                for (int i = 0; i < n; ++i) {
                    const IntervalD zz = Z_(t, i) * Z_(u, i);
                    ZZ(i, p) = zz;
                    ZC(i, ka + 2 * p) = zz * Z_(u, i);
                    ZC(i, ka + 2 * p + 1) = zz * Z_(t, i);
                    acc = acc + sqr(zz);
                }
                s4[static_cast<std::size_t>(p)] = acc;
            }
        const IMatrixD XZC = linalg::mul_midrad(Xe_, ZC);                                   // d x (ka + 2 pairs)
        const std::vector<IMatrixD> Pall = K_.grams(ZZ);  // X diag(z_t z_u) X^T per pair
        // Vectorized d x d blocks (Jacobian header formulas), each entry one mid-rad dot of length <= 3:
        //   diagonal block t: [1, M_kq, P_tt,kq] . [[k=q], -a v_j, -2 a v_j^2];   off-diagonal: P_tu,kq (-2 a v_j v_l).
        IMatrixD basis(d * d, 2);  // columns vec(I), vec(M)
        for (int k = 0; k < d; ++k)
            for (int q2 = 0; q2 < d; ++q2) {
                basis(k * d + q2, 0) = k == q2 ? one : IntervalD(0);
                basis(k * d + q2, 1) = M_(k, q2);
            }
        IMatrixD J(K, K);
        for (int t = 0; t < ka; ++t) {
            const int j = lohner_[static_cast<std::size_t>(t)], oj = t * (d + 1);
            const IntervalD vj = vhull_(j);
            for (int u = 0; u < ka; ++u) {
                const int l = lohner_[static_cast<std::size_t>(u)], ol = u * (d + 1);
                const IntervalD vl = vhull_(l);
                const int p = pair_index[static_cast<std::size_t>(t * ka + u)];
                const IntervalD c2 = two * a_ * vj * vl;
                IMatrixD cols(d * d, j == l ? 3 : 1), coef(j == l ? 3 : 1, 1);
                if (j == l) {
                    cols.leftCols(2) = basis;
                    coef(0, 0) = one;
                    coef(1, 0) = -(a_ * vj);
                }
                for (int k = 0; k < d; ++k)
                    for (int q2 = 0; q2 < d; ++q2) cols(k * d + q2, cols.cols() - 1) = Pall[static_cast<std::size_t>(p)](k, q2);
                coef(coef.rows() - 1, 0) = -c2;
                const IMatrixD block = linalg::mul_midrad(cols, coef);
                for (int k = 0; k < d; ++k)
                    for (int q2 = 0; q2 < d; ++q2) J(oj + k, ol + q2) = block(k * d + q2, 0);
                // (t,u): X (z_t z_u^2) is column ka + 2p when t <= u, else ka + 2p + 1 (and the mirror for v_l).
                const int col_l = ka + 2 * p + (t <= u ? 0 : 1), col_j = ka + 2 * p + (t <= u ? 1 : 0);
                for (int k = 0; k < d; ++k) {
                    J(oj + k, ol + d) = -(a_ * vj * XZC(k, col_l)) - (j == l ? a_ * XZC(k, t) : IntervalD(0));
                    J(oj + d, ol + k) = -(two * b_ * vl * XZC(k, col_j)) - (j == l ? two * b_ * XZC(k, t) : IntervalD(0));
                    if (options_.test_only_drop_cross_derivatives_UNSOUND)
                        J(oj + k, ol + d) = J(oj + d, ol + k) = IntervalD(0);
                }
                J(oj + d, ol + d) = (j == l ? one : IntervalD(0)) - b_ * s4[static_cast<std::size_t>(p)];
            }
        }
        const IMatrixD A = linalg::mul_midrad(J, frame_.B);
        const Eigen::VectorXd centre_new = linalg::mid<IntervalD>(Fc);
        const linalg::QrResult<IntervalD> qr = linalg::orthogonal_basis<IntervalD>(linalg::mid<IntervalD>(A));
        if (qr.status != ProofStatus::proven) {
            reason_ = "Q^{-1} of the Lohner frame not proven (" + qr.reason + ")";
            return GdStepStatus::failed;
        }
        const IMatrixD C = linalg::mul_midrad(qr.Q_inverse, A);
        IVectorD rest(K);
        for (int k = 0; k < K; ++k) rest(k) = Fc(k) - IntervalD::exact(centre_new(k));
        const IMatrixD restM = rest, qM = frame_.q;
        const IVectorD qn = linalg::mul_midrad(C, qM).col(0) + linalg::mul_midrad(qr.Q_inverse, restM).col(0);
        if (!all_finite(qn)) {
            reason_ = "the Lohner box became unbounded at step " + std::to_string(iteration_ + 1);
            return GdStepStatus::failed;
        }
        // The mean-value form above needs DF over the segment from the centre to every point, i.e. the centre
        // inside the hull: q contains 0 (true initially, q = s - mid(s), and kept by q' = C q + Q^{-1}(F^ - mid F^)
        // because both terms contain 0); checked, never assumed.
        for (int k = 0; k < K; ++k)
            if (!possibly_zero(qn(k))) {
                reason_ = "the Lohner box lost the centre at step " + std::to_string(iteration_ + 1);
                return GdStepStatus::failed;
            }
        frame_.centre = centre_new;
        frame_.B = qr.Q_double;
        frame_.q = qn;
    }
    Wbox_ = Wnew;
    vbox_ = vnew;
    ++iteration_;
    // Promote box neurons that became large (decided on midpoints; any decision is sound).
    for (int j = 0; j < m; ++j) {
        if (is_lohner_[static_cast<std::size_t>(j)]) continue;
        double s2 = mid(vbox_(j)) * mid(vbox_(j));
        for (int k = 0; k < d; ++k) s2 += mid(Wbox_(j, k)) * mid(Wbox_(j, k));
        if (std::sqrt(s2) > options_.promote_norm) promote(j);
    }
    evaluate();
    if (!is_bounded(loss_)) {
        reason_ = "the loss enclosure became unbounded at step " + std::to_string(iteration_);
        return GdStepStatus::failed;
    }
    return GdStepStatus::ok;
}

double square_net_gd_step_double(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double c, double h,
                                 Eigen::MatrixXd& W, Eigen::VectorXd& v) {
    const Eigen::MatrixXd Z = W * X;
    const Eigen::VectorXd r = Z.array().square().matrix().transpose() * v - y;
    const Eigen::MatrixXd M = X * r.asDiagonal() * X.transpose();
    const Eigen::MatrixXd G = W * M;
    const Eigen::VectorXd q = W.cwiseProduct(G).rowwise().sum();
    W -= (4 * c * h * v).asDiagonal() * G;
    v -= 2 * c * h * q;
    return c * r.squaredNorm();
}

}  // namespace flowcert::nets
