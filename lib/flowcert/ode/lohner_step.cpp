// flowcert/ode/lohner_step.cpp -- one validated Taylor/Lohner step and one hull step (see
// lohner_step.hpp and docs/integrator.md, "Method").
#include "lohner_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace flowcert::ode::detail {

Status from_eval(taylor::EvalStatus s) {
    switch (s) {
        case taylor::EvalStatus::ok: return Status::ok;
        case taylor::EvalStatus::relu_kink: return Status::relu_kink;
        case taylor::EvalStatus::domain_error: return Status::domain_error;
        case taylor::EvalStatus::non_finite: return Status::non_finite;
    }
    return Status::non_finite;
}

// Column j is scaled by weight_j / ||M_j|| so the column pivoting of linalg::orthogonal_basis
// follows the weights.
template <Interval I>
void lohner_basis(Eigen::MatrixXd M, const std::vector<double>& weight, long bits, Mat<I>& Q, Mat<I>& Qinv) {
    const Eigen::Index n = M.rows();
    for (Eigen::Index j = 0; j < n; ++j) {
        const double norm = M.col(j).norm();
        // a floor keeps zero-width columns (a point initial set) in the factorization
        if (norm > 0) M.col(j) *= std::max(weight[j] / norm, 1e-200);
    }
    auto qr = linalg::orthogonal_basis<I>(M, bits);
    if (qr.status == ProofStatus::proven) {
        Q = std::move(qr.Q);
        Qinv = std::move(qr.Q_inverse);
    } else {
        Q = linalg::identity<I>(n, bits);
        Qinv = Q;
    }
}

template <Interval I>
StepKernel<I>::StepKernel(const taylor::VectorField& f, const std::vector<I>& params, const Options& opt, long bits)
    : opt_(opt), bits_(bits), n_(f.dimension()), p_(opt.order), ec_(f, params, bits), ex_(f, params, bits),
      ej_(f, params, bits), ey_(f, params, bits), eh_(f, params, bits), names_(f.variables()) {
    eh_.set_kink_hull(true);
    q_ = opt.jacobian_order > 0 ? std::min(opt.jacobian_order, p_) : p_;
    if (opt.c1) q_ = p_;  // the C^1 result needs the full DT_p
    zero_ = IntervalTraits<I>::from_integer(0, bits);
    one_ = IntervalTraits<I>::from_integer(1, bits);
    tol_ = opt.tolerance > 0 ? opt.tolerance : std::ldexp(1.0, -static_cast<int>(std::min(bits, 1000L))) / 100;
    if constexpr (std::is_same_v<I, IntervalD>) {
        dd_.emplace(f, params);
        if (!dd_->supported()) dd_.reset();
    }
}

template <Interval I>
Outcome StepKernel<I>::coefficients(const Vec<I>& c, const Vec<I>& X, bool allow_dd, bool& kink,
                                    std::string& kink_reason) {
    kink = false;
    use_dd_ = false;
    if constexpr (std::is_same_v<I, IntervalD>) {
        if (dd_ && allow_dd) {
            cd_.resize(n_);
            bool point = true;
            for (int i = 0; i < n_; ++i) {
                cd_[i] = c[i].lower();
                point = point && c[i].lower() == c[i].upper();
            }
            use_dd_ = point && dd_->compute(cd_, p_);
        }
    }
    auto smooth = [&](const taylor::EvalResult& r, const char* where) -> std::optional<Outcome> {
        if (r.ok()) return std::nullopt;
        if (r.status == taylor::EvalStatus::relu_kink && !opt_.c1) {
            kink = true;
            kink_reason = r.reason;
            return std::nullopt;
        }
        return Outcome{from_eval(r.status), std::string(where) + r.reason};
    };
    if (!use_dd_ || q_ < p_)
        if (auto o = smooth(ec_.compute(span<I>(c), p_), "at the centre of the set: ")) return *o;
    if (!kink)
        if (auto o = smooth(q_ < p_ ? ex_.compute(span<I>(X), p_) : ex_.compute_c1(span<I>(X), p_), "over the set: "))
            return *o;
    if (!kink && q_ < p_)
        if (auto o = smooth(ej_.compute_c1(span<I>(X), q_), "over the set: ")) return *o;
    return {};
}

// The a priori enclosure iteration: `image` computes Z from Y; verified when Z lies strictly
// inside Y; otherwise (search) Y grows to hull(Y, Z), inflated by 4 times the previous inflation.
template <Interval I>
template <class Image>
Outcome StepKernel<I>::enclose(Vec<I>& Y, Vec<I>& Z, std::vector<double>& eps, int iterations, bool search,
                               Image image) {
    for (int it = 0; it < (search ? iterations : 1); ++it) {
        if (Outcome o = image(); !o.ok()) return o;
        bool verified = true;
        for (int i = 0; i < n_; ++i)
            if (!strictly_inside(Z[i], Y[i])) verified = false;
        if (verified) return {};
        if (search)
            for (int i = 0; i < n_; ++i) {
                eps[i] *= 4;
                Y[i] = inflate(hull(Y[i], Z[i]), eps[i]);
            }
    }
    return {Status::no_a_priori_enclosure, ""};
}

template <Interval I>
Outcome StepKernel<I>::a_priori(const I& hI, Vec<I>& Y, Vec<I>& Z, bool search) {
    const int n = n_, p = p_;
    const I H = hull(zero_, hI);
    Vec<I> Y0(n);
    Z.resize(n);
    if (search) Y.resize(n);
    std::vector<double> eps(n);
    for (int i = 0; i < n; ++i) {
        I acc = ex_.coeff(i, p);
        for (int k = p - 1; k >= 0; --k) acc = acc * H + ex_.coeff(i, k);
        Y0[i] = acc;
        if (search) {
            eps[i] = std::max(0.05 * width(acc), 1e2 * opt_.remainder_factor * tol_ * std::max(1.0, mag(acc)));
            Y[i] = inflate(acc, eps[i]);
        }
    }
    const I Hp1 = pow(H, p + 1);
    Outcome o = enclose(Y, Z, eps, 4, search, [&]() -> Outcome {
        auto e = opt_.c1 ? ey_.compute_c1(span<I>(Y), p + 1) : ey_.compute(span<I>(Y), p + 1);
        if (!e.ok()) return {from_eval(e.status), "over the a priori enclosure: " + e.reason};
        for (int i = 0; i < n; ++i) Z[i] = Y0[i] + Hp1 * ey_.coeff(i, p + 1);
        return {};
    });
    if (o.status == Status::no_a_priori_enclosure)
        o.reason = "the high-order enclosure test failed for h = " + format_g(upper(hI));
    return o;
}

template <Interval I>
Outcome StepKernel<I>::remainder(const I& hI, const Vec<I>& X, Vec<I>& rem, bool check_tolerance) const {
    const int n = n_, p = p_;
    const I hp1 = pow(hI, p + 1);
    rem.resize(n);
    double worst = 0;  // the largest ratio remainder / allowed
    int worst_i = 0;
    for (int i = 0; i < n; ++i) {
        rem[i] = hp1 * ey_.coeff(i, p + 1);
        if (!is_bounded(rem[i])) return {Status::non_finite, "the remainder is not finite"};
        const double q = mag(rem[i]) / (opt_.remainder_factor * tol_ * std::max(1.0, mag(X[i])));
        if (!(q <= worst)) {
            worst = std::isfinite(q) ? q : 1e300;
            worst_i = i;
        }
    }
    if (check_tolerance && worst > 1) {
        const double allowed = opt_.remainder_factor * tol_ * std::max(1.0, mag(X[worst_i]));
        // it scales as h^{p+1} (the a priori set shrinks too, so this is a safe guess)
        const double shrink = std::clamp(0.9 * std::pow(worst, -1.0 / (p + 1)), 0.1, 0.9);
        return {Status::remainder_too_wide,
                "the Lagrange remainder of " + names_[worst_i] + " is " + format_g(mag(rem[worst_i])) + " > " +
                    format_g(allowed) + " at h = " + format_g(upper(hI)),
                shrink};
    }
    return {};
}

template <Interval I>
Outcome StepKernel<I>::smooth_image(const I& hI, const LohnerSet<I>& S, const Vec<I>& rem, SmoothImage<I>& out) {
    const int n = n_, p = p_, q = q_;
    // Taylor polynomial at the centre and its Jacobian over X (Horner in h). With q < p:
    // T_p(x0) - T_p(c) = [T_q(x0) - T_q(c)] + sum_{k>q} h^k (x_k(x0) - x_k(c)), the first by the
    // mean value theorem (DT_q over X), the second enclosed by x_k(X) - x_k(c).
    const taylor::TaylorEvaluator<I>& ej = q < p ? ej_ : ex_;
    // The new centre is c' = mid(y) and z = y - c'. With the double-double centre (IntervalD,
    // polynomial fields), T_p(c,h) = hi + lo +- r and c' = hi, so z = [lo - r, lo + r] + remainder:
    // the centre's rounding error stays ~u^2 |y| instead of tens of ulps of |y| per step.
    Vec<I> y(n), c_new(n), z(n);
    const I hq1 = pow(hI, q + 1);
    bool dd_done = false;
    if constexpr (std::is_same_v<I, IntervalD>) {
        DD hd, yd;
        if (use_dd_ && dd_from_interval(hI, hd)) {
            dd_done = true;
            for (int i = 0; i < n && dd_done; ++i) {
                if (!dd_->taylor_sum(i, hd, yd)) {
                    dd_done = false;
                    break;
                }
                c_new[i] = IntervalD::exact(yd.hi);
                z[i] = dd_to_interval(DD{0.0, yd.lo, yd.r}) + rem[i];
            }
        }
    }
    if (use_dd_ && !dd_done && q == p) {  // a guard failed: interval coefficients after all
        use_dd_ = false;
        auto r = ec_.compute(span<I>(S.c), p_);
        if (!r.ok()) return {from_eval(r.status), "at the centre of the set: " + r.reason};
    }
    for (int i = 0; i < n; ++i) {
        if (!dd_done) {
            I acc = ec_.coeff(i, p);
            for (int k = p - 1; k >= 0; --k) acc = acc * hI + ec_.coeff(i, k);
            y[i] = acc + rem[i];
        }
        if (q < p) {
            I tail = ex_.coeff(i, p) - ec_.coeff(i, p);
            for (int k = p - 1; k > q; --k) tail = tail * hI + (ex_.coeff(i, k) - ec_.coeff(i, k));
            if (dd_done) z[i] += tail * hq1;
            else y[i] += tail * hq1;
        }
        if (!dd_done) {
            c_new[i] = point_mid(y[i]);
            z[i] = y[i] - c_new[i];
        }
    }
    Mat<I> J = Mat<I>::Constant(n, n, zero_);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            I acc = ej.dcoeff(i, q, j);
            for (int k = q - 1; k >= 0; --k) acc = acc * hI + ej.dcoeff(i, k, j);
            J(i, j) = acc;
        }
    out.JC = linalg::mul(J, S.C);
    out.JB = linalg::mul(J, S.B);
    out.J = std::move(J);
    out.centre = std::move(c_new);
    out.z = std::move(z);
    out.centre_dd = dd_done;
    return {};
}

template <Interval I>
void StepKernel<I>::choose_representation(const SmoothImage<I>& img, const Vec<I>& R, Mat<I>& C1, Mat<I>& B1,
                                          Mat<I>& B1inv) const {
    C1 = img.JC;
    for (Eigen::Index e = 0; e < C1.size(); ++e) C1.data()[e] = point_mid(img.JC.data()[e]);
    const Eigen::MatrixXd A = linalg::mid(img.JB);
    std::vector<double> weight(n_, 0.0);
    for (int j = 0; j < n_; ++j) weight[j] = A.col(j).norm() * width(R[j]);
    lohner_basis<I>(A, weight, bits_, B1, B1inv);
}

template <Interval I>
Outcome StepKernel<I>::represent(const SmoothImage<I>& img, const Vec<I>& R0, const Vec<I>& R, Vec<I> c1, Mat<I> C1,
                                 Mat<I> B1, Mat<I> B1inv, LohnerSet<I>& out) const {
    // [Lohner 1987]: x(h) in c1 + C1 r0 + B1 r', r' in (B1^{-1} JB) r + B1^{-1}((centre - c1) + z + (JC - C1) r0).
    Mat<I> dC = img.JC;
    for (Eigen::Index e = 0; e < dC.size(); ++e) dC.data()[e] = img.JC.data()[e] - C1.data()[e];
    Vec<I> err = img.z;
    for (int i = 0; i < n_; ++i) err[i] += img.centre[i] - c1[i];  // exactly 0 for the integrator's own c1
    err += linalg::mul(dC, R0);
    Vec<I> R_new = linalg::mul(linalg::mul(B1inv, img.JB), R);
    R_new += linalg::mul(B1inv, err);
    for (int i = 0; i < n_; ++i)
        if (!is_bounded(R_new[i]) || !is_bounded(c1[i])) return {Status::non_finite, "the new set is not finite"};
    out.c = std::move(c1);
    out.C = std::move(C1);
    out.B = std::move(B1);
    out.Binv = std::move(B1inv);
    out.R = std::move(R_new);
    return {};
}

template <Interval I>
void StepKernel<I>::pieces(const I& t, const I& hI, const Vec<I>& Z, int m, std::vector<TubePiece<I>>& out) const {
    m = std::max(1, m);
    for (int j = 0; j < m; ++j) {
        const I a = hI * IntervalTraits<I>::from_integer(j, bits_) / IntervalTraits<I>::from_integer(m, bits_);
        const I b = j + 1 == m ? hI
                               : hI * IntervalTraits<I>::from_integer(j + 1, bits_) /
                                     IntervalTraits<I>::from_integer(m, bits_);
        const I T = hull(a, b);
        std::vector<I> box(n_);
        for (int i = 0; i < n_; ++i) {
            I acc = ey_.coeff(i, p_ + 1) * T;
            for (int k = p_; k >= 0; --k) acc = (acc + ex_.coeff(i, k)) * (k > 0 ? T : one_);
            I tight;
            box[i] = intersect(acc, Z[i], tight) ? tight : Z[i];
        }
        out.push_back(TubePiece<I>{t + a, t + b, std::move(box)});
    }
}

template <Interval I>
Outcome StepKernel<I>::hull_a_priori(const I& hI, const Vec<I>& X, Vec<I>& Y, Vec<I>& Z, Vec<I>& F, bool search) {
    const int n = n_;
    const I H = hull(zero_, hI);
    Z.resize(n);
    F.resize(n);
    std::vector<double> eps(n);
    if (search) {
        auto r = eh_.compute(span<I>(X), 1);
        if (!r.ok()) return {from_eval(r.status), "a hull step over the set: " + r.reason};
        Y.resize(n);
        for (int i = 0; i < n; ++i) {
            Z[i] = X[i] + H * eh_.coeff(i, 1);
            eps[i] = std::max(0.05 * width(Z[i]), 1e2 * opt_.remainder_factor * tol_ * std::max(1.0, mag(Z[i])));
            Y[i] = inflate(Z[i], eps[i]);
        }
    }
    Outcome o = enclose(Y, Z, eps, 6, search, [&]() -> Outcome {
        auto e = eh_.compute(span<I>(Y), 2);  // order 2: the nodes' d/dt (coefficient 1) too
        if (!e.ok()) return {from_eval(e.status), "a hull step over its a priori enclosure: " + e.reason};
        for (int i = 0; i < n; ++i) {
            F[i] = eh_.coeff(i, 1);
            Z[i] = X[i] + H * F[i];
        }
        return {};
    });
    if (o.status == Status::no_a_priori_enclosure)
        o.reason = "the hull step's enclosure test failed for h = " + format_g(upper(hI));
    return o;
}

template <Interval I>
Outcome StepKernel<I>::hull_update(const I& hI, const Vec<I>& F, const LohnerSet<I>& S, const Vec<I>& c1,
                                   LohnerSet<I>& out) const {
    // the doubleton keeps its shape: c + C r0 + B r + h f(Y) = c1 + C r0 + B (r + B^{-1} z)
    Vec<I> z(n_);
    for (int i = 0; i < n_; ++i) z[i] = (S.c[i] + hI * F[i]) - c1[i];
    out = S;
    out.c = c1;
    out.R += linalg::mul(S.Binv, z);
    for (int i = 0; i < n_; ++i)
        if (!is_bounded(out.R[i]) || !is_bounded(out.c[i])) return {Status::non_finite, "the new set is not finite"};
    return {};
}

template <Interval I>
double StepKernel<I>::centre_mag(int i, int k) const {
    if constexpr (std::is_same_v<I, IntervalD>)
        if (use_dd_) return dd_mag(dd_->coeff(i, k));
    return mag(ec_.coeff(i, k));
}

template void lohner_basis<IntervalD>(Eigen::MatrixXd, const std::vector<double>&, long, Mat<IntervalD>&,
                                      Mat<IntervalD>&);
template void lohner_basis<IntervalMp>(Eigen::MatrixXd, const std::vector<double>&, long, Mat<IntervalMp>&,
                                       Mat<IntervalMp>&);
template class StepKernel<IntervalD>;
template class StepKernel<IntervalMp>;

}  // namespace flowcert::ode::detail
